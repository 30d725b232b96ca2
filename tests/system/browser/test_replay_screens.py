"""The replay of a finished game on a phone and a tablet: each move is a sentence
with the card as a chip (species code and number), the list of moves fits the screen's width,
and the page links step through the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import expect
from sqlmodel import Session

from organizer.core.db import make_engine, upgrade_database
from tests.live.practice_games import finished_practice
from tests.system.browser.conftest import PHONE, TABLET, no_js_errors, shot
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("replays")
    database = folder / "replays.sqlite3"
    engine = make_engine(f"sqlite:///{database}")
    upgrade_database(engine)
    with Session(engine, expire_on_commit=False) as db:
        tokens = {"standard": finished_practice(db, "standard", 4, ("random", "easy", "random"),
                                                name="Noah Müller-Lüdenscheidt", seed=4).token,
                  "draft": finished_practice(db, "draft", 3, ("random", "random"), seed=5).token}
    engine.dispose()
    with ServerProcess(f"sqlite:///{database}", Path(folder) / "instance", workers=1, threads=4) as server:
        yield server, tokens


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
@pytest.mark.parametrize("mode", ["standard", "draft"])
def test_a_replay_tells_its_moves_in_sentences_that_fit_the_screen(replays: Any, new_device: Any,
                                                                  viewport: dict[str, int], mode: str) -> None:
    server, tokens = replays
    page = new_device(viewport)
    page.goto(f"{server.url}/replay/practice/{tokens[mode]}?step=5")
    headline = page.locator("#replay .headline")
    expect(headline).to_contain_text("Move 5 of")
    expect(headline.locator(".card-face .code")).to_have_count(1)  # the move's card, by its code
    page.locator("details.moves summary").click()
    moves = page.locator("details.moves li")
    expect(moves.first).to_be_visible()
    verb = "drew" if mode == "standard" else "chose"
    expect(moves.nth(1)).to_contain_text(verb)
    shot(page, f"50-replay-{mode}")
    page.get_by_role("link", name="Next ▶").click()
    expect(headline).to_contain_text("Move 6 of")
    no_js_errors(page)
