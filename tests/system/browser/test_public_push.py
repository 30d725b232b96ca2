"""The public page and a player's own page follow the event by their streams: with their timed
polls cut off (as a proxy might lose them), a result the organizer enters shows on both within a
second, fetched by the poll their stream prompted."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import expect
from sqlmodel import Session, select

from organizer.core.db import make_engine, upgrade_database
from organizer.core.models import Event, Player, Round
from organizer.rounds import results
from organizer.rounds import service as round_service
from tests.live.support import live_round
from tests.system.browser.conftest import PHONE
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser

#: the timed polls; the one a stream prompted carries the mark it was told (pushed=)
TIMED_POLL = re.compile(r".*/changed\?since=(?!.*pushed=).*")


def test_a_result_reaches_the_public_and_the_players_page_by_their_streams(tmp_path: Path, new_device: Any) -> None:
    database = tmp_path / "public.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    upgrade_database(engine)
    with Session(engine, expire_on_commit=False) as db:
        event, rnd, views = live_round(db, 8, "standard")
        code, event_id, round_id, table_number = event.public_code, event.id, rnd.id, views[0].table.number
        token = db.exec(select(Player.token).where(Player.id == views[0].seats[0].seat.player_id)).one()
    with ServerProcess(f"sqlite:///{database}", tmp_path / "instance", workers=1, live_config=True) as server:
        timed_polls = []
        pages = {f"/e/{code}": "#public-event", f"/p/{token}": "#player-status"}
        phones = []
        for path, region in pages.items():
            phone = new_device(PHONE)
            phone.route(TIMED_POLL, lambda route: (timed_polls.append(route.request.url), route.abort()))
            phone.goto(server.url + path)
            expect(phone.locator(f"{region}[data-stream]")).to_have_count(1)
            phones.append((phone, region))
        phones[0][0].wait_for_timeout(1500)  # the streams are open and said the marks as they are
        with Session(engine, expire_on_commit=False) as db:  # the organizer's tablet, on another server
            event, rnd = db.get_one(Event, event_id), db.get_one(Round, round_id)
            seating = round_service.tables_of(db, round_id, table_number)[0]
            form = {"mode": "totals"}
            for seat, points in zip(seating.seats, [40, 30, 20, 10], strict=True):
                form[f"points_{seat.seat.id}"], form[f"species_{seat.seat.id}"] = str(points), "3"
            results.save_result(db, event, rnd, seating, results.parse_totals(seating, form), 0, "organizer Tess")
            db.commit()
        entered = time.monotonic()
        for phone, region in phones:
            expect(phone.locator(region)).to_contain_text("Result entered", timeout=3000)
        took = time.monotonic() - entered
        assert took < 1.0, f"shown after {took:.2f} s"
    engine.dispose()
