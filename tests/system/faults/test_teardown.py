"""The end of a request when the database went away meanwhile (a PostgreSQL restart: the
session's closing rollback raises), gunicorn's logs without players' tokens, and a long SQLite
lock answered with the 503 page before gunicorn would kill the worker."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

from tests.system.faults.conftest import FAULT_FACTORY
from tests.system.faults.harness import Client, ServerProcess

PRODUCTION = ["-c", "python:organizer.live_gunicorn", "--access-logfile", "-"]


def _player_token(database: Path) -> str:
    with sqlite3.connect(database) as connection:
        token = connection.execute("SELECT token FROM player ORDER BY id LIMIT 1").fetchone()[0]
    assert len(token) >= 16
    return str(token)


def test_a_failing_rollback_after_the_response_never_becomes_a_bare_error(fault_demo_template: Path,
                                                                          tmp_path: Path) -> None:
    """Every request's closing rollback raises as after a PostgreSQL restart: each finished page
    still arrives whole (the player's page, a sign-in), the failure is logged, and gunicorn's logs
    (access and error) never hold the player's token."""
    database = tmp_path / "organizer.sqlite3"
    shutil.copy(fault_demo_template, database)
    token = _player_token(database)
    with ServerProcess(f"sqlite:///{database}", tmp_path / "instance", factory=FAULT_FACTORY, args=PRODUCTION,
                       workers=2, env={"FAULT_CLOSE_RAISES": "."}) as server:
        client = Client(server.url)
        for _ in range(3):
            page = client.get(f"/p/{token}")
            assert page.status == 200 and "Internal Server Error" not in page.text
        reply = client.post("/sign-in", {"name": "demo", "password": "demo"})
        assert reply.status == 302
        assert client.get("/").status == 200
        assert client.get(f"/play/{token}x").status == 404
        time.sleep(0.5)  # the access log is written after the response
        log = server.log()
    assert "closing the request's database session failed" in log
    assert "/p/[token]" in log, "the access log names the page without its token"
    assert token not in log, "a player's token in the server's log"


def test_a_lock_held_past_the_busy_timeout_gives_the_503_page_not_a_killed_worker(fault_demo_template: Path,
                                                                                   tmp_path: Path) -> None:
    """Another program holds the SQLite file for longer than the app waits: the request gets the
    app's own "busy, not saved" page within gunicorn's worker timeout (30 s, the production
    settings), and the worker lives on."""
    database = tmp_path / "organizer.sqlite3"
    shutil.copy(fault_demo_template, database)
    with ServerProcess(f"sqlite:///{database}", tmp_path / "instance", args=PRODUCTION, workers=1,
                       timeout=30) as server:
        client = Client(server.url, timeout=60)
        client.get("/sign-in")
        holder = sqlite3.connect(database, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            started = time.monotonic()
            reply = client.post("/sign-in", {"name": "demo", "password": "demo"})
            waited = time.monotonic() - started
        finally:
            holder.rollback()
            holder.close()
        assert reply.status == 503 and "not saved" in reply.text.lower(), (reply.status, reply.text[:300])
        assert waited < 25, f"answered after {waited:.1f} s"
        assert "WORKER TIMEOUT" not in server.log()
        assert client.post("/sign-in", {"name": "demo", "password": "demo"}).status == 302
