"""The race suite's server: gunicorn with several worker processes, one per test module and
database (SQLite always; PostgreSQL too when TEST_DATABASE_URL is set, in a schema of the
module and worker's own that is created and dropped around it). The database is migrated and
holds the demo event and account (demo / demo), as ``flask --app organizer demo`` makes them:
on SQLite a copy of one file prepared once per run, on PostgreSQL prepared in the new schema.

``RACE_TRIALS`` sets the trials per race (default 50)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.system.faults.harness import add_demo
from tests.system.races.harness import RaceServer, postgres_schema, running_server

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


@pytest.fixture(scope="module", params=_BACKENDS)
def race_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RaceServer]:
    module = request.module.__name__.rsplit(".", 1)[-1]
    folder: Path = tmp_path_factory.mktemp(f"races-{module}")
    with ExitStack() as stack:
        if request.param == "sqlite":
            database = folder / "organizer.sqlite3"
            shutil.copy(request.getfixturevalue("race_demo_template"), database)
            url = f"sqlite:///{database}"
        else:
            # a module's tests may run on several pytest-xdist workers at once, each with a server
            # of its own: the worker's name keeps one from dropping the other's schema
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            url = stack.enter_context(postgres_schema(os.environ["TEST_DATABASE_URL"], f"races_{module}_{worker}"))
        yield stack.enter_context(running_server(url, folder / "instance", prepared=request.param == "sqlite"))
