"""Seats acting at the same instant, double taps, and a server restart in the middle of a draft:
every action is applied exactly once, in one order, and nothing is lost."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from pathlib import Path

from flask import Flask
from sqlmodel import Session

from organizer.live import seats as live_seats
from tests.fixtures.organizer import make_app
from tests.live.support import (
    VERSION,
    SeatClient,
    assert_hides,
    fast_sqlite,
    form_of,
    live_round,
    play_whole_game,
    seat_clients,
    stored_log,
    true_state,
)


def test_all_seats_pick_at_the_same_instant_many_times(app: Flask, session: Session) -> None:
    fast_sqlite(app)
    _, _, views = live_round(session, 4, "draft")
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    seats = seat_clients(app, view)
    for seat in seats:
        seat.page()
    rng = random.Random(3)
    sent: list[tuple[int, str]] = []
    for _ in range(14):  # the whole 4-player draft: 2 rounds of 7 picks
        state = true_state(app, table_id)
        plans = []
        for seat in seats:
            seat.page()
            action = rng.choice(state.legal_actions(seat.position))
            nonce, stamp = seat.nonce_and_stamp()
            plans.append((seat, action, nonce, stamp))
            sent.append((seat.position, nonce))
        barrier = threading.Barrier(8)
        statuses: list[int] = []
        errors: list[BaseException] = []

        def tap(seat: SeatClient, fields: dict[str, str], nonce: str, stamp: str, barrier: threading.Barrier,
                statuses: list[int], errors: list[BaseException]) -> None:
            client = seat.client.application.test_client()  # each thread its own device
            try:
                barrier.wait()
                response = client.post(f"{seat.url}/act", data={"nonce": nonce, "stamp": stamp, **fields},
                                       headers={"HX-Request": "true"})
                statuses.append(response.status_code)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        # every seat taps twice at once (a double tap): 8 requests at the same instant
        threads = [threading.Thread(target=tap, args=(seat, form_of(action), nonce, stamp, barrier, statuses, errors))
                   for seat, action, nonce, stamp in plans for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert not errors and statuses == [200] * 8, (errors, statuses)
        after = true_state(app, table_id)
        assert after.version == state.version + 4  # four picks, each stored once, then the reveal
    state = true_state(app, table_id)
    assert state.is_terminal()
    log = stored_log(app, table_id)
    nonces = Counter(str(entry[2]) for entry in log)
    assert all(count == 1 for count in nonces.values())
    assert {nonce for _, nonce in sent} == set(nonces)
    assert len(log) == 56


def test_two_app_processes_share_one_table(database_url: str, tmp_path: Path, session: Session) -> None:
    """Two app objects (two server processes) on one database: each seat alternates between
    them, and both always show the same, current game."""
    first = fast_sqlite(make_app(database_url, tmp_path))
    second = fast_sqlite(make_app(database_url, tmp_path))
    try:
        with Session(first.extensions["db_engine"], expire_on_commit=False) as db:
            _, _, views = live_round(db, 3, "draft", table_size=3)
        view = views[0]
        table_id = view.table.id
        assert table_id is not None
        rng = random.Random(9)
        for step in range(14):  # two of the three rounds; the game goes on below
            state = true_state(first, table_id)
            for position in state.awaited_seats():
                token = view.seats[position].seat.token
                app = first if (step + position) % 2 else second
                seat = SeatClient(app.test_client(), token, position)
                html = seat.page()
                assert_hides(html, state, position)
                response = seat.post(form_of(rng.choice(state.legal_actions(position))))
                assert response.status_code == 200, response.text
        assert true_state(first, table_id).version == true_state(second, table_id).version == 14 * 3
        # a poll served by one process sees at once a change stored by the other
        watcher = SeatClient(first.test_client(), view.seats[0].seat.token, 0)
        since = int(VERSION.search(watcher.page()).group(1))  # type: ignore[union-attr]
        assert watcher.client.get(f"{watcher.url}/changed?since={since}").status_code == 204
        other = SeatClient(second.test_client(), view.seats[1].seat.token, 1)
        other.page()
        state = true_state(second, table_id)
        assert other.post(form_of(rng.choice(state.legal_actions(1)))).status_code == 200
        # a phone its stream told of the change asks with it, and the database answers at once
        pushed = f"{watcher.url}/changed?since={since}&pushed={since + 1}"
        assert watcher.client.get(pushed).status_code == 200
        if database_url.startswith("sqlite"):  # the file's data version says so at once
            assert watcher.client.get(f"{watcher.url}/changed?since={since}").status_code == 200
        else:  # the other process's notification arrives within milliseconds
            deadline = time.monotonic() + 2
            while watcher.client.get(f"{watcher.url}/changed?since={since}").status_code == 204:
                assert time.monotonic() < deadline, "the change never reached the other process"
                time.sleep(0.01)
    finally:
        first.extensions["db_engine"].dispose()
        second.extensions["db_engine"].dispose()


def test_restart_in_the_middle_of_a_draft(database_url: str, tmp_path: Path) -> None:
    app = fast_sqlite(make_app(database_url, tmp_path))
    with Session(app.extensions["db_engine"], expire_on_commit=False) as db:
        _, _, views = live_round(db, 2, "draft", table_size=2)
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    seats = seat_clients(app, view)
    rng = random.Random(1)
    for _ in range(10):  # ten picks each, then one seat has chosen the eleventh
        for seat in seats:
            seat.page()
            assert seat.post(form_of(rng.choice(true_state(app, table_id).legal_actions(seat.position)))).status_code == 200
    seats[0].page()
    chosen = rng.choice(true_state(app, table_id).legal_actions(0))
    seats[0].post(form_of(chosen))
    before = true_state(app, table_id)
    page_before = seats[0].page()
    app.extensions["db_engine"].dispose()

    live_seats.clear_caches()  # a new process: nothing in memory
    restarted = fast_sqlite(make_app(database_url, tmp_path))
    try:
        again = SeatClient(restarted.test_client(), seats[0].token, 0)
        page_after = again.page()
        assert true_state(restarted, table_id).version == before.version
        for page in (page_before, page_after):
            note = page.split('class="pending-note">', 1)[1].split("</p>", 1)[0]
            assert "Your choice:" in note and f'title="{chosen.card}"' in note  # type: ignore[union-attr]
        state = play_whole_game(restarted, view, random.Random(2))
        assert state.is_terminal()
        log = stored_log(restarted, table_id)
        assert len({str(entry[2]) for entry in log}) == len(log)
    finally:
        restarted.extensions["db_engine"].dispose()
