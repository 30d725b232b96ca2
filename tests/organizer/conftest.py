"""Fixtures for the organizer: every database test runs on SQLite and, when TEST_DATABASE_URL
is set, on PostgreSQL too (`.ci/run` starts one)."""

from __future__ import annotations

import html as html_module
import os
import re
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, text
from sqlmodel import Session, SQLModel

from organizer import create_app
from organizer.accounts import service as accounts
from organizer.core.db import make_engine, normalise_url, upgrade_database
from organizer.core.models import Event
from organizer.events import service as event_service

PASSWORD = "correct horse"
_BACKENDS = [pytest.param("sqlite", id="sqlite")]
if os.environ.get("TEST_DATABASE_URL"):
    _BACKENDS.append(pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One migrated SQLite file, copied for each test (much faster than migrating each time)."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    upgrade_database(engine)
    engine.dispose()
    return path


@pytest.fixture(scope="session")
def postgres_engine() -> Iterator[Engine]:
    """The PostgreSQL test database (the worker's schema under pytest-xdist), emptied and
    migrated from scratch once per run."""
    url = normalise_url(os.environ["TEST_DATABASE_URL"])
    found = re.search(r"search_path(?:=|%3D)(\w+)", url)
    schema = found.group(1) if found else "public"
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    upgrade_database(engine)
    yield engine
    engine.dispose()


@pytest.fixture(params=_BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        target = tmp_path / "organizer.sqlite3"
        shutil.copy(request.getfixturevalue("sqlite_template"), target)
        return f"sqlite:///{target}"
    engine: Engine = request.getfixturevalue("postgres_engine")
    tables = ", ".join(f'"{table.name}"' for table in SQLModel.metadata.sorted_tables)
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    return engine.url.render_as_string(hide_password=False)


def make_app(database_url: str, tmp_path: Path, **overrides: Any) -> Flask:
    config = {"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": database_url,
              "WTF_CSRF_ENABLED": False, **overrides}
    app = create_app(config)
    return app


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    app = make_app(database_url, tmp_path)
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture
def session(app: Flask) -> Iterator[Session]:
    with Session(app.extensions["db_engine"], expire_on_commit=False) as db:
        yield db


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def organizer_account(session: Session) -> Any:
    return accounts.create_organizer(session, "Tess", PASSWORD)


def sign_in(client: FlaskClient, name: str = "Tess", password: str = PASSWORD) -> Any:
    return client.post("/sign-in", data={"name": name, "password": password})


@pytest.fixture
def signed_in(client: FlaskClient, organizer_account: Any) -> FlaskClient:
    response = sign_in(client)
    assert response.status_code == 302, response.text
    return client


def create_event(session: Session, **changes: Any) -> Event:
    data = event_service.EventInput(name="Spring Open", date=date(2026, 4, 18))
    for key, value in changes.items():
        setattr(data, key, value)
    return event_service.create_event(session, data, None, "test")


@pytest.fixture
def event(session: Session) -> Event:
    return create_event(session)


def event_form(**changes: Any) -> dict[str, Any]:
    """A complete, valid event form as a browser posts it."""
    form: dict[str, Any] = {
        "name": "Autumn Cup", "date": "2026-10-03", "edition": "2018", "rounds": "3",
        "format_1": "standard", "format_2": "draft", "format_3": "standard",
        "preferred_table_size": "4", "point_scheme": "beaten",
        "tiebreak_1": "game_points", "tiebreak_2": "opponents_average",
        "tiebreak_3": "species_count", "tiebreak_4": "head_to_head",
        "entry_modes": ["totals", "scorepad"], "pick_timer_seconds": "",
    }
    form.update(changes)
    return form


HX = {"HX-Request": "true"}


def error_beside(html: str, field: str) -> str:
    """The message shown beside a form field (empty when none)."""
    match = re.search(rf'id="e-{re.escape(field)}">([^<]*)<', html)
    return html_module.unescape(match.group(1)) if match else ""


@pytest.fixture(autouse=True)
def cheap_password_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    """scrypt costs ~0.1 s per hash by design; the tests check behaviour, not hash strength."""
    monkeypatch.setattr(accounts, "HASH_METHOD", "pbkdf2:sha256:1000")


def add_players(session: Session, event: Event, count: int, checked_in: bool = True) -> list[Any]:
    from organizer.core.models import Player

    assert event.id is not None
    players = [Player(event_id=event.id, name=f"Player {i:02d}", name_key=f"player {i:02d}", checked_in=checked_in)
               for i in range(1, count + 1)]
    session.add_all(players)
    session.commit()
    for player in players:
        session.refresh(player)
    return players
