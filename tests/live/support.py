"""Helpers for the live-table tests: a published round with digital tables, seats driven through
the HTTP endpoints with the forms' own nonces and stamps, and the hidden-information check."""

from __future__ import annotations

import random
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from engine import Discard, Draw, Edition, Give, Pick, Play, State, edition_species
from engine.actions import Action
from organizer.core.models import Event, GameTable, Round
from organizer.events import service as event_service
from organizer.live import log as live_log
from organizer.live import poll as live_poll
from organizer.live import push
from organizer.live import tables as live_tables
from organizer.rounds import service as round_service
from tests.engine.helpers import seen_face_up
from tests.fixtures.organizer import HX, add_players, make_app

NONCE = re.compile(r'name="nonce" value="([^"]+)"')
STAMP = re.compile(r'name="stamp" value="(-?\d+)"')
VERSION = re.compile(r'data-version="(\d+)"')
#: the POST a screen sends as soon as it is shown when bots or the pick timer owe a move (or the
#: table is still to be dealt): GETs change nothing, so a device's script does this
TICK = re.compile(r'hx-post="([^"]+/tick)" hx-trigger="load[^"]*"')


def follow_tick(client: FlaskClient, response: Any) -> Any:
    """What htmx does with a screen that carries the tick: send it, and show its answer."""
    match = TICK.search(response.text)
    if match is None:
        return response
    return client.post(match.group(1), headers=HX)


def live_round(session: Session, players: int, round_format: str = "draft", table_size: int = 4,
               pick_timer: int | None = None, seed: int = 5, edition: str = "2018",
               ) -> tuple[Event, Round, list[round_service.TableSeating]]:
    """An event whose round 1 (``round_format``) is published with ``players`` players."""
    data = event_service.EventInput(name="Live Cup", date=date(2026, 5, 2))
    data.round_formats = [round_format, "standard"]
    data.preferred_table_size = table_size
    data.pick_timer_seconds = pick_timer
    data.edition = edition
    event = event_service.create_event(session, data, None, "test")
    add_players(session, event, players)
    rnd = round_service.propose_round(session, event, "test", seed=seed)
    round_service.publish_round(session, event, rnd, "test")
    live_tables.start_round(session, event, rnd)  # what the publishing POST does
    assert rnd.id is not None
    return event, rnd, round_service.tables_of(session, rnd.id)


_REPLAYS: dict[tuple[int, int, int], State] = {}


def true_state(app: Flask, table_id: int) -> State:
    """The table's state replayed from the database row alone (never the app's cache)."""
    with Session(app.extensions["db_engine"]) as db:
        table = db.get(GameTable, table_id)
        assert table is not None and table.game is not None
        key = (id(app), table_id, table.log_version)
        if key not in _REPLAYS:
            game = live_tables.game_of(table)
            _REPLAYS.clear()
            _REPLAYS[key] = live_log.replay(game, table.action_log, table.log_version, 0.0).state
        return _REPLAYS[key]


def stored_log(app: Flask, table_id: int) -> list[list[object]]:
    with Session(app.extensions["db_engine"]) as db:
        table = db.get(GameTable, table_id)
        assert table is not None
        return list(table.action_log)


def fast_sqlite(app: Flask) -> Flask:
    """No fsync for a throw-away test database (as CI does for PostgreSQL): the live tests write
    once per action, and a disk sync per write would make them slow."""
    engine = app.extensions["db_engine"]
    if engine.dialect.name == "sqlite":
        from sqlalchemy import event

        engine.dispose()
        event.listen(engine, "connect", lambda conn, _record: conn.execute("PRAGMA synchronous=OFF"))
    return app


def form_of(action: Action) -> dict[str, str]:
    """The fields a seat's form posts for ``action`` (a card, then a cell or a button)."""
    if isinstance(action, Pick):
        cell = "discard" if action.cell is None else f"{action.cell[0]},{action.cell[1]}"
        return {"verb": "pick", "card": str(action.card), "cell": cell}
    if isinstance(action, (Play, Give)):
        verb = "play" if isinstance(action, Play) else "give"
        return {"verb": verb, "card": str(action.card), "cell": f"{action.cell[0]},{action.cell[1]}"}
    assert isinstance(action, (Draw, Discard))
    return {"action": str(action)}


def hidden_from(state: Any, seat: int) -> list[str]:
    """Card texts ``seat`` must not see now: other seats' hands (and so their pending picks) and
    the undealt or undrawn deck; but not a card another seat took from the top of a discard pile,
    which everyone saw lying there."""
    if state.is_terminal():
        return []
    hidden = [str(card) for card in state.deck]
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden.extend(str(card) for card in hand)
    public = seen_face_up(state)
    return [card for card in hidden if card not in public]


