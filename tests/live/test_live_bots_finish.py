"""A game with bots always finishes with nobody touching anything but their own moves: every
screen that leaves a bot's move owed carries the tick that plays it, in practice and at event
tables, and a table nobody looked at for a while gets its bots' moves when a device comes back.

The strong bot here thinks on a tiny fixed budget and every request stops after one bot move,
so each answer leaves moves owed, as a strong bot's second of thought does in a real game."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from engine import bots
from engine.bots import StrongBot
from organizer.accounts import service as accounts
from organizer.core.models import Result
from organizer.live import log as live_log
from tests.fixtures.organizer import HX, PASSWORD, sign_in
from tests.live.practice_games import practice_state, start
from tests.live.support import (
    NONCE,
    STAMP,
    TICK,
    VERSION,
    form_of,
    live_round,
    sqlite_app,  # noqa: F401
    sqlite_session,  # noqa: F401
    true_state,
)

LEVELS = {"easy": "random", "normal": "heuristic", "strong": "strong"}


@pytest.fixture
def slow_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bots.BOTS, "strong", functools.partial(StrongBot, iterations=3, seconds=None))
    monkeypatch.setattr(live_log, "BOT_SECONDS", 0.0)


def play_as_a_device(client: FlaskClient, url: str, state_of: Callable[[], Any], seat: int, rng: random.Random) -> str:
    """What a phone's page does, and nothing more: it sends the tick its screen carries, acts
    from the screen when the seat's choice is awaited, and otherwise polls "changed since N?".
    Fails when the screen waits on a 204 while the game waits for a bot."""
    html = client.get(url).text
    idle_polls = 0
    for _ in range(3000):
        state = state_of()
        tick = TICK.search(html)
        if tick:
            answer = client.post(tick.group(1), headers=HX)
            assert answer.status_code == 200, answer.text
            html, idle_polls = answer.text, 0
        elif state.is_terminal():
            assert "Final scores" in html or "Final scores" in client.get(url).text
            return html
        elif seat in state.awaited_seats() and NONCE.search(html):
            action = rng.choice(state.legal_actions(seat))
            data = {"nonce": NONCE.search(html).group(1), "stamp": STAMP.search(html).group(1), **form_of(action)}  # type: ignore[union-attr]
            answer = client.post(f"{url}/act", headers=HX, data=data)
            assert answer.status_code == 200, answer.text
            html = answer.text
        else:
            version = VERSION.search(html)
            answer = client.get(f"{url}/changed?since={version.group(1) if version else -1}")
            assert answer.status_code in (200, 204), answer.text
            if answer.status_code == 204:
                idle_polls += 1
                assert idle_polls < 5, f"the screen waits for {state.awaited_seats()} and offers nothing to move on"
            else:
                html, idle_polls = answer.text, 0
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
@pytest.mark.parametrize("mode,players", [("standard", 2), ("draft", 3)])
def test_a_practice_game_against_each_level_finishes(sqlite_app: Flask, slow_bots: None, level: str, mode: str,
                                                     players: int) -> None:
    client = sqlite_app.test_client()
    url = start(client, mode=mode, players=str(players), **{f"bot_{i}": LEVELS[level] for i in range(1, players)})
    token = url.rsplit("/", 1)[1]
    html = play_as_a_device(client, url, lambda: practice_state(sqlite_app, token), 0, random.Random(7))
    assert practice_state(sqlite_app, token).is_terminal()
    assert not re.search(r"Waiting for", html)


def _bot_into(sqlite_app: Flask, session: Session, event_id: int, position: int, level: str) -> FlaskClient:
    accounts.create_organizer(session, "Tess", PASSWORD)
    organizer = sqlite_app.test_client()
    sign_in(organizer)
    digital = organizer.post(f"/events/{event_id}/rounds/1/live/tables/1/digital", data={"back": "overview"})
    assert digital.status_code in (302, 422), digital.text  # a draft's tables are digital already
    answer = organizer.post(f"/events/{event_id}/rounds/1/live/tables/1/seats/{position}/bot",
                            data={"bot": "1", "level": level})
    assert answer.status_code == 302, answer.text
    return organizer


@pytest.mark.parametrize("mode", ["standard", "draft"])
def test_an_event_table_with_a_strong_bot_finishes(sqlite_app: Flask, sqlite_session: Session, slow_bots: None,
                                                  mode: str) -> None:
    event, _, views = live_round(sqlite_session, 2, mode, table_size=2)
    view = views[0]
    table_id = view.table.id
    assert table_id is not None and event.id is not None
    _bot_into(sqlite_app, sqlite_session, event.id, 1, "strong")
    person = view.seats[0].seat
    play_as_a_device(sqlite_app.test_client(), f"/play/{person.token}", lambda: true_state(sqlite_app, table_id),
                     person.position, random.Random(3))
    assert true_state(sqlite_app, table_id).is_terminal()
    sqlite_session.expire_all()
    assert sqlite_session.get(Result, 1) is not None


def test_a_table_whose_devices_all_slept_gets_its_bots_moves_when_one_comes_back(
        sqlite_app: Flask, sqlite_session: Session, slow_bots: None) -> None:
    event, _, views = live_round(sqlite_session, 2, "standard", table_size=2)
    view = views[0]
    table_id = view.table.id
    assert table_id is not None and event.id is not None
    _bot_into(sqlite_app, sqlite_session, event.id, 1, "strong")
    person = view.seats[0].seat
    url = f"/play/{person.token}"
    phone = sqlite_app.test_client()
    rng = random.Random(1)
    html = phone.get(url).text
    while TICK.search(html):  # the bot's first turn, if it starts
        html = phone.post(TICK.search(html).group(1), headers=HX).text  # type: ignore[union-attr]
    # the person plays until their move leaves the bot owing moves, then every device sleeps
    # without sending the tick that answer carries
    for _ in range(20):
        state = true_state(sqlite_app, table_id)
        assert 0 in state.awaited_seats(), "the bot owes a move and the screen offers nothing to move on"
        action = rng.choice(state.legal_actions(0))
        data = {"nonce": NONCE.search(html).group(1), "stamp": STAMP.search(html).group(1), **form_of(action)}  # type: ignore[union-attr]
        html = phone.post(f"{url}/act", headers=HX, data=data).text
        if TICK.search(html):
            break
    slept = true_state(sqlite_app, table_id)
    assert 1 in slept.awaited_seats(), "the bot owes its move while every device sleeps"
    assert true_state(sqlite_app, table_id).version == slept.version, "nothing plays while nobody asks"
    # a device comes back (the same phone or another one opening the seat's page)
    back = sqlite_app.test_client().get(url).text
    assert TICK.search(back), "the page a device opens sends the tick that plays what the bot owes"
    play_as_a_device(sqlite_app.test_client(), url, lambda: true_state(sqlite_app, table_id), 0, random.Random(5))
    assert true_state(sqlite_app, table_id).is_terminal()
