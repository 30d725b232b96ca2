"""The players' seat screen in a real browser: a chosen card survives the 1-second
poll's refresh and a reload, and the move then completes; every card shows its species code and
number, no hand-card name breaks inside a word on a phone, and the screen says what just happened
in sentences."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Page, expect

from engine import species_code
from tests.system.browser.conftest import PHONE, SHOT_FORMAT, TABLET, TALLER, no_js_errors
from tests.system.browser.support import settle
from tests.system.faults.harness import ServerProcess
from tests.system.faults.live_harness import LiveTable, live_database, seats_for, true_state

pytestmark = pytest.mark.browser

#: screenshots to look at, kept out of the repository
SHOTS = Path(os.environ.get("LIVE_SHOTS", "/tmp/live-shots"))


@dataclass
class Tables:
    server: ServerProcess
    draft: LiveTable
    standard: LiveTable


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    """One server for the module over two events' tables in one database, a draft and a standard
    game (the practice game starts beside them): each test keeps to a table of its own, and a
    server's start and stop are seconds of CPU."""
    folder = tmp_path_factory.mktemp("seat-screen")
    database = folder / "live.sqlite3"
    draft = live_database(database, 3, "draft", seed=21)
    standard = live_database(database, 3, "standard", seed=8)
    with ServerProcess(f"sqlite:///{database}", folder / "instance", workers=2, threads=4) as server:
        yield Tables(server, draft, standard)


