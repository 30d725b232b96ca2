"""A 40-player, 3-round club event as its organizer and its judge see it, at 390 px, 768 px and
on a 1280x720 projector, in English and German. The event is built through the services (two
rounds played and closed, the third being entered in all three modes), then the browser checks
what people must see: every player's totals, place and agreement on screen without scrolling
sideways, names broken only between words, the highlighted button being the next step, closing
asking first, and a judge offered nothing a judge may not do."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser, Page
from sqlmodel import Session

from organizer import create_app
from organizer.accounts import service as accounts
from organizer.core import staff
from organizer.core.models import Player, Role, Round
from organizer.events import service as event_service
from organizer.rounds import results
from organizer.rounds import service as round_service
from tests.system.browser.conftest import PHONE, PROJECTOR, TABLET, shot
from tests.system.browser.support import BROKEN_WORDS, assistant_case, settle
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery"
#: long names of a real room, so the result tables are tried with their width
NAMES = ("Siobhán O'Sullivan-MacGillycuddy", "Bartholomew Featherstonehaugh", "Ana Lucía Fernández de Córdoba",
         "Gunnhildur Sigurðardóttir", "Dorothea Van der Westhuizen", "Chen Wei", "Eun-ji Park", "Hiroshi Tanaka")


def _form(view: round_service.TableSeating, mode: str) -> dict[str, str]:
    """A result any finished game could give, in the entry mode's own form."""
    form = {"mode": mode, "version": "0"}
    species = view.table.species
    if mode == "assistant":
        arboretums, hands = assistant_case(list(species), len(view.seats))
        for s, arboretum, hand in zip(view.seats, arboretums, hands, strict=True):
            form[f"arboretum_{s.seat.id}"], form[f"hand_{s.seat.id}"] = arboretum, hand
        return form
    for index, s in enumerate(view.seats):
        form[f"species_{s.seat.id}"] = str(5 + index % 2)
        if mode == "totals":
            form[f"points_{s.seat.id}"] = str(24 - 3 * index)
        else:
            for number in range(len(species)):
                form[f"pad_{s.seat.id}_{number}"] = str((9 - index, 6, 4 + index)[number]) if number < 3 else ""
    return form


def _build(database_url: str) -> int:
    """The event through the services: rounds 1 and 2 played and closed; round 3 published with
    tables 1-3 entered (scorepad, scoring assistant, totals) and the rest to come."""
    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "walkthrough", "TESTING": True})
    with app.app_context(), Session(app.extensions["db_engine"], expire_on_commit=False) as db:
        accounts.create_organizer(db, "Tess", PASSWORD)
        judge = accounts.create_organizer(db, "Jude", PASSWORD, role=Role.JUDGE)
        data = event_service.EventInput(name="Club Championship", date=date(2026, 11, 28),
                                        entry_modes=["totals", "scorepad", "assistant"])
        event = event_service.create_event(db, data, None, "Tess")
        assert event.id is not None and judge.id is not None
        names = [f"{NAMES[i % len(NAMES)]} {i // len(NAMES) + 1}" for i in range(40)]
        db.add_all(Player(event_id=event.id, name=name, name_key=name.casefold(), checked_in=True) for name in names)
        db.commit()
        staff.assign_judge(db, event, judge.id, "Tess")
        for number in (1, 2, 3):
            rnd = round_service.propose_round(db, event, "Tess", seed=number)
            round_service.publish_round(db, event, rnd, "Tess")
            views = round_service.tables_of(db, rnd.id or 0)
            entered = views if number < 3 else views[:3]
            for index, view in enumerate(entered):
                mode = ("scorepad", "assistant", "totals")[index % 3]
                submission = results.submission_from_form(event, rnd, view, _form(view, mode))
                result = results.save_result(db, event, rnd, view, submission, 0, "Tess")
                if number < 3:
                    results.confirm_by_organizer(db, event, view, result, result.version, None, "Tess")
            if number < 3:
                round_service.close_round(db, event, db.get(Round, rnd.id) or rnd, "Tess")
        event_id = event.id
    app.extensions["db_engine"].dispose()
    return event_id


