"""Signed-in sessions kept on the server: a browser's cookie holds only a random
token; the row says whose it is, from which device, when it was last used and whether it ended.
Ending the row ends the session wherever the cookie was copied to."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, col, select

from organizer.core.models import AccountSession, Organizer, Role, utcnow

#: Idle limits. A judge's tablet is shared and left on tables, and gets lost: it signs itself
#: out after 4 idle hours (longer than a round and the break after it, so a judge is not signed
#: out mid-event, short enough that a tablet forgotten at the venue is useless by the evening),
#: and after 24 hours in any case (one event day). An organizer's or owner's own laptop keeps
#: its session over an event weekend: 3 idle days, 30 days at most.
IDLE_LIMITS: dict[str, timedelta] = {Role.JUDGE: timedelta(hours=4), Role.ORGANIZER: timedelta(days=3),
                                     Role.OWNER: timedelta(days=3)}
LIFETIMES: dict[str, timedelta] = {Role.JUDGE: timedelta(hours=24), Role.ORGANIZER: timedelta(days=30),
                                   Role.OWNER: timedelta(days=30)}
#: last_seen_at is written at most this often: one write a minute, not one a request
TOUCH_EVERY = timedelta(seconds=60)


def aware(moment: datetime) -> datetime:
    """SQLite hands stored times back without their zone; they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def token_hash(token: str) -> str:
    """Session cookies and one-time links are stored only as their SHA-256: a copy of the
    database signs nobody in (the tokens are 32 random bytes, so no salt or slow hash is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def device_name(user_agent: str) -> str:
    """A short name for a browser, e.g. "Firefox on Android", from its User-Agent."""
    agent = user_agent or ""
    browser = next((name for pattern, name in (
        (r"Edg/", "Edge"), (r"OPR/|Opera", "Opera"), (r"Firefox/", "Firefox"), (r"Chrom(e|ium)/", "Chrome"),
        (r"Safari/", "Safari")) if re.search(pattern, agent)), "")
    system = next((name for pattern, name in (
        (r"Android", "Android"), (r"iPad", "iPad"), (r"iPhone", "iPhone"), (r"Windows", "Windows"),
        (r"Mac OS X|Macintosh", "macOS"), (r"CrOS", "ChromeOS"), (r"Linux", "Linux")) if re.search(pattern, agent)), "")
    if browser and system:
        return f"{browser} on {system}"
    return (browser or system or agent[:60] or "unknown device")[:120]


@dataclass(frozen=True)
class Started:
    token: str  # for the cookie; only its hash is stored
    row: AccountSession


def start(session: Session, account: Organizer, user_agent: str) -> Started:
    assert account.id is not None
    now = utcnow()
    token = secrets.token_urlsafe(32)
    row = AccountSession(token_hash=token_hash(token), organizer_id=account.id, device=device_name(user_agent),
                         created_at=now, last_seen_at=now,
                         idle_minutes=int(IDLE_LIMITS[account.role].total_seconds() // 60),
                         expires_at=now + LIFETIMES[account.role])
    session.add(row)
    session.commit()
    session.refresh(row)
    return Started(token, row)


def _live(row: AccountSession, role: str, now: datetime) -> bool:
    """The session is not ended and within the limits of the account's role now (not the role it
    signed in with: an organizer made a judge is held to a judge's limits at the next request).
    The row's ``idle_minutes`` and ``expires_at`` record the limits at sign-in."""
    idle, lifetime = IDLE_LIMITS.get(role, IDLE_LIMITS[Role.JUDGE]), LIFETIMES.get(role, LIFETIMES[Role.JUDGE])
    return (row.ended_at is None and aware(row.created_at) + lifetime > now
            and aware(row.last_seen_at) + idle > now)


def resume(session: Session, token: str) -> tuple[AccountSession, Organizer] | None:
    """The live session and its enabled account for a cookie's token, or None (ended, expired,
    idle too long, unknown, or the account disabled). Marks it seen."""
    if not token:
        return None
    row = session.exec(select(AccountSession).where(AccountSession.token_hash == token_hash(token))).first()
    now = utcnow()
    if row is None:
        return None
    account = session.get(Organizer, row.organizer_id)
    if account is None or account.disabled_at is not None or not _live(row, account.role, now):
        return None
    if now - aware(row.last_seen_at) >= TOUCH_EVERY:
        row.last_seen_at = now
        session.add(row)
        session.commit()
    return row, account


def active(session: Session, account: Organizer) -> list[AccountSession]:
    """The account's live sessions, most recently used first."""
    now = utcnow()
    rows = session.exec(select(AccountSession).where(AccountSession.organizer_id == account.id,
                                                     col(AccountSession.ended_at).is_(None))).all()
    return sorted((row for row in rows if _live(row, account.role, now)), key=lambda row: aware(row.last_seen_at), reverse=True)


def end(session: Session, account: Organizer, session_id: int) -> bool:
    """Ends one of the account's own sessions (False when it is not one of them)."""
    row = session.get(AccountSession, session_id)
    if row is None or row.organizer_id != account.id:
        return False
    if row.ended_at is None:
        row.ended_at = utcnow()
        session.add(row)
        session.commit()
    return True


def end_all(session: Session, account: Organizer, except_id: int | None = None, commit: bool = True) -> int:
    now = utcnow()
    rows = session.exec(select(AccountSession).where(AccountSession.organizer_id == account.id,
                                                     col(AccountSession.ended_at).is_(None))).all()
    ended = 0
    for row in rows:
        if row.id != except_id:
            row.ended_at = now
            session.add(row)
            ended += 1
    if commit:
        session.commit()
    return ended
