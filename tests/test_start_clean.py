"""From trying the app out to a real event: ``start-clean`` backs the database up, then empties
it (asking first), and the first-run page appears again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session, func, select

from organizer.core.models import Event, Organizer


def test_start_clean_backs_up_then_empties_after_asking(app: Flask, session: Session) -> None:
    if app.config["DATABASE_URL"].startswith("postgresql") and shutil.which("pg_dump") is None:
        pytest.skip("PostgreSQL's backup needs pg_dump (Debian's postgresql-client)")
    runner = app.test_cli_runner()
    assert runner.invoke(args=["demo"]).exit_code == 0
    declined = runner.invoke(args=["start-clean"], input="n\n")
    assert declined.exit_code != 0 and "Aborted" in declined.output
    session.expire_all()
    assert session.exec(select(func.count()).select_from(Event)).one() == 1

    done = runner.invoke(args=["start-clean"], input="y\n")
    assert done.exit_code == 0, done.output
    backups = list((Path(app.instance_path) / "backups").glob("before-start-clean-*"))
    assert len(backups) == 1 and backups[0].stat().st_size > 0 and str(backups[0]) in done.output
    session.expire_all()
    assert session.exec(select(func.count()).select_from(Organizer)).one() == 0
    assert session.exec(select(func.count()).select_from(Event)).one() == 0
    first_visit = app.test_client().get("/", follow_redirects=True)
    assert "first-run" in first_visit.request.path or "Create the owner account" in first_visit.text
    assert "already empty" in runner.invoke(args=["start-clean", "--yes"]).output
