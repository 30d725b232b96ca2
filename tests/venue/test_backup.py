"""Backups: ``flask --app organizer backup FILE`` while the organizer runs, ``restore FILE`` into an
empty installation (and only with --force into one that holds anything), and the automatic
SQLite snapshots at a round's publishing and closing, the last ten kept."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from psycopg.errors import InsufficientPrivilege
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ProgrammingError
from sqlmodel import Session, select

from organizer.accounts import service as accounts
from organizer.core.db import normalise_url
from organizer.core.models import Event, Round
from organizer.rounds import results
from organizer.rounds import service as rounds
from organizer.venue import backup
from tests.fixtures.organizer import PASSWORD, add_players, create_event, make_app, sign_in
from tests.prints.support import scorepad_result


def _sqlite_app(folder: Path, template: Path | None = None, **overrides: Any) -> Flask:
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / "organizer.sqlite3"
    if template is not None:
        shutil.copy(template, database)
    return make_app(f"sqlite:///{database}", folder, **overrides)


def _standings(client: FlaskClient, event_id: int) -> str:
    page = client.get(f"/events/{event_id}/standings")
    assert page.status_code == 200, page.text[:300]
    main = re.search(r"<main>.*</main>", page.text, re.S)
    assert main is not None
    return re.sub(r'name="csrf_token" value="[^"]*"', "", main.group(0))


def _mid_round(app: Flask) -> tuple[int, int]:
    """An event in the middle of round 1 (two tables' results in, the others still playing) and
    the account Tess; the event's and the round's ids."""
    with Session(app.extensions["db_engine"], expire_on_commit=False) as session:
        accounts.create_organizer(session, "Tess", PASSWORD)
        event = create_event(session, entry_modes=["totals", "scorepad"])
        add_players(session, event, 10)
        rnd = rounds.propose_round(session, event, "test", seed=5)
        rounds.publish_round(session, event, rnd, "test")
        assert rnd.id is not None and event.id is not None
        views = rounds.tables_of(session, rnd.id)
        scorepad_result(session, event, rnd, views[0], seed=1)  # one table done, the others still playing
        scorepad_result(session, event, rnd, views[1], seed=2)
        return event.id, rnd.id


def _backup_then_restore(running: Flask, spare: Flask, file: Path, header: bytes) -> tuple[str, int]:
    """The venue's standings, a backup of its database into ``file`` and its restore into
    ``spare`` (a new installation, empty); the standings read before, and the event's id."""
    event_id, round_id = _mid_round(running)
    client = running.test_client()
    sign_in(client)
    before = _standings(client, event_id)
    assert "Round 1" in before or "round 1" in before.lower()
    made = running.test_cli_runner().invoke(args=["backup", str(file)])
    assert made.exit_code == 0, made.output
    assert f"backed up to {file}" in made.output and file.read_bytes().startswith(header)
    running.extensions["db_engine"].dispose()
    restored = spare.test_cli_runner().invoke(args=["restore", str(file)])
    assert restored.exit_code == 0, restored.output
    assert "restored into" in restored.output
    with Session(spare.extensions["db_engine"]) as session:
        assert session.get(Round, round_id) is not None
    return before, event_id


def test_a_backup_taken_mid_round_restores_into_an_empty_instance_with_the_same_standings(
        tmp_path: Path, sqlite_template: Path) -> None:
    running = _sqlite_app(tmp_path / "venue", sqlite_template)
    # a new installation started as an organizer starts it: it made its own signing key
    spare = _sqlite_app(tmp_path / "spare-laptop", SECRET_KEY=None)
    before, event_id = _backup_then_restore(running, spare, tmp_path / "mid-round.sqlite3", backup.SQLITE_HEADER)
    again = spare.test_client()
    assert sign_in(again).status_code == 302  # the same accounts
    assert _standings(again, event_id) == before
    spare.extensions["db_engine"].dispose()


@pytest.fixture
def two_postgres_databases() -> Iterator[tuple[str, str]]:
    """Two new, empty PostgreSQL databases beside the test database (the venue's and the spare
    installation's, as on two machines), dropped afterwards."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        pytest.skip("a PostgreSQL restore needs TEST_DATABASE_URL (this run is SQLite only)")
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed (apt-get install postgresql-client)")
    url = make_url(normalise_url(base))
    url = url.set(query={key: value for key, value in url.query.items() if key != "options"})
    names = [f"{url.database}_{suffix}_{os.getpid()}" for suffix in ("venue", "spare")]
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            for name in names:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    except ProgrammingError as refused:
        admin.dispose()
        pytest.skip(f"the test role may not create databases: {refused.orig}")
    try:
        yield tuple(url.set(database=name).render_as_string(hide_password=False) for name in names)  # type: ignore[misc]
    finally:
        for name in names:
            _drop(admin, name)
        admin.dispose()


def _drop(admin: Engine, name: str) -> None:
    """Drop the database, whoever is connected. A role that is not a superuser may not end an
    autovacuum worker (a restore's new tables soon get one): that refusal lasts as long as the
    worker, moments, so it is tried again."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except ProgrammingError as refused:
            if not isinstance(refused.orig, InsufficientPrivilege) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


@pytest.mark.postgres
def test_a_pg_dump_taken_mid_round_restores_into_an_empty_database_with_the_same_standings(
        tmp_path: Path, two_postgres_databases: tuple[str, str]) -> None:
    venue_url, spare_url = two_postgres_databases
    running = make_app(venue_url, tmp_path, SECRET_KEY=None)
    venue_key = running.config["SECRET_KEY"]
    spare = make_app(spare_url, tmp_path, SECRET_KEY=None)  # migrated, empty but for its own key
    assert spare.config["SECRET_KEY"] != venue_key
    before, event_id = _backup_then_restore(running, spare, tmp_path / "mid-round.dump", backup.PG_DUMP_HEADER)
    spare.extensions["db_engine"].dispose()
    # the spare server started again on the restored database: the venue's key, so its cookies hold
    restarted = make_app(spare_url, tmp_path, SECRET_KEY=None)
    assert restarted.config["SECRET_KEY"] == venue_key
    again = restarted.test_client()
    assert sign_in(again).status_code == 302  # the same accounts
    assert _standings(again, event_id) == before
    restarted.extensions["db_engine"].dispose()


def test_restore_refuses_a_database_that_holds_anything_unless_forced(tmp_path: Path, sqlite_template: Path) -> None:
    source = _sqlite_app(tmp_path / "a", sqlite_template)
    with Session(source.extensions["db_engine"]) as session:
        create_event(session, name="Kept Open")
    file = tmp_path / "a.sqlite3"
    assert source.test_cli_runner().invoke(args=["backup", str(file)]).exit_code == 0
    target = _sqlite_app(tmp_path / "b", sqlite_template)
    with Session(target.extensions["db_engine"]) as session:
        create_event(session, name="Already Here")
    refused = target.test_cli_runner().invoke(args=["restore", str(file)])
    assert refused.exit_code == 1 and "not empty" in refused.output and "--force" in refused.output
    forced = target.test_cli_runner().invoke(args=["restore", str(file), "--force"])
    assert forced.exit_code == 0, forced.output
    with Session(target.extensions["db_engine"]) as session:
        assert [e.name for e in session.exec(select(Event))] == ["Kept Open"]
    for app in (source, target):
        app.extensions["db_engine"].dispose()


def test_restore_refuses_what_is_not_a_backup(tmp_path: Path, sqlite_template: Path) -> None:
    target = _sqlite_app(tmp_path / "b", sqlite_template)
    (tmp_path / "notes.txt").write_text("not a database")
    refused = target.test_cli_runner().invoke(args=["restore", str(tmp_path / "notes.txt")])
    assert refused.exit_code == 1 and "not a SQLite backup" in refused.output
    folder = target.test_cli_runner().invoke(args=["backup", str(tmp_path)])
    assert folder.exit_code == 2 and "is a directory" in folder.output
    target.extensions["db_engine"].dispose()


def test_pg_dump_missing_is_said_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backup.shutil, "which", lambda name: None)
    with pytest.raises(backup.BackupError, match="pg_dump was not found.*postgresql-client"):
        backup.backup("postgresql+psycopg://arboretum:secret@127.0.0.1/arboretum", tmp_path / "dump")


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="needs TEST_DATABASE_URL")
def test_pg_dump_backs_up_postgresql(postgres_engine: object, tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    message = backup.backup(os.environ["TEST_DATABASE_URL"], tmp_path / "dump")
    assert "pg_dump" in message and (tmp_path / "dump").read_bytes().startswith(backup.PG_DUMP_HEADER)


def test_snapshots_are_taken_at_publishing_and_closing_and_capped(signed_in: FlaskClient, session: Session,
                                                                  database_url: str) -> None:
    database = backup.sqlite_file(database_url)
    if database is None:
        pytest.skip("snapshots are for SQLite")
    folder = database.parent / "backups"
    event = create_event(session, entry_modes=["totals", "scorepad"])
    add_players(session, event, 4)
    rnd = rounds.propose_round(session, event, "test", seed=1)
    published = signed_in.post(f"/events/{event.id}/rounds/1/publish")
    assert published.status_code in (200, 302)
    taken = sorted(folder.glob("*.sqlite3"))
    assert len(taken) == 1 and taken[0].name.endswith("-published.sqlite3")
    assert taken[0].read_bytes().startswith(backup.SQLITE_HEADER)
    assert rnd.id is not None
    session.refresh(rnd)
    for view in rounds.tables_of(session, rnd.id):
        scorepad_result(session, event, rnd, view, seed=view.table.number)
    for view in rounds.tables_of(session, rnd.id):
        assert view.result is not None
        if view.result.status != "confirmed":
            results.confirm_by_organizer(session, event, view, view.result, view.result.version, None, "test")
    rounds.close_round(session, event, rnd, "test")
    assert len(list(folder.glob("*.sqlite3"))) == 2
    assert sorted(folder.glob("*.sqlite3"))[-1].name.endswith("-settled.sqlite3")
    # the last ten are kept
    start = datetime(2030, 1, 1, tzinfo=UTC)
    for minute in range(12):
        backup.snapshot(database, "published", now=start + timedelta(minutes=minute))
    kept = sorted(folder.glob("*.sqlite3"))
    assert len(kept) == backup.KEEP
    assert kept[0].name == f"{database.stem}-20300101-000200-000000-published.sqlite3"
