"""A big round's page in Chromium on a 390 px phone: nothing wider than the screen,
the swap form finds two players as one types (htmx) and swaps them, and the pager's Next shows
the next 50 tables in place."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, select
from werkzeug.serving import make_server

from organizer.accounts import service as accounts
from organizer.core.models import Round
from organizer.rounds import service
from tests.fixtures.browser_thread import CHROMIUM, BrowserThread
from tests.fixtures.organizer import PASSWORD, add_players, create_event, make_app

pytestmark = [pytest.mark.browser, pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed")]


@pytest.fixture(scope="module")
def browser() -> Iterator[BrowserThread]:
    chromium = BrowserThread()
    yield chromium
    chromium.close()


@pytest.fixture
def big_proposal(tmp_path: Path) -> Iterator[tuple[str, int, list[list[tuple[int, str]]]]]:
    """An event of 204 players whose first round (51 tables) is proposed, served over HTTP."""
    app = make_app(f"sqlite:///{tmp_path / 'organizer.sqlite3'}", tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    engine = app.extensions["db_engine"]
    with Session(engine) as session:
        accounts.create_organizer(session, "Tess", PASSWORD)
        event = create_event(session)
        add_players(session, event, 204)
        service.propose_round(session, event, "Tess", 3)
        rnd = session.exec(select(Round)).one()
        tables = [[(s.player.id or 0, s.player.name) for s in view.seats if s.player]
                  for view in service.tables_of(session, rnd.id or 0)]
        event_id = event.id or 0
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}", event_id, tables
    httpd.shutdown()
    engine.dispose()


def test_a_big_proposal_on_a_phone(big_proposal: tuple[str, int, list[list[tuple[int, str]]]],
                                   browser: BrowserThread) -> None:
    base, event_id, tables = big_proposal
    (first_id, first_name), (second_id, second_name) = tables[0][0], tables[40][1]

    def scenario(chromium: Any) -> None:
        page = chromium.new_page(viewport={"width": 390, "height": 844})
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 500 else None)
        page.goto(base + "/sign-in")
        page.fill("#f-name", "Tess")
        page.fill("#f-password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(base + "/")
        page.goto(f"{base}/events/{event_id}/rounds/1")
        assert page.locator("article.table-card").count() == 50
        wide = "document.documentElement.scrollWidth - window.innerWidth"
        assert page.evaluate(wide) <= 1
        # type a name: its matches come as radio buttons (one match is picked already)
        page.fill("#f-find-first", first_name.lower())
        page.wait_for_selector(f"#picks-first input[value='{first_id}']:checked")
        page.fill("#f-find-second", "41")  # a table's number lists its players first
        page.wait_for_selector(f"#picks-second input[value='{second_id}']")
        page.check(f"#picks-second input[value='{second_id}']")
        assert page.evaluate(wide) <= 1
        page.click("button:has-text('Swap seats')")
        page.wait_for_selector("#messages .flash")
        said = page.locator("#messages").inner_text()
        assert f"{first_name} (Table 1) and {second_name} (Table 41) swapped." in said
        page.click("nav.pager a[rel=next]")
        page.wait_for_selector("#table-51")
        assert page.locator("article.table-card").count() == 1 and page.url.endswith("/rounds/1?page=2")
        assert page.evaluate(wide) <= 1
        assert problems == []
        page.close()

    browser.run(scenario)
