"""Staff accounts: roles, passwords, one-time links (invitation, reset), disabling."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import update
from sqlmodel import Session, col, func, select
from werkzeug.security import check_password_hash, generate_password_hash

from organizer.accounts import sessions
from organizer.core import text
from organizer.core.errors import InputError
from organizer.core.guard import lock, lock_all
from organizer.core.models import ROLES, AccountLink, Organizer, Role, utcnow
from organizer.core.translate import _, ngettext

MIN_PASSWORD_LENGTH = 8
MAX_NAME = 80
#: "argon2" (argon2-cffi's defaults, RFC 9106's second recommendation); the test suites swap in
#: a cheap werkzeug method ("pbkdf2:sha256:1000") to stay fast
HASH_METHOD = "argon2"
LINK_LIFETIME = timedelta(days=1)
_ARGON2 = PasswordHasher()
_dummy_hashes: dict[str, str] = {}


class SignInRefused(ValueError):
    """Wrong name or password, a disabled account, or a wait still running."""

    def __init__(self, message: str, retry_after: int | None = None, throttled: bool = False) -> None:
        super().__init__(message)
        #: seconds until the next attempt is heard (None: try again at once)
        self.retry_after = retry_after
        #: refused unheard because of too many failures (the page answers 429)
        self.throttled = throttled


class LinkRefused(ValueError):
    """A one-time link that is unknown, used, replaced or older than a day."""


# --- passwords ---------------------------------------------------------------------------


def hash_password(password: str) -> str:
    if HASH_METHOD == "argon2":
        return _ARGON2.hash(password)
    return generate_password_hash(password, method=HASH_METHOD)


def verify_password(hashed: str, password: str) -> bool:
    """argon2 hashes, and werkzeug's (scrypt, pbkdf2) that older accounts still hold; an empty hash (an
    invitation not yet accepted) matches nothing."""
    if not hashed:
        return False
    if hashed.startswith("$argon2"):
        try:
            return _ARGON2.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False
    return check_password_hash(hashed, password)


def needs_rehash(hashed: str) -> bool:
    if HASH_METHOD == "argon2":
        return not hashed.startswith("$argon2") or _ARGON2.check_needs_rehash(hashed)
    return not hashed.startswith(HASH_METHOD + "$")


def dummy_hash() -> str:
    """A wrong name costs as much time as a wrong password, so timing reveals no account names."""
    if HASH_METHOD not in _dummy_hashes:
        _dummy_hashes[HASH_METHOD] = hash_password("not-a-real-password")
    return _dummy_hashes[HASH_METHOD]


# --- accounts ----------------------------------------------------------------------------


def organizer_count(session: Session) -> int:
    return int(session.exec(select(func.count()).select_from(Organizer)).one())


def name_key(name: str) -> str:
    """What a typed account name is matched by: the name up to case (full Unicode case folding:
    "ÉMILE" is "Émile", "STRASSE" is "Straße"), width and spacing. Folded in Python and compared
    with the stored ``Organizer.name_key``, so SQLite and PostgreSQL find the same account; the
    sign-in throttle counts failures under the same key."""
    return text.name_key(text.clean_name(name))


def find_by_name(session: Session, name: str) -> Organizer | None:
    key = name_key(name)
    return session.exec(select(Organizer).where(Organizer.name_key == key)).first() if key else None


def all_accounts(session: Session) -> list[Organizer]:
    return list(session.exec(select(Organizer).order_by(col(Organizer.name))).all())


def parse_role(raw: str) -> Role:
    try:
        return Role(raw.strip().lower())
    except ValueError:
        raise InputError({"role": _("Choose one of: %(roles)s.", roles=", ".join(ROLES))}) from None


def _validate_name(session: Session, name: str, errors: dict[str, str]) -> str:
    name = text.clean_name(name)
    problem = text.name_problem(name, MAX_NAME, _("Enter a name to sign in with."))
    if problem is not None:
        errors["name"] = problem
    elif find_by_name(session, name) is not None:
        errors["name"] = _("An account called “%(name)s” already exists.", name=name)
    return name


def _password_problem(password: str, confirm: str | None, min_length: int) -> tuple[str, str] | None:
    if len(password) < min_length:
        return "password", ngettext("Use a password of at least %(num)d character.",
                                    "Use a password of at least %(num)d characters.", min_length)
    if confirm is not None and confirm != password:
        return "confirm", _("The two passwords differ.")
    return None


def validate_new_account(session: Session, name: str, password: str, confirm: str | None = None,
                         min_length: int = MIN_PASSWORD_LENGTH) -> str:
    errors: dict[str, str] = {}
    name = _validate_name(session, name, errors)
    problem = _password_problem(password, confirm, min_length)
    if problem is not None:
        errors[problem[0]] = problem[1]
    if errors:
        raise InputError(errors)
    return name


def create_organizer(session: Session, name: str, password: str, confirm: str | None = None,
                     min_length: int = MIN_PASSWORD_LENGTH, role: Role | None = None) -> Organizer:
    """An account with a password. Without a role, the first account of the installation is its
    owner and later ones are organizers."""
    name = validate_new_account(session, name, password, confirm, min_length)
    if role is None:
        role = Role.OWNER if organizer_count(session) == 0 else Role.ORGANIZER
    organizer = Organizer(name=name, password_hash=hash_password(password), role=role)
    session.add(organizer)
    session.commit()
    session.refresh(organizer)
    return organizer


def _spend_links(session: Session, account: Organizer) -> None:
    """Every unused one-time link of the account stops working: a link belongs to the account's
    credentials as they were when it was made, and a new password, a disabling or an enabling
    replaces those (call inside the change's transaction)."""
    session.execute(update(AccountLink).where(col(AccountLink.organizer_id) == account.id,
                                              col(AccountLink.used_at).is_(None)).values(used_at=utcnow()))


def set_password(session: Session, organizer: Organizer, password: str, keep_session: int | None = None) -> None:
    """A new password ends every session of the account (but ``keep_session``, the one that
    changed it) and every unused link to set one, so whoever had a copied cookie, a stolen
    password or an old reset link is out."""
    organizer.password_hash = hash_password(password)
    session.add(organizer)
    sessions.end_all(session, organizer, except_id=keep_session, commit=False)
    _spend_links(session, organizer)
    session.commit()


def change_password(session: Session, organizer: Organizer, current: str, password: str, confirm: str,
                    keep_session: int | None = None) -> None:
    """The account's own password, after proving the current one; its other sessions end."""
    errors: dict[str, str] = {}
    if not verify_password(organizer.password_hash, current):
        errors["current"] = _("That is not your current password.")
    problem = _password_problem(password, confirm, MIN_PASSWORD_LENGTH)
    if problem is not None:
        errors["new_" + problem[0]] = problem[1]
    if errors:
        raise InputError(errors)
    set_password(session, organizer, password, keep_session=keep_session)


def active_owners(session: Session) -> int:
    return int(session.exec(select(func.count()).select_from(Organizer).where(
        Organizer.role == Role.OWNER, col(Organizer.disabled_at).is_(None))).one())


def _locked_for_owner_rule(session: Session, account: Organizer) -> Organizer:
    """``account`` as committed now, with every enabled owner's row locked first (in id order):
    a demotion or a disabling checks "another owner stays" and writes under these locks, so two
    owners demoting or disabling each other at once are served one after the other and the
    second is refused."""
    lock_all(session, Organizer, Organizer.role == Role.OWNER, col(Organizer.disabled_at).is_(None))
    current = lock(session, Organizer, account.id)
    if current is None:
        session.rollback()
        raise InputError({"account": _("That account does not exist.")})
    return current


def _not_the_last_owner(session: Session, account: Organizer, field: str) -> None:
    """Call with the owners locked (:func:`_locked_for_owner_rule`)."""
    if account.role == Role.OWNER and account.disabled_at is None and active_owners(session) <= 1:
        session.rollback()
        raise InputError({field: _("This is the only owner left: make another account an owner first.")})


def set_role(session: Session, account: Organizer, role: Role) -> None:
    account = _locked_for_owner_rule(session, account)
    if role != Role.OWNER:
        _not_the_last_owner(session, account, "role")
    account.role = role
    session.add(account)
    session.commit()


def disable(session: Session, account: Organizer) -> None:
    """The account can no longer sign in and its sessions end at once; the row (and its name in
    every audit log) stays."""
    account = _locked_for_owner_rule(session, account)
    if account.disabled_at is not None:
        session.rollback()
        return
    _not_the_last_owner(session, account, "account")
    account.disabled_at = utcnow()
    session.add(account)
    sessions.end_all(session, account, commit=False)
    _spend_links(session, account)
    session.commit()


def enable(session: Session, account: Organizer) -> None:
    """The account may sign in again with its password; links made before stay spent (an owner
    makes a new one when needed)."""
    if account.disabled_at is not None:
        _spend_links(session, account)
    account.disabled_at = None
    session.add(account)
    session.commit()


# --- one-time links ----------------------------------------------------------------------


@dataclass(frozen=True)
class IssuedLink:
    account: Organizer
    token: str  # shown once; only its hash is stored
    purpose: str
    expires_at: datetime


def _issue_link(session: Session, account: Organizer, purpose: str, actor: str) -> IssuedLink:
    """A new link replaces any unused earlier one for the account."""
    now = utcnow()
    assert account.id is not None
    for old in session.exec(select(AccountLink).where(AccountLink.organizer_id == account.id,
                                                      col(AccountLink.used_at).is_(None))).all():
        old.used_at = now
        session.add(old)
    token = secrets.token_urlsafe(32)
    link = AccountLink(token_hash=sessions.token_hash(token), organizer_id=account.id, purpose=purpose,
                       created_by=actor[:120], created_at=now, expires_at=now + LINK_LIFETIME)
    session.add(link)
    session.commit()
    return IssuedLink(account, token, purpose, link.expires_at)


def invite(session: Session, name: str, role: Role, actor: str) -> IssuedLink:
    """A new account without a password, and the link (valid a day) that lets its person set one."""
    errors: dict[str, str] = {}
    name = _validate_name(session, name, errors)
    if errors:
        raise InputError(errors)
    account = Organizer(name=name, password_hash="", role=role)
    session.add(account)
    session.flush()
    return _issue_link(session, account, "invite", actor)


def reset_link(session: Session, account: Organizer, actor: str) -> IssuedLink:
    """For a forgotten password: the link sets a new one (the old one keeps working until then)."""
    return _issue_link(session, account, "reset", actor)


def _usable_link(session: Session, token: str) -> AccountLink:
    link = session.exec(select(AccountLink).where(AccountLink.token_hash == sessions.token_hash(token))).first()
    if link is None or link.used_at is not None:
        raise LinkRefused(_("This link was already used or replaced by a newer one. Ask an owner for a new link."))
    if sessions.aware(link.expires_at) < utcnow():
        raise LinkRefused(_("This link is more than a day old. Ask an owner for a new link."))
    return link


def link_account(session: Session, token: str) -> tuple[Organizer, str]:
    """The account a usable link is for, and the link's purpose."""
    link = _usable_link(session, token)
    account = session.get(Organizer, link.organizer_id)
    if account is None or account.disabled_at is not None:
        raise LinkRefused(_("This account is disabled. Ask an owner."))
    return account, link.purpose


def use_link(session: Session, token: str, password: str, confirm: str) -> Organizer:
    """Sets the password once: the link is spent, and every session of the account ends."""
    account, _purpose = link_account(session, token)
    link = _usable_link(session, token)
    problem = _password_problem(password, confirm, MIN_PASSWORD_LENGTH)
    if problem is not None:
        raise InputError({problem[0]: problem[1]})
    # Spend the link with a conditional UPDATE first: two browsers sending it at once cannot
    # both set a password.
    spent = session.execute(update(AccountLink).where(col(AccountLink.id) == link.id, col(AccountLink.used_at).is_(None))
                            .values(used_at=utcnow()))
    if spent.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise LinkRefused(_("This link was already used. Ask an owner for a new link."))
    set_password(session, account, password)
    return account
