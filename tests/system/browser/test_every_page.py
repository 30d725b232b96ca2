"""Every page of the app, at phone and tablet size, signed in and as a player:

- axe-core finds no serious or critical violation (contrast, labels, names, focus, colour-only links);
- no page is wider than the screen;
- every tap target is at least 44 x 44 px (WCAG 2.5.5; a link inside a sentence is exempt, as there);
- no word is broken across two lines, and no text is cut off by its box;
- no species code reads under 12 px (a card's code stands in for its colour).

The pages are found by walking the app's routes with the demo event's ids (as the security suite
does), so a new page is checked without anyone listing it here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser
from sqlmodel import Session, select

from tests.system.browser.conftest import SCREENSHOTS
from tests.system.browser.support import DEVICES, _check, _device, _sign_in
from tests.system.faults.harness import ServerProcess, demo_database

pytestmark = pytest.mark.browser

#: Routes that answer a script, not a person: polls, streams, downloads, exports, the service worker.
NOT_PAGES = re.compile(r"(changed|tick|\.pdf|/pdf|export|\.json|\.csv|\.svg|\.ico|\.crt|healthz|manifest|service-worker|sw\.js"
                       r"|/language/|sign-out|/static/|/live/events$)")


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
        # a call at each table (one taken) and an announcement in two languages: the lists and
        # buttons they bring are checked on every page that shows them
        from organizer.core.models import JudgeCall
        from organizer.events import announcements

        for number in (1, 2, 3):
            db.add(JudgeCall(event_id=event.id, round_id=rnd.id, table_number=number, player_name="Ada Moss",
                             note="Can I place a card next to a diagonal?", status="taken" if number == 1 else "open",
                             taken_by="Tess" if number == 1 else ""))
        db.commit()
        announcements.post(db, event, "Round 2 starts at 14:30 in the main hall; please be seated by then.", "en",
                           "Runde 2 beginnt um 14:30 im großen Saal; bitte bis dahin Platz nehmen.", "de", "demo")
        ids = {"event_id": str(event.id), "player_id": str(player.id), "number": str(rnd.number), "table": "2",
               "code": event.public_code}
        player_pages = [f"/e/{event.public_code}", f"/p/{player.token}", "/practice", "/scorepad", "/sign-in"]
        player_pages += [f"/play/{seat.token}" for seat in seats[:1]]
        player_pages += [f"/practice/{game.token}" for game in db.exec(select(PracticeGame)).all()]
        player_pages += _sign_ups(db, event)
    engine.dispose()
    return url, ids, player_pages


def _sign_ups(db: Session, event: Any) -> list[str]:
    """Sign-up open with a full cap: the form, an unconfirmed sign-up's page with its
    confirmation button, and a page on the waiting list."""
    from organizer.core.models import Player, SignupSettings
    from organizer.signup import service as signup

    players = len(db.exec(select(Player).where(Player.event_id == event.id)).all())
    db.add(SignupSettings(event_id=event.id, open=True, cap=players, question="Which edition do you bring?"))
    db.commit()
    waiting = signup.sign_up(db, event, {"name": "Wanda Waiting", "email": "wanda@example.org"}, "192.0.2.1", False)
    pending = signup.sign_up(db, event, {"name": "Una Unconfirmed", "email": "una@example.org"}, "192.0.2.1", True)
    return [f"/e/{event.public_code}/sign-up", f"/p/{waiting.token}/sign-up",
            f"/p/{pending.token}/sign-up/confirm/{pending.email_code}"]


def _organizer_pages(url: str, ids: dict[str, str], instance: Path) -> list[str]:
    from organizer import create_app
    from tests.system.security.walk import fill

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


def _report(name: str, problems: list[str]) -> None:
    """Every problem, for whoever mends the pages (the assertion shows only the first ones)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"every-page-{name}.txt").write_text("\n".join(problems) + "\n")


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
