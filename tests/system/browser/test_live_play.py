"""Live play in a real browser: a whole 3-seat draft played from three phones at once (each its
own browser context with its private link), and a solo game against Q played to the end."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.live.support import cards_mentioned, hidden_from
from tests.system.browser.conftest import PHONE, no_js_errors, shot
from tests.system.faults.harness import ServerProcess
from tests.system.faults.live_harness import LiveTable, live_database, true_state, versioned_state

pytestmark = pytest.mark.browser


@dataclass
class Drafts:
    server: ServerProcess
    played: LiveTable
    streamed: LiveTable


@pytest.fixture(scope="module")
def drafts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Drafts]:
    """The live server's settings (gevent workers, each page told of every change by its stream)
    over two events' 3-seat drafts in one database, one for each test that plays a draft: each
    keeps to its own table, and a server's start and stop are seconds of CPU."""
    folder = tmp_path_factory.mktemp("live-play")
    database = folder / "live.sqlite3"
    played = live_database(database, 3, "draft", seed=21)
    streamed = live_database(database, 3, "draft", seed=23)
    with ServerProcess(f"sqlite:///{database}", folder / "instance", workers=2, live_config=True) as server:
        yield Drafts(server, played, streamed)


def hidden_at(states: dict[int, Any], version: int, seat: int) -> set[str]:
    """Cards hidden from ``seat`` at ``version``. A version made by the server between two
    recorded ones (a reveal settled on a poll, say) is judged by what both neighbours hide:
    within one pick a card cannot pass into this seat's hand and out again."""
    if version in states:
        return set(hidden_from(states[version], seat))
    before = max((v for v in states if v < version), default=None)
    after = min((v for v in states if v > version), default=None)
    assert before is not None and after is not None, f"version {version} outside what was recorded"
    return set(hidden_from(states[before], seat)) & set(hidden_from(states[after], seat))


def version_of(page: Page) -> str:
    return str(page.evaluate("() => document.getElementById('live').dataset.version"))


def wait_for_change(page: Page, version: str) -> None:
    """Until the screen shows a newer version (the answer to the tap has been swapped in)."""
    try:
        page.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{version}'",
                               timeout=5000)
    except PlaywrightTimeout:
        pass  # refused or lost: the loop looks at the screen again


def finished(page: Page) -> bool:
    return page.locator("text=Final scores").count() > 0


def take_turn(page: Page) -> bool:
    """Do whatever the screen offers now, as a player would: draw from the first source, or
    choose the first card and tap the first open cell (or discard it), or discard. False when
    the screen waits for someone else, or when the 1-second poll replaced the screen under the
    tap (the next round of the loop tries again, as a player taps again)."""
    try:
        return _take_turn(page)
    except PlaywrightTimeout:
        return False


def _take_turn(page: Page) -> bool:
    live = page.locator("#live")
    if live.locator(".sources button").count():
        live.locator(".sources button").first.click(timeout=2500)
        return True
    cards = live.locator(".hand input[name=card]:not([disabled])")
    pending = live.locator(".pending-note strong").count() > 0
    if cards.count() and not pending and live.locator("text=Your choice is awaited").count():
        live.locator(".hand label.card-face").first.click(timeout=2500)
        cells = live.locator("button.cell-button")
        if cells.count():
            cells.first.click(timeout=2500)
        else:
            live.get_by_role("button", name="Discard the chosen card").click(timeout=2500)
        return True
    if live.locator(".discards button").count():
        live.locator(".discards button").first.click(timeout=2500)
        return True
    return False


