"""A practice draft against two strong bots on a phone, at a person's pace: after every pick the
screen comes back to the player by itself (no reload, no button), until the final scores."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Page, expect

from tests.system.browser.conftest import PHONE, no_js_errors, shot
from tests.system.faults.harness import ServerProcess

#: a person looks at the reveal before choosing; the strong bot thinks up to 0.8 s a pick
HUMAN_PAUSE_MS = 700
#: the longest a screen may say "Waiting for" the bot before it moves on by itself
STALL_SECONDS = 10


def _my_turn(page: Page) -> bool:
    live = page.locator("#live")
    return bool(live.locator("text=Your choice is awaited").count()
                and live.locator(".hand input[name=card]:not([disabled])").count())


def _pick(page: Page) -> None:
    live = page.locator("#live")
    version = live.get_attribute("data-version")
    live.locator(".hand label.card-face").first.click(timeout=2500)
    cells = live.locator("button.cell-button")
    (cells.first if cells.count() else live.get_by_role("button", name="Discard the chosen card")).click(timeout=2500)
    page.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{version}'", timeout=5000)


def test_a_draft_against_strong_bots_never_stalls_at_a_person_s_pace(empty_server: ServerProcess,
                                                                     new_device: Any) -> None:
    page = new_device(PHONE)
    page.goto(empty_server.url + "/practice")
    page.locator("input[name=mode][value=draft]").check()
    page.locator("input[name=players][value='3']").check()
    page.select_option("#f-bot_1", "strong")
    page.select_option("#f-bot_2", "strong")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#live")).to_be_visible()
    url = page.url
    picks = 0
    waiting_since: float | None = None
    deadline = time.monotonic() + 240
    while not page.locator("text=Final scores").count():
        assert time.monotonic() < deadline, "the draft did not finish in time"
        assert page.url == url, "the page was left or reloaded"
        if _my_turn(page):
            waiting_since = None
            page.wait_for_timeout(HUMAN_PAUSE_MS)
            try:
                _pick(page)
                picks += 1
            except Exception:  # noqa: BLE001 - a poll replaced the screen under the tap: look again
                continue
            if picks == 5:
                shot(page, "70-draft-vs-strong-mid")
        else:
            waiting_since = waiting_since or time.monotonic()
            assert time.monotonic() - waiting_since < STALL_SECONDS, (
                "the screen waits for the strong bot and does not move on: "
                + page.locator("#live .live-head").inner_text())
            page.wait_for_timeout(200)
    assert picks >= 9
    expect(page.get_by_role("heading", name="Final scores")).to_be_visible()
    shot(page, "71-draft-vs-strong-final")
    no_js_errors(page)
