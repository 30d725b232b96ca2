"""The finals' and the sign-up's pages at phone and tablet size, in English and in French, as
an organizer and as the people signing up: an event whose semi-finals and final table are played
(the finals page, the round list, the final table's round, the standings, the public page and a
finalist's own page) and a sign-up with a cap, a closing time in the event's time zone and a
waiting list (the organizer's list, the public form, a waiting person's page). axe-core finds no
serious violation, nothing is wider than the screen, tap targets are big enough, no word is
broken, and each page says what a reader looks for there, in their language."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from babel.support import Translations
from playwright.sync_api import Browser, Page
from sqlmodel import Session, select

from tests.system.browser.conftest import shot
from tests.system.browser.support import AXE_RUN, BROKEN_WORDS, DEVICES, SMALL_TARGETS, _check, _device, signed_in_cookies
from tests.system.faults.harness import ServerProcess, demo_database

pytestmark = pytest.mark.browser

CATALOGS = Path(__file__).resolve().parents[3] / "organizer" / "core" / "translations"


@dataclass(frozen=True)
class Finished:
    server: ServerProcess
    #: the event with its finals played, and its public page's code
    event_id: int
    event_code: str
    final_round: int
    finalist_token: str
    #: the event taking sign-ups, its code, and a person the organizer moved to the waiting list
    signup_event_id: int
    signup_code: str
    waiting_token: str


def _play(session: Session, event: object, number: int, points: dict[int, int]) -> None:
    """Round ``number``'s results entered, confirmed by the organizer, and the round closed."""
    from organizer.core.models import Event, Round
    from organizer.rounds import results
    from organizer.rounds import service as rounds
    from organizer.rounds.submission import SeatEntry, Submission

    assert isinstance(event, Event) and event.id is not None
    rnd = session.exec(select(Round).where(Round.event_id == event.id, Round.number == number)).one()
    assert rnd.id is not None
    if rnd.status == "proposed":
        rounds.publish_round(session, event, rnd, "demo")
    for view in rounds.tables_of(session, rnd.id):
        entries = [SeatEntry(s.seat.player_id or 0, points[s.seat.player_id or 0], 5) for s in view.seats]
        results.save_result(session, event, rnd, view, Submission("totals", entries), 0, "demo")
        view = next(v for v in rounds.tables_of(session, rnd.id) if v.table.id == view.table.id)
        assert view.result is not None
        results.confirm_by_organizer(session, event, view, view.result, view.result.version, None, "demo")
    rounds.close_round(session, event, session.get(Round, rnd.id) or rnd, "demo")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Finished]:
    from organizer.core.db import make_engine
    from organizer.core.models import Player, SignupSettings
    from organizer.events import service as events
    from organizer.finals import service as finals
    from organizer.rounds import service as rounds
    from organizer.signup import service as signup

    folder = tmp_path_factory.mktemp("finals-signup-pages")
    url = demo_database(folder / "organizer.sqlite3")
    engine = make_engine(url)
    with Session(engine, expire_on_commit=False) as db:
        event = events.create_event(db, events.EventInput(name="Autumn Finals", date=date(2031, 11, 27),
                                                          round_formats=["standard"], time_zone="Europe/Berlin"),
                                    None, "demo")
        assert event.id is not None
        names = ["Ada Moss", "Bram Oakley", "Cleo Birch", "Dev Patel", "Esme Rowan", "Finn Alder", "Gia Laurel",
                 "Hugo Thorn", "Ines Maple"]
        db.add_all([Player(event_id=event.id, name=name, name_key=name.casefold(), checked_in=True) for name in names])
        db.commit()
        ids = [p.id for p in db.exec(select(Player).where(Player.event_id == event.id)).all() if p.id is not None]
        rounds.propose_round(db, event, "demo", 7)
        _play(db, event, 1, {pid: 50 - 3 * n for n, pid in enumerate(ids)})
        made = finals.make_cut(db, event, 8, False, None, "demo")
        finals.decline(db, event, int(made.seeds[2]["player_id"]), made.version, "demo")
        current = finals.get_finals(db, event.id)
        assert current is not None
        semis = finals.seat_next(db, event, current.version, {}, "demo")
        seed_of = {int(s["player_id"]): int(s["seed"]) for s in current.seeds}
        _play(db, event, semis.number, {pid: 20 + 2 * seed_of.get(pid, 0) for pid in ids})
        current = finals.get_finals(db, event.id)
        assert current is not None
        final = finals.seat_next(db, event, current.version, {}, "demo")
        finalists = [s.seat.player_id for v in rounds.tables_of(db, final.id or 0) for s in v.seats]
        _play(db, event, final.number, {pid: 30 - n for n, pid in enumerate(finalists) if pid is not None})
        finalist = db.get(Player, finalists[0])
        assert finalist is not None

        # a second event signing up: three places, two taken, one on the waiting list moved there by hand
        club_night = events.create_event(db, events.EventInput(name="Club Night", date=date(2031, 12, 31),
                                                               time_zone="Europe/Berlin"), None, "demo")
        assert club_night.id is not None
        db.add(SignupSettings(event_id=club_night.id, open=True, cap=2, question="Your favourite species?",
                              closes_at=datetime(2031, 12, 31, 17, 0, tzinfo=UTC)))
        db.commit()
        people = [signup.sign_up(db, club_night, {"name": name, "club": "Riverside", "email": f"{n}@example.org",
                                                  "note": "Oak"}, f"10.1.0.{n}", confirm_by_email=False)
                  for n, name in enumerate(("Lena Berg", "Marc Olive", "Noor Aspen"))]
        assert people[2].status == "waiting"
        signup.move(db, club_night, people[0].id or 0, "wait", "demo", seen_status="confirmed")
        moved = db.get(type(people[0]), people[0].id)
        assert moved is not None and moved.status == "waiting"
        shown = (event.id, event.public_code, final.number, finalist.token, club_night.id, club_night.public_code,
                 moved.token)
    engine.dispose()
    with ServerProcess(url, folder / "instance", workers=1, threads=4) as server:
        yield Finished(server, *shown)


