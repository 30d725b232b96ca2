"""A table tablet that keeps working when the venue's Wi-Fi does not, in Chromium
with Playwright's offline mode: results entered offline are kept on the tablet, survive a
reload, and are stored once when the connection returns; a table corrected meanwhile is a
conflict the judge settles; a live seat says "Reconnecting" and recovers."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser, Page, expect

from tests.system.browser.conftest import PHONE, TABLET, no_js_errors, shot
from tests.system.browser.support import (
    assistant_case,
    first_run,
    import_and_check_in,
    new_event,
    seat_and_publish,
    seats_of,
    sign_in,
    species_of,
)
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser


@dataclass
class Club:
    server: ServerProcess
    database: Path
    #: the cookies of the session the first run signed in (a test that ends its session signs in itself)
    signed_in: dict[str, Any]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Club]:
    """One server for the module, its account made at the first run: each test keeps to an event
    of its own, and a server's start and stop are seconds of CPU that no test here needs."""
    folder = tmp_path_factory.mktemp("offline")
    database = folder / "organizer.sqlite3"
    with ServerProcess(f"sqlite:///{database}", folder / "instance", workers=2, threads=4) as server:
        context = browser.new_context(viewport=TABLET, has_touch=True, device_scale_factor=1)
        first_run(context.new_page(), server.url)
        signed_in = context.storage_state()
        context.close()
        yield Club(server, database, dict(signed_in))


def event_ready(page: Page, base: str) -> str:
    """A new event, its players imported and checked in, round 1 seated and published."""
    event = new_event(page, base)
    import_and_check_in(page)
    seat_and_publish(page, base, event)
    return event


def kept_pages(page: Page) -> list[str]:
    return list(page.evaluate("""() => caches.open('arboretum-pages').then(c => c.keys())
        .then(keys => keys.map(r => { const u = new URL(r.url); return u.pathname + u.search; }))"""))


def wait_until_kept(page: Page, *paths: str) -> None:
    """The worker controls the page and the tablet keeps these pages (fetched in the background)."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    for _ in range(100):
        if set(paths) <= set(kept_pages(page)):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"not kept: {set(paths) - set(kept_pages(page))} (kept: {kept_pages(page)})")


def stored(database: Path, event: str) -> tuple[dict[int, tuple[int, list[Any]]], list[tuple[int, str]]]:
    """What the server stored for the event: each table's result (version, seats) and the result
    audit entries."""
    with sqlite3.connect(database) as db:
        results = {number: (version, json.loads(seats)) for number, version, seats in db.execute(
            "SELECT t.number, r.version, r.seats FROM result r JOIN gametable t ON t.id = r.table_id "
            "JOIN round d ON d.id = t.round_id WHERE d.event_id = ?", (int(event),))}
        audit = list(db.execute("SELECT t.number, a.action FROM auditentry a JOIN gametable t ON t.id = a.table_id "
                                "WHERE a.action LIKE 'result.%' AND a.event_id = ? ORDER BY a.id", (int(event),)))
    return results, audit


def no_errors_but_offline(page: Page) -> None:
    """As no_js_errors, where a request failing offline and the server's 409 to a stale entry
    are the design at work."""
    expected = ("Failed to load resource: net::ERR_INTERNET_DISCONNECTED", "htmx:sendError",
                "Failed to load resource: the server responded with a status of 409")
    page.js_errors[:] = [e for e in page.js_errors if not e.startswith(expected)]  # type: ignore[attr-defined]
    no_js_errors(page)


def sign_out(page: Page) -> None:
    """Sign out sits in the top bar's menu: open it (if it is not open yet) and tap the button."""
    button = page.get_by_role("button", name="Sign out")
    if not button.is_visible():
        page.locator("details.site-menu > summary").click()
    button.click()


def fill_totals(page: Page, points: list[int]) -> None:
    for name, value in zip(seats_of(page), points, strict=True):
        page.get_by_label(f"Points of {name}").fill(str(value))
        page.get_by_label(f"Species of {name}").fill("5")


