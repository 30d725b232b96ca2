"""The organizer in a real Chromium: layouts on a tablet and a phone, htmx swaps under the
Content-Security-Policy with CSRF on, the scorepad adding up. Skipped when no Chromium exists
(`.ci/run` installs Debian's)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select
from werkzeug.serving import make_server

from organizer.core.models import Player, Result
from tests.fixtures.browser_thread import CHROMIUM, BrowserThread, playwright_api
from tests.fixtures.organizer import make_app

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed")]

VIEWPORTS = {"tablet": (768, 1024), "phone": (390, 844)}
PAGES = ["/events/1", "/events/1/players", "/events/1/rounds/1", "/events/1/rounds/1/tables/3?mode=scorepad",
         "/events/1/rounds/1/tables/3?mode=assistant",
         "/events/1/rounds/1/tables/2", "/events/1/standings", "/events/1/edit", "/events/1/audit",
         "/events/1/projector"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    folder = tmp_path_factory.mktemp("browser")
    app = make_app(f"sqlite:///{folder / 'organizer.sqlite3'}", folder, WTF_CSRF_ENABLED=True, TESTING=False)
    assert app.test_cli_runner().invoke(args=["demo"]).exit_code == 0
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}", app
    httpd.shutdown()
    app.extensions["db_engine"].dispose()


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserThread]:
    chromium = BrowserThread()
    yield chromium
    chromium.close()


def signed_in_page(browser: BrowserThread, base: str, viewport: tuple[int, int]) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(base + "/sign-in")
    page.fill("#f-name", "demo")
    page.fill("#f-password", "demo")
    page.click("button[type=submit]")
    page.wait_for_url(base + "/")
    return page, problems


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_pages_fit_the_screen_with_large_touch_targets(server: tuple[str, Any], browser: BrowserThread, device: str) -> None:
    def scenario(chromium: Any) -> None:
        base, _ = server
        page, problems = signed_in_page(chromium, base, VIEWPORTS[device])
        for path in PAGES:
            page.goto(base + path)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= VIEWPORTS[device][0], f"{path} scrolls sideways on the {device}: {width}px"
            small = page.evaluate("""() => [...document.querySelectorAll(
                'main button, main .button, main input:not([type=hidden]):not([type=radio]):not([type=checkbox]), main select')]
                .filter(e => e.offsetParent !== null && !e.closest('.audit'))
                .filter(e => e.getBoundingClientRect().height < 40)
                .map(e => e.outerHTML.slice(0, 80))""")
            assert small == [], f"{path}: touch targets under 40px on the {device}: {small}"
        assert problems == []  # no CSP violation, no script error, no missing file
        page.close()

    browser.run(scenario)


def test_check_in_toggle_swaps_the_row_without_reloading(server: tuple[str, Any], browser: BrowserThread) -> None:
    def scenario(chromium: Any) -> None:
        base, app = server
        page, problems = signed_in_page(chromium, base, VIEWPORTS["tablet"])
        page.goto(base + "/events/1/players")
        page.evaluate("window.stillHere = true")
        row = page.locator("tr", has_text="Ada Moss")
        row.get_by_role("button", name="✓ Checked in").click()
        row.get_by_role("button", name="Check in").wait_for()
        assert page.evaluate("window.stillHere") is True  # swapped by htmx, not a page load
        with Session(app.extensions["db_engine"]) as session:
            assert session.exec(select(Player).where(Player.name == "Ada Moss")).one().checked_in is False
        row.get_by_role("button", name="Check in").click()
        row.get_by_role("button", name="✓ Checked in").wait_for()
        assert problems == []
        page.close()

    browser.run(scenario)


def test_check_in_counts_search_and_check_in_these(server: tuple[str, Any], browser: BrowserThread) -> None:
    """The counts follow each tap; a search narrows the list as it is typed; "Check in these" asks
    first, then checks in whom the search found; Drop sits behind "More", away from Check in."""
    def scenario(chromium: Any) -> None:
        base, app = server
        page, problems = signed_in_page(chromium, base, VIEWPORTS["phone"])
        page.goto(base + "/events/1/players")
        counts = page.locator("#player-counts")
        total = int(counts.inner_text().strip("(").split(" ")[0])
        row = page.locator("tr", has_text="Ada Moss")
        # Drop is not beside Check in: it shows only once "More" is opened
        drop = row.get_by_role("button", name="Drop")
        assert not drop.is_visible()
        row.locator("summary").click()
        assert drop.is_visible()
        row.locator("summary").click()
        page.fill("#player-search", "moss")
        page.wait_for_url("**q=moss**")
        playwright_api.expect(page.locator("tr.player-row")).to_have_count(1)
        if row.get_by_role("button", name="✓ Checked in").count():
            row.get_by_role("button", name="✓ Checked in").click()
            row.get_by_role("button", name="Check in", exact=True).wait_for()
        playwright_api.expect(counts).to_have_text(f"({total} registered, {total - 1} checked in)")
        questions: list[str] = []

        def answer(dialog: Any) -> None:
            questions.append(dialog.message)
            dialog.accept()

        page.once("dialog", answer)
        page.get_by_role("button", name="Check in this one (1)").click()
        playwright_api.expect(page.get_by_text("1 player checked in.")).to_be_visible()
        assert questions == ["Check in the 1 player named “moss” who is not checked in yet?"]
        playwright_api.expect(page.locator("tr", has_text="Ada Moss").get_by_role("button", name="✓ Checked in")).to_be_visible()
        playwright_api.expect(counts).to_have_text(f"({total} registered, {total} checked in)")
        with Session(app.extensions["db_engine"]) as session:
            assert session.exec(select(Player).where(Player.name == "Ada Moss")).one().checked_in is True
        assert problems == []
        page.close()

    browser.run(scenario)


def test_scorepad_adds_up_and_saves_through_htmx(server: tuple[str, Any], browser: BrowserThread) -> None:
    def scenario(chromium: Any) -> None:
        base, app = server
        page, problems = signed_in_page(chromium, base, VIEWPORTS["phone"])
        page.goto(base + "/events/1/rounds/1/tables/3?mode=scorepad")
        inputs = page.locator("input[data-sum]")
        first_seat = inputs.first.get_attribute("data-sum")
        page.locator(f"input[data-sum='{first_seat}']").nth(0).fill("7")
        page.locator(f"input[data-sum='{first_seat}']").nth(1).fill("12")
        assert page.locator(f"output[data-total='{first_seat}']").inner_text() == "19"
        # An impossible score: the message appears beside the box and what was typed stays.
        page.locator(f"input[data-sum='{first_seat}']").nth(2).fill("1")
        for box in page.locator("input[name^='species_']").all():
            box.fill("5")
        page.get_by_role("button", name="Save result").click()
        page.locator(".error", has_text="never scores 1").wait_for()
        assert page.locator(f"input[data-sum='{first_seat}']").nth(1).input_value() == "12"
        page.locator(f"input[data-sum='{first_seat}']").nth(2).fill("")
        page.get_by_role("button", name="Save result").click()
        page.locator("#stored-result").wait_for()
        with Session(app.extensions["db_engine"]) as session:
            stored = [r for r in session.exec(select(Result)).all() if r.entry_mode == "scorepad" and r.seats[0]["points"] == 19]
            assert len(stored) == 1
        # Chromium logs every 4xx answer; the 422 of the refused entry is the expected one.
        assert [p for p in problems if "status of 422" not in p] == []
        page.close()

    browser.run(scenario)


def test_screenshots_for_the_record(server: tuple[str, Any], browser: BrowserThread, tmp_path: Path) -> None:
    """Every organizer page on a phone: it answers 200, shows its heading, fits the screen's
    width, and renders to a screenshot that is not blank (the files land in pytest's tmp folder
    for a human to look at)."""
    def scenario(chromium: Any) -> None:
        base, _ = server
        page, problems = signed_in_page(chromium, base, VIEWPORTS["phone"])
        for index, path in enumerate(PAGES):
            response = page.goto(base + path)
            assert response is not None and response.status == 200, path
            assert page.locator("h1").first.is_visible(), f"{path}: no visible heading"
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"{path} is {overflow} px wider than a 390 px phone"
            image = page.screenshot(path=str(tmp_path / f"{index}.png"), full_page=True)
            # a blank page compresses to almost nothing; a real page with text and controls does not
            assert len(image) > 8_000, f"{path}: the screenshot looks blank ({len(image)} bytes)"
        assert problems == []
        page.close()

    browser.run(scenario)


def test_phone_frame_and_standings_one_line_per_player(server: tuple[str, Any], browser: BrowserThread) -> None:
    """At 390 px: the top bar is one line with its menu, the event's tabs one sideways-scrolling
    row, and each standing one line (rank, name, points) whose tie-break figures open on a tap."""
    def scenario(chromium: Any) -> None:
        base, _ = server
        page, problems = signed_in_page(chromium, base, VIEWPORTS["phone"])
        page.goto(base + "/events/1/standings")
        assert page.locator("header.topbar").bounding_box()["height"] <= 70
        tabs = page.locator("ul.event-nav")
        assert tabs.bounding_box()["height"] <= 70  # one row, not three
        assert tabs.get_by_role("link", name="Standings").is_visible()  # the current tab is scrolled into view
        rows = page.locator("table.standings tbody tr")
        assert rows.count() >= 8
        for index in range(rows.count()):
            row = rows.nth(index)
            if "dropped" in (row.get_attribute("class") or ""):
                continue  # the badge may take a second line
            assert row.bounding_box()["height"] < 60, row.inner_text()
        first = rows.first
        assert not first.get_by_text("Opponents' average").is_visible()
        first.locator("summary").click()
        assert first.get_by_text("Opponents' average").is_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 1
        # the menu opens without leaving the page, every entry a full tap target
        page.locator("details.site-menu > summary").click()
        entries = page.locator(".site-menu-panel a, .site-menu-panel button")
        assert entries.count() >= 10
        for index in range(entries.count()):
            assert entries.nth(index).bounding_box()["height"] >= 44
        page.get_by_role("link", name="Accounts").click()
        page.wait_for_url(base + "/organizers")
        assert page.request.get(base + "/favicon.ico").status == 200
        assert problems == []
        page.close()

    browser.run(scenario)