@pytest.fixture(scope="module")
def organizer(browser: Browser, finished: Finished) -> list[Any]:
    return signed_in_cookies(browser, finished.server.url)


def _look(page: Page, base: str, path: str, device: str, name: str, must_say: list[str],
          unfold: str | None = None) -> list[str]:
    """The page's checks, its screenshot, and the phrases a reader looks for on it (after a tap
    on ``unfold``, a folded section's summary)."""
    problems = _check(page, base, path, device, must_answer=True)
    if unfold:
        page.locator(unfold).click()
        # what unfolding showed gets the same checks (the page and axe are loaded already)
        problems += [f"{path} unfolded on a {device}: {p}" for p in
                     page.evaluate(AXE_RUN) + [f"tap target too small: {t}" for t in page.evaluate(SMALL_TARGETS)]
                     + [f"broken word: {w}" for w in page.evaluate(BROKEN_WORDS)]]
    shot(page, name)
    text = " ".join(page.inner_text("body").split())
    problems += [f"{path} on a {device}: no “{phrase}”" for phrase in must_say if phrase not in text]
    return problems


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", list(DEVICES))
def test_finals_and_sign_up_pages_fit_and_read(browser: Browser, finished: Finished, organizer: list[Any],
                                               device: str, language: str) -> None:
    catalog = Translations.load(str(CATALOGS), [language])
    say = catalog.gettext
    base = finished.server.url
    page = _device(browser, DEVICES[device])
    page.context.add_cookies([{"name": "lang", "value": language, "url": base}])
    event, code = finished.event_id, finished.event_code
    final, semis = say("Final table"), say("Semi-finals")
    tag = f"finals-signup-{language}-{device}"
    problems: list[str] = []
    # the people signing up, signed out
    problems += _look(page, base, f"/e/{finished.signup_code}/sign-up", device, f"{tag}-signup-form",
                      [say("Name"), "CET", "31", "2031", "Your favourite species?"])
    problems += _look(page, base, f"/p/{finished.waiting_token}/sign-up", device, f"{tag}-signup-moved",
                      [say("The organizer moved you to the waiting list. You move up when a place becomes free.")])
    problems += _look(page, base, f"/e/{code}", device, f"{tag}-public", [say("Final places"), final])
    problems += _look(page, base, f"/p/{finished.finalist_token}", device, f"{tag}-finalist", [final])
    # the organizer
    page.context.add_cookies(organizer)
    problems += _look(page, base, f"/events/{event}/finals", device, f"{tag}-finals",
                      [say("Final places"), final, semis, say("Declined:")])
    problems += _look(page, base, f"/events/{event}/rounds", device, f"{tag}-rounds", [final, semis])
    problems += _look(page, base, f"/events/{event}/rounds/{finished.final_round}", device, f"{tag}-final-round",
                      [final])
    problems += _look(page, base, f"/events/{event}/standings", device, f"{tag}-standings", [say("Final places")])
    problems += _look(page, base, f"/events/{finished.signup_event_id}/sign-ups", device, f"{tag}-signups",
                      ["Europe/Berlin", "CET", "Lena Berg", say("Waiting list, number %(number)d") % {"number": 1}],
                      unfold="details.signup-settings summary")
    page.context.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:40])

