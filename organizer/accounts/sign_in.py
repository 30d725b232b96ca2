"""Sign-in that slows guessing without letting a stranger lock the real person out.

Failures are rows in the database, so every worker and server sees the same counts. They are
counted per *key*, and each key gets its own growing wait once its free failures are used up:

- a browser the name never signed in from: per (name, address), and, far more loosely, per
  address over all names and per name over all addresses (spraying and distributed guessing);
- a *known device* (it signed in to that name before and holds the signed device cookie, as in
  OWASP's "device cookies"): only its own failures count. Failures with other names from the
  same venue router, or a stranger guessing this name, never slow it down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, delete
from sqlmodel import Session, col, func, select

from organizer.accounts import service as accounts
from organizer.accounts import sessions
from organizer.core.models import Organizer, SignInAttempt, utcnow
from organizer.core.translate import _, ngettext


@dataclass(frozen=True)
class Throttle:
    #: failures a key may make before the waits begin
    free_failures: int = 3
    #: the first wait; each further failure doubles it, up to ``longest_wait``
    first_wait: timedelta = timedelta(seconds=15)
    longest_wait: timedelta = timedelta(minutes=15)
    #: failures older than this are forgotten
    window: timedelta = timedelta(hours=1)
    #: the loose keys (address over all names, name over all addresses) get this many times
    #: ``free_failures`` before their waits begin
    loose_factor: int = 10


def wait_after(failures: int, free: int, throttle: Throttle) -> timedelta:
    """How long a key waits after its latest failure: nothing for the free ones, then 15 s,
    30 s, 1 min, 2 min... up to 15 minutes."""
    if failures <= free:
        return timedelta(0)
    wait: timedelta = throttle.first_wait * (2 ** min(failures - free - 1, 20))
    return min(wait, throttle.longest_wait)


def _key_wait(session: Session, condition: ColumnElement[bool], free: int, throttle: Throttle,
              now: datetime) -> timedelta:
    count, last = session.exec(select(func.count(), func.max(SignInAttempt.at))
                               .where(condition, SignInAttempt.at >= now - throttle.window)).one()
    if not count or last is None:
        return timedelta(0)
    return max(sessions.aware(last) + wait_after(int(count), free, throttle) - now, timedelta(0))


def current_wait(session: Session, name_key: str, client: str, device: str | None, throttle: Throttle,
                 now: datetime | None = None) -> timedelta:
    now = now or utcnow()
    if device:
        return _key_wait(session, col(SignInAttempt.device) == device, throttle.free_failures, throttle, now)
    unknown = col(SignInAttempt.device) == ""
    loose = throttle.free_failures * throttle.loose_factor
    return max(
        _key_wait(session, unknown & (col(SignInAttempt.name) == name_key) & (col(SignInAttempt.client) == client),
                  throttle.free_failures, throttle, now),
        _key_wait(session, unknown & (col(SignInAttempt.client) == client), loose, throttle, now),
        _key_wait(session, unknown & (col(SignInAttempt.name) == name_key), loose, throttle, now),
    )


def try_again_in(wait: timedelta) -> str:
    """"You may try again in 40 seconds.", in the reader's language."""
    seconds = max(1, math.ceil(wait.total_seconds()))
    if seconds < 90:
        return ngettext("You may try again in %(num)d second.", "You may try again in %(num)d seconds.", seconds)
    return ngettext("You may try again in %(num)d minute.", "You may try again in %(num)d minutes.",
                    math.ceil(seconds / 60))


def _refusal(message: str, wait: timedelta, throttled: bool = False) -> accounts.SignInRefused:
    if wait <= timedelta(0):
        return accounts.SignInRefused(message, throttled=throttled)
    return accounts.SignInRefused(_("%(refusal)s %(wait)s", refusal=message, wait=try_again_in(wait)),
                                  retry_after=math.ceil(wait.total_seconds()), throttled=throttled)


def authenticate(session: Session, name: str, password: str, client: str, device: str | None = None,
                 throttle: Throttle | None = None) -> Organizer:
    """The account for these credentials. ``device`` is the nonce of a valid device cookie for
    this name (None for a browser the name never signed in from). While the key's wait runs,
    nothing is checked, not even a right password: otherwise the wait would slow no guesser."""
    throttle = throttle or Throttle()
    name_key = accounts.name_key(name)[:80]
    client = client[:64]
    wait = current_wait(session, name_key, client, device, throttle)
    if wait > timedelta(0):
        raise _refusal(_("Too many failed sign-ins."), wait, throttled=True)
    account = accounts.find_by_name(session, name)
    hashed = account.password_hash if account is not None and account.password_hash else accounts.dummy_hash()
    # The hash is checked even for an unknown name (against a dummy), so timing tells nothing.
    matches = accounts.verify_password(hashed, password)
    if matches and account is not None and account.password_hash:
        if account.disabled_at is not None:
            raise accounts.SignInRefused(_("This account is disabled. Ask an owner of this installation."))
        _forget_failures(session, name_key, client, device)
        if accounts.needs_rehash(account.password_hash):
            account.password_hash = accounts.hash_password(password)
            session.add(account)
        session.commit()
        return account
    now = utcnow()
    session.add(SignInAttempt(client=client, name=name_key, device=device or "", at=now))
    # Old failures are useless; trimming here keeps the table small without a cron job.
    session.execute(delete(SignInAttempt).where(col(SignInAttempt.at) < now - 2 * throttle.window))
    session.commit()
    raise _refusal(_("Wrong name or password."), current_wait(session, name_key, client, device, throttle, now))


def _forget_failures(session: Session, name_key: str, client: str, device: str | None) -> None:
    """A success clears its own key only: a guesser's failures elsewhere keep their waits."""
    if device:
        session.execute(delete(SignInAttempt).where(col(SignInAttempt.device) == device))
    else:
        session.execute(delete(SignInAttempt).where(col(SignInAttempt.device) == "",
                                                    col(SignInAttempt.name) == name_key,
                                                    col(SignInAttempt.client) == client))
