"""A window's uses counted in the database: two processes taking the first use of a new key at
the same instant are both allowed (one makes the row, the other counts on it), and the use past
the limit is refused with the window's end, however the requests interleave."""

from __future__ import annotations

import threading

from sqlmodel import Session

from organizer.core import rate_windows
from organizer.core.db import make_engine
from organizer.core.models import RateWindow

TRIALS = 60


def test_two_first_uses_at_the_same_instant_are_both_counted(database_url: str) -> None:
    engine = make_engine(database_url)
    refused: list[tuple[int, rate_windows.Claim]] = []
    try:
        for trial in range(TRIALS):
            key = f"test:twins-{trial}"
            start = threading.Barrier(2)
            claims: list[rate_windows.Claim] = []

            def take(key: str = key, start: threading.Barrier = start, claims: list[rate_windows.Claim] = claims) -> None:
                with Session(engine) as db:
                    start.wait()
                    claims.append(rate_windows.claim(db, key, 3, 3600))

            racers = [threading.Thread(target=take) for _ in range(2)]
            for racer in racers:
                racer.start()
            for racer in racers:
                racer.join()
            refused += [(trial, claim) for claim in claims if not claim.allowed]
            with Session(engine) as db:
                row = db.get(RateWindow, key)
                assert row is not None and row.used == 2, (trial, row)
        assert not refused, f"{len(refused)} of {2 * TRIALS} first uses refused: {refused[:3]}"
        with Session(engine) as db:
            assert rate_windows.claim(db, "test:twins-0", 3, 3600).allowed  # the third use
            past = rate_windows.claim(db, "test:twins-0", 3, 3600)
        assert not past.allowed and 3590 <= past.retry_after <= 3600
    finally:
        engine.dispose()