_MENTION = re.compile("(" + "|".join(sorted({name for e in Edition for name in edition_species(e)}, key=len, reverse=True))
                      + r") ([1-8])(?!\d)")


def cards_mentioned(html: str) -> set[str]:
    """Every card text anywhere in the HTML (text, titles, labels, form values)."""
    return {f"{m.group(1)} {m.group(2)}" for m in _MENTION.finditer(html)}


def assert_hides(html: str, state: Any, seat: int) -> None:
    leaked = cards_mentioned(html) & set(hidden_from(state, seat))
    assert not leaked, f"seat {seat} was shown hidden cards {sorted(leaked)}"


@dataclass
class SeatClient:
    client: FlaskClient
    token: str
    position: int
    last_html: str = ""

    @property
    def url(self) -> str:
        return f"/play/{self.token}"

    def page(self) -> str:
        response = follow_tick(self.client, self.client.get(self.url))
        assert response.status_code == 200, response.text
        self.last_html = response.text
        return response.text

    def nonce_and_stamp(self) -> tuple[str, str]:
        nonce = NONCE.search(self.last_html)
        stamp = STAMP.search(self.last_html)
        assert nonce and stamp, "the seat's page has no action form"
        return nonce.group(1), stamp.group(1)

    def post(self, fields: dict[str, str], nonce: str | None = None, stamp: str | None = None) -> Any:
        form_nonce, form_stamp = self.nonce_and_stamp()
        data = {"nonce": nonce or form_nonce, "stamp": stamp or form_stamp, **fields}
        response = self.client.post(f"{self.url}/act", data=data, headers=HX)
        self.last_html = response.text
        return response


def seat_clients(app: Flask, view: round_service.TableSeating) -> list[SeatClient]:
    return [SeatClient(app.test_client(), s.seat.token, s.seat.position) for s in view.seats]


def play_whole_game(app: Flask, view: round_service.TableSeating, rng: random.Random, check_hidden: bool = True) -> State:
    """Every seat plays through its own page as a device does: it opens its page once, acts from
    the screen it was last sent, and polls "changed since N?" to learn of the others' moves.
    Every response each seat receives is checked for hidden cards against the true state."""
    seats = seat_clients(app, view)
    table_id = view.table.id
    assert table_id is not None

    def check(seat: SeatClient, html: str) -> None:
        if check_hidden:
            assert_hides(html, true_state(app, table_id), seat.position)

    def poll(seat: SeatClient) -> None:
        match = VERSION.search(seat.last_html)
        response = follow_tick(seat.client, seat.client.get(f"{seat.url}/changed?since={match.group(1) if match else -1}"))
        assert response.status_code in (200, 204), response.text
        if response.status_code == 200:
            seat.last_html = response.text
            check(seat, response.text)

    for seat in seats:
        check(seat, seat.page())
    last_actor = None
    for _ in range(2000):
        state = true_state(app, table_id)
        if state.is_terminal():
            for seat in seats:
                poll(seat)
                assert "Final scores" in seat.last_html
            return state
        actor = state.current_player()
        if actor != last_actor or state.mode == "draft":
            for seat in seats:  # the watchers' polls: every reveal, every new turn
                poll(seat)
            last_actor = actor
        for position in list(state.awaited_seats()):
            seat = seats[position]
            poll(seat)
            action = rng.choice(true_state(app, table_id).legal_actions(position))
            response = seat.post(form_of(action))
            assert response.status_code == 200, response.text
            check(seat, response.text)
    raise AssertionError("the game did not end")


@pytest.fixture
def sqlite_app(sqlite_template: Path, tmp_path: Path) -> Iterator[Flask]:
    """The app on SQLite only: for the long whole-game tests, whose storage is the same JSON
    log on both databases (the concurrency, restart and two-process tests run on both)."""
    target = tmp_path / "live.sqlite3"
    shutil.copy(sqlite_template, target)
    app = fast_sqlite(make_app(f"sqlite:///{target}", tmp_path))
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture
def sqlite_session(sqlite_app: Flask) -> Iterator[Session]:
    with Session(sqlite_app.extensions["db_engine"], expire_on_commit=False) as db:
        yield db


def connected_notifier(app: Flask) -> push.Notifier:
    """The app's live notifier, once it has connected (its listening connection or file watch)."""
    notifier = live_poll.board_for(app.extensions["db_engine"]).notifier
    assert notifier is not None
    deadline = time.monotonic() + 10
    while not notifier.healthy:
        assert time.monotonic() < deadline, "the notifier never connected"
        time.sleep(0.01)
    return notifier
