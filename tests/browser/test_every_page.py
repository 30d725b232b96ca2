"""Every page of the app, at phone and tablet size, signed in and as a player (issue 13):

- axe-core finds no serious or critical violation (contrast, labels, names, focus, colour-only links);
- no page is wider than the screen;
- every tap target is at least 44 x 44 px (WCAG 2.5.5; a link inside a sentence is exempt, as there);
- no word is broken across two lines, and no text is cut off by its box.

The pages are found by walking the app's routes with the demo event's ids (as the security suite
does), so a new page is checked without anyone listing it here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser, Page
from sqlmodel import Session, select

from tests.browser.conftest import PHONE, SCREENSHOTS, TABLET
from tests.faults.harness import ServerProcess, demo_database

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1.min.js"
DEVICES = {"phone": PHONE, "tablet": TABLET}
#: Routes that answer a script, not a person: polls, downloads, exports, the service worker.
NOT_PAGES = re.compile(r"(changed|tick|\.pdf|/pdf|export|\.json|\.csv|\.svg|\.ico|healthz|manifest|service-worker|sw\.js"
                       r"|/language/|sign-out|/static/)")


@dataclass
class Demo:
    server: ServerProcess
    organizer_pages: list[str]
    player_pages: list[str]


def _prepare(path: Path) -> tuple[str, dict[str, str], list[str]]:
    """The demo event, with table 3 moved onto the players' devices and a solo practice game."""
    url = demo_database(path)
    from organizer.core.db import make_engine
    from organizer.core.models import Event, PracticeGame, Round, Seat
    from organizer.live import practice
    from organizer.live import tables as live_tables

    engine = make_engine(url)
    with Session(engine, expire_on_commit=False) as db:
        event = db.exec(select(Event)).one()
        rnd = db.exec(select(Round).where(Round.event_id == event.id)).one()
        view = live_tables.find_table(db, rnd, 3)
        assert view is not None
        live_tables.make_digital(db, event, rnd, view, "demo")
        practice.create_game(db, practice.parse_setup({"mode": "solo", "edition": "2018", "name": "Rosa"}), seed=7)
        practice.create_game(db, practice.parse_setup({"mode": "standard", "players": "3", "edition": "2018",
                                                       "name": "Rosa"}), seed=8)
        from organizer.core.models import Player

        player = db.exec(select(Player).where(Player.event_id == event.id)).first()
        from organizer.core.models import GameTable

        # the seats of the table playing on the devices (a paper table's seat links answer 404)
        seats = db.exec(select(Seat).join(GameTable, GameTable.id == Seat.table_id)  # type: ignore[arg-type]
                        .where(GameTable.digital)).all()
        assert player is not None and seats
        ids = {"event_id": str(event.id), "player_id": str(player.id), "number": str(rnd.number), "table": "2",
               "code": event.public_code}
        player_pages = [f"/e/{event.public_code}", f"/p/{player.token}", "/practice", "/scorepad", "/sign-in"]
        player_pages += [f"/play/{seat.token}" for seat in seats[:1]]
        player_pages += [f"/practice/{game.token}" for game in db.exec(select(PracticeGame)).all()]
    engine.dispose()
    return url, ids, player_pages


def _organizer_pages(url: str, ids: dict[str, str], instance: Path) -> list[str]:
    from organizer import create_app
    from tests.security.walk import fill

    app = create_app({"TESTING": True, "SECRET_KEY": "walk", "DATABASE_URL": url, "AUTO_MIGRATE": False})
    pages = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if "GET" not in (rule.methods or set()) or "token" in rule.arguments or NOT_PAGES.search(rule.rule):
            continue
        pages.append(fill(rule, ids))
    app.extensions["db_engine"].dispose()
    return sorted(set(pages))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    folder = tmp_path_factory.mktemp("every-page")
    url, ids, player_pages = _prepare(folder / "organizer.sqlite3")
    organizer_pages = _organizer_pages(url, ids, folder)
    with ServerProcess(url, folder / "instance", workers=2, threads=4) as server:
        yield Demo(server, organizer_pages, player_pages)


def _device(browser: Browser, viewport: dict[str, int]) -> Page:
    # bypass_csp: the app's Content-Security-Policy (rightly) refuses the injected axe script
    context = browser.new_context(viewport=viewport, has_touch=True, device_scale_factor=1, bypass_csp=True)
    context.set_default_timeout(15_000)
    return context.new_page()


