"""Backups of the installation's database, while it runs: SQLite through its online backup API
(a consistent copy even mid-write), PostgreSQL through ``pg_dump``; restoring one into an empty
installation; and the automatic SQLite snapshots taken when a round is published or results are
settled, the last :data:`KEEP` kept beside the database in ``backups/``. No web framework here;
the commands are ``flask --app organizer backup`` and ``restore`` (:mod:`organizer.cli`)."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, select
from sqlalchemy.engine import make_url
from sqlmodel import Session, SQLModel

from organizer.core import signals
from organizer.core.db import normalise_url
from organizer.core.models import InstallationSecret

log = logging.getLogger(__name__)

#: automatic snapshots kept; the oldest beyond these are deleted
KEEP = 10
SQLITE_HEADER = b"SQLite format 3\x00"
PG_DUMP_HEADER = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


def sqlite_file(database_url: str) -> Path | None:
    """The SQLite database file of ``database_url``, or None for another database (or memory)."""
    url = make_url(normalise_url(database_url))
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


def _libpq_url(database_url: str) -> str:
    """The URL as ``pg_dump`` reads it (no SQLAlchemy driver name)."""
    url = make_url(normalise_url(database_url)).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def copy_sqlite(source: Path, target: Path) -> None:
    """An online copy of ``source`` (readers and writers carry on) into ``target``, written
    under a temporary name first so that ``target`` is always whole."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    with closing(sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True, timeout=30)) as reading, \
            closing(sqlite3.connect(partial)) as writing:
        reading.backup(writing)
    os.replace(partial, target)


def backup(database_url: str, target: Path) -> str:
    """The database of ``database_url`` into the file ``target``; what was done, in words."""
    target = target.expanduser()
    if target.is_dir():
        raise BackupError(f"{target} is a folder; give the backup's file name (organizer-backup.sqlite3, say).")
    if not target.parent.is_dir():
        raise BackupError(f"The folder {target.parent} does not exist.")
    source = sqlite_file(database_url)
    if source is not None:
        if not source.exists():
            raise BackupError(f"The database {source} does not exist yet: nothing to back up.")
        copy_sqlite(source, target)
        return f"SQLite database {source} backed up to {target} ({target.stat().st_size:,} bytes)."
    if make_url(normalise_url(database_url)).get_backend_name() != "postgresql":
        raise BackupError("Only SQLite and PostgreSQL databases can be backed up here.")
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError("pg_dump was not found: install PostgreSQL's client programs (apt-get install "
                          "postgresql-client, of the server's version or newer) and try again.")
    done = subprocess.run([pg_dump, "--format=custom", "--no-owner", "--file", str(target), "--dbname",
                           _libpq_url(database_url)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        target.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {done.stderr.strip() or done.returncode}")
    return f"PostgreSQL database backed up to {target} with pg_dump ({target.stat().st_size:,} bytes)."


def rows_stored(engine: Engine) -> int:
    """How many rows the organizer's tables hold (0: an empty installation). The installation's
    own signing key, made at its first start, is not content: a restore replaces it with the
    backup's, so the sessions of the backed-up installation carry on."""
    total = 0
    with engine.connect() as connection:
        for table in SQLModel.metadata.sorted_tables:
            if table.name == InstallationSecret.__tablename__:
                continue
            total += int(connection.execute(select(func.count()).select_from(table)).scalar_one())
    return total


def restore(database_url: str, engine: Engine, source: Path, force: bool = False) -> str:
    """The backup ``source`` into the database of ``database_url`` (whose ``engine`` is given, and
    disposed of here); refused when the database holds anything, unless ``force``."""
    source = source.expanduser()
    try:
        with source.open("rb") as handle:
            header = handle.read(16)
    except OSError as unreadable:
        raise BackupError(f"Cannot read {source}: {unreadable.strerror}.") from None
    stored = rows_stored(engine)
    if stored and not force:
        raise BackupError(f"This installation's database is not empty ({stored:,} rows): restoring would replace "
                          "everything in it. Restore into a new installation, or add --force to replace it.")
    engine.dispose()
    target = sqlite_file(database_url)
    if target is not None:
        if header != SQLITE_HEADER:
            raise BackupError(f"{source} is not a SQLite backup (this installation uses SQLite).")
        with closing(sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True)) as reading, \
                closing(sqlite3.connect(target, timeout=30)) as writing:
            reading.backup(writing)
        return f"{source} restored into {target}."
    if not header.startswith(PG_DUMP_HEADER):
        raise BackupError(f"{source} is not a pg_dump backup (this installation uses PostgreSQL).")
    pg_restore = shutil.which("pg_restore")
    if pg_restore is None:
        raise BackupError("pg_restore was not found: install PostgreSQL's client programs (apt-get install "
                          "postgresql-client) and try again.")
    done = subprocess.run([pg_restore, "--clean", "--if-exists", "--no-owner", "--single-transaction", "--dbname",
                           _libpq_url(database_url), str(source)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"pg_restore failed: {done.stderr.strip() or done.returncode}")
    return f"{source} restored into the PostgreSQL database."


def snapshot(database: Path, reason: str, keep: int = KEEP, now: datetime | None = None) -> Path:
    """An online copy of the SQLite ``database`` into ``backups/`` beside it, named by the time
    and ``reason``; the oldest beyond ``keep`` are deleted."""
    folder = database.parent / "backups"
    folder.mkdir(exist_ok=True)
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S-%f")
    target = folder / f"{database.stem}-{stamp}-{reason}.sqlite3"
    copy_sqlite(database, target)
    for old in sorted(folder.glob(f"{database.stem}-*.sqlite3"))[:-keep]:
        old.unlink(missing_ok=True)
    return target


def _snapshot_of(session: Any, reason: str) -> None:
    """A snapshot of the session's SQLite database; a failure is logged, never raised (the
    round is published all the same)."""
    if not isinstance(session, Session):  # a test's stand-in sender
        return
    bind = session.get_bind()
    engine = bind if isinstance(bind, Engine) else bind.engine
    database = sqlite_file(engine.url.render_as_string(hide_password=False))
    if database is None or not database.exists():
        return
    try:
        snapshot(database, reason)
    except (OSError, sqlite3.Error) as failed:
        log.warning("No snapshot of %s after %s: %s", database, reason, failed)


@signals.round_published.connect
def snapshot_published_round(session: Any, **_: Any) -> None:
    _snapshot_of(session, "published")


@signals.results_settled.connect
def snapshot_settled_results(session: Any, **_: Any) -> None:
    _snapshot_of(session, "settled")


def empty_database(engine: Engine) -> int:
    """Delete every row of the organizer's tables (the schema and its version stay), children
    before parents, in one transaction; how many rows went."""
    deleted = 0
    with engine.begin() as connection:
        for table in reversed(SQLModel.metadata.sorted_tables):
            deleted += int(connection.execute(table.delete()).rowcount or 0)
    return deleted


def start_clean(database_url: str, engine: Engine, folder: Path, now: datetime | None = None) -> tuple[Path, int]:
    """Back the database up into ``folder`` (made if missing), then empty it: the next visit opens
    the first-run page. Returns the backup's path and the rows deleted; nothing is deleted when
    the backup fails (:class:`BackupError`)."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    suffix = ".sqlite3" if sqlite_file(database_url) is not None else ".pgdump"
    target = folder / f"before-start-clean-{stamp}{suffix}"
    backup(database_url, target)
    return target, empty_database(engine)
