"""The public page, a player's own page and the live overview pushed: each keeps a stream open
that says the page's mark (the event's stamp, the round's mark) the moment a change is committed,
never what the page shows; the page's own poll then fetches it. A waiting stream reads no table,
and a change is read once per process however many streams wait; where no stream is served, or
for a code or token nothing has, there is none."""

from __future__ import annotations

import contextlib
import itertools
import queue
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event as sa_event
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, select

from organizer.core.db import make_engine
from organizer.core.models import Event, Round
from organizer.live import poll as live_poll
from organizer.live import stream
from organizer.rounds import service as round_service
from tests.fixtures.organizer import HX, make_app
from tests.live.support import SeatClient, connected_notifier, form_of, live_round, true_state
from tests.public.support import seated_event, secrets_of

MARK = re.compile(rb"data: ([0-9a-zA-Z]+)\n")


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """The app as a gevent server runs it: streams served."""
    app = make_app(database_url, tmp_path, AUTO_MIGRATE=False, LIVE_PUSH=True)
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture(autouse=True)
def short_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "STREAM_SECONDS", 6.0)  # a stream ends by itself, as on the server
    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 0.5)


def _open(client: FlaskClient, url: str) -> queue.Queue[bytes]:
    response = client.get(url, buffered=False)
    assert response.status_code == 200, response.status_code
    assert response.mimetype == "text/event-stream"
    chunks: queue.Queue[bytes] = queue.Queue()

    def read() -> None:
        for chunk in response.response:
            chunks.put(chunk)

    threading.Thread(target=read, daemon=True).start()
    return chunks


def _next_mark(chunks: queue.Queue[bytes], within: float, other_than: str = "") -> tuple[str, bytes]:
    deadline = time.monotonic() + within
    while True:
        chunk = chunks.get(timeout=max(0.01, deadline - time.monotonic()))
        found = MARK.search(chunk)
        if found and found.group(1).decode() != other_than:
            return found.group(1).decode(), chunk


def _result_form(session: Session, table: int = 1) -> dict[str, str]:
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id, table)[0]
    form = {"mode": "totals", "version": "0"}
    for seat, points in zip(view.seats, [40, 30, 20, 10], strict=True):
        form[f"points_{seat.seat.id}"], form[f"species_{seat.seat.id}"] = str(points), "3"
    return form


