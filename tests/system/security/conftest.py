"""The demo event (12 players, round 1 published, table 1 confirmed, table 2 entered, table 3
playing) on a fresh SQLite file per test, with CSRF protection ON as in production."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session, select

from organizer import create_app
from organizer.core.models import Event, Player, Round, Seat
from tests.system.faults.harness import demo_database

DEMO_NAMES = ("Ada Moss", "Bram Oakley", "Cleo Birch", "Dev Patel", "Esme Rowan", "Finn Alder")


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite3"
    demo_database(path)
    return path


@pytest.fixture
def demo_db(demo_template: Path, tmp_path: Path) -> Path:
    target = tmp_path / "organizer.sqlite3"
    shutil.copy(demo_template, target)
    return target


@pytest.fixture
def secure_app(demo_db: Path, tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "security-suite", "DATABASE_URL": f"sqlite:///{demo_db}",
                      "WTF_CSRF_ENABLED": True})
    yield app
    app.extensions["db_engine"].dispose()


@pytest.fixture
def ids(secure_app: Flask) -> dict[str, str]:
    """Real ids of the demo event, so a refusal is a refusal and not a 404 for a missing row."""
    with Session(secure_app.extensions["db_engine"]) as db:
        event = db.exec(select(Event)).one()
        player = db.exec(select(Player).where(Player.event_id == event.id)).first()
        rnd = db.exec(select(Round).where(Round.event_id == event.id)).one()
        seat = db.exec(select(Seat)).first()
        assert player is not None and seat is not None
        return {"event_id": str(event.id), "player_id": str(player.id), "number": str(rnd.number), "table": "2",
                "token": seat.token}
