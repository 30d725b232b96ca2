"""A club event in a real browser, as the organizer and the tables use it: first run, a new event,
12 players imported from CSV and checked in, round 1 seated and published, the round pack
downloaded, three tables entering their results in the three entry modes on their own tablets
and phones, the standings on the projector."""

from __future__ import annotations

import io
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Page, expect
from pypdf import PdfReader

from tests.system.browser.conftest import PHONE, PROJECTOR, TABLET, no_js_errors, shot
from tests.system.browser.support import (
    PLAYERS,
    assistant_case,
    first_run_and_event,
    import_and_check_in,
    seat_and_publish,
    seats_of,
    sign_in,
    species_of,
)
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser


def download_round_pack(page: Page) -> None:
    with page.expect_download() as waiting:
        page.get_by_role("link", name="Round pack (PDF)").first.click()
    download = waiting.value
    path = download.path()
    assert path is not None
    data = open(path, "rb").read()
    assert data.startswith(b"%PDF")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    for name in PLAYERS:
        assert name in text, f"{name} missing from the round pack"


def enter_result(page: Page, base: str, event: str, table: int, mode: str) -> list[str]:
    sign_in(page, base)
    page.goto(f"{base}/events/{event}/rounds/1/tables/{table}")
    names = seats_of(page)
    assert len(names) == 4
    link = page.get_by_role("navigation", name="Entry mode").get_by_role("link", name=mode, exact=True)
    if link.get_attribute("aria-current") != "true":
        link.click()
        # The form is swapped in by HTMX: type only into the new one.
        expect(page.get_by_role("navigation", name="Entry mode").locator("[aria-current=true]")).to_have_text(mode)
    if mode == "Totals":
        for i, name in enumerate(names):
            page.get_by_label(f"Points of {name}").fill(str(40 - 5 * i))
            page.get_by_label(f"Species of {name}").fill(str(6 - i % 2))
    elif mode == "Scorepad":
        species = species_of(page)
        for i, name in enumerate(names):
            for j, kind in enumerate(species[:4]):
                page.get_by_label(f"{kind}, {name}").fill(str([0, 2, 5, 9][(i + j) % 4]))
        inputs = page.locator("input[name^=species_]")
        for i in range(inputs.count()):
            inputs.nth(i).fill("5")
        # The page adds the totals up as they are typed.
        expect(page.locator("output[data-total]").first).not_to_have_text("")
    else:
        arboretums, hands = assistant_case(species_of(page), len(names))
        for i in range(len(names)):
            page.get_by_label("Arboretum").nth(i).fill(arboretums[i])
            page.get_by_label("Hand at the end").nth(i).fill(hands[i])
    shot(page, f"07-table{table}-{mode.lower()}")
    page.get_by_role("button", name="Save result").click()
    expect(page.locator("#stored-result")).to_be_visible()
    page.get_by_role("button", name="Organizer confirms").click()
    expect(page.locator("#stored-result h2 .badge")).to_have_text("✓ confirmed")  # a symbol beside the word
    shot(page, f"08-table{table}-confirmed")
    no_js_errors(page)
    return names


def test_a_club_event_from_first_run_to_the_projector(empty_server: ServerProcess, new_device: Any) -> None:
    base = empty_server.url
    organizer = new_device(TABLET)
    event = first_run_and_event(organizer, base)
    import_and_check_in(organizer)
    seat_and_publish(organizer, base, event)
    download_round_pack(organizer)
    no_js_errors(organizer)

    # Three tables, three devices (two tablets and a phone), three entry modes.
    seated: list[str] = []
    for table, (mode, device) in enumerate([("Totals", TABLET), ("Scorepad", PHONE), ("Assistant", TABLET)], start=1):
        seated += enter_result(new_device(device), base, event, table, mode)
    assert sorted(seated) == sorted(PLAYERS)

    organizer.goto(f"{base}/events/{event}/standings")
    for name in PLAYERS:
        expect(organizer.get_by_text(name).first).to_be_visible()
    shot(organizer, "09-standings")

    projector = new_device(PROJECTOR, touch=False)
    sign_in(projector, base)
    projector.goto(f"{base}/events/{event}/projector")
    for name in PLAYERS:
        expect(projector.get_by_text(name).first).to_be_visible()
    shot(projector, "10-projector")
    no_js_errors(projector)

    # The organizer's pages on a phone: everything there, nothing wider than the screen.
    phone = new_device(PHONE)
    sign_in(phone, base)
    for path, name, expected in [("/", "02-events", "Riverside Spring Open"),
                                 (f"/events/{event}", "03-event-overview", "Riverside Spring Open"),
                                 (f"/events/{event}/players", "04-players", "Léa Ashby"),
                                 (f"/events/{event}/rounds/1", "06-round-published", "Round pack (PDF)"),
                                 (f"/events/{event}/rounds/1/tables/3", "08-table3-confirmed", "confirmed"),
                                 (f"/events/{event}/standings", "09-standings", "Léa Ashby"),
                                 (f"/events/{event}/audit", "09-audit", "Result of Round 1, Table 3 confirmed")]:
        phone.goto(base + path)
        expect(phone.get_by_text(expected).first).to_be_attached()
        if "table3" in name:
            expect(phone.locator("#stored-result h2 .badge")).to_have_text("✓ confirmed")
        shot(phone, name)
    no_js_errors(phone)
