"""Backups: ``flask --app organizer backup FILE`` while the organizer runs, ``restore FILE`` into an
empty installation (and only with --force into one that holds anything), and the automatic
SQLite snapshots at a round's publishing and closing, the last ten kept."""

from __future__ import annotations

import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.accounts import service as accounts
from organizer.core.models import Event, Round
from organizer.rounds import results
from organizer.rounds import service as rounds
from organizer.venue import backup
from tests.fixtures.organizer import PASSWORD, add_players, create_event, make_app, sign_in
from tests.prints.support import scorepad_result


def _sqlite_app(folder: Path, template: Path | None = None) -> Flask:
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / "organizer.sqlite3"
    if template is not None:
        shutil.copy(template, database)
    return make_app(f"sqlite:///{database}", folder)


def _standings(client: FlaskClient, event_id: int) -> str:
    page = client.get(f"/events/{event_id}/standings")
    assert page.status_code == 200, page.text[:300]
    main = re.search(r"<main>.*</main>", page.text, re.S)
    assert main is not None
    return re.sub(r'name="csrf_token" value="[^"]*"', "", main.group(0))


def test_a_backup_taken_mid_round_restores_into_an_empty_instance_with_the_same_standings(
        tmp_path: Path, sqlite_template: Path) -> None:
    running = _sqlite_app(tmp_path / "venue", sqlite_template)
    with Session(running.extensions["db_engine"], expire_on_commit=False) as session:
        accounts.create_organizer(session, "Tess", PASSWORD)
        event = create_event(session, entry_modes=["totals", "scorepad"])
        add_players(session, event, 10)
        rnd = rounds.propose_round(session, event, "test", seed=5)
        rounds.publish_round(session, event, rnd, "test")
        assert rnd.id is not None
        views = rounds.tables_of(session, rnd.id)
        scorepad_result(session, event, rnd, views[0], seed=1)  # one table done, the others still playing
        scorepad_result(session, event, rnd, views[1], seed=2)
        assert event.id is not None
        event_id = event.id
    client = running.test_client()
    sign_in(client)
    before = _standings(client, event_id)
    assert "Round 1" in before or "round 1" in before.lower()

    file = tmp_path / "mid-round.sqlite3"
    made = running.test_cli_runner().invoke(args=["backup", str(file)])
    assert made.exit_code == 0, made.output
    assert f"backed up to {file}" in made.output and file.read_bytes().startswith(backup.SQLITE_HEADER)
    running.extensions["db_engine"].dispose()

    spare = _sqlite_app(tmp_path / "spare-laptop")  # a new installation: migrated, empty
    restored = spare.test_cli_runner().invoke(args=["restore", str(file)])
    assert restored.exit_code == 0, restored.output
    assert "restored into" in restored.output
    again = spare.test_client()
    assert sign_in(again).status_code == 302  # the same accounts
    assert _standings(again, event_id) == before
    with Session(spare.extensions["db_engine"]) as session:
        assert session.get(Round, rnd.id) is not None
    spare.extensions["db_engine"].dispose()


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