def test_the_public_page_hears_of_a_result_at_once(app: Flask, signed_in: FlaskClient, session: Session,
                                                   event: Event) -> None:
    seated_event(signed_in, session, event)
    phone = app.test_client()
    page = phone.get(f"/e/{event.public_code}").text
    since = re.search(r'data-mark="([0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
    assert f'data-stream="/e/{event.public_code}/events"' in page and f"since={since}" in page
    connected_notifier(app)
    chunks = _open(phone, f"/e/{event.public_code}/events")
    assert _next_mark(chunks, 5)[0] == since  # at once: what the page should show now
    assert _next_mark(chunks, 2)[0] == since  # said again while nothing changes: the stream is alive
    assert signed_in.post(f"/events/{event.id}/rounds/1/tables/1/result", data=_result_form(session)).status_code == 302
    sent = time.monotonic()  # the change is committed once its request is answered
    mark, chunk = _next_mark(chunks, 1.0, other_than=since)
    assert time.monotonic() - sent < 1.0
    assert chunk == f"id: {mark}\ndata: {mark}\n\n".encode()  # the stamp, nothing of the page
    # the page's poll, prompted, brings the result and carries the mark it was told
    changed = phone.get(f"/e/{event.public_code}/changed?since={since}&pushed={mark}", headers=HX)
    assert changed.status_code == 200 and "Result entered" in changed.text and f'data-mark="{mark}"' in changed.text


def test_a_players_page_hears_a_judge_take_the_call(app: Flask, signed_in: FlaskClient, session: Session,
                                                   event: Event) -> None:
    players = seated_event(signed_in, session, event)
    token = players[0].token
    phone = app.test_client()
    page = phone.get(f"/p/{token}").text
    assert f'data-stream="/p/{token}/events"' in page
    poll = re.search(r'hx-get="([^"]+/changed\?since=[0-9a-f]+)"', page).group(1)  # type: ignore[union-attr]
    assert phone.post(f"/p/{token}/call-judge", data={"note": ""}, headers=HX).status_code == 200
    connected_notifier(app)
    chunks = _open(phone, f"/p/{token}/events")
    first = _next_mark(chunks, 5)[0]
    call = session.exec(text("SELECT id FROM judgecall")).one()[0]  # type: ignore[call-overload]
    assert signed_in.post(f"/events/{event.id}/rounds/1/calls/{call}/take", headers=HX).status_code == 200
    sent = time.monotonic()  # the change is committed once its request is answered
    _next_mark(chunks, 1.0, other_than=first)
    assert time.monotonic() - sent < 1.0
    assert "Tess took your call" in phone.get(poll.replace("&amp;", "&"), headers=HX).text


def test_waiting_streams_read_no_table_and_a_change_is_read_once(app: Flask, signed_in: FlaskClient,
                                                                 session: Session, event: Event,
                                                                 database_url: str) -> None:
    players = seated_event(signed_in, session, event)
    connected_notifier(app)
    streams = [_open(app.test_client(), f"/e/{event.public_code}/events")]
    streams += [_open(app.test_client(), f"/p/{player.token}/events") for player in players[:3]]
    marks = [_next_mark(chunks, 5)[0] for chunks in streams]
    assert len(set(marks)) == 1
    seen: list[str] = []
    engines = {app.extensions["db_engine"], live_poll.board_for(app.extensions["db_engine"]).engine}
    for engine in engines:
        sa_event.listen(engine, "before_cursor_execute", lambda _c, _cur, statement, *_a: seen.append(statement))
    for chunks in streams:  # each says its mark again, from what the process knows
        assert _next_mark(chunks, 2)[0] == marks[0]
    assert seen == []
    other = make_engine(database_url)  # another server process checks a player in
    try:
        with other.begin() as connection:
            connection.execute(text("UPDATE player SET checked_in = NOT checked_in WHERE id = :id"),
                               {"id": players[5].id})
        news = {_next_mark(chunks, 2, other_than=marks[0])[0] for chunks in streams}
    finally:
        other.dispose()
    assert len(news) == 1
    assert len([s for s in seen if "public_code, e.public_page" in s]) == 1, seen


def test_the_overview_hears_of_a_move_and_only_staff_follow_it(app: Flask, signed_in: FlaskClient,
                                                               session: Session) -> None:
    event, _rnd, views = live_round(session, 4)
    overview = f"/events/{event.id}/rounds/1/live"
    assert f'data-stream="{overview}/events"' in signed_in.get(overview).text
    stranger = app.test_client()
    refused = stranger.get(f"{overview}/events")
    assert refused.status_code in (302, 403, 404) and refused.mimetype != "text/event-stream"
    connected_notifier(app)
    chunks = _open(signed_in, f"{overview}/events")
    first = _next_mark(chunks, 5)[0]
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    seat = SeatClient(app.test_client(), view.seats[1].seat.token, 1)
    seat.page()
    state = true_state(app, table_id)
    assert seat.post(form_of(state.legal_actions(1)[0])).status_code == 200
    sent = time.monotonic()  # the change is committed once its request is answered
    _next_mark(chunks, 1.0, other_than=first)
    assert time.monotonic() - sent < 1.0


def test_no_stream_where_none_is_served(database_url: str, tmp_path: Path) -> None:
    polling = make_app(database_url, tmp_path, AUTO_MIGRATE=False)
    try:
        with Session(polling.extensions["db_engine"], expire_on_commit=False) as db:
            event, _rnd, _views = live_round(db, 4)
            player_token = db.exec(text("SELECT token FROM player")).first()[0]  # type: ignore[call-overload, index]
        client = polling.test_client()
        for page in (f"/e/{event.public_code}", f"/p/{player_token}"):
            assert client.get(f"{page}/events").status_code == 204  # EventSource: do not reconnect
            assert "data-stream" not in client.get(page).text
    finally:
        polling.extensions["db_engine"].dispose()


def test_a_wrong_code_or_token_has_no_stream_and_a_page_switched_off_ends_its(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    seated_event(signed_in, session, event)
    client = app.test_client()
    secrets = secrets_of(session, event)
    for url in (f"/e/{event.public_code}x/events", "/p/no-such-player-token-at-all/events", "/p/short/events",
                "/e/%00/events"):
        answer = client.get(url)
        assert answer.status_code in (400, 404) and answer.mimetype != "text/event-stream", url
        assert not any(secret in answer.text for secret in secrets)
    connected_notifier(app)
    done = threading.Event()
    response = client.get(f"/e/{event.public_code}/events", buffered=False)

    def read() -> None:
        for _chunk in response.response:
            pass
        done.set()

    threading.Thread(target=read, daemon=True).start()
    event.public_page = False
    session.add(event)
    session.commit()
    assert done.wait(2), "the stream of a page switched off went on"
    assert client.get(f"/e/{event.public_code}/events").status_code == 404


def test_a_stream_the_database_cannot_open_now_is_busy_not_an_error(app: Flask, event: Event,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    board = live_poll.board_for(app.extensions["db_engine"])

    def gone(_code: str) -> int:
        raise OperationalError("SELECT", {}, Exception("the server closed the connection"))

    monkeypatch.setattr(board, "page_event", gone)
    answer = app.test_client().get(f"/e/{event.public_code}/events")
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"  # the page's script tries again


def test_a_stream_woken_by_changes_that_leave_its_mark_still_says_it_is_alive(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event, database_url: str) -> None:
    players = seated_event(signed_in, session, event)
    connected_notifier(app)
    chunks = _open(app.test_client(), f"/e/{event.public_code}/events")
    first = _next_mark(chunks, 5)[0]
    other = make_engine(database_url)
    busy = threading.Event()

    def write() -> None:  # commits that wake the event's streams and change nothing the page shows
        for number in itertools.count():
            if busy.is_set():
                return
            with other.begin() as connection:  # (an address: the pages show none)
                connection.execute(text("UPDATE player SET email = :email WHERE id = :id"),
                                   {"email": f"p{number}@example.org", "id": players[0].id})
            time.sleep(0.05)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        said = []
        ends = time.monotonic() + 2.2
        while time.monotonic() < ends:
            with contextlib.suppress(queue.Empty):
                said.append(_next_mark(chunks, ends - time.monotonic())[0])
    finally:
        busy.set()
        writer.join(5)
        other.dispose()
    assert said and set(said) == {first}
    assert len(said) >= 3, said  # every HEARTBEAT_SECONDS (0.5 s here), however often it was woken


def test_a_stream_opened_while_its_process_connects_is_told_once_it_listens(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    """A restarted server: every phone opens its stream again before the process listens."""
    monkeypatch.setattr(stream, "HEARTBEAT_SECONDS", 5.0)  # as served: a stream told nothing waits this long
    seated_event(signed_in, session, event)
    phone = app.test_client()
    notifier = connected_notifier(app)
    notifier._reset(False)  # as while its listening connection is opened
    chunks = _open(phone, f"/e/{event.public_code}/events")
    first = _next_mark(chunks, 5)[0]
    time.sleep(0.2)  # the stream waits, told of nothing
    notifier._reset(True)  # listening: every change from now on is heard
    time.sleep(0.1)
    assert signed_in.post(f"/events/{event.id}/rounds/1/tables/1/result", data=_result_form(session)).status_code == 302
    sent = time.monotonic()  # the change is committed once its request is answered
    _next_mark(chunks, 1.0, other_than=first)
    assert time.monotonic() - sent < 1.0
