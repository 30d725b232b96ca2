"""A table's page on a phone and a tablet: a refused scorepad keeps
every column on the screen, marks each field and sums the problems up near Save with links; the
stored result shows places and tournament points with the tie-break's reason before the players
confirm; a table goes onto the devices and back to paper only after a question, and while it is
live the page shows its game instead of paper entry."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Page, expect

from tests.system.browser.conftest import PHONE, TABLET, no_js_errors, shot
from tests.system.browser.support import first_run_and_event, import_and_check_in, seat_and_publish
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser


def _shot(page: Page, name: str) -> None:
    path = shot(page, name)
    copies = Path("/tmp/table-page-shots")  # outside git, to look at
    copies.mkdir(exist_ok=True)
    shutil.copy(path, copies / path.name)


def _fits(page: Page, selector: str) -> None:
    """Every matching element lies within the screen's width (nothing pushed off the side)."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    right = page.evaluate(f"() => Math.max(...[...document.querySelectorAll({selector!r})]"
                          ".map(e => e.getBoundingClientRect().right))")
    assert right <= width + 1, f"{selector} reaches {right} px on a {width} px screen"


def test_the_table_page_on_a_phone_and_a_tablet(empty_server: ServerProcess, new_device: Any) -> None:
    base = empty_server.url
    page = new_device(PHONE)
    page.on("dialog", lambda dialog: dialog.accept())
    event = first_run_and_event(page, base)
    import_and_check_in(page)
    seat_and_publish(page, base, event)

    # A scorepad with two impossible figures: each is marked beside its box, the summary links them.
    page.goto(f"{base}/events/{event}/rounds/1/tables/1?mode=scorepad&edit=1")
    boxes = page.locator("table.scorepad input[name^='pad_']")
    boxes.nth(0).fill("1")
    boxes.nth(5).fill("25")
    for box in page.locator("table.scorepad input[name^='species_']").all():
        box.fill("3")
    page.get_by_role("button", name="Save result").click()
    summary = page.locator(".error-summary")
    expect(summary).to_contain_text("2 fields need attention")
    expect(summary.get_by_role("link")).to_have_count(2)
    expect(page.locator("table.scorepad [aria-invalid='true']")).to_have_count(2)
    _fits(page, "table.scorepad input")
    _shot(page, "table-scorepad-errors")
    summary.get_by_role("link").first.click()
    expect(page.locator("table.scorepad input[aria-invalid='true']").first).to_be_in_viewport()

    # Totals with a tie on points: places, tournament points and the reason, before confirming.
    page.goto(f"{base}/events/{event}/rounds/1/tables/1?mode=totals&edit=1")
    for index, (points, species) in enumerate([(31, 5), (31, 4), (40, 6), (20, 3)]):
        page.locator("input[name^='points_']").nth(index).fill(str(points))
        page.locator("input[name^='species_']").nth(index).fill(str(species))
    page.get_by_role("button", name="Save result").click()
    expect(page.get_by_text("2nd — tie on 31 points broken by species count: 5 vs 4")).to_be_visible()
    expect(page.get_by_role("button", name="Organizer confirms")).to_be_visible()
    _shot(page, "table-result-places")

    # Table 2 onto the devices (a question first), its live page, then back to paper.
    page.goto(f"{base}/events/{event}/rounds/1/tables/2")
    asked: list[str] = []
    page.once("dialog", lambda dialog: asked.append(dialog.message))
    page.get_by_role("button", name="Play it on the players' devices").click()
    expect(page).to_have_url(f"{base}/events/{event}/rounds/1/tables/2")  # back where it was pressed
    assert asked and "Play Table 2 on the players' devices?" in asked[0]
    expect(page.get_by_role("heading", name="Playing on the players' devices")).to_be_visible()
    expect(page.get_by_role("button", name="Save result")).to_have_count(0)
    _shot(page, "table-live")
    tablet = new_device(TABLET)
    tablet.context.add_cookies(page.context.cookies())
    tablet.goto(f"{base}/events/{event}/rounds/1/tables/2")
    _shot(tablet, "table-live")
    tablet.goto(f"{base}/events/{event}/rounds/1/tables/1")
    _shot(tablet, "table-result-places")
    tablet.goto(f"{base}/events/{event}/rounds/1/tables/3?mode=assistant&edit=1")
    _shot(tablet, "table-assistant")
    page.goto(f"{base}/events/{event}/rounds/1/tables/3?mode=assistant&edit=1")
    _shot(page, "table-assistant")

    page.goto(f"{base}/events/{event}/rounds/1/tables/2")
    asked.clear()
    page.once("dialog", lambda dialog: asked.append(dialog.message))
    page.get_by_role("button", name="Switch back to paper").click()
    expect(page.get_by_text("Table 2 is back on paper")).to_be_visible()
    assert asked and "back to paper?" in asked[0]
    expect(page.get_by_role("button", name="Save result")).to_be_visible()
    no_js_errors(page)
