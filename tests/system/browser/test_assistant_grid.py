"""The scoring assistant entered by tapping only, on a phone: arboretums built cell by cell (a
negative coordinate included) and hands (seven cards each) chip by chip; the text fields follow every tap, a card
used anywhere at the table cannot be chosen again, and the engine's score sheet comes back."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Locator, Page, expect

from tests.system.browser.conftest import PHONE, TABLET, no_js_errors, shot
from tests.system.browser.support import (
    first_run_and_event,
    import_and_check_in,
    seat_and_publish,
    seats_of,
    sign_in,
    species_of,
)
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser


def plant(seat: Locator, x: int, y: int, species: str, value: int) -> None:
    seat.get_by_role("button", name=f"Plant at {x},{y}", exact=True).click()
    picker = seat.get_by_role("group", name=f"Card for {x},{y}", exact=True)
    picker.get_by_role("button", name=species, exact=True).click()
    picker.get_by_role("button", name=f"{species} {value}", exact=True).click()
    expect(seat.get_by_role("button", name=f"{species} {value} at {x},{y}", exact=True)).to_be_visible()


def add_to_hand(seat: Locator, who: str, cards: list[tuple[str, int]]) -> None:
    seat.get_by_role("button", name=f"Add a card to the hand of {who}", exact=True).click()
    picker = seat.get_by_role("group", name=f"Add to the hand of {who}", exact=True)
    for species, value in cards:
        picker.get_by_role("button", name=species, exact=True).click()
        picker.get_by_role("button", name=f"{species} {value}", exact=True).click()
    picker.get_by_role("button", name="Done", exact=True).click()


def open_assistant(page: Page, base: str, event: str) -> None:
    page.goto(f"{base}/events/{event}/rounds/1/tables/1")
    link = page.get_by_role("navigation", name="Entry mode").get_by_role("link", name="Assistant", exact=True)
    if link.get_attribute("aria-current") != "true":
        link.click()  # swapped in by HTMX: the grid must be drawn on the new form too
    expect(page.get_by_role("button", name="Plant at 0,0", exact=True).first).to_be_visible()


def test_arboretums_and_hands_entered_by_tapping(empty_server: ServerProcess, new_device: Any) -> None:
    base = empty_server.url
    page = new_device(PHONE)
    event = first_run_and_event(page, base)
    import_and_check_in(page)
    seat_and_publish(page, base, event)
    open_assistant(page, base, event)

    names = seats_of(page)
    s = species_of(page)
    seats = [page.locator("#result-form fieldset").nth(i) for i in range(len(names))]

    # Seat 1: a path s0 1 → s0 4 to the right, and an s1 card to the left of the start (x = -1).
    plant(seats[0], 0, 0, s[0], 1)
    plant(seats[0], 1, 0, s[0], 4)
    plant(seats[0], -1, 0, s[1], 2)
    add_to_hand(seats[0], names[0], [(s[1], 8), (s[2], 3)] + [(s[4], v) for v in range(1, 6)])
    expect(page.get_by_label("Arboretum", exact=True).nth(0)).to_have_value(f"0,0 {s[0]} 1\n1,0 {s[0]} 4\n-1,0 {s[1]} 2")
    expect(page.get_by_label("Hand at the end", exact=True).nth(0)).to_have_value(
        f"{s[1]} 8, {s[2]} 3, " + ", ".join(f"{s[4]} {v}" for v in range(1, 6)))

    # The middle card holds the arboretum together: it cannot be removed; an end card can.
    seats[0].get_by_role("button", name=f"{s[0]} 1 at 0,0", exact=True).click()
    expect(seats[0].get_by_role("button", name=f"Remove {s[0]} 1", exact=True)).to_be_disabled()
    seats[0].get_by_role("button", name=f"{s[1]} 2 at -1,0", exact=True).click()
    seats[0].get_by_role("button", name=f"Remove {s[1]} 2", exact=True).click()
    expect(page.get_by_label("Arboretum", exact=True).nth(0)).to_have_value(f"0,0 {s[0]} 1\n1,0 {s[0]} 4")
    plant(seats[0], 0, -1, s[1], 2)  # above the start: y = -1

    # Cards used anywhere at the table (an arboretum, a hand) are disabled in another seat's picker.
    seats[1].get_by_role("button", name="Plant at 0,0", exact=True).click()
    picker = seats[1].get_by_role("group", name="Card for 0,0", exact=True)
    picker.get_by_role("button", name=s[0], exact=True).click()
    expect(picker.get_by_role("button", name=f"{s[0]} 1", exact=True)).to_be_disabled()
    expect(picker.get_by_role("button", name=f"{s[0]} 4", exact=True)).to_be_disabled()
    expect(picker.get_by_role("button", name=f"{s[0]} 2", exact=True)).to_be_enabled()
    picker.get_by_role("button", name=s[1], exact=True).click()
    expect(picker.get_by_role("button", name=f"{s[1]} 8", exact=True)).to_be_disabled()
    picker.get_by_role("button", name="Cancel", exact=True).click()

    # Seat 2: a path down the column and a card beside it; seats 3 and 4: a row of three.
    plant(seats[1], 0, 0, s[0], 2)
    plant(seats[1], 0, 1, s[0], 5)
    add_to_hand(seats[1], names[1], [(s[0], 7)] + [(s[5], v) for v in range(1, 7)])
    plant(seats[1], 1, 0, s[4], 6)
    # every finished arboretum holds about as many cards as the others (the same turns, ±1)
    plant(seats[2], 0, 0, s[2], 1)
    plant(seats[2], 1, 0, s[4], 7)
    plant(seats[2], 2, 0, s[3], 5)
    plant(seats[3], 0, 0, s[3], 1)
    plant(seats[3], 1, 0, s[4], 8)
    plant(seats[3], 2, 0, s[2], 6)
    add_to_hand(seats[2], names[2], [(s[6], v) for v in range(1, 8)])
    add_to_hand(seats[3], names[3], [(s[7], v) for v in range(1, 8)])
    expect(page.get_by_label("Arboretum", exact=True).nth(1)).to_have_value(f"0,0 {s[0]} 2\n0,1 {s[0]} 5\n1,0 {s[4]} 6")
    shot(page, "11-assistant-tapped")

    page.get_by_role("button", name="Save result").click()
    stored = page.locator("#stored-result")
    expect(stored).to_be_visible()
    # The engine's score sheet: seat 2 alone holds s0 in hand, so only its path down the column
    # scores s0.
    expect(page.get_by_text("(0,0)→(0,1)").first).to_be_visible()
    expect(stored.locator("tr", has_text=names[1]).first.locator("td.num strong")).to_have_text("2")
    expect(stored.locator("tr", has_text=names[0]).first.locator("td.num strong")).to_have_text("0")
    shot(page, "12-assistant-scored")
    no_js_errors(page)

    # Correcting it on a tablet: the stored cards are drawn back on the grid from the text.
    tablet = new_device(TABLET)
    sign_in(tablet, base)
    tablet.goto(f"{base}/events/{event}/rounds/1/tables/1?mode=assistant&edit=1")
    second = tablet.locator("#result-form fieldset").nth(1)
    expect(second.get_by_role("button", name=f"{s[0]} 5 at 0,1", exact=True)).to_be_visible()
    expect(second.get_by_role("button", name=f"Remove {s[0]} 7 from the hand", exact=True)).to_be_visible()
    shot(tablet, "13-assistant-correct")
    no_js_errors(tablet)
