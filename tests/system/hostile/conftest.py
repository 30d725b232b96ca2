"""The demo event with CSRF protection on, restored from a template before every example, so
each Hypothesis example starts from the same state and can be replayed exactly."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from organizer import create_app
from tests.system.faults.harness import demo_database
from tests.system.security.walk import snapshot

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class DemoApp:
    app: Flask
    client: FlaskClient
    database: Path
    template: Path
    token: str
    baseline: list[str]

    def unchanged(self) -> bool:
        """Whether the database holds what it held at the start, the signed-in session's "last
        seen" bookkeeping aside (written at most once a minute by any request, so a slow run that
        crosses a minute writes it whatever the request was)."""
        from tests.system.security.walk import snapshot

        def rows(lines: list[str]) -> list[str]:
            return [line for line in lines if not line.startswith('INSERT INTO "accountsession"')]
        return rows(snapshot(self.database)) == rows(self.baseline)

    def restore(self) -> None:
        """Back to the demo as it was (connections closed first: the file is replaced)."""
        self.app.extensions["db_engine"].dispose()
        shutil.copy(self.template, self.database)


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo event, with every entry mode allowed, table 3 played on the players' devices
    (so the seat forms have a live table to reach) and one practice game against Q."""
    path = tmp_path_factory.mktemp("hostile-demo") / "demo.sqlite3"
    demo_database(path)
    from sqlmodel import Session, select

    from organizer.core.db import make_engine
    from organizer.core.models import Event, Round
    from organizer.live import practice
    from organizer.live import tables as live
    from organizer.rounds import service as round_service

    engine = make_engine(f"sqlite:///{path}")
    with Session(engine, expire_on_commit=False) as db:
        event = db.exec(select(Event)).one()
        event.entry_modes = ["totals", "scorepad", "assistant"]
        db.add(event)
        db.commit()
        rnd = db.exec(select(Round)).one()
        assert rnd.id is not None
        table3 = next(v for v in round_service.tables_of(db, rnd.id) if v.table.number == 3)
        live.make_digital(db, event, rnd, table3, "demo")
        live.start_round(db, event, rnd)
        practice.create_game(db, practice.parse_setup({"mode": "solo", "edition": "2018", "name": "Pat"}), seed=3)
    engine.dispose()
    return path


@pytest.fixture
def demo(demo_template: Path, tmp_path: Path) -> Iterator[DemoApp]:
    database = tmp_path / "organizer.sqlite3"
    shutil.copy(demo_template, database)
    app = create_app({"TESTING": True, "SECRET_KEY": "hostile", "DATABASE_URL": f"sqlite:///{database}",
                      "WTF_CSRF_ENABLED": True, "SIGN_IN_MAX_FAILURES": 10_000})
    client = app.test_client()
    token = TOKEN.search(client.get("/sign-in").get_data(as_text=True))
    assert token
    signed = client.post("/sign-in", data={"name": "demo", "password": "demo", "csrf_token": token.group(1)})
    assert signed.status_code == 302
    page = client.get("/").get_data(as_text=True)
    token = TOKEN.search(page)
    assert token
    # Sessions live in the database: the signed-in session is part of what restore() brings back.
    app.extensions["db_engine"].dispose()
    signed_in_template = tmp_path / "signed-in.sqlite3"
    shutil.copy(database, signed_in_template)
    yield DemoApp(app, client, database, signed_in_template, token.group(1), snapshot(signed_in_template))
    app.extensions["db_engine"].dispose()
