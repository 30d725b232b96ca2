"""Live tables seen from outside: a database file with a published round of digital tables, the
true state of a table replayed from that file alone, and seats that play through real HTTP as a
phone does (their own cookies, the page's nonce, stamp and CSRF token)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from engine import State
from organizer.core.db import make_engine, upgrade_database
from organizer.core.models import GameTable, Round
from organizer.live import log as live_log
from organizer.live import tables as live_tables
from organizer.rounds import service as round_service
from tests.live.support import cards_mentioned, form_of, hidden_from, live_round
from tests.system.faults.harness import Client, Reply

NONCE = re.compile(r'name="nonce" value="([^"]+)"')
STAMP = re.compile(r'name="stamp" value="(-?\d+)"')
VERSION = re.compile(r'data-version="(\d+)"')


@dataclass
class LiveTable:
    database: Path
    table_id: int
    tokens: list[str]
    names: list[str]


def live_database(path: Path, players: int, round_format: str = "draft", seed: int = 5,
                  migrate: bool = True) -> LiveTable:
    """One table of ``players`` on the devices: a draft, or a standard game the TO made digital
    (in an event of its own; ``migrate=False``: ``path`` is migrated already, e.g. a copy of the
    migrated template or a file holding other tests' tables)."""
    engine = make_engine(f"sqlite:///{path}")
    if migrate:
        upgrade_database(engine)
    with Session(engine, expire_on_commit=False) as db:
        event, rnd, views = live_round(db, players, round_format, table_size=players, seed=seed)
        view = views[0]
        if not view.table.digital:
            live_tables.make_digital(db, event, rnd, view, "test")
            live_tables.start_round(db, event, rnd)
            assert rnd.id is not None
            view = round_service.tables_of(db, rnd.id)[0]
        assert view.table.id is not None
        table = LiveTable(path, view.table.id, [s.seat.token for s in view.seats],
                          [s.player.name if s.player else "" for s in view.seats])
    engine.dispose()
    return table


_REPLAYED: dict[tuple[Path, int, int], State] = {}


def true_state(table: LiveTable) -> State:
    """The table's state from the database file alone (never a server's cache)."""
    return versioned_state(table)[1]


def versioned_state(table: LiveTable) -> tuple[int, State]:
    """The table's version (what a seat's page shows as data-version) and its state."""
    engine = make_engine(f"sqlite:///{table.database}")
    try:
        with Session(engine) as db:
            row = db.get(GameTable, table.table_id)
            assert row is not None
            key = (table.database, table.table_id, row.log_version)
            if key not in _REPLAYED:
                _REPLAYED.clear()
                _REPLAYED[key] = live_log.replay(live_tables.game_of(row), row.action_log, row.log_version, 0.0).state
            return row.log_version, _REPLAYED[key]
    finally:
        engine.dispose()


def stored_log(table: LiveTable) -> list[Any]:
    engine = make_engine(f"sqlite:///{table.database}")
    try:
        with Session(engine) as db:
            row = db.get(GameTable, table.table_id)
            assert row is not None
            return list(row.action_log)
    finally:
        engine.dispose()


def practice_state(database: Path, token: str) -> State:
    """A practice game's state from the database file alone."""
    from organizer.core.models import PracticeGame
    from organizer.live import practice

    engine = make_engine(f"sqlite:///{database}")
    try:
        with Session(engine) as db:
            row = db.exec(select(PracticeGame).where(PracticeGame.token == token)).one()
            return live_log.replay(practice.game_of(row), row.action_log, row.log_version, 0.0).state
    finally:
        engine.dispose()


def round_status(database: Path) -> str:
    engine = make_engine(f"sqlite:///{database}")
    try:
        with Session(engine) as db:
            return db.exec(select(Round)).one().status
    finally:
        engine.dispose()


@dataclass
class HttpSeat:
    """One player's phone: its own cookie jar, its private link, the screen it was last sent."""

    client: Client
    token: str
    position: int
    html: str = ""
    seen: list[str] = field(default_factory=list)
    prefix: str = "/play"

    @property
    def url(self) -> str:
        return f"{self.prefix}/{self.token}"

    def _keep(self, reply: Reply) -> Reply:
        if reply.status == 200:
            self.html = reply.text
        self.seen.append(reply.text)
        return reply

    def open(self) -> Reply:
        reply = self._keep(self.client.get(self.url))
        assert reply.status == 200, reply.text[:300]
        return reply

    def poll(self) -> Reply:
        match = VERSION.search(self.html)
        reply = self.client.get(f"{self.url}/changed?since={match.group(1) if match else -1}",
                                headers={"HX-Request": "true"})
        assert reply.status in (200, 204), reply.status
        return self._keep(reply)

    def form(self) -> dict[str, str]:
        nonce, stamp = NONCE.search(self.html), STAMP.search(self.html)
        assert nonce and stamp, "the seat's page has no action form"
        return {"nonce": nonce.group(1), "stamp": stamp.group(1)}

    def act(self, fields: dict[str, str], form: dict[str, str] | None = None) -> Reply:
        return self._keep(self.client.post(f"{self.url}/act", {**(form or self.form()), **fields},
                                           headers={"HX-Request": "true"}))


def seats_for(base_url: str, table: LiveTable) -> list[HttpSeat]:
    return [HttpSeat(Client(base_url), token, position) for position, token in enumerate(table.tokens)]


def assert_hides(seat: HttpSeat, html: str, state: State) -> None:
    leaked = cards_mentioned(html) & set(hidden_from(state, seat.position))
    assert not leaked, f"seat {seat.position} was shown hidden cards {sorted(leaked)}"


def play_step(table: LiveTable, seats: list[HttpSeat], rng: random.Random, check_hidden: bool = True) -> bool:
    """Every seat polls, then each awaited seat makes one random legal move through its form;
    every answer is checked for cards that seat may not see. False once the game is over."""
    state = true_state(table)
    for seat in seats:
        reply = seat.poll()
        if check_hidden:
            assert_hides(seat, reply.text, state)
    if state.is_terminal():
        return False
    for position in list(state.awaited_seats()):
        seat = seats[position]
        action = rng.choice(true_state(table).legal_actions(position))
        reply = seat.act(form_of(action))
        assert reply.status == 200, reply.text[:500]
        if check_hidden:
            assert_hides(seat, reply.text, true_state(table))
    return True


def play_to_the_end(table: LiveTable, seats: list[HttpSeat], rng: random.Random, check_hidden: bool = True,
                    limit: int = 2000) -> State:
    for seat in seats:
        seat.open()
        if check_hidden:
            assert_hides(seat, seat.html, true_state(table))
    for _ in range(limit):
        if not play_step(table, seats, rng, check_hidden):
            return true_state(table)
    raise AssertionError("the game did not end")
