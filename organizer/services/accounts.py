"""Organizer accounts and sign-in with rate limiting."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, func, select
from werkzeug.security import check_password_hash, generate_password_hash

from ..models import Organizer, SignInAttempt, utcnow
from . import text
from .errors import InputError

MIN_PASSWORD_LENGTH = 8
MAX_NAME = 80
#: werkzeug's default (scrypt); the test suite swaps in a cheaper one to stay fast
HASH_METHOD = "scrypt"
_dummy_hashes: dict[str, str] = {}


def _dummy_hash() -> str:
    """A wrong name costs as much time as a wrong password, so timing reveals no account names."""
    if HASH_METHOD not in _dummy_hashes:
        _dummy_hashes[HASH_METHOD] = generate_password_hash("not-a-real-password", method=HASH_METHOD)
    return _dummy_hashes[HASH_METHOD]


class SignInRefused(ValueError):
    """Wrong name or password, or too many failures lately."""


def organizer_count(session: Session) -> int:
    return int(session.exec(select(func.count()).select_from(Organizer)).one())


def validate_new_account(session: Session, name: str, password: str, confirm: str | None = None,
                         min_length: int = MIN_PASSWORD_LENGTH) -> str:
    name = text.clean_name(name)
    errors: dict[str, str] = {}
    problem = text.name_problem(name, MAX_NAME, "Enter a name to sign in with.")
    if problem is not None:
        errors["name"] = problem
    elif any(text.name_key(other) == text.name_key(name) for other in session.exec(select(Organizer.name)).all()):
        errors["name"] = f"An organizer called {name!r} already exists."
    if len(password) < min_length:
        errors["password"] = f"Use a password of at least {min_length} characters."
    elif confirm is not None and confirm != password:
        errors["confirm"] = "The two passwords differ."
    if errors:
        raise InputError(errors)
    return name


def create_organizer(session: Session, name: str, password: str, confirm: str | None = None,
                     min_length: int = MIN_PASSWORD_LENGTH) -> Organizer:
    name = validate_new_account(session, name, password, confirm, min_length)
    organizer = Organizer(name=name, password_hash=generate_password_hash(password, method=HASH_METHOD))
    session.add(organizer)
    session.commit()
    session.refresh(organizer)
    return organizer


def set_password(session: Session, organizer: Organizer, password: str) -> None:
    organizer.password_hash = generate_password_hash(password, method=HASH_METHOD)
    session.add(organizer)
    session.commit()


def recent_failures(session: Session, client: str, name: str, window: timedelta) -> tuple[int, int]:
    since = utcnow() - window
    by_client = session.exec(
        select(func.count()).select_from(SignInAttempt)
        .where(SignInAttempt.client == client, SignInAttempt.at >= since)
    ).one()
    by_name = session.exec(
        select(func.count()).select_from(SignInAttempt)
        .where(SignInAttempt.name == name.lower(), SignInAttempt.at >= since)
    ).one()
    return int(by_client), int(by_name)


def authenticate(session: Session, name: str, password: str, client: str,
                 max_failures: int = 5, window_minutes: int = 15) -> Organizer:
    """The organizer for these credentials. After ``max_failures`` failed attempts within the
    window for one account name, or four times as many from one client address, every attempt
    is refused until the window has passed, even with the right password."""
    name = text.clean_name(name)
    window = timedelta(minutes=window_minutes)
    by_client, by_name = recent_failures(session, client, name, window)
    if by_name >= max_failures or by_client >= 4 * max_failures:
        raise SignInRefused(f"Too many failed sign-ins. Wait {window_minutes} minutes and try again.")
    organizer = session.exec(select(Organizer).where(func.lower(Organizer.name) == name.lower())).first()
    hashed = organizer.password_hash if organizer else _dummy_hash()
    if check_password_hash(hashed, password) and organizer is not None:
        return organizer
    session.add(SignInAttempt(client=client[:64], name=name.lower()[:80]))
    # Old failures are useless; trimming here keeps the table small without a cron job.
    for old in session.exec(select(SignInAttempt).where(SignInAttempt.at < utcnow() - 4 * window)).all():
        session.delete(old)
    session.commit()
    raise SignInRefused("Wrong name or password.")


def change_password(session: Session, organizer: Organizer, current: str, password: str, confirm: str) -> None:
    """The organizer's own password, after proving the current one."""
    errors: dict[str, str] = {}
    if not check_password_hash(organizer.password_hash, current):
        errors["current"] = "That is not your current password."
    if len(password) < MIN_PASSWORD_LENGTH:
        errors["new_password"] = f"Use a password of at least {MIN_PASSWORD_LENGTH} characters."
    elif confirm != password:
        errors["new_confirm"] = "The two passwords differ."
    if errors:
        raise InputError(errors)
    set_password(session, organizer, password)
