"""The "Reconnecting…" notice of a game's screen on a phone: it speaks the page's language,
shows after polls go unanswered, and goes as soon as an answer arrives, including the final
screen of a game that ended meanwhile (which polls no more)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Route, expect

from tests.system.browser.conftest import PHONE, no_js_errors, shot
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser

GERMAN = "Verbindung wird wiederhergestellt"
POLLS = re.compile(r".*/changed\?.*")
#: a final screen as a poll brings it: the game is over, nothing polls any more
FINAL = '<div id="live" class="live"><p class="status done">Die Partie ist vorbei.</p></div>'


def test_reconnecting_speaks_the_language_and_goes_with_the_next_answer(empty_server: ServerProcess,
                                                                         new_device: Any) -> None:
    page = new_device(PHONE)
    page.clock.install()  # its time flows as ever, until the test moves it on past the stall timer
    page.goto(empty_server.url + "/practice")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#live")).to_be_visible()
    page.set_extra_http_headers({"Accept-Language": "de"})
    page.reload()
    expect(page.locator("#live")).to_be_visible()
    notice = page.locator("#reconnecting")

    # the Wi-Fi drops: the polls fail, and the notice says so in German
    page.route(POLLS, lambda route: route.abort())
    expect(notice).to_be_visible(timeout=10_000)
    expect(notice).to_contain_text(GERMAN)
    assert "Reconnecting" not in notice.inner_text()
    shot(page, "47-live-reconnecting")
    # it comes back: the next answered poll takes the notice away
    page.unroute(POLLS)
    expect(notice).to_have_count(0, timeout=5_000)

    # it drops again, and the game ends meanwhile: the final screen (no poll) takes it away
    page.route(POLLS, lambda route: route.abort())
    expect(notice).to_be_visible(timeout=10_000)
    page.unroute(POLLS)

    def final(route: Route) -> None:
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=FINAL)

    page.route(POLLS, final)
    expect(page.locator("#live .status.done")).to_be_visible(timeout=5_000)
    expect(notice).to_have_count(0, timeout=3_000)
    # the page's clock moved on past the stall timer (5 s), every second of it run through the
    # stall check: a finished game says nothing
    page.clock.run_for(6_000)
    expect(notice).to_have_count(0)
    page.js_errors.clear()  # type: ignore[attr-defined]  # the aborted polls, on purpose
    no_js_errors(page)
