"""The projector of a real room: at 1280x720 and 1920x1080, for 12, 40, 120 and 500 players,
every name of the page shown is on the screen, the page says which page it is, the public page's
QR code is on the screen, and page by page every player's name comes round."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Page
from sqlmodel import Session

from organizer.accounts import service as accounts
from organizer.core.db import make_engine, upgrade_database
from organizer.core.models import Player
from organizer.events import service as event_service
from organizer.rounds import service as round_service
from organizer.standings import projector
from tests.system.browser.conftest import shot
from tests.system.faults.harness import ServerProcess

SCREENS = {"720p": {"width": 1280, "height": 720}, "1080p": {"width": 1920, "height": 1080}}
SIZES = (12, 40, 120, 500)
#: names as long as a real room has, so the two columns are tested with their width
NAMES = ("Ana Lucía Fernández", "Bartholomew O'Sullivan", "Chen Wei", "Dorothea Van der Westhuizen", "Eun-ji Park",
         "François Lefèvre-Dubois", "Gunnhildur Sigurðardóttir", "Hiroshi Tanaka")


@dataclass
class Room:
    server: ServerProcess
    #: players -> the id of the event with that many players
    events: dict[int, int]


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """One server for every room size: an event of each size, round 1 seated and published."""
    folder = tmp_path_factory.mktemp("projector")
    url = f"sqlite:///{folder / 'room.sqlite3'}"
    engine = make_engine(url)
    upgrade_database(engine)
    events = {}
    with Session(engine, expire_on_commit=False) as db:
        accounts.create_organizer(db, "Tess", "correct horse battery")
        for players in SIZES:
            data = event_service.EventInput(name=f"Spring Open {players}", date=date(2026, 4, 18))
            event = event_service.create_event(db, data, None, "test")
            assert event.id is not None
            db.add_all(Player(event_id=event.id, name=f"{NAMES[i % len(NAMES)]} {i + 1}",
                              name_key=f"{NAMES[i % len(NAMES)]} {i + 1}".casefold(), checked_in=True)
                       for i in range(players))
            db.commit()
            rnd = round_service.propose_round(db, event, "test", seed=3)
            round_service.publish_round(db, event, rnd, "test")
            events[players] = event.id
    engine.dispose()
    with ServerProcess(url, folder / "instance", workers=1, threads=4) as server:
        yield Room(server, events)


def _until_the_next_screen() -> float:
    """Seconds until the projector shows its next screen: it turns at every multiple of
    REFRESH_SECONDS of the server's clock (this machine's), whenever the page was loaded."""
    return projector.REFRESH_SECONDS - time.time() % projector.REFRESH_SECONDS + 0.2


def _on_screen(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("""() => {
        const inside = (el) => { const r = el.getBoundingClientRect();
            return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; };
        const names = [...document.querySelectorAll('ol.find-table li')];
        const qr = document.querySelector('.projector-qr svg');
        const rows = [...document.querySelectorAll('table.projector-standings tbody tr')];
        return {names: names.map(li => li.querySelector('span').textContent.trim()),
                hidden: names.filter(li => !inside(li)).map(li => li.textContent.trim()),
                rows_hidden: rows.filter(tr => !inside(tr)).length,
                qr: qr !== null && inside(qr),
                scrolls: document.documentElement.scrollHeight > innerHeight + 1
                         || document.documentElement.scrollWidth > innerWidth + 1,
                note: (document.querySelector('.projector-grid section p.muted') || {}).textContent || ''};
    }"""))


@pytest.mark.parametrize("players", SIZES)
def test_the_projector_shows_every_name_page_by_page(room: Room, browser: Any, players: int) -> None:
    pages = -(-players // projector.SEATING_PER_SCREEN)
    server = room.server
    # both screens side by side: one wait for the next turn serves them both
    screens: dict[str, Page] = {}
    for label, viewport in SCREENS.items():
        page = browser.new_context(viewport=viewport, device_scale_factor=1).new_page()
        page.goto(server.url + "/sign-in")
        page.fill("input[name=name]", "Tess")
        page.fill("input[name=password]", "correct horse battery")
        page.locator("main form button[type=submit]").first.click()
        page.wait_for_url(lambda url: "/sign-in" not in url)
        screens[label] = page
    seen: dict[str, set[str]] = {label: set() for label in screens}
    # every page comes round in the small rooms; the big ones check the page on screen. One turn
    # more than there are pages: a screen that turned between the two loads shows the other
    # size the same page twice.
    turns = pages + 1 if players <= 40 else 1
    for turn in range(turns):
        for label, page in screens.items():
            if len(seen[label]) == players:
                continue
            page.goto(f"{server.url}/events/{room.events[players]}/projector")
            found = _on_screen(page)
            assert not found["hidden"], f"{label}, {players} players: names off the screen {found['hidden'][:3]}"
            assert found["rows_hidden"] == 0 and found["qr"] and not found["scrolls"], (label, players, found)
            if pages > 1:
                shown = re.search(r"(\d+) of (\d+)", found["note"])
                assert shown and int(shown.group(2)) == pages, found["note"]
            seen[label].update(found["names"])
            if turn == 0:
                shot(page, f"80-projector-{players}-players-{label}")
        if turn + 1 < turns and any(len(names) < players for names in seen.values()):
            time.sleep(_until_the_next_screen())
    for label, page in screens.items():
        page.context.close()
        if players <= 40:
            assert len(seen[label]) == players, f"{label}: {players - len(seen[label])} names never shown"
