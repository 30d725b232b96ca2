"""Live tables pushed: each process learns every committed table version from the database itself
(PostgreSQL's NOTIFY, SQLite's data version), so an unchanged poll reads no table, and a seat's
stream says the new version the moment another seat's move is committed, and nothing else."""

from __future__ import annotations

import queue
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import event, text
from sqlmodel import Session

from organizer.core.db import make_engine
from organizer.live import poll as live_poll
from organizer.live import stream
from tests.fixtures.organizer import make_app
from tests.live.support import VERSION, SeatClient, connected_notifier, form_of, live_round, true_state

MARK = re.compile(rb"data: (\d+b?)\n")


def _statements(app: Flask) -> list[str]:
    """Every statement the app's engines send from now on (the poll's own engine included)."""
    seen: list[str] = []
    engines = {app.extensions["db_engine"], live_poll.board_for(app.extensions["db_engine"]).engine}
    for engine in engines:
        event.listen(engine, "before_cursor_execute", lambda _c, _cur, statement, *_a: seen.append(statement))
    return seen


def test_an_unchanged_poll_reads_no_table(app: Flask, session: Session) -> None:
    _, _, views = live_round(session, 4)
    seat = SeatClient(app.test_client(), views[0].seats[0].seat.token, 0)
    since = VERSION.search(seat.page()).group(1)  # type: ignore[union-attr]
    connected_notifier(app)
    assert seat.client.get(f"{seat.url}/changed?since={since}").status_code == 204  # learns the table
    statements = _statements(app)
    for _ in range(5):
        assert seat.client.get(f"{seat.url}/changed?since={since}").status_code == 204
    assert statements == []


def test_another_process_write_reaches_the_map_and_wakes_the_table(app: Flask, session: Session,
                                                                   database_url: str) -> None:
    _, _, views = live_round(session, 4)
    table_id, seat_id = views[0].table.id, views[0].seats[1].seat.id
    assert table_id is not None and seat_id is not None
    token = views[0].seats[1].seat.token
    notifier = connected_notifier(app)
    board = live_poll.board_for(app.extensions["db_engine"])
    version = board.lookup(token).version  # type: ignore[union-attr]
    assert notifier.version(table_id, seat_id) == (version, False)
    other = make_engine(database_url)  # another server process's writes
    try:
        gate = notifier.gate(table_id)
        with other.begin() as connection:
            connection.execute(text("UPDATE gametable SET log_version = log_version + 1 WHERE id = :id"),
                               {"id": table_id})
        assert gate.wait(2), "the streams waiting on the table were not woken"
        assert notifier.version(table_id, seat_id) == (version + 1, False)
        gate = notifier.gate(table_id)
        with other.begin() as connection:
            connection.execute(text("UPDATE seat SET is_bot = :bot WHERE id = :id"), {"bot": True, "id": seat_id})
        assert gate.wait(2)
        assert notifier.version(table_id, seat_id) == (version + 1, True)
        assert board.lookup(token).bot  # type: ignore[union-attr]
    finally:
        other.dispose()


def test_a_change_that_did_not_commit_is_not_told(app: Flask, session: Session, database_url: str) -> None:
    _, _, views = live_round(session, 4)
    table_id, seat_id = views[0].table.id, views[0].seats[0].seat.id
    assert table_id is not None and seat_id is not None
    notifier = connected_notifier(app)
    version = live_poll.board_for(app.extensions["db_engine"]).lookup(views[0].seats[0].seat.token).version  # type: ignore[union-attr]
    other = make_engine(database_url)
    try:
        gate = notifier.gate(table_id)
        with other.connect() as connection:
            connection.execute(text("UPDATE gametable SET log_version = log_version + 1 WHERE id = :id"),
                               {"id": table_id})
            connection.rollback()
        assert not gate.wait(0.3)
        assert notifier.version(table_id, seat_id) == (version, False)
    finally:
        other.dispose()


@pytest.fixture
def pushing_app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    app = make_app(database_url, tmp_path, LIVE_PUSH=True)
    yield app
    app.extensions["db_engine"].dispose()


def _read_stream(app: Flask, token: str) -> tuple[queue.Queue[bytes], threading.Thread]:
    response = app.test_client().get(f"/play/{token}/events", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    chunks: queue.Queue[bytes] = queue.Queue()

    def read() -> None:
        for chunk in response.response:
            chunks.put(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return chunks, reader


def _next_mark(chunks: queue.Queue[bytes], within: float, other_than: str = "") -> tuple[str, bytes]:
    deadline = time.monotonic() + within
    while True:
        chunk = chunks.get(timeout=max(0.01, deadline - time.monotonic()))
        found = MARK.search(chunk)
        if found and found.group(1).decode() != other_than:
            return found.group(1).decode(), chunk


def test_a_seats_stream_says_the_new_version_at_once_and_nothing_else(pushing_app: Flask,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "STREAM_SECONDS", 4.0)  # the stream ends by itself, as it does on the server
    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.5)
    with Session(pushing_app.extensions["db_engine"], expire_on_commit=False) as db:
        _, _, views = live_round(db, 4)
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    watcher = SeatClient(pushing_app.test_client(), view.seats[0].seat.token, 0)
    page = watcher.page()
    assert f'data-stream="/play/{watcher.token}/events"' in page
    since = VERSION.search(page).group(1)  # type: ignore[union-attr]
    connected_notifier(pushing_app)
    chunks, reader = _read_stream(pushing_app, watcher.token)
    assert _next_mark(chunks, 5)[0] == since  # at once: what the screen should show now
    # idle, it says the same mark again: the page knows its stream is alive and polls less often
    assert _next_mark(chunks, 2)[0] == since
    other = SeatClient(pushing_app.test_client(), view.seats[1].seat.token, 1)
    other.page()
    state = true_state(pushing_app, table_id)
    sent = time.monotonic()
    assert other.post(form_of(random.Random(2).choice(state.legal_actions(1)))).status_code == 200
    mark, chunk = _next_mark(chunks, 1.0, other_than=since)
    assert time.monotonic() - sent < 1.0
    assert mark == str(int(since) + 1)
    assert chunk == f"id: {mark}\ndata: {mark}\n\n".encode()  # a number, never a card
    # the page's poll then fetches the seat's own screen
    assert watcher.client.get(f"/play/{watcher.token}/changed?since={since}&pushed={mark}").status_code == 200
    reader.join(10)
    assert not reader.is_alive(), "the stream did not end by itself"


def test_a_stream_where_none_is_served_tells_the_browser_to_poll(app: Flask, session: Session) -> None:
    _, _, views = live_round(session, 4)
    token = views[0].seats[0].seat.token
    client = app.test_client()
    assert client.get(f"/play/{token}/events").status_code == 204  # EventSource: do not reconnect
    assert "data-stream" not in client.get(f"/play/{token}").text


def test_a_wrong_token_has_no_stream(pushing_app: Flask) -> None:
    assert pushing_app.test_client().get("/play/no-such-seat/events").status_code == 404