def test_a_three_seat_draft_from_three_phones(drafts: Drafts, new_device: Any) -> None:
    server, table = drafts.server, drafts.played
    phones = []
    for token in table.tokens:
        phone = new_device(PHONE)
        phone.goto(f"{server.url}/play/{token}")
        expect(phone.locator("#live")).to_be_visible()
        assert phone.evaluate("() => document.getElementById('live').dataset.stream")
        phones.append(phone)
    shot(phones[0], "11-draft-start")
    deadline = time.monotonic() + 240
    picks = 0
    # Only these clicks change the table, so every version any phone can show is recorded.
    states = dict([versioned_state(table)])
    while not all(finished(phone) for phone in phones):
        assert time.monotonic() < deadline, "the draft did not finish in time"
        acted = False
        version, state = versioned_state(table)
        states[version] = state
        for position, phone in enumerate(phones):
            # What each phone shows never includes a card hidden from that seat at the
            # moment (the version) its screen shows.
            # One read of one element: a poll may swap #live between two separate reads.
            shown, html = phone.evaluate(
                "() => { const live = document.getElementById('live');"
                " return [Number(live.dataset.version), live.innerHTML]; }")
            if shown > max(states):  # a tap that timed out on our side may still have landed
                version, state = versioned_state(table)
                states[version] = state
            leaked = cards_mentioned(html) & hidden_at(states, shown, position)
            assert not leaked, f"seat {position} shows hidden cards {sorted(leaked)}"
            before = version_of(phone)
            if not finished(phone) and take_turn(phone):
                acted = True
                picks += 1
                wait_for_change(phone, before)
                version, state = versioned_state(table)
                states[version] = state
        if picks == 4:
            shot(phones[1], "12-draft-mid")
        if not acted:
            phones[0].wait_for_timeout(300)  # the streams (or the 1-second polls) bring the reveal
    assert picks >= 3 * 7 * 3 - 3  # 3 rounds of 7 picks (the eighth card is discarded)
    for phone in phones:
        expect(phone.get_by_role("heading", name="Final scores")).to_be_visible()
        no_js_errors(phone)
    shot(phones[2], "13-draft-final")
    final = true_state(table)
    assert final.is_terminal()
    # Every phone shows the same totals, the engine's.
    totals = [str(p.total) for p in final.outcome().players]  # type: ignore[union-attr]
    for phone in phones:
        text = phone.locator("#live").inner_text()
        for total in totals:
            assert total in text


def test_a_solo_game_against_q_played_to_the_end(empty_server: ServerProcess, new_device: Any) -> None:
    page = new_device(PHONE)
    page.goto(empty_server.url + "/practice")
    shot(page, "14-practice-form")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#live")).to_be_visible()
    shot(page, "15-solo-start")
    deadline = time.monotonic() + 240
    moves = 0
    while not finished(page):
        assert time.monotonic() < deadline, "the solo game did not finish in time"
        before = version_of(page)
        if take_turn(page):
            moves += 1
            wait_for_change(page, before)
            if moves == 12:
                shot(page, "16-solo-mid")
        else:
            page.wait_for_timeout(200)
    assert moves > 20
    expect(page.get_by_role("heading", name="Final scores")).to_be_visible()
    shot(page, "17-solo-final")
    page.get_by_role("link", name="Replay the game move by move").click()
    expect(page).to_have_url(re.compile(r"/replay/practice/"))
    shot(page, "18-solo-replay")
    no_js_errors(page)


def test_the_reveal_reaches_the_other_phones_by_their_streams(drafts: Drafts, new_device: Any) -> None:
    """The timed polls are cut off (as a proxy might lose them): the phones that did not make the
    last pick still show the reveal within a second, asked for when the stream said so; and while
    the stream is alive, a phone polls every 5 seconds instead of every second."""
    server, table = drafts.server, drafts.streamed
    phones = []
    timed_polls = [0] * len(table.tokens)

    def cut_off(seat: int) -> Any:
        def handle(route: Any) -> None:
            timed_polls[seat] += 1
            route.abort()
        return handle

    for seat, token in enumerate(table.tokens):
        phone = new_device(PHONE)
        phone.route(re.compile(r".*/changed\?since=(?!.*pushed=).*"), cut_off(seat))
        phone.goto(f"{server.url}/play/{token}")
        expect(phone.locator("#live")).to_be_visible()
        phones.append(phone)
    for position, phone in enumerate(phones):
        before = version_of(phone)
        assert take_turn(phone), f"seat {position} could not pick"
        wait_for_change(phone, before)
    revealed = versioned_state(table)[0]
    for phone in phones:
        phone.wait_for_function(f"() => Number(document.getElementById('live').dataset.version) >= {revealed}",
                                timeout=5000)  # the timed polls are cut off: only the stream can bring it
        assert "Your choice is awaited" in phone.locator("#live").inner_text()
    before = list(timed_polls)
    phones[0].wait_for_timeout(6000)
    assert all(now - then <= 3 for now, then in zip(timed_polls, before, strict=True)), (before, timed_polls)