def look(page: Page, name: str) -> None:
    """A full-page screenshot (under /tmp); the page must fit the screen's width."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=str(SHOTS / f"{name}-{width}.jpg"), full_page=page.evaluate(TALLER), **SHOT_FORMAT)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"{name} at {width} px is {overflow} px wider than the screen"


def version_of(page: Page) -> str:
    return str(page.evaluate("() => document.getElementById('live').dataset.version"))


def words_broken(page: Page) -> list[str]:
    """Hand-card names a line break cuts inside a word ("Dogwoo / d"): each word of a name must
    sit on one line (one client rect)."""
    return list(page.evaluate("""() => {
        const broken = [];
        document.querySelectorAll('#live .hand .card-face .name').forEach(name => {
            const text = name.firstChild;
            if (!text) { return; }
            let at = 0;
            for (const word of text.textContent.split(' ')) {
                const range = document.createRange();
                range.setStart(text, at);
                range.setEnd(text, at + word.length);
                const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                if (word && lines.size > 1) { broken.push(text.textContent); }
                at += word.length + 1;
            }
        });
        return broken;
    }"""))


def cards_without_code(page: Page) -> list[str]:
    """Card faces (hand, arboretums, piles, the log) that do not show a species code and a number."""
    return list(page.evaluate("""() => [...document.querySelectorAll(
            '#live .card-face, #live .cell.planted')].filter(card => {
        const code = card.querySelector('.code');
        const value = card.querySelector('.value');
        return !code || !/^[A-Z][A-Za-z]$/.test(code.textContent.trim())
            || !value || !/^[1-8]$/.test(value.textContent.trim());
    }).map(card => card.outerHTML.slice(0, 120))"""))


def test_a_chosen_card_survives_the_poll_and_a_reload_then_the_pick_completes(tables: Tables,
                                                                             new_device: Any) -> None:
    server, table = tables.server, tables.draft
    phone = new_device(PHONE)
    phone.goto(f"{server.url}/play/{table.tokens[0]}")
    live = phone.locator("#live")
    expect(live.locator(".step")).to_contain_text("Pick a card to keep")
    labels = live.locator(".hand label.card-face")
    assert labels.count() >= 7
    # every hand card shows its species code and number; the name is the accessible name
    hand = true_state(table).hands[0]  # type: ignore[attr-defined]
    for card in hand:
        label = live.locator(f".hand label.card-face:has(input[value='{card}'])")
        expect(label.locator(".code")).to_have_text(species_code(card.species))
        expect(label.locator(".value")).to_have_text(str(card.value))
        expect(live.get_by_role("radio", name=str(card))).to_have_count(1)
    assert not words_broken(phone)
    assert not cards_without_code(phone)
    look(phone, "seat-draft-start")

    help_box = live.locator("details.live-help")
    if help_box.count():  # the "how this game works" box stays open across the poll's swaps
        help_box.locator("summary").click()
        expect(help_box).to_have_attribute("open", "")
    chosen = str(hand[2])
    labels.nth(2).click()
    assert live.locator(f"input[name=card][value='{chosen}']").is_checked()

    # another seat picks: the table's version changes and this screen's poll replaces it
    before = version_of(phone)
    other = seats_for(server.url, table)[1]
    other.open()
    other_card = str(true_state(table).hands[1][0])  # type: ignore[attr-defined]
    assert other.act({"verb": "pick", "card": other_card, "cell": "0,0"}).status == 200
    phone.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{before}'",
                            timeout=10_000)
    expect(live.locator(f"input[name=card][value='{chosen}']")).to_be_checked()
    if help_box.count():
        expect(help_box).to_have_attribute("open", "")

    # a reload (a phone waking up) keeps it too, while the situation is the same
    phone.reload()
    expect(phone.locator(f"#live input[name=card][value='{chosen}']")).to_be_checked()

    # while a finger is on the screen the poll's new screen waits (a tap never lands on a
    # screen swapped out under it); it comes once the finger lifts
    headline = phone.locator("#live .headline").bounding_box()
    assert headline is not None
    phone.mouse.move(headline["x"] + 5, headline["y"] + 5)
    phone.mouse.down()
    before = version_of(phone)
    # the poll that brings the new screen (200: "changed since" the version shown) is answered
    with phone.expect_response(lambda r: "/changed" in r.url and r.status == 200, timeout=10_000):
        assert other.act({"verb": "pick", "card": str(true_state(table).hands[1][1]),  # type: ignore[attr-defined]
                          "cell": "0,0"}).status == 200
    settle(phone)  # and htmx has handled the answer: it kept the screen under the finger
    assert version_of(phone) == before
    phone.mouse.up()
    phone.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{before}'",
                            timeout=10_000)
    expect(live.locator(f"input[name=card][value='{chosen}']")).to_be_checked()

    # the half-done pick completes with one tap on a cell
    before = version_of(phone)
    phone.locator("#live button.cell-button").first.click()
    phone.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{before}'")
    note = phone.locator("#live .pending-note")
    expect(note).to_contain_text("Your choice:")
    expect(note.locator(f"[title='{chosen}']")).to_have_count(1)
    stored = true_state(table)
    assert stored.pending[0] is not None and str(stored.pending[0].card) == chosen  # type: ignore[attr-defined]

    # the third seat picks: the reveal is told near the top, in sentences
    third = seats_for(server.url, table)[2]
    third.open()
    third_card = str(true_state(table).hands[2][0])  # type: ignore[attr-defined]
    assert third.act({"verb": "pick", "card": third_card, "cell": "0,0"}).status == 200
    recent = phone.locator("#live .recent")
    expect(recent).to_contain_text("Last reveal", timeout=10_000)
    mine = recent.get_by_role("listitem").filter(has_text="You planted")
    expect(mine).to_have_count(1)
    expect(mine.locator(f"[title='{chosen}']")).to_have_count(1)
    expect(recent.get_by_role("listitem").filter(has_text=f"{table.names[1]} planted")).to_have_count(1)
    assert not cards_without_code(phone)
    look(phone, "seat-draft-after-reveal")
    tablet = new_device(TABLET)
    tablet.goto(f"{server.url}/play/{table.tokens[1]}")
    expect(tablet.locator("#live .recent")).to_contain_text("You planted")
    look(tablet, "seat-draft-after-reveal")
    no_js_errors(phone)
    no_js_errors(tablet)


def test_a_standard_game_says_what_each_step_asks_and_what_just_happened(tables: Tables, new_device: Any) -> None:
    server, table = tables.server, tables.standard
    phone = new_device(PHONE)
    phone.goto(f"{server.url}/play/{table.tokens[0]}")
    live = phone.locator("#live")
    expect(live.locator(".step")).to_have_text(re.compile(r"Draw your first card"))
    watcher = new_device(PHONE)
    watcher.goto(f"{server.url}/play/{table.tokens[1]}")
    expect(watcher.locator("#live .step")).to_contain_text(f"{table.names[0]} draws a first card")
    live.locator(".sources button").first.click()
    expect(live.locator(".step")).to_contain_text("Draw your second card")
    expect(live.locator(".recent")).to_contain_text("You drew")
    live.locator(".sources button").first.click()
    expect(live.locator(".step")).to_contain_text("Play a card into your arboretum")
    live.locator(".hand label.card-face").first.click()
    live.locator("button.cell-button").first.click()
    expect(live.locator(".step")).to_contain_text("Discard a card")
    assert not words_broken(phone)
    look(phone, "seat-standard-discard")
    live.locator(".discards button").first.click()
    expect(live.locator(".step")).to_contain_text(f"{table.names[1]} draws a first card")
    text = live.locator(".recent").inner_text()
    assert "You planted" in text and "You discarded" in text
    assert "discard 0" not in text and "pile discard" not in text  # no internal names
    expect(watcher.locator("#live .recent")).to_contain_text(f"{table.names[0]} planted", timeout=10_000)
    expect(watcher.locator("#live .step")).to_contain_text("Draw your first card")
    assert not cards_without_code(watcher)
    look(watcher, "seat-standard-watcher")
    no_js_errors(phone)
    no_js_errors(watcher)


def test_a_practice_game_against_a_bot_shows_the_bots_moves(tables: Tables, new_device: Any) -> None:
    """Bots move at once; the log is their only record on the screen."""
    page = new_device(PHONE)
    page.goto(tables.server.url + "/practice")
    page.locator("input[name=mode][value=standard]").check()
    page.get_by_role("button", name="Start the game").click()
    live = page.locator("#live")
    expect(live.locator(".step")).to_contain_text("Draw your first card")
    live.locator(".sources button").first.click()
    expect(live.locator(".step")).to_contain_text("Draw your second card")
    live.locator(".sources button").first.click()
    expect(live.locator(".step")).to_contain_text("Play a card into your arboretum")
    live.locator(".hand label.card-face").first.click()
    live.locator("button.cell-button").first.click()
    expect(live.locator(".step")).to_contain_text("Discard a card")
    live.locator(".discards button").first.click()
    # the bot has played its whole turn by the time the screen comes back: it is our turn again
    expect(live.locator(".step")).to_contain_text("Draw your first card")
    items = live.locator(".recent li")
    expect(items).to_have_count(6)
    text = live.locator(".recent").inner_text()
    bot = page.evaluate("() => [...document.querySelectorAll('.arb h3')].map(h => h.textContent)")[1]
    bot_name = re.sub(r"^Arboretum of (.*) · .*$", r"\1", bot.strip())
    assert f"{bot_name} planted" in text and f"{bot_name} discarded" in text, text
    assert "discard 0" not in text and "pile discard" not in text
    assert not cards_without_code(page)
    look(page, "practice-standard-after-bot")
    no_js_errors(page)
