"""A server on the demo database that the tests may kill and restart."""

from __future__ import annotations

import re
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.system.faults.harness import CHEAP_HASH, Client, Reply, ServerProcess, demo_database, sign_in

FAULT_FACTORY = "tests.system.faults.fault_app:create_app()"
TABLE = "/events/1/rounds/1/tables/{}"


@pytest.fixture(scope="session")
def fault_demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo database, migrated and filled once; every test gets a copy of the file."""
    path = tmp_path_factory.mktemp("fault-demo") / "organizer.sqlite3"
    demo_database(path)
    return path


@pytest.fixture
def demo_db(fault_demo_template: Path, tmp_path: Path) -> Path:
    path = tmp_path / "organizer.sqlite3"
    shutil.copy(fault_demo_template, path)
    return path


@pytest.fixture
def servers(demo_db: Path, tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Start servers on the demo database (a new one after a kill reuses the same file and
    instance folder, as a restart does); all are stopped at the end."""
    started: list[ServerProcess] = []

    def start(**env: str) -> ServerProcess:
        server = ServerProcess(f"sqlite:///{demo_db}", tmp_path / "instance", factory=FAULT_FACTORY,
                               env={"FAULT_HASH_METHOD": CHEAP_HASH, **{key.upper(): value for key, value in env.items()}})
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.kill()  # nothing is checked after the test, and gunicorn's quick shutdown takes its second


def signed_in(server: ServerProcess) -> Client:
    client = Client(server.url)
    assert sign_in(client, "demo", "demo").status == 302
    return client


def seat_ids(page: str) -> list[int]:
    return [int(n) for n in dict.fromkeys(re.findall(r'name="species_(\d+)"', page))]


def totals_form(page: str, points: list[int], species: list[int], version: int = 0) -> dict[str, str]:
    form = {"mode": "totals", "version": str(version)}
    for seat, p, s in zip(seat_ids(page), points, species, strict=True):
        form[f"points_{seat}"] = str(p)
        form[f"species_{seat}"] = str(s)
    return form


def post_in_background(client: Client, path: str, form: dict[str, str]) -> tuple[threading.Thread, list[Any]]:
    """Submit without waiting: the server will be killed before it answers."""
    outcome: list[Any] = []

    def submit() -> None:
        try:
            outcome.append(client.post(path, form))
        except Exception as error:  # noqa: BLE001 - the connection dies with the server
            outcome.append(error)

    thread = threading.Thread(target=submit, daemon=True)
    thread.start()
    return thread, outcome


def wait_for(marker: Path, seconds: float = 20) -> str:
    deadline = time.monotonic() + seconds
    while not marker.exists():
        assert time.monotonic() < deadline, "the request never reached the fault point"
        time.sleep(0.02)
    return marker.read_text()


def rows(database: Path, query: str, *args: Any) -> list[tuple[Any, ...]]:
    connection = sqlite3.connect(database, timeout=5)
    try:
        return connection.execute(query, args).fetchall()
    finally:
        connection.close()


def integrity(database: Path) -> str:
    return str(rows(database, "PRAGMA integrity_check")[0][0])


def result_of(database: Path, table_number: int) -> tuple[Any, ...] | None:
    found = rows(database, """SELECT result.id, result.version, result.status, result.seats FROM result
                              JOIN gametable ON gametable.id = result.table_id
                              WHERE gametable.number = ?""", table_number)
    return found[0] if found else None


def audit_actions(database: Path, result_id: int) -> list[tuple[str, str]]:
    return [(a, n) for a, n in rows(database, "SELECT action, new FROM auditentry WHERE result_id = ? ORDER BY id", result_id)]


__all__ = ["Reply"]