#: every figure people are asked to agree to, and the name it belongs to, inside the screen
OUT_OF_SIGHT = """() => {
  const wanted = 'table.result-table td, table.scorepad th, table.scorepad input, table.entry input, '
               + '.sheet-card, table.score-sheet th, table.score-sheet td';
  return [...document.querySelectorAll(wanted)].filter(e => e.checkVisibility())
    .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > innerWidth + 1 || r.left < -1); })
    .map(e => `<${e.tagName.toLowerCase()} class="${e.className}">${e.textContent.trim().slice(0, 30)}`);
}"""


def _device(browser: Browser, viewport: dict[str, int], locale: str = "en-GB") -> Page:
    context = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 1000, device_scale_factor=1,
                                  locale=locale)
    context.set_default_timeout(15_000)
    return context.new_page()


def _sign_in(page: Page, base: str, name: str) -> None:
    page.goto(base + "/sign-in")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/sign-in" not in url)


def _look(page: Page, url: str, name: str) -> Path:
    page.goto(url)
    settle(page)
    path = shot(page, name)
    hidden = page.evaluate(OUT_OF_SIGHT)
    assert not hidden, f"{name} at {page.viewport_size}: off the screen: {hidden[:5]}"
    broken = page.evaluate(BROKEN_WORDS)
    assert not broken, f"{name} at {page.viewport_size}: {broken[:5]}"
    return path


def test_an_organizer_and_a_judge_run_a_40_player_event(tmp_path: Path, browser: Browser) -> None:
    database = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    event_id = _build(database)
    with ServerProcess(database, tmp_path / "instance", workers=1, threads=4) as server:
        base, event = server.url, f"{server.url}/events/{event_id}"
        for label, viewport in (("phone", PHONE), ("tablet", TABLET)):
            page = _device(browser, viewport)
            _sign_in(page, base, "Tess")
            _look(page, event, f"day-overview-{label}")
            assert page.locator("a.next-step").inner_text() == "Enter results of round 3"
            _look(page, f"{event}/rounds/3", f"day-round-{label}")
            assert page.locator("form[data-confirm] button", has_text="Close round 3").count() == 1
            for table, what in ((1, "scorepad"), (2, "assistant"), (3, "totals")):
                _look(page, f"{event}/rounds/3/tables/{table}", f"day-result-{what}-{label}")
                assert page.locator("table.result-table").count() == 1
            _look(page, f"{event}/rounds/3/tables/4?mode=scorepad&edit=1", f"day-enter-scorepad-{label}")
            _look(page, f"{event}/rounds/3/tables/5?mode=totals&edit=1", f"day-enter-totals-{label}")
            _look(page, f"{event}/rounds/2", f"day-closed-round-{label}")
            assert page.locator("a.next-step").count() == 0  # round 3 is the event's step now
            page.context.close()

        # the judge, on a phone, in German: their own work and nothing else
        page = _device(browser, PHONE, "de-DE")
        _sign_in(page, base, "Jude")
        _look(page, event, "day-judge-overview-de")
        html = page.content()
        for organizers_only in ("Einstellungen", "Exportieren", "Rundenpaket", "Löschen…"):
            assert organizers_only not in html, organizers_only
        assert page.locator("a.next-step").inner_text() == "Ergebnisse von Runde 3 eingeben"
        _look(page, f"{event}/rounds/3", "day-judge-round-de")
        assert page.get_by_text("Runde 3 abschließen").count() == 0
        _look(page, f"{event}/rounds/3/tables/2", "day-judge-result-de")
        _look(page, f"{event}/players", "day-judge-players-de")
        assert page.get_by_text("Spieler hinzufügen").count() == 0
        page.context.close()

        # the projector on the room's wall
        page = _device(browser, PROJECTOR)
        _sign_in(page, base, "Tess")
        page.goto(f"{event}/projector")
        settle(page)
        shot(page, "day-projector")
        assert not page.evaluate("() => document.documentElement.scrollHeight > innerHeight + 1")
        page.context.close()
