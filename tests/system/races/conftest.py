"""The race suite's server: gunicorn with several worker processes on each database (SQLite
always; PostgreSQL too when TEST_DATABASE_URL is set, in a schema of the pytest-xdist worker's
own that is created and dropped around it). Every test module starts from the migrated demo
event and account (demo / demo), as ``flask --app organizer demo`` makes them (on SQLite a copy
of one file prepared once per run, on PostgreSQL prepared in the new schema), served by worker
processes of its own: a module following another race module gets the database put back and
the workers renewed rather than a new server.

``RACE_TRIALS`` sets the trials per race (default 50)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.system.faults.harness import add_demo
from tests.system.races.harness import RaceServer, postgres_schema, renew_workers, restore_demo, running_server

_BACKENDS = [pytest.param("sqlite", id="sqlite")]
if os.environ.get("TEST_DATABASE_URL"):
    _BACKENDS.append(pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "races: fires simultaneous requests at a multi-process server "
                                       "(tests/system/races; RACE_TRIALS trials per race)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/system/races/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.races)


@pytest.fixture(scope="session")
def race_demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The migrated demo database, made once: each module's server starts on a copy of the file."""
    path = tmp_path_factory.mktemp("races-template") / "organizer.sqlite3"
    add_demo(f"sqlite:///{path}")
    return path


class _Servers:
    """The race servers of this process, one per database, started by the first race module that
    needs one and kept while race modules follow one another. Each module gets the server's
    database put back to the demo and new worker processes (forked from the arbiter's preloaded
    app, as a restart would give them): it meets what a server started for it would show, at a
    fraction of a start's cost (most of which is importing the app)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.running: dict[str, tuple[RaceServer, ExitStack]] = {}

    def for_module(self, backend: str, template: Path) -> RaceServer:
        if backend in self.running:
            shared, _ = self.running[backend]
            renew_workers(shared.server)
            restore_demo(shared.database_url, template if backend == "sqlite" else None)
            shared.engine.dispose()  # no connection of the test process from before the restore
            return RaceServer(shared.server, shared.database_url, shared.engine)
        stack = ExitStack()
        folder = self.folder / backend
        folder.mkdir(parents=True, exist_ok=True)
        try:
            if backend == "sqlite":
                database = folder / "organizer.sqlite3"
                shutil.copy(template, database)
                url = f"sqlite:///{database}"
            else:
                # tests may run on several pytest-xdist workers at once, each with a server of
                # its own: the worker's name keeps one from dropping the other's schema
                worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
                url = stack.enter_context(postgres_schema(os.environ["TEST_DATABASE_URL"], f"races_{worker}"))
            shared = stack.enter_context(running_server(url, folder / "instance", prepared=backend == "sqlite"))
        except BaseException:
            stack.close()
            raise
        self.running[backend] = (shared, stack)
        return RaceServer(shared.server, shared.database_url, shared.engine)

    def close(self) -> None:
        while self.running:
            _, (_, stack) = self.running.popitem()
            stack.close()


_servers: _Servers | None = None


@pytest.fixture(scope="session")
def race_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Servers]:
    global _servers
    _servers = _Servers(tmp_path_factory.mktemp("races"))
    try:
        yield _servers
    finally:
        _servers.close()
        _servers = None


def _is_race(item: pytest.Item | None) -> bool:
    return item is not None and "tests/system/races/" in str(item.fspath).replace(os.sep, "/")


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """The servers stop once no race module follows (the process goes on to other suites)."""
    if _servers is not None and not _is_race(nextitem):
        _servers.close()


@pytest.fixture(scope="module", params=_BACKENDS)
def race_server(request: pytest.FixtureRequest, race_servers: _Servers, race_demo_template: Path) -> RaceServer:
    return race_servers.for_module(request.param, race_demo_template)
