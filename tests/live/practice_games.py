"""Practice games for the tests: one finished and stored straight through the services (no
pages), for the end-of-game and replay screens, and one started and played through its pages."""

from __future__ import annotations

import random
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import PracticeGame
from organizer.live import log as live_log
from organizer.live import practice as service
from tests.fixtures.organizer import HX
from tests.live.support import NONCE, STAMP, assert_hides, form_of, sqlite_app, sqlite_session  # noqa: F401


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


def start(client: FlaskClient, **fields: str) -> str:
    response = client.post("/practice", data={"edition": "2018", **fields})
    assert response.status_code == 302, response.text
    location = response.headers["Location"]
    assert re.fullmatch(r"/practice/[A-Za-z0-9_-]{32}", location)
    return location


def practice_state(app: Flask, token: str) -> Any:
    with Session(app.extensions["db_engine"]) as db:
        row = db.exec(select(PracticeGame).where(PracticeGame.token == token)).one()
        return live_log.replay(service.game_of(row), row.action_log, row.log_version, 0.0).state


def play_to_the_end(app: Flask, client: FlaskClient, url: str, rng: random.Random) -> tuple[Any, str]:
    token = url.rsplit("/", 1)[1]
    html = client.get(url).text
    for _ in range(500):
        state = practice_state(app, token)
        assert_hides(html, state, 0)
        if state.is_terminal():
            return state, html
        assert state.awaited_seats() == [0] or state.mode == "solo"  # the bots never keep you waiting
        action = rng.choice(state.legal_actions(0))
        response = client.post(f"{url}/act", headers=HX, data={
            "nonce": NONCE.search(html).group(1), "stamp": STAMP.search(html).group(1), **form_of(action)})  # type: ignore[union-attr]
        assert response.status_code == 200, response.text
        html = response.text
    raise AssertionError("the game did not end")
