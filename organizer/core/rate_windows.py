"""Counting uses of something per fixed window, in the database, so that every gunicorn worker
and every server behind a load balancer shares one count (practice games per client
address, and the practice store's pruning at most once an hour).

A use is claimed by a conditional UPDATE (``... WHERE used < :limit``, or a reset ``WHERE
started_at <= :window_ago``): the database applies one such statement to the row at a time
(PostgreSQL re-checks the condition on the row a concurrent transaction just changed; SQLite
has one writer), so two processes can never both take the last use of a window."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col

from organizer.core.models import RateWindow, utcnow


@dataclass(frozen=True)
class Claim:
    allowed: bool
    #: when refused: seconds until the window ends and a use is free again
    retry_after: int = 0
    #: when refused: the moment the window ends (a refusal holds until then, whatever else happens)
    ends_at: datetime | None = None


def _refused(ends_at: datetime, now: datetime, window: timedelta) -> Claim:
    # A request that read the clock a moment before a concurrent one started the window sees
    # its end a little more than a window away: never ask anyone to wait longer than a window.
    ends_at = min(ends_at, now + window)
    return Claim(False, max(1, math.ceil((ends_at - now).total_seconds())), ends_at)


def _aware(moment: datetime) -> datetime:
    # SQLite hands stored times back without their zone; they were stored as UTC
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def claim(session: Session, key: str, limit: int, window_seconds: float, now: datetime | None = None) -> Claim:
    """Take one of the ``limit`` uses of ``key`` in the current window of ``window_seconds``
    (a window starts at its first use), committed at once."""
    now = utcnow() if now is None else now
    window = timedelta(seconds=window_seconds)
    key_is: Any = col(RateWindow.key) == key
    seen = session.execute(select(col(RateWindow.started_at), col(RateWindow.used)).where(key_is)).first()
    if seen is not None and _aware(seen[0]) > now - window and seen[1] >= limit:
        # used up: refused by a read alone, so a flood of refused requests writes nothing
        session.commit()
        return _refused(_aware(seen[0]) + window, now, window)
    for _ in range(3):
        reset = session.execute(update(RateWindow).where(key_is, col(RateWindow.started_at) <= now - window)
                                .values(started_at=now, used=1))
        if reset.rowcount == 1:  # type: ignore[attr-defined]
            session.commit()
            return Claim(True)
        counted = session.execute(update(RateWindow).where(key_is, col(RateWindow.used) < limit)
                                  .values(used=col(RateWindow.used) + 1))
        if counted.rowcount == 1:  # type: ignore[attr-defined]
            session.commit()
            return Claim(True)
        found = session.execute(select(col(RateWindow.started_at), col(RateWindow.used)).where(key_is)).first()
        if found is not None:
            if _aware(found[0]) > now - window and found[1] >= limit:
                session.commit()
                return _refused(_aware(found[0]) + window, now, window)
            # the row was made (or its window started again) by another process between the two
            # updates and this read: they are tried again on the row as it is now
            session.commit()
            continue
        if limit < 1:
            session.commit()
            return _refused(now + window, now, window)
        try:
            session.execute(insert(RateWindow).values(key=key, started_at=now, used=1))
            session.commit()
            return Claim(True)
        except IntegrityError:  # another process made the row first: count on it
            session.rollback()
    return Claim(False, 1)


def forget_before(session: Session, before: datetime) -> int:
    """Delete the windows that started before ``before`` (their counts no longer matter)."""
    deleted = session.execute(delete(RateWindow).where(col(RateWindow.started_at) < before))
    session.commit()
    return int(deleted.rowcount)  # type: ignore[attr-defined]
