"""Database engine, per-request session and schema migrations."""

from __future__ import annotations

import hashlib
import logging
import os
import weakref
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from flask import Flask, current_app, g
from sqlalchemy import Engine, event, text
from sqlmodel import Session, create_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

log = logging.getLogger(__name__)

#: seconds SQLite waits for another writer's lock before the request gets the 503 "busy, not
#: saved" page; well below gunicorn's worker timeout (30 s, ``organizer/live_gunicorn.py``), so a
#: long lock never costs a request its worker and the user a bare error
SQLITE_BUSY_TIMEOUT = 10

#: any number; it only has to be the same in every process upgrading one PostgreSQL database
_MIGRATION_LOCK_KEY = 7_402_118


def normalise_url(url: str) -> str:
    """Accept the plain ``postgresql://`` / ``postgres://`` URLs hosting services hand out and
    use psycopg 3 for them (SQLAlchemy would otherwise look for psycopg2)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        # Threads of the dev server share the file; wait for a writer instead of failing at once.
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
    dbapi_connection.create_function("hashtext", 1, hashtext, deterministic=True)


def hashtext(value: str | None) -> int | None:
    """A text's 32-bit signed hash, for SQL on SQLite under the name of PostgreSQL's ``hashtext``
    (other values, same use: cache stamps summed over rows, compared only with stamps from the
    same database)."""
    if value is None:
        return None
    return int.from_bytes(hashlib.blake2b(str(value).encode(), digest_size=4).digest(), "big", signed=True)


def enable_sqlite_wal(engine: Engine) -> None:
    """Opt-in (``SQLITE_WAL`` / ``ORGANIZER_SQLITE_WAL=1``) for every new connection."""
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_wal)


def _sqlite_wal(dbapi_connection: Any, _record: Any) -> None:
    # Write-ahead log: readers (standings, projector) never wait for a writer, and a commit costs
    # one sync of the log instead of several; synchronous=FULL keeps every commit durable.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return config


def upgrade_database(engine: Engine) -> None:
    """Bring the schema to the newest revision; existing rows are kept (migrations only add or
    transform, the initial one creates)."""
    config = alembic_config(engine)
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several gunicorn workers may start at once: one migrates, the others wait.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def init_app(app: Flask) -> None:
    engine = make_engine(app.config["DATABASE_URL"])
    if app.config.get("SQLITE_WAL"):
        enable_sqlite_wal(engine)
    app.extensions["db_engine"] = engine
    if app.config.get("AUTO_MIGRATE", True):
        upgrade_database(engine)
    # gunicorn --preload builds the app (and migrates) before forking its workers: a pooled
    # connection inherited by several processes would interleave their traffic on one socket.
    # Close the master's connections now, and let each child drop whatever it inherited.
    engine.dispose()
    engine_ref = weakref.ref(engine)

    def forget_inherited_connections() -> None:
        inherited = engine_ref()
        if inherited is not None:
            inherited.dispose(close=False)

    os.register_at_fork(after_in_child=forget_inherited_connections)
    app.teardown_appcontext(_close_session)


def get_engine() -> Engine:
    engine: Engine = current_app.extensions["db_engine"]
    return engine


def get_session() -> Session:
    """The request's session (one per request, closed at teardown)."""
    if "db_session" not in g:
        g.db_session = Session(get_engine(), expire_on_commit=False)
    session: Session = g.db_session
    return session


def _close_session(_exc: BaseException | None) -> None:
    """Closing rolls back whatever the request left open. The response is already made, so a
    database that went away meanwhile (a PostgreSQL restart) is logged, never allowed to turn it
    into the server's bare error page; the broken connection leaves the pool."""
    session = g.pop("db_session", None)
    if session is None:
        return
    try:
        session.close()
    except Exception:
        log.warning("closing the request's database session failed; its connection is dropped", exc_info=True)
        try:
            session.invalidate()
        except Exception:
            log.warning("dropping the request's database connection failed", exc_info=True)