def test_results_entered_offline_are_sent_once_when_the_connection_returns(club: Club, new_device: Any) -> None:
    base = club.server.url
    tablet = new_device(TABLET, storage_state=club.signed_in)
    event = event_ready(tablet, base)
    round_page = f"/events/{event}/rounds/1"
    table = f"{round_page}/tables"

    # Online, the judge opens the round, table 2 and table 1: the tablet keeps them, every entry mode.
    tablet.goto(base + round_page)
    wait_until_kept(tablet, round_page, f"{table}/1", f"{table}/2")
    tablet.goto(f"{base}{table}/2")
    wait_until_kept(tablet, f"{table}/2?mode=assistant&edit=1")
    tablet.goto(f"{base}{table}/1")
    wait_until_kept(tablet, f"{table}/1?mode=totals&edit=1")

    tablet.context.set_offline(True)
    # Table 1 in totals.
    fill_totals(tablet, [41, 36, 30, 22])
    tablet.get_by_role("button", name="Save result").click()
    expect(tablet.locator("#offline-count")).to_have_text("1 not sent yet")
    expect(tablet.locator("#offline-note")).to_contain_text("Not sent yet")
    # Back to the round and on to table 2, all from what the tablet kept.
    tablet.get_by_role("link", name=re.compile("round 1$")).first.click()
    tablet.get_by_role("link", name="Table 2", exact=True).click()
    expect(tablet.get_by_role("heading", name="Table 2")).to_be_visible()
    assistant = re.compile(r"^(Scoring )?assistant$", re.IGNORECASE)
    tablet.get_by_role("navigation", name="Entry mode").get_by_role("link", name=assistant).click()
    expect(tablet).to_have_url(re.compile(r"mode=assistant"))
    names = seats_of(tablet)
    arboretums, hands = assistant_case(species_of(tablet), len(names))
    for i in range(len(names)):
        tablet.get_by_label("Arboretum").nth(i).fill(arboretums[i])
        tablet.get_by_label("Hand at the end").nth(i).fill(hands[i])
    tablet.get_by_role("button", name="Save result").click()
    expect(tablet.locator("#offline-count")).to_have_text("2 not sent yet")
    expect(tablet.locator("#offline-note")).to_contain_text("the engine scores it then")

    # A reload without a connection: the kept page, the entry typed back in, both still queued.
    tablet.reload()
    expect(tablet.get_by_role("heading", name="Table 2")).to_be_visible()
    expect(tablet.locator("#offline-count")).to_have_text("2 not sent yet")
    expect(tablet.get_by_label("Arboretum").first).to_have_value(arboretums[0])
    expect(tablet.locator("#offline-queue .offline-entry")).to_have_count(2)
    shot(tablet, "30-offline-two-results-kept")
    assert stored(club.database, event) == ({}, [])

    tablet.context.set_offline(False)
    expect(tablet.locator("#offline-count")).to_be_hidden(timeout=30_000)
    expect(tablet.locator("#stored-result")).to_be_visible()  # table 2's page shows its result
    results, audit = stored(club.database, event)
    assert sorted(results) == [1, 2]
    assert results[1][0] == results[2][0] == 1
    assert audit == [(1, "result.entered"), (2, "result.entered")]
    tablet.goto(f"{base}{table}/1")
    expect(tablet.locator("#stored-result")).to_contain_text("41")
    expect(tablet.get_by_text(re.compile(r"^Result of Round 1, Table 1 entered"))).to_have_count(1)  # stored once
    shot(tablet, "31-offline-results-sent")
    no_errors_but_offline(tablet)


def test_tables_corrected_meanwhile_are_conflicts_the_judge_settles(club: Club, new_device: Any) -> None:
    base = club.server.url
    tablet = new_device(TABLET)
    sign_in(tablet, base)  # a session of its own: this tablet signs out
    event = event_ready(tablet, base)
    page_1, page_2 = (f"/events/{event}/rounds/1/tables/{n}" for n in (1, 2))
    tablet.goto(base + page_2)
    wait_until_kept(tablet, page_2)
    tablet.goto(base + page_1)
    wait_until_kept(tablet, page_1)

    tablet.context.set_offline(True)
    fill_totals(tablet, [50, 40, 30, 20])
    tablet.get_by_role("button", name="Save result").click()
    expect(tablet.locator("#offline-count")).to_have_text("1 not sent yet")
    tablet.goto(base + page_2)
    fill_totals(tablet, [25, 24, 23, 22])
    tablet.get_by_role("button", name="Save result").click()
    expect(tablet.locator("#offline-count")).to_have_text("2 not sent yet")

    # Meanwhile the head judge enters both tables' results from the desk.
    desk = new_device(TABLET)
    sign_in(desk, base)
    for page in (page_1, page_2):
        desk.goto(base + page)
        fill_totals(desk, [10, 9, 8, 7])
        desk.get_by_role("button", name="Save result").click()
        expect(desk.locator("#stored-result")).to_be_visible()

    tablet.context.set_offline(False)
    entries = tablet.locator("#offline-queue .offline-entry")
    first, second = entries.filter(has_text="table 1"), entries.filter(has_text="table 2")
    for entry in (first, second):
        expect(entry).to_have_attribute("data-status", "conflict", timeout=30_000)
        expect(entry).to_contain_text("Tess saved version 1")
    expect(tablet.locator("#offline-count")).to_have_text("2 not sent yet")
    shot(tablet, "32-offline-conflict")
    results, audit = stored(club.database, event)
    for table in (1, 2):  # nothing overwritten
        assert results[table][0] == 1 and [s["points"] for s in results[table][1]] == [10, 9, 8, 7]
    assert sorted(audit) == [(1, "result.conflict_refused"), (1, "result.entered"),
                             (2, "result.conflict_refused"), (2, "result.entered")]

    # Signing out with unsent entries asks first; the judge stays.
    questions: list[str] = []
    tablet.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    sign_out(tablet)
    for _ in range(50):  # the question comes once the tablet has counted its entries
        if questions:
            break
        tablet.wait_for_timeout(100)
    tablet.wait_for_timeout(300)
    expect(first).to_be_visible()
    assert questions and "2 results entered on this tablet are not sent yet and will be lost" in questions[0]

    # Table 2: the judge drops theirs. Table 1: theirs is sent over version 1 and stored as version 2.
    tablet.once("dialog", lambda dialog: dialog.accept())
    second.get_by_role("button", name="Drop mine, keep theirs").click()
    expect(second).to_have_count(0)
    first.get_by_role("button", name="Send mine over it").click()
    expect(tablet.locator("#offline-count")).to_be_hidden(timeout=30_000)
    results, audit = stored(club.database, event)
    assert results[1][0] == 2 and [s["points"] for s in results[1][1]] == [50, 40, 30, 20]
    assert results[2][0] == 1 and [s["points"] for s in results[2][1]] == [10, 9, 8, 7]
    assert audit[-1] == (1, "result.corrected") and len(audit) == 5

    # Signing out (nothing unsent: no question) leaves no page of the event on the tablet.
    assert kept_pages(tablet)
    sign_out(tablet)
    expect(tablet).to_have_url(re.compile(r"/sign-in"))
    assert kept_pages(tablet) == []
    no_errors_but_offline(tablet)


