"""The server killed with SIGKILL in the middle of a result submission, then restarted on the
same database: what was committed is all there, nothing half-written shows, the table goes on."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.system.faults.conftest import (
    TABLE,
    audit_actions,
    integrity,
    post_in_background,
    result_of,
    signed_in,
    totals_form,
    wait_for,
)
from tests.system.faults.harness import ServerProcess

POINTS, SPECIES = [31, 24, 17, 9], [6, 5, 5, 4]


def _pause(tmp_path: Path, table: int, at: str) -> dict[str, str]:
    return {"fault_pause_path": rf"/tables/{table}/result$", "fault_pause_at": at,
            "fault_marker": str(tmp_path / "marker")}


def test_killed_before_commit_leaves_no_trace(servers: Callable[..., ServerProcess], demo_db: Path,
                                              tmp_path: Path) -> None:
    """The new result is written into the open transaction (flushed), then the power goes."""
    server = servers(**_pause(tmp_path, 3, "after_flush:1"))
    client = signed_in(server)
    page = client.get(TABLE.format(3)).text
    form = totals_form(page, POINTS, SPECIES)
    thread, outcome = post_in_background(client, TABLE.format(3) + "/result", form)
    wait_for(tmp_path / "marker")
    server.kill()
    thread.join(10)
    assert isinstance(outcome[0], Exception), "the server answered although it was killed"

    assert integrity(demo_db) == "ok"
    assert result_of(demo_db, 3) is None, "a half-written result survived the crash"

    restarted = servers()
    client = signed_in(restarted)
    page = client.get(TABLE.format(3)).text
    assert "Enter the result" in page and "31" not in page
    # The table goes on: the same entry, typed again, is stored normally.
    assert client.post(TABLE.format(3) + "/result", form).status == 302
    stored = result_of(demo_db, 3)
    assert stored is not None and stored[1] == 1
    assert [seat["points"] for seat in json.loads(stored[3])] == POINTS
    assert [a for a, _ in audit_actions(demo_db, stored[0])] == ["result.entered"]


def test_killed_after_commit_keeps_the_result_and_a_resend_is_not_applied_twice(
        servers: Callable[..., ServerProcess], demo_db: Path, tmp_path: Path) -> None:
    """Committed, then killed before the answer left: the tablet never heard back, so the player
    taps Save again. The result is there once, and the resend is refused as a conflict."""
    server = servers(**_pause(tmp_path, 3, "after_commit:1"))
    client = signed_in(server)
    form = totals_form(client.get(TABLE.format(3)).text, POINTS, SPECIES)
    thread, outcome = post_in_background(client, TABLE.format(3) + "/result", form)
    wait_for(tmp_path / "marker")
    server.kill()
    thread.join(10)
    assert isinstance(outcome[0], Exception)

    assert integrity(demo_db) == "ok"
    stored = result_of(demo_db, 3)
    assert stored is not None, "a committed result was lost"
    assert [seat["points"] for seat in json.loads(stored[3])] == POINTS
    assert [a for a, _ in audit_actions(demo_db, stored[0])] == ["result.entered"]

    restarted = servers()
    client = signed_in(restarted)
    assert "Enter the result" not in client.get(TABLE.format(3)).text
    resend = client.post(TABLE.format(3) + "/result", form)
    assert resend.status == 409 and "not</strong> saved" in resend.text
    again = result_of(demo_db, 3)
    assert again is not None and again[1] == 1, "the resend overwrote or duplicated the result"


def test_killed_in_the_middle_of_a_correction(servers: Callable[..., ServerProcess], demo_db: Path,
                                              tmp_path: Path) -> None:
    """Table 2's result is corrected; the server dies right after the first commit of that
    request. Whatever is stored afterwards must be whole: a corrected result always comes with
    the audit entry that says who changed what (the audit log must never miss a change)."""
    before = result_of(demo_db, 2)
    assert before is not None and before[1] == 1
    server = servers(**_pause(tmp_path, 2, "after_commit:1"))
    client = signed_in(server)
    page = client.get(TABLE.format(2) + "?edit=1&mode=totals").text
    form = totals_form(page, POINTS, SPECIES, version=1)
    thread, _ = post_in_background(client, TABLE.format(2) + "/result", form)
    wait_for(tmp_path / "marker")
    server.kill()
    thread.join(10)

    assert integrity(demo_db) == "ok"
    after = result_of(demo_db, 2)
    assert after is not None
    actions = [a for a, _ in audit_actions(demo_db, after[0])]
    if after[1] == 2:
        assert "result.corrected" in actions, "the correction is stored but the audit log does not show it"
    else:
        assert after == before and "result.corrected" not in actions

    restarted = servers()
    client = signed_in(restarted)
    assert f"version {after[1]}" in client.get(TABLE.format(2)).text


def test_repeated_kills_at_random_moments_never_corrupt(servers: Callable[..., ServerProcess], demo_db: Path,
                                                        tmp_path: Path) -> None:
    """Kill the server at a random moment while tablets keep submitting, several times over:
    after each restart the database is intact and every stored result has its audit entry."""
    import random
    import threading

    rng = random.Random(6)
    versions_seen: list[int] = []
    for attempt in range(2):
        server = servers()
        client = signed_in(server)
        stop = threading.Event()

        def keep_submitting(client: Any, stop: threading.Event) -> None:
            while not stop.is_set():
                try:
                    page = client.get(TABLE.format(3) + "?edit=1&mode=totals").text
                    stored = result_of(demo_db, 3)
                    version = stored[1] if stored else 0
                    client.post(TABLE.format(3) + "/result",
                                totals_form(page, [rng.randint(0, 60) for _ in range(4)], SPECIES, version))
                except Exception:  # noqa: BLE001 - the server was killed under this request
                    return

        worker = threading.Thread(target=keep_submitting, args=(client, stop), daemon=True)
        worker.start()
        # kill once this server has stored a submission of its own (however slow the machine is),
        # then at a random moment of the next ones
        before = (result_of(demo_db, 3) or (0, 0))[1]
        deadline = time.monotonic() + 30
        while (result_of(demo_db, 3) or (0, 0))[1] <= before and time.monotonic() < deadline:
            threading.Event().wait(0.05)
        threading.Event().wait(rng.random() * 0.5)
        server.kill()
        stop.set()
        worker.join(10)
        assert integrity(demo_db) == "ok", f"kill {attempt + 1}: database corrupt"
        stored = result_of(demo_db, 3)
        if stored is not None:
            logged = [json.loads(new)["version"] for action, new in audit_actions(demo_db, stored[0])
                      if action in ("result.entered", "result.corrected")]
            assert stored[1] in logged, f"kill {attempt + 1}: version {stored[1]} stored without its audit entry"
            versions_seen.append(stored[1])
    # The kills must have hit a server that was really storing results: otherwise this test
    # would pass on a server that never saved anything.
    assert versions_seen and versions_seen[-1] >= 2, f"too few submissions were stored: {versions_seen}"
    final = servers()
    assert signed_in(final).get(TABLE.format(3)).status == 200
