"""A player's own page on a phone refreshes as one region: left open while the round is
published, it shows the table with the report form under "report the result below"; while the
player has typed into that form, a refresh waits, and comes once the field holds nothing unsent."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import expect
from sqlmodel import Session

from tests.system.browser.conftest import PHONE, no_js_errors, shot
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser

NAMES = ["Ada Moss", "Bram Oakley", "Cleo Birch", "Dev Patel", "Esme Rowan", "Finn Alder", "Gia Laurel", "Hugo Thorn"]
#: the page polls every 10 s: a change shows within two polls
SHOWN_MS = 25_000


def prepare(database_url: str) -> tuple[int, str]:
    """An event where players report, its round 1 proposed (not published): the event's id and
    the first player's token."""
    from organizer.core.db import make_engine, upgrade_database
    from organizer.core.models import Player
    from organizer.events import service as events
    from organizer.rounds import service as rounds

    engine = make_engine(database_url)
    upgrade_database(engine)
    with Session(engine, expire_on_commit=False) as db:
        event = events.create_event(db, events.EventInput(name="Riverside Club Night", date=date(2026, 4, 18)),
                                    None, "test")
        event.self_report = "players"
        db.add(event)
        assert event.id is not None
        players = [Player(event_id=event.id, name=name, name_key=name.casefold(), checked_in=True) for name in NAMES]
        db.add_all(players)
        db.commit()
        rounds.propose_round(db, event, "Tess", seed=3)
        event_id, token = event.id, players[0].token
    engine.dispose()
    return event_id, token


def publish(database_url: str, event_id: int) -> None:
    from organizer.core.db import make_engine
    from organizer.core.models import Event
    from organizer.rounds import service as rounds

    engine = make_engine(database_url)
    with Session(engine, expire_on_commit=False) as db:
        event = db.get(Event, event_id)
        assert event is not None
        rounds.publish_round(db, event, rounds.current_round(db, event_id), "Tess")  # type: ignore[arg-type]
    engine.dispose()


def neighbour_reports(database_url: str, token: str) -> None:
    """Another player at the table of the player with ``token`` reports the result."""
    from organizer.core.db import make_engine
    from organizer.public import self_report

    engine = make_engine(database_url)
    with Session(engine, expire_on_commit=False) as db:
        me = self_report.player_by_token(db, token)
        assert me is not None
        page = self_report.player_page(db, me)
        assert page.view is not None and page.round is not None
        other = next(s.player for s in page.view.seats if s.player is not None and s.player.id != me.id)
        assert other is not None
        form = {"mode": "totals"}
        for seated, points in zip(page.view.seats, (40, 30, 20, 10), strict=False):
            form[f"points_{seated.seat.id}"], form[f"species_{seated.seat.id}"] = str(points), "4"
        self_report.report(db, other, page.round.number, page.view.table.number, form, 0)
    engine.dispose()


def test_the_player_s_page_refreshes_as_one_region(new_device: Any, tmp_path: Path) -> None:
    database_url = f"sqlite:///{tmp_path / 'organizer.sqlite3'}"
    event_id, token = prepare(database_url)
    with ServerProcess(database_url, tmp_path / "instance", workers=2, threads=4) as server:
        page = new_device(PHONE)
        page.goto(f"{server.url}/p/{token}")
        expect(page.get_by_text("You are not seated in round 1 yet.")).to_be_visible()

        # published while the page is open: the table and the report form come together
        publish(database_url, event_id)
        form = page.locator("#player-status #player-report")
        expect(form).to_be_visible(timeout=SHOWN_MS)
        expect(page.get_by_text("after the game, report the result below.")).to_be_visible()
        shot(page, "58-player-region-report")

        # the player starts typing the result; a neighbour's report meanwhile waits for them
        points = form.locator("input[name^=points_]").first
        points.fill("17")
        page.locator("h1").click()  # the field loses the focus, and still holds what was typed
        neighbour_reports(database_url, token)
        page.wait_for_timeout(SHOWN_MS)
        expect(points).to_have_value("17")
        expect(page.get_by_text("I agree")).to_have_count(0)

        # nothing unsent any more: the next refresh brings the result to confirm
        points.fill("")
        page.locator("h1").click()
        expect(page.get_by_role("button", name="I agree")).to_be_visible(timeout=SHOWN_MS)
        expect(page.get_by_text("check the result below and confirm it.")).to_be_visible()
        no_js_errors(page)
