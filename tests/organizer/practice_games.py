"""A finished practice game stored straight through the services (no pages), for the tests of
the end-of-game and replay screens."""

from __future__ import annotations

import random

from sqlmodel import Session

from organizer.core.models import PracticeGame
from organizer.live import practice as service


def finished_practice(db: Session, mode: str, players: int = 1, bots: tuple[str, ...] = (), name: str = "Robin",
                      seed: int = 3) -> PracticeGame:
    """A practice game played to its end: the person at seat 0 makes random legal moves (solo:
    ``players`` 1)."""
    row = service.create_game(db, service.PracticeSetup(mode, players, "2018", bots, name), seed=seed)
    rng = random.Random(seed)
    for turn in range(1000):
        game = service.PracticeLiveGame(row)
        state = game.load(db).state
        if state.is_terminal():
            return row
        action = rng.choice(state.legal_actions(0))
        game.act(db, 0, str(action), f"test-{turn}", None)
    raise AssertionError("the practice game did not end")
