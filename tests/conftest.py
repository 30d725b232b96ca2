"""What every test shares: the tiers' markers, a temporary instance folder for every app a test
builds (nothing is written into the checkout), and one PostgreSQL database per pytest-xdist worker
so the workers never empty each other's tables nor hear each other's notifications."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from jinja2.environment import Environment
from sqlalchemy import event
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.util import LRUCache
from werkzeug.routing.rules import Rule

#: the fixtures of the organizer's tests (an app on SQLite and PostgreSQL, a session, a signed-in
#: client, helpers that make events and players), for every feature's folder
pytest_plugins = ["tests.fixtures.organizer", "tests.fixtures.mail"]

def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_LongSuitesFirst(), "long-suites-first")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    base = os.environ.get("TEST_DATABASE_URL")
    if worker and base and not os.environ.get("TEST_DATABASE_WORKER"):
        os.environ["TEST_DATABASE_URL"] = worker_database_url(base, worker)
        os.environ["TEST_DATABASE_WORKER"] = worker


def worker_database_url(base: str, worker: str) -> str:
    """The URL of the worker's own database beside the test database (created here once).

    A database, not a schema: PostgreSQL sends a notification to every listener of the database,
    and the live tables' listeners (organizer/live/push.py) of one worker would hear the other
    worker's tables and events, numbered from 1 in both. A role that may not create databases
    gets a schema of the worker's own instead (then a stream test may hear the other worker)."""
    from sqlalchemy import text
    from sqlalchemy.exc import ProgrammingError

    from organizer.core.db import make_engine, normalise_url

    suffix = re.sub(r"\W", "", worker)
    engine = make_engine(normalise_url(base))
    name = f"{engine.url.database}_{suffix}"
    try:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            if connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}).first() is None:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
        url = engine.url.set(database=name).render_as_string(hide_password=False)
    except ProgrammingError:
        schema = f"worker_{suffix}"
        with engine.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
        url = engine.url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    engine.dispose()
    return url


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = Path(str(item.fspath)).parts
        if "system" in parts or item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.system)


class _LongSuitesFirst:
    """On a pytest-xdist worker (``.ci/test complete``: ``--dist loadscope --no-loadscope-reorder``,
    a module's tests on one worker, so its server or browser starts once), the system suites go
    first, each in the order pytest gave it: the controller hands out the modules in the order the
    workers collected them, and the short tests fill the gaps at the end. (A plugin object: pytest
    takes hooks only from names that begin with ``pytest_``, so a second hook of the same name in
    this module would not be called.)"""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        if os.environ.get("PYTEST_XDIST_WORKER"):
            items.sort(key=lambda item: item.get_closest_marker("system") is None)


class SharedTemplateCache(BytecodeCache):
    """Compiled templates shared by every app a test run builds, as one long-running server
    compiles each template once (a bucket's key includes the template's source checksum)."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        found = self.code.get(bucket.key)
        if found is not None:
            bucket.bytecode_from_string(found)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


_TEMPLATES = SharedTemplateCache()
_create_environment = Flask.create_jinja_environment


def _environment_with_shared_cache(app: Flask) -> Environment:
    environment = _create_environment(app)
    environment.bytecode_cache = _TEMPLATES
    return environment


Flask.create_jinja_environment = _environment_with_shared_cache  # type: ignore[method-assign]


_RULES: dict[tuple[object, ...], tuple[Any, ...]] = {}
_compile_rule = Rule.compile


def _shared_compile(self: Rule) -> None:
    """A URL rule parsed and its builders compiled once per run: werkzeug parses every rule of
    every app and generates and compiles Python code for its builders (most of building an app),
    and one long-running server does it once. What a rule compiles to depends only on its text,
    its map's settings and converters, and its defaults; the builders are plain functions bound
    to the rule afterwards, and the converters keep nothing of the map they were made for."""
    assert self.map is not None
    defaults = tuple(sorted((name, repr(value)) for name, value in (self.defaults or {}).items()))
    key = (self.rule, self.host, self.subdomain, self.merge_slashes, self.map.host_matching,
           tuple(sorted(self.map.converters.items())), defaults)
    found = _RULES.get(key)
    if found is None:
        _compile_rule(self)
        _RULES[key] = (list(self._parts), list(self._trace), dict(self._converters),
                       self._build.__func__, self._build_unknown.__func__)  # type: ignore[attr-defined]
        return
    parts, trace, converters, build, build_unknown = found
    self._parts, self._trace, self._converters = list(parts), list(trace), dict(converters)
    self.arguments.update(converters)
    self._build = build.__get__(self, None)
    self._build_unknown = build_unknown.__get__(self, None)


Rule.compile = _shared_compile  # type: ignore[method-assign]


_STATEMENTS = LRUCache(5000)


def _same_dialect(self: Dialect, other: object) -> bool:
    return type(other) is type(self) and getattr(other, "server_version_info", None) == self.server_version_info


def _dialect_kind(self: Dialect) -> int:
    return hash(type(self))


def _engine_with_shared_statements(self: Engine, *args: Any, **kwargs: Any) -> None:
    """SQL statements compiled once per run: SQLAlchemy keeps compiled statements per engine
    (keyed by its dialect), every test's app has an engine of its own, and compiling them again
    was a sixth of a page test; one long-running server compiles each once. Dialects of one kind
    and server version compile alike, so they count as one here."""
    _create_engine_state(self, *args, **kwargs)
    if self._compiled_cache is not None:
        self._compiled_cache = _STATEMENTS


_create_engine_state = Engine.__init__
Engine.__init__ = _engine_with_shared_statements  # type: ignore[method-assign]
for _dialect in (SQLiteDialect_pysqlite, PGDialect_psycopg):
    _dialect.__eq__ = _same_dialect  # type: ignore[method-assign,assignment]
    _dialect.__hash__ = _dialect_kind  # type: ignore[method-assign,assignment]


@event.listens_for(Engine, "connect")
def _no_sync_to_disk(dbapi_connection: Any, _record: Any) -> None:
    """A test's SQLite file is thrown away with the test: a commit need not wait for the disk
    (the test PostgreSQL cluster runs with fsync off for the same reason). Every other process
    still sees each commit at once; only a crash of the machine would lose one."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.execute("PRAGMA synchronous=OFF")


@pytest.fixture(autouse=True)
def temporary_instance(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test's apps keep their files (secret key, the public page's fragments) in a folder
    of their own, never in the checkout's instance/."""
    folder = tmp_path_factory.mktemp("instance")
    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(folder))
    yield folder
