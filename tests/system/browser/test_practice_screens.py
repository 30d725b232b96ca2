"""The practice form and the end of a game on a phone and a tablet: the form shows
only the choices the chosen game uses, with large tap targets; the end of a game says the
player's own result first, and its ranking fits a 390 px screen without scrolling sideways."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session

from organizer.core.db import make_engine, upgrade_database
from tests.live.practice_games import finished_practice
from tests.system.browser.conftest import PHONE, TABLET, no_js_errors, shot
from tests.system.browser.support import AXE, AXE_RUN, BROKEN_WORDS, SMALL_TARGETS, settle
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser

#: what a finger needs (WCAG 2.5.5 asks 44 px)
TAP = 44


def small_targets(page: Page, selector: str) -> list[str]:
    """The visible controls under ``selector`` smaller than a finger, as "text (w x h)"."""
    return list(page.evaluate(
        """([selector, tap]) => [...document.querySelectorAll(selector)]
             .filter(e => e.offsetParent !== null)
             .map(e => [e, e.getBoundingClientRect()])
             .filter(([e, r]) => r.height < tap || r.width < tap)
             .map(([e, r]) => `${e.textContent.trim().slice(0, 30)} (${Math.round(r.width)}x${Math.round(r.height)})`)""",
        [selector, TAP]))


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_the_practice_form_shows_only_the_choices_of_the_chosen_game(finished_games: Any, new_device: Any,
                                                                       viewport: dict[str, int]) -> None:
    page = new_device(viewport)
    server, _tokens = finished_games  # a game started here leaves the finished ones as they are
    page.goto(server.url + "/practice")
    form = page.locator("#practice-form")
    # solo, the default: no players, no bots
    expect(page.get_by_label("Solo against Q (The Garden of Non-Forking Paths)")).to_be_checked()
    expect(form.get_by_text("Players at the table")).to_be_hidden()
    expect(page.locator("#f-bot_1")).to_be_hidden()
    expect(form.get_by_text("Q plants it by a fixed rule")).to_be_visible()
    # solo's two ways of placing Q's cards (RULES §4), Q's own rule first and chosen
    expect(page.get_by_label("Q places its own cards (standard)")).to_be_checked()
    expect(page.get_by_label("You place Q's cards (gentler)")).not_to_be_checked()
    shot(page, "40-practice-solo")
    assert not small_targets(page, "#practice-form label.choice, #practice-form button, #practice-form input[type=text]")
    page.get_by_text("Standard game against bots").click()
    expect(form.get_by_text("Players at the table")).to_be_visible()
    expect(page.get_by_label("You place Q's cards (gentler)")).to_be_hidden()  # solo only
    expect(page.get_by_label("Bot 1")).to_be_visible()
    expect(page.get_by_label("Bot 2")).to_be_hidden()  # two players by default
    form.get_by_text("4", exact=True).click()
    expect(page.get_by_label("Bot 3")).to_be_visible()
    shot(page, "41-practice-standard")
    assert not small_targets(page, "#practice-form label.choice, #practice-form select, #practice-form button")
    page.get_by_label("Bot 2").select_option("strong")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#live")).to_be_visible()
    assert "Strong bot 2" in page.locator("#live").inner_text()
    no_js_errors(page)


@pytest.fixture(scope="module")
def finished_games(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server over three finished practice games: solo, a 4-player standard game, a 3-player
    draft; the form's test starts its games beside them."""
    folder = tmp_path_factory.mktemp("ends")
    database = folder / "ends.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    upgrade_database(engine)
    with Session(engine, expire_on_commit=False) as db:
        tokens = {"solo": finished_practice(db, "solo", name="Robin", seed=3).token,
                  "standard": finished_practice(db, "standard", 4, ("random", "easy", "random"),
                                                name="Noah Müller-Lüdenscheidt", seed=4).token,
                  "draft": finished_practice(db, "draft", 3, ("random", "random"), seed=5).token}
    engine.dispose()
    with ServerProcess(f"sqlite:///{database}", Path(folder) / "instance", workers=1, threads=4) as server:
        yield server, tokens


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
@pytest.mark.parametrize("mode", ["solo", "standard", "draft"])
def test_the_end_of_a_game_says_your_result_first_and_fits_the_screen(finished_games: Any, new_device: Any,
                                                                      viewport: dict[str, int], mode: str) -> None:
    server, tokens = finished_games
    page = new_device(viewport)
    page.goto(f"{server.url}/practice/{tokens[mode]}")
    scores = page.locator(".scores")
    expect(scores.get_by_role("heading", name="Final scores")).to_be_visible()
    result = scores.locator(".my-result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("Q" if mode == "solo" else "You:")
    ranking = scores.locator("table.ranking")
    box = ranking.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    # the total is the last column, on screen
    total = ranking.locator("tbody tr").first.locator("td").last
    total_box = total.bounding_box()
    assert total_box is not None and total_box["x"] + total_box["width"] <= viewport["width"]
    headers = ranking.locator("thead th").all_inner_texts()
    assert ("Bonus" in headers) == (mode == "draft")
    expect(scores.locator("table.by-species")).to_be_hidden()  # details on tap
    scores.get_by_text("Points by species").click()
    expect(scores.locator("table.by-species")).to_be_visible()
    scores.locator("table.by-species").scroll_into_view_if_needed()
    shot(page, f"42-end-{mode}")
    assert not small_targets(page, ".scores summary, .scores table.by-species th a, .actions .button")
    page.get_by_role("link", name="Replay the game move by move").click()
    expect(page.locator("#replay")).to_be_visible()
    expect(page.locator("#replay .my-result")).to_be_visible()
    shot(page, f"43-replay-{mode}")
    assert not small_targets(page, ".replay-nav .button")
    no_js_errors(page)


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_the_form_the_ends_and_the_replays_pass_the_room_checks(browser: Browser, finished_games: Any,
                                                                viewport: dict[str, int]) -> None:
    """axe-core finds nothing serious, no tap target is small, no word is broken, nothing is wider
    than the screen: with every fold (points by species, the list of moves) open."""
    server, tokens = finished_games
    # bypass_csp: the app's Content-Security-Policy (rightly) refuses the injected axe script
    context = browser.new_context(viewport=viewport, has_touch=True, device_scale_factor=1, bypass_csp=True)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    paths = ["/practice"] + [f"/practice/{t}" for t in tokens.values()]
    paths += [f"/replay/practice/{t}" for t in tokens.values()] + [f"/replay/practice/{tokens['standard']}?step=3"]
    problems = []
    for path in paths:
        page.goto(server.url + path)
        settle(page)
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        if path == "/practice":
            page.get_by_text("Draft against bots").click()
            page.get_by_text("4", exact=True).click()
        found = page.evaluate(AXE_RUN) + page.evaluate(SMALL_TARGETS) + page.evaluate(BROKEN_WORDS)
        if page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") > 1:
            found.append("wider than the screen")
        problems += [f"{path}: {problem}" for problem in found]
    context.close()
    assert not problems, "\n".join(problems[:15])
