"""Solo and practice games in the browser: no sign-in, bots act at once, whole games to the
end through the pages, Q's hand and the deck never shown, replays of the finished game."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.models import PracticeGame
from organizer.services import live_log
from organizer.services import practice as service

from .conftest import HX, error_beside
from .test_live_support import NONCE, STAMP, assert_hides, form_of, sqlite_app, sqlite_session  # noqa: F401


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


def test_practice_form_is_open_to_anyone(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    page = client.get("/practice")
    assert page.status_code == 200 and "Solo against Q" in page.text and "Sign in" not in page.text
    response = client.post("/practice", data={"mode": "draft", "players": "7", "bot_1": "clever"})
    assert response.status_code == 422
    assert error_beside(response.text, "players") == "A table seats 2, 3 or 4 players."
    response = client.post("/practice", data={"mode": "chess"})
    assert error_beside(response.text, "mode") == "Choose solo, a standard game or a draft."


def test_solo_game_against_q_to_the_end(sqlite_app: Flask, sqlite_session: Session) -> None:
    client = sqlite_app.test_client()
    url = start(client, mode="solo", name="Robin")
    state, html = play_to_the_end(sqlite_app, client, url, random.Random(4))
    assert state.mode == "solo" and "Final scores" in html and "Robin" in html
    assert "Hands at the end" in html  # Q's hand is shown once the game is over
    replay = client.get(f"/replay/practice/{url.rsplit('/', 1)[1]}")
    assert replay.status_code == 200 and f"Move {state.version} of {state.version}" in replay.text


@pytest.mark.parametrize("mode,players,bots", [("draft", 3, ("heuristic", "random")), ("standard", 2, ("random",))])
def test_practice_against_bots_to_the_end(sqlite_app: Flask, mode: str, players: int, bots: tuple[str, ...]) -> None:
    client = sqlite_app.test_client()
    fields = {"mode": mode, "players": str(players), **{f"bot_{i + 1}": kind for i, kind in enumerate(bots)}}
    url = start(client, **fields)
    state, html = play_to_the_end(sqlite_app, client, url, random.Random(6))
    assert state.mode == mode and state.seats == players and "Final scores" in html
    token = url.rsplit("/", 1)[1]
    with Session(sqlite_app.extensions["db_engine"]) as db:
        row = db.exec(select(PracticeGame).where(PracticeGame.token == token)).one()
        assert row.seat_kinds == ["human", *bots]
        bot_moves = [entry for entry in row.action_log if entry[0] != 0]
        assert bot_moves and all(str(entry[2]).startswith("bot:") for entry in bot_moves)


def test_replay_steps_through_every_move(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    url = start(client, mode="draft", players="2", bot_1="heuristic")
    token = url.rsplit("/", 1)[1]
    assert client.get(f"/replay/practice/{token}").status_code == 404  # not before the end
    state, _ = play_to_the_end(sqlite_app, client, url, random.Random(2))
    total = state.version
    first = client.get(f"/replay/practice/{token}?step=0")
    assert "Move 0 of" in first.text and "the deal" in first.text
    dealt = practice_state(sqlite_app, token).game.new_initial_state()
    for card in dealt.hands[0] + dealt.hands[1]:  # every hand is shown in the replay
        assert str(card) in first.text
    with Session(sqlite_app.extensions["db_engine"]) as db:
        log = db.exec(select(PracticeGame).where(PracticeGame.token == token)).one().action_log
    for step in (1, 2, total // 2, total):
        page = client.get(f"/replay/practice/{token}?step={step}", headers=HX)
        assert page.status_code == 200 and f"Move {step} of {total}" in page.text
        assert log[step - 1][1] in page.text
    last = client.get(f"/replay/practice/{token}?step=9999")
    assert f"Move {total} of {total}" in last.text and "Final scores" in last.text
    assert "Next ▶</span>" in last.text  # no next after the last move
    assert client.get("/replay/practice/nope").status_code == 404