def test_a_live_seat_says_reconnecting_and_recovers(club: Club, new_device: Any) -> None:
    phone = new_device(PHONE)
    phone.goto(club.server.url + "/practice")
    phone.get_by_role("button", name="Start the game").click()
    expect(phone.locator("#live")).to_be_visible()
    expect(phone.get_by_text("Reconnecting")).to_have_count(0)
    phone.context.set_offline(True)
    expect(phone.get_by_text("Reconnecting")).to_be_visible(timeout=10_000)
    shot(phone, "33-live-reconnecting")
    phone.context.set_offline(False)
    expect(phone.get_by_text("Reconnecting")).to_have_count(0, timeout=10_000)


def test_a_tablet_whose_session_ended_empties_its_kept_pages_at_its_next_contact(club: Club, new_device: Any) -> None:
    """A result saved offline on a table's page (which does not refresh itself); meanwhile the
    tablet's session is ended on the server (signed out everywhere from another device, the
    account disabled, the idle limit passed). Sending the result when the connection returns is
    the tablet's next contact: it is told to sign in again, and from then on nothing of the event
    is shown offline. The unsent entry stays, to be sent after signing in again."""
    base = club.server.url
    tablet = new_device(TABLET)
    sign_in(tablet, base)  # a session of its own, the one ended below
    with sqlite3.connect(club.database) as db:
        (session,) = db.execute("SELECT max(id) FROM accountsession").fetchone()
    event = event_ready(tablet, base)
    round_page = f"/events/{event}/rounds/1"
    tablet.goto(f"{base}{round_page}/tables/1")
    wait_until_kept(tablet, f"{round_page}/tables/1?mode=totals&edit=1")
    tablet.goto(f"{base}{round_page}/tables/1?mode=totals&edit=1")
    wait_until_kept(tablet, round_page, f"{round_page}/tables/1?mode=totals&edit=1")

    tablet.context.set_offline(True)
    fill_totals(tablet, [41, 36, 30, 22])
    tablet.get_by_role("button", name="Save result").click()
    expect(tablet.locator("#offline-count")).to_have_text("1 not sent yet")
    with sqlite3.connect(club.database) as db:
        db.execute("UPDATE accountsession SET ended_at = CURRENT_TIMESTAMP WHERE id = ?", (session,))
    tablet.context.set_offline(False)
    expect(tablet.locator("#offline-queue")).to_contain_text("Sign in again to send it", timeout=30_000)
    for _ in range(50):  # the page empties the cache as it shows the answer
        if not kept_pages(tablet):
            break
        tablet.wait_for_timeout(100)
    assert kept_pages(tablet) == [], "the session's end empties the kept pages"

    tablet.context.set_offline(True)
    tablet.goto(f"{base}{round_page}")
    expect(tablet.get_by_role("heading", name="Round 1")).to_have_count(0)
    expect(tablet.locator("body")).not_to_contain_text("Table 1")