def _sign_in(page: Page, base: str) -> None:
    page.goto(base + "/sign-in")
    page.fill("input[name=name]", "demo")
    page.fill("input[name=password]", "demo")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/sign-in" not in url)


AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
}"""

SMALL_TARGETS = """() => {
  const found = [];
  const targets = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const e of document.querySelectorAll(targets)) {
    if (!e.checkVisibility({visibilityProperty: true})) continue;
    let box = e.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (e.type === 'checkbox' || e.type === 'radio') {
      const label = e.closest('label') || (e.id && document.querySelector(`label[for="${e.id}"]`));
      if (label) box = label.getBoundingClientRect();
    }
    if (e.tagName === 'A' && getComputedStyle(e).display === 'inline') {
      // WCAG 2.5.5's exception: a link inside a sentence
      const around = (e.parentElement ? e.parentElement.textContent : '').trim().length;
      if (around > e.textContent.trim().length + 2) continue;
    }
    if (box.width < 43.5 || box.height < 43.5)
      found.push(`${e.outerHTML.slice(0, 90)} (${Math.round(box.width)}x${Math.round(box.height)})`);
  }
  return found;
}"""

BROKEN_WORDS = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!parent || !parent.checkVisibility({visibilityProperty: true})) continue;
    // a web address or a code shown as typed is not a word: it may break anywhere
    if (parent.closest('script, style, .visually-hidden, .url, code')) continue;
    const words = /[^\\s\\-\u2010\u2013\u2014\\/\u00b7,:;()]{2,}/gu;
    let match;
    while ((match = words.exec(node.textContent))) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
      if (lines.size > 1) found.push(`"${match[0]}" in <${parent.tagName.toLowerCase()} class="${parent.className}">`);
    }
  }
  for (const e of document.querySelectorAll('body *')) {
    const style = getComputedStyle(e);
    const clips = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
    if (clips && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1 && e.textContent.trim()
        && e.checkVisibility({visibilityProperty: true}) && !e.closest('.visually-hidden'))
      found.push(`text cut off in <${e.tagName.toLowerCase()} class="${e.className}">: ${e.textContent.trim().slice(0, 40)}`);
  }
  return found.slice(0, 12);
}"""


def _report(name: str, problems: list[str]) -> None:
    """Every problem, for whoever mends the pages (the assertion shows only the first ones)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"every-page-{name}.txt").write_text("\n".join(problems) + "\n")


def _check(page: Page, base: str, path: str, device: str, must_answer: bool = False) -> list[str]:
    response = page.goto(base + path)
    if response is None or response.status != 200 or "text/html" not in response.headers.get("content-type", ""):
        # a route walked with made-up ids may rightly refuse; a player's page listed by hand must not
        return [f"{path} answered {response.status if response else 'nothing'}"] if must_answer else []
    page.wait_for_load_state("networkidle")
    problems = []
    width = PHONE["width"] if device == "phone" else TABLET["width"]
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 1:
        problems.append(f"{overflow} px wider than the {width} px screen")
    page.add_script_tag(path=str(AXE))
    problems += page.evaluate(AXE_RUN)
    problems += [f"tap target too small: {t}" for t in page.evaluate(SMALL_TARGETS)]
    problems += [f"broken word: {w}" for w in page.evaluate(BROKEN_WORDS)]
    return [f"{path} on a {device}: {problem}" for problem in problems]


@pytest.mark.parametrize("device", list(DEVICES))
def test_every_organizer_page_is_accessible_and_fits(browser: Browser, demo: Demo, device: str) -> None:
    page = _device(browser, DEVICES[device])
    base = demo.server.url
    _sign_in(page, base)
    assert len(demo.organizer_pages) >= 25
    problems: list[str] = []
    for path in demo.organizer_pages:
        problems += _check(page, base, path, device)
    page.context.close()
    _report(f"organizer-{device}", problems)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("device", list(DEVICES))
def test_every_player_page_is_accessible_and_fits(browser: Browser, demo: Demo, device: str) -> None:
    page = _device(browser, DEVICES[device])
    base = demo.server.url
    problems: list[str] = []
    for path in demo.player_pages:
        problems += _check(page, base, path, device, must_answer=True)
    page.context.close()
    _report(f"player-{device}", problems)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])
