"""Live tables pushed, against the live server (gunicorn with organizer/live_gunicorn.py's gevent
workers): two servers on one database, a seat's stream on one of them says the new version within
a fraction of a second of a pick made through the other, carries nothing but version numbers, and
a restart of its server loses nothing: the stream is opened again, as the browser does, and goes on.
The two servers and their database serve the module (each test has an event of its own there),
on SQLite and PostgreSQL."""

from __future__ import annotations

import http.client
import os
import random
import re
import shutil
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from organizer.core.db import make_engine
from organizer.core.models import GameTable, Player
from organizer.live import log as live_log
from organizer.live import tables as live_tables
from tests.fixtures.organizer import empty_postgres
from tests.live.support import form_of, live_round
from tests.system.faults.harness import Client, ServerProcess
from tests.system.faults.live_harness import HttpSeat

#: everything a stream may send: its retry time, a keep-alive comment, a seat's version mark or
#: an event's stamp
STREAM_LINE = re.compile(rb"(retry: \d+|: still here|(id|data): (\d+b?|[0-9a-f]{16})|)")
#: a pick to every other server's stream
PUSHED_WITHIN = 0.5


class Stream:
    """A phone's EventSource, read line by line."""

    def __init__(self, port: int, path: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        self.buffer = b""

    def line(self) -> bytes | None:
        while b"\n" not in self.buffer:
            chunk = self.response.read1(4096)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        assert STREAM_LINE.fullmatch(line), f"a stream sent more than a version: {line!r}"
        return line

    def mark(self) -> str:
        while True:
            line = self.line()
            assert line is not None, "the stream ended"
            if line.startswith(b"data: "):
                return line[len(b"data: "):].decode()

    def ends(self) -> bool:
        try:
            while self.line() is not None:
                pass
        except (OSError, http.client.HTTPException):
            pass
        return True

    def close(self) -> None:
        self.connection.close()


def _table(database_url: str) -> tuple[int, list[str]]:
    engine = make_engine(database_url)
    try:
        with Session(engine, expire_on_commit=False) as db:
            _, _, views = live_round(db, 4, "draft", table_size=4, seed=13)
        assert views[0].table.id is not None
        return views[0].table.id, [s.seat.token for s in views[0].seats]
    finally:
        engine.dispose()


def _stored(database_url: str, table_id: int) -> tuple[int, list[list[object]], object]:
    engine = make_engine(database_url)
    try:
        with Session(engine) as db:
            row = db.get(GameTable, table_id)
            assert row is not None
            state = live_log.replay(live_tables.game_of(row), row.action_log, row.log_version, 0.0).state
            return row.log_version, list(row.action_log), state
    finally:
        engine.dispose()


_BACKENDS = [pytest.param("sqlite", id="sqlite")]
if os.environ.get("TEST_DATABASE_URL"):
    _BACKENDS.append(pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres))


@pytest.fixture(scope="module", params=_BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The module's database: a copy of the migrated template, or the run's PostgreSQL database
    emptied (as the shared ``database_url`` does for each test)."""
    if request.param == "sqlite":
        target = tmp_path_factory.mktemp("live-push") / "organizer.sqlite3"
        shutil.copy(request.getfixturevalue("sqlite_template"), target)
        return f"sqlite:///{target}"
    engine: Engine = request.getfixturevalue("postgres_engine")
    empty_postgres(engine)
    return engine.url.render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def two_servers(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    """Two live servers on the module's database; a test that restarts one puts the new one in
    its place."""
    instance = tmp_path_factory.mktemp("live-push-instance")
    servers = [ServerProcess(database_url, instance, workers=1, live_config=True) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.kill()  # nothing is checked after the last test


def test_a_pick_on_one_server_reaches_a_stream_on_the_other_and_a_restart_loses_nothing(
        database_url: str, two_servers: list[ServerProcess]) -> None:
    first, second = two_servers
    table_id, tokens = _table(database_url)
    seats = [HttpSeat(Client(second.url), token, position) for position, token in enumerate(tokens)]
    for seat in seats:
        seat.open()
    stream = Stream(first.port, f"/play/{tokens[0]}/events")
    version = _stored(database_url, table_id)[0]
    assert stream.mark() == str(version)  # at once: the version the screen should show
    rng = random.Random(4)
    picks = 0
    for position in (1, 2, 3):
        state = _stored(database_url, table_id)[2]
        assert seats[position].act(form_of(rng.choice(state.legal_actions(position)))).status == 200  # type: ignore[attr-defined]
        picked = time.monotonic()  # committed once its request is answered
        picks += 1
        assert stream.mark() == str(version + picks)
        assert time.monotonic() - picked < PUSHED_WITHIN + 0.5, "the pick took too long to reach the other server's stream"

    # The stream's server restarts: the stream ends, and is opened again as the browser does.
    first.stop()
    assert stream.ends()
    stream.close()
    restarted = ServerProcess(database_url, first.instance, workers=1, live_config=True, port=first.port)
    two_servers[0] = restarted
    restarted.start()
    stream = Stream(restarted.port, f"/play/{tokens[0]}/events")
    assert stream.mark() == str(version + picks)  # nothing lost, nothing missed
    state = _stored(database_url, table_id)[2]
    assert seats[0].act(form_of(rng.choice(state.legal_actions(0)))).status == 200  # type: ignore[attr-defined]
    picked = time.monotonic()  # committed once its request is answered
    picks += 1
    assert stream.mark() == str(version + picks)  # the reveal: every seat has picked
    assert time.monotonic() - picked < PUSHED_WITHIN + 0.5
    stream.close()
    stored_version, log, _ = _stored(database_url, table_id)
    assert stored_version == version + picks and len(log) == picks  # every pick applied exactly once
    # the seat's own screen after the reveal, through the restarted server
    seat = HttpSeat(Client(restarted.url), tokens[0], 0)
    assert seat.open().status == 200


def test_a_judge_called_on_one_server_reaches_the_public_and_the_players_streams_on_the_other(
        database_url: str, two_servers: list[ServerProcess]) -> None:
    first, second = two_servers
    engine = make_engine(database_url)
    try:
        with Session(engine, expire_on_commit=False) as db:
            event, _, views = live_round(db, 8, "standard", seed=13)
            code = event.public_code
            players = db.exec(select(Player).where(Player.event_id == event.id)).all()
            token = next(p.token for p in players if p.id == views[0].seats[0].seat.player_id)
            other = next(p.token for p in players if p.id == views[1].seats[0].seat.player_id)
    finally:
        engine.dispose()
    public, player = Stream(first.port, f"/e/{code}/events"), Stream(first.port, f"/p/{other}/events")
    stamp = public.mark()
    assert player.mark() == stamp  # the event's stamp, whichever page follows it
    phone = Client(second.url)
    assert phone.get(f"/p/{token}").status == 200
    assert phone.post(f"/p/{token}/call-judge", {"note": ""}).status == 200
    called = time.monotonic()  # committed once its request is answered
    for stream in (public, player):
        while (mark := stream.mark()) == stamp:  # (said again while nothing changed)
            pass
        assert re.fullmatch(r"[0-9a-f]{16}", mark)
    assert time.monotonic() - called < PUSHED_WITHIN + 0.5, "the call took too long to reach the other server"
    public.close()
    player.close()
