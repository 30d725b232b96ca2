"""The server killed with SIGKILL in the middle of a live draft, then restarted on the same
database: the picks committed are there, a pick cut off before its commit is simply not there
(and can be made again), a resent form is applied once, and the draft goes on to its end."""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.live.support import form_of
from tests.system.faults.conftest import FAULT_FACTORY, integrity, post_in_background, wait_for
from tests.system.faults.harness import ServerProcess
from tests.system.faults.live_harness import (
    LiveTable,
    live_database,
    play_step,
    play_to_the_end,
    round_status,
    seats_for,
    stored_log,
    true_state,
)


@pytest.fixture
def draft(sqlite_template: Path, tmp_path: Path) -> LiveTable:
    database = tmp_path / "live.sqlite3"
    shutil.copy(sqlite_template, database)  # migrated once per run
    return live_database(database, 3, "draft", seed=11, migrate=False)


@pytest.fixture
def server_on(draft: LiveTable, tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    started: list[ServerProcess] = []

    def start(**env: str) -> ServerProcess:
        server = ServerProcess(f"sqlite:///{draft.database}", tmp_path / "instance", factory=FAULT_FACTORY,
                               env={key.upper(): value for key, value in env.items()})
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.kill()  # nothing is checked after the test, and gunicorn's quick shutdown takes its second


def _pause(tmp_path: Path, at: str) -> dict[str, str]:
    return {"fault_pause_path": r"^/play/[^/]+/act$", "fault_pause_at": at, "fault_marker": str(tmp_path / "marker")}


@pytest.mark.parametrize("moment", ["before_commit:1", "after_commit:1"])
def test_killed_mid_draft_the_draft_goes_on(server_on: Callable[..., ServerProcess], draft: LiveTable,
                                            tmp_path: Path, moment: str) -> None:
    rng = random.Random(3)
    server = server_on()
    seats = seats_for(server.url, draft)
    for seat in seats:
        seat.open()
    for _ in range(4):  # a few pick rounds played normally
        assert play_step(draft, seats, rng)
    server.stop()

    # The next pick is cut off by a kill, at the moment under test.
    server = server_on(**_pause(tmp_path, moment))
    seats = seats_for(server.url, draft)
    for seat in seats:
        seat.open()
    before = stored_log(draft)
    state = true_state(draft)
    position = sorted(state.awaited_seats())[0]
    action = rng.choice(state.legal_actions(position))
    form = {**seats[position].form(), **form_of(action)}
    thread, outcome = post_in_background(seats[position].client, seats[position].url + "/act", form)
    wait_for(tmp_path / "marker")
    if moment.startswith("before_commit"):
        # Proof that the pick is written but not committed: the server holds the write lock.
        probe = sqlite3.connect(draft.database, timeout=0, isolation_level=None)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            probe.execute("BEGIN IMMEDIATE")
        probe.close()
    server.kill()
    thread.join(10)
    assert isinstance(outcome[0], Exception)
    assert integrity(draft.database) == "ok"

    after = stored_log(draft)
    if moment.startswith("before_commit"):
        assert after == before, "a pick that never committed is in the log"
    else:
        assert len(after) == len(before) + 1, "a committed pick was lost"

    # Restarted: every seat's page opens where it was; the cut-off seat sends its form again.
    server = server_on()
    for seat in seats:
        seat.client.port = server.port
        seat.open()
    again = seats[position].act(form_of(action), form)
    assert again.status == 200, again.text[:300]
    if moment.startswith("after_commit"):
        assert "already done" in again.text
    assert len(stored_log(draft)) == len(before) + 1, "the pick was applied twice or not at all"

    final = play_to_the_end(draft, seats, rng, check_hidden=False)
    assert final.is_terminal() and final.mode == "draft"
    assert all("Final scores" in seat.html for seat in seats)
    assert round_status(draft.database) in ("published", "finished")
