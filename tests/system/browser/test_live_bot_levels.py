"""The live overview on a phone: the organizer seats a bot at a chosen level and
changes it with one tap; the bot seat says its level; the player's screen at the table names the
bot and its level; every control is a finger's size and nothing is wider than the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session

from organizer.accounts import service as accounts
from organizer.core.db import make_engine
from tests.system.browser.conftest import PHONE, no_js_errors, shot
from tests.system.browser.support import AXE, AXE_RUN, BROKEN_WORDS, SMALL_TARGETS, settle
from tests.system.faults.harness import ServerProcess
from tests.system.faults.live_harness import live_database, true_state

pytestmark = pytest.mark.browser


def _sign_in(page: Page, base: str) -> None:
    page.goto(base + "/sign-in")
    page.fill("input[name=name]", "Tess")
    page.fill("input[name=password]", "correct horse battery")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/sign-in" not in url)


def _room_checks(browser: Browser, base: str, path: str) -> list[str]:
    """axe-core's serious findings, small tap targets, broken words, a page wider than a phone."""
    # bypass_csp: the app's Content-Security-Policy (rightly) refuses the injected axe script
    context = browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=1, bypass_csp=True)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    _sign_in(page, base)
    page.goto(base + path)
    settle(page)
    found: list[str] = page.evaluate(AXE_RUN) + page.evaluate(SMALL_TARGETS) + page.evaluate(BROKEN_WORDS)
    if page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") > 1:
        found.append("wider than the screen")
    context.close()
    return found


def test_the_organizer_seats_a_strong_bot_and_makes_it_easy_from_a_phone(tmp_path: Path, new_device: Any,
                                                                        browser: Browser) -> None:
    table = live_database(tmp_path / "live.sqlite3", 2, "draft", seed=21)
    engine = make_engine(f"sqlite:///{table.database}")
    with Session(engine) as db:
        accounts.create_organizer(db, "Tess", "correct horse battery")
    engine.dispose()
    with ServerProcess(f"sqlite:///{table.database}", tmp_path / "instance", workers=2, threads=4) as server:
        page = new_device(PHONE)
        page.on("dialog", lambda dialog: dialog.accept())
        _sign_in(page, server.url)
        overview = "/events/1/rounds/1/live"
        page.goto(server.url + overview)
        seat = page.locator("ol.live-seats > li").nth(1)
        level = seat.get_by_label("Level:")
        expect(level).to_have_value("normal")
        level.select_option("strong")
        seat.get_by_role("button", name="Bot plays this seat").click()
        seat = page.locator("ol.live-seats > li").nth(1)
        expect(seat.locator(".badge.bot-level")).to_have_text("Bot (strong)")
        expect(seat.get_by_role("button", name="strong")).to_have_attribute("aria-pressed", "true")
        shot(page, "60-overview-strong-bot")
        problems = _room_checks(browser, server.url, overview)  # a level's select, and a bot's three buttons
        assert not problems, "\n".join(problems)
        seat.get_by_role("button", name="easy").click()
        seat = page.locator("ol.live-seats > li").nth(1)
        expect(seat.locator(".badge.bot-level")).to_have_text("Bot (easy)")
        expect(seat.get_by_role("button", name="easy")).to_have_attribute("aria-pressed", "true")
        no_js_errors(page)

        # the person at the table reads who plays the other seat, and plays on against it
        phone = new_device(PHONE)
        phone.goto(f"{server.url}/play/{table.tokens[0]}")
        expect(phone.locator(".live-bots")).to_have_text(f"Bots at this table: {table.names[1]} (bot, easy)")
        phone.locator(".hand label.card-face").first.click()
        phone.locator("button.cell-button").first.click()
        expect(phone.locator(".hand label.card-face")).to_have_count(7, timeout=10_000)  # revealed: the hand passed on
        assert true_state(table).reveals == 1  # type: ignore[attr-defined]
        shot(phone, "61-seat-with-an-easy-bot")
        no_js_errors(phone)
