"""Sign-in that slows guessing and never lets a stranger lock the real person out.

Failures are rows in the database, so every worker and server sees the same counts:

- a *known device* (it signed in to that name before and holds the signed device cookie, as in
  OWASP's "device cookies"): only its own failures count;
- a browser the name never signed in from: per (name, address). Only that pair is ever refused,
  so an address that has not failed at a name always has its password checked: a guesser, however
  many addresses they use, cannot keep the person out of a new browser elsewhere, and a flood of
  failures from a venue's shared address does not refuse the other people there.
- The counts over all addresses (one name guessed from many) and over all names (one address
  spraying many) never refuse by themselves: past their loose limit they put the name or the
  address *under pressure*, where each (name, address) pair gets fewer tries before the longest
  wait, so spreading guesses over addresses or names buys little.
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
    #: the loose counts (address over all names, name over all addresses) put their name or
    #: address under pressure past this many times ``free_failures``
    loose_factor: int = 10
    #: under pressure, the tries a (name, address) pair gets before the longest wait
    pressed_free: int = 2


def wait_after(failures: int, free: int, throttle: Throttle) -> timedelta:
    """How long a key waits after its latest failure: nothing for the free ones, then 15 s,
    30 s, 1 min, 2 min... up to 15 minutes."""
    if failures <= free:
        return timedelta(0)
    wait: timedelta = throttle.first_wait * (2 ** min(failures - free - 1, 20))
    return min(wait, throttle.longest_wait)


def _count(session: Session, condition: ColumnElement[bool], throttle: Throttle,
           now: datetime) -> tuple[int, datetime | None]:
    count, last = session.exec(select(func.count(), func.max(SignInAttempt.at))
                               .where(condition, SignInAttempt.at >= now - throttle.window)).one()
    return int(count or 0), (sessions.aware(last) if last is not None else None)


def _remaining(last: datetime | None, wait: timedelta, now: datetime) -> timedelta:
    if last is None:
        return timedelta(0)
    return max(last + wait - now, timedelta(0))


def under_pressure(session: Session, name_key: str, client: str, throttle: Throttle,
                   now: datetime | None = None) -> bool:
    """Whether the name is being guessed from many addresses, or the address is guessing many
    names, past the loose limit (failures of unknown browsers only)."""
    now = now or utcnow()
    unknown = col(SignInAttempt.device) == ""
    loose = throttle.free_failures * throttle.loose_factor
    return (_count(session, unknown & (col(SignInAttempt.name) == name_key), throttle, now)[0] > loose
            or _count(session, unknown & (col(SignInAttempt.client) == client), throttle, now)[0] > loose)


def current_wait(session: Session, name_key: str, client: str, device: str | None, throttle: Throttle,
                 now: datetime | None = None) -> timedelta:
    now = now or utcnow()
    if device:
        count, last = _count(session, col(SignInAttempt.device) == device, throttle, now)
        return _remaining(last, wait_after(count, throttle.free_failures, throttle), now)
    count, last = _count(session, (col(SignInAttempt.device) == "") & (col(SignInAttempt.name) == name_key)
                         & (col(SignInAttempt.client) == client), throttle, now)
    if count == 0:
        # An address that never failed at this name is always heard: nothing anyone does
        # elsewhere, or with other names, refuses its first try.
        return timedelta(0)
    if under_pressure(session, name_key, client, throttle, now):
        free = min(throttle.pressed_free, throttle.free_failures)
        return _remaining(last, throttle.longest_wait if count >= free else timedelta(0), now)
    return _remaining(last, wait_after(count, throttle.free_failures, throttle), now)


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
