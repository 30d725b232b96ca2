"""Players' phones through a club evening, at 390 px, in German and in English, on one server:

- a player's own page left open from before the seating to after the round closes, at a draft
  (German: the check-in button, the seat link, the table's result, "the round is over") and at a
  paper table (English: the report form, a typed-in form kept while a neighbour reports, the
  confirmation, "the round is over; the next is being seated"), each step without a reload;
- a draft round on the devices with bots at every level: a table where a person plays against an
  easy and a normal bot to the end, and a table with a strong bot where a bot takes a person's seat
  while that person's phone is open (easy), gives it back (the phone offers its hand again) and
  takes it once more (normal); the connection drops before the last reveal and the game still
  ends on the phone with nothing left saying "Reconnecting";
- the live overview of the finished tables and the public page with seats and places apart;
- a practice draft against an easy and a normal bot played to the end at a fast pace (the strong
  bot's, at a person's pace, is ``test_live_bots_finish.py``), and solo moves where Q's placement
  is said in words and marked.

Every screen is checked for a page wider than the phone, tap targets under 44 px and species
codes under 12 px; the screenshots of each state go to ``screenshots/`` (named ``8…``/``9…``)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from babel.support import Translations
from playwright.sync_api import Browser, Page, expect
from sqlmodel import Session

import organizer
from organizer.accounts import service as accounts
from organizer.core.db import make_engine, upgrade_database
from organizer.core.models import Event, Player, Round
from organizer.events import service as events
from organizer.live import tables as live_tables
from organizer.public import self_report
from organizer.public.service import REFRESH_SECONDS
from organizer.rounds import results
from organizer.rounds import service as rounds
from tests.system.browser.conftest import PHONE, no_js_errors, shot
from tests.system.browser.support import CODE_PX, SMALL_CODES, SMALL_TARGETS, settle
from tests.system.faults.harness import ServerProcess
from tests.system.faults.live_harness import LiveTable, true_state

pytestmark = pytest.mark.browser

GERMAN = Translations.load(str(Path(organizer.__file__).parent / "core" / "translations"), ["de"])
#: a player's own page polls every REFRESH_SECONDS: a change shows within two polls
PAGE_POLL_MS = 25_000
#: the longest a seat may wait for bots before its next choice comes by itself
STALL_SECONDS = 10
NAMES = ["Ada Moss", "Bram Oakley", "Cleo Birch", "Dev Patel", "Esme Rowan", "Finn Alder"]
PAPER_NAMES = ["Gia Laurel", "Hugo Thorn", "Ines Maple", "Jon Hazel", "Kira Linden", "Léa Ashby", "Milo Reed",
               "Nora Vale"]
PASSWORD = "correct horse battery"

def de(text: str, **values: Any) -> str:
    """``text`` as the German catalog says it."""
    said = GERMAN.gettext(text)
    return said % values if values else said


@dataclass
class Evening:
    database_url: str
    database: Path
    event_id: int
    public_code: str
    tokens: dict[str, str]
    #: an event of paper tables where players report, its round 1 proposed
    paper_id: int
    paper_tokens: dict[str, str]


def _evening(path: Path) -> Evening:
    """A draft event at tables of 3 where players check themselves in (Ada has not yet: she does
    it from her phone; the others have), a paper event where players report, and an organizer."""
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    upgrade_database(engine)
    with Session(engine, expire_on_commit=False) as db:
        accounts.create_organizer(db, "Tess", PASSWORD)
        data = events.EventInput(name="Riverside Club Night", date=date(2026, 4, 18))
        data.round_formats = ["draft", "draft"]
        data.preferred_table_size = 3
        event = events.create_event(db, data, None, "test")
        event.self_check_in = True
        db.add(event)
        assert event.id is not None
        players = [Player(event_id=event.id, name=name, name_key=name.casefold(), checked_in=index > 0)
                   for index, name in enumerate(NAMES)]
        paper = events.create_event(db, events.EventInput(name="Riverside Paper Night", date=date(2026, 4, 18)),
                                    None, "test")
        paper.self_report = "players"
        db.add(paper)
        assert paper.id is not None
        on_paper = [Player(event_id=paper.id, name=name, name_key=name.casefold(), checked_in=True)
                    for name in PAPER_NAMES]
        db.add_all(players + on_paper)
        db.commit()
        rounds.propose_round(db, paper, "Tess", seed=3)
        evening = Evening(url, path, event.id, str(event.public_code), {p.name: p.token for p in players},
                          paper.id, {p.name: p.token for p in on_paper})
    engine.dispose()
    return evening


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Evening]]:
    """One production server for the whole module (the evening's database)."""
    folder = tmp_path_factory.mktemp("phones")
    evening = _evening(folder / "organizer.sqlite3")
    with ServerProcess(evening.database_url, folder / "instance", workers=2, threads=4) as process:
        yield process, evening


def _organizer(evening: Evening, change: Callable[[Session, Event, Round | None], None],
               event_id: int | None = None) -> None:
    """What the organizer does on their screens, through the same services."""
    engine = make_engine(evening.database_url)
    with Session(engine, expire_on_commit=False) as db:
        event = db.get(Event, event_id or evening.event_id)
        assert event is not None and event.id is not None
        change(db, event, rounds.current_round(db, event.id))
    engine.dispose()


def _live_tables(evening: Evening) -> list[LiveTable]:
    """The current round's tables, each with its seats' tokens and players' names."""
    engine = make_engine(evening.database_url)
    with Session(engine) as db:
        rnd = rounds.current_round(db, evening.event_id)
        assert rnd is not None and rnd.id is not None
        found = []
        for view in rounds.tables_of(db, rnd.id):
            assert view.table.id is not None
            found.append(LiveTable(evening.database, view.table.id, [s.seat.token for s in view.seats],
                                   [s.player.name if s.player else "" for s in view.seats]))
    engine.dispose()
    return found


def _bot(evening: Evening, table: int, position: int, bot: bool, level: str | None = None) -> None:
    """The organizer seats a bot at ``level`` in a seat, or gives the seat back (the overview's buttons)."""
    _organizer(evening, lambda db, event, rnd: live_tables.seat_bot(
        db, event, rnd, table, position, bot, "Tess", level))  # type: ignore[arg-type]


def german(page: Page) -> Page:
    page.set_extra_http_headers({"Accept-Language": "de"})
    return page


def checked(page: Page, name: str) -> None:
    """A screenshot, and the phone's checks: nothing wider than the screen (``shot``), no tap
    target under 44 px, no species code under 12 px."""
    shot(page, name)
    small = page.evaluate(SMALL_TARGETS)
    assert not small, f"{name}: tap targets under 44 px: {small}"
    codes = page.evaluate(SMALL_CODES, CODE_PX)
    assert not codes, f"{name}: species codes under {CODE_PX} px: {codes}"


def next_poll(page: Page) -> None:
    """The page's clock moved on to its next timed poll, which goes out at once: the poll and
    what it brings are the page's own, without the test sitting through the period. The page's
    context must have installed Playwright's clock before loading it (``page.clock.install()``)."""
    page.clock.fast_forward(REFRESH_SECONDS * 1000)


def navigations(page: Page) -> list[str]:
    """The page's loads from now on (a reload or a link followed counts; htmx swaps do not)."""
    loads: list[str] = []
    page.on("framenavigated", lambda frame: loads.append(frame.url) if frame == page.main_frame else None)
    return loads


# -- a seat's screen ---------------------------------------------------------------------------

def over(page: Page) -> bool:
    return bool(page.locator("#live .status.done").count())


def may_pick(page: Page) -> bool:
    """The seat's choice is awaited and it has not chosen yet (a draft pick may be changed until
    the reveal; choosing again would only change it)."""
    live = page.locator("#live")
    return bool(live.locator(".status.mine").count() and not live.locator(".hand label.chosen").count()
                and live.locator(".hand input[name=card]:not([disabled])").count())


def pick(page: Page) -> None:
    """Tap the first card, then the first highlighted cell (or Discard, in the draft), as a thumb does."""
    live = page.locator("#live")
    version = live.get_attribute("data-version")
    live.locator(".hand label.card-face").first.click(timeout=2500)
    cells = live.locator("button.cell-button")
    (cells.first if cells.count() else live.locator("button[name=cell][value=discard]")).click(timeout=2500)
    page.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{version}'", timeout=5000)


def play(page: Page, until: Callable[[], bool] = lambda: False, picks: int = 1000) -> int:
    """Play the seat's picks or moves as they come, at a fast pace, until the game ends, ``until()``
    holds or ``picks`` were made; the screen must come back to the player by itself (no reload, no
    button) within STALL_SECONDS of every move."""
    made, waiting_since = 0, time.monotonic()
    url = page.url
    while not over(page) and not until() and made < picks:
        assert page.url == url, "the page was left or reloaded"
        if may_pick(page):
            try:
                pick(page)
            except Exception:  # noqa: BLE001 - a poll replaced the screen under the tap: look again
                continue
            made, waiting_since = made + 1, time.monotonic()
        else:
            assert time.monotonic() - waiting_since < STALL_SECONDS, (
                "the seat waits and nothing moves on: " + page.locator("#live .live-head").inner_text())
            page.wait_for_timeout(150)
    return made


def last_pick_next(table: LiveTable) -> bool:
    """Only the draft's last pick is left to make (its reveal ends the game)."""
    view = true_state(table).view(None)
    draft = view.draft
    return draft is not None and draft.round == draft.rounds and draft.pick == draft.picks_per_round


# -- the evening -------------------------------------------------------------------------------

def test_a_german_evening_on_the_phones_with_bots_at_every_level(server: tuple[ServerProcess, Evening],
                                                                 new_device: Any, browser: Browser) -> None:
    process, evening = server
    base = process.url

    # Ada's own page, open from before the seating to after the round closes
    mine = german(new_device(PHONE))
    # her phone's clock moves on to a poll only once her seat's game (in a second tab) is over
    mine.clock.install()
    mine.goto(f"{base}/p/{evening.tokens['Ada Moss']}")
    loads = navigations(mine)
    mine.get_by_role("button", name=de("I am here: check me in")).click()
    expect(mine.locator(".check-in-state.ok")).to_contain_text(de("Checked in"))
    checked(mine, "80-player-page-checked-in")

    def seat_round(db: Session, event: Event, _rnd: Round | None) -> None:
        rnd = rounds.propose_round(db, event, "Tess", seed=4)
        rounds.publish_round(db, event, rnd, "Tess")
        live_tables.start_round(db, event, rnd)  # what the publishing POST does

    _organizer(evening, seat_round)
    tables = _live_tables(evening)
    mine_at = next(number for number, t in enumerate(tables, 1) if "Ada Moss" in t.names)
    table, other = tables[mine_at - 1], tables[2 - mine_at]
    # at Ada's table one neighbour left: a strong bot plays that seat; the other plays on a phone
    neighbour, left = (name for name in table.names if name != "Ada Moss")
    _bot(evening, mine_at, table.names.index(left), True, "strong")
    # at the other table one person plays against an easy and a normal bot, to the end
    person = other.names[0]
    _bot(evening, 3 - mine_at, 1, True, "easy")
    _bot(evening, 3 - mine_at, 2, True, "normal")
    alone = german(new_device(PHONE))
    alone.goto(f"{base}/play/{other.tokens[0]}")
    alone_loads = navigations(alone)
    assert play(alone) >= 6
    expect(alone.locator("#live .status.done")).to_be_visible()
    checked(alone, "82-event-table-easy-normal-final")
    assert not alone_loads, f"{person}'s phone reloaded: {alone_loads}"
    no_js_errors(alone)

    # Ada's seat, in a second tab of her phone; her neighbour's seat on his or her phone
    seats = dict(zip(table.names, table.tokens, strict=True))
    ada = german(mine.context.new_page())
    ada.goto(f"{base}/play/{seats['Ada Moss']}")
    bram = german(new_device(PHONE))
    bram.goto(f"{base}/play/{seats[neighbour]}")
    bram_loads = navigations(bram)
    assert play(ada, picks=1) == 1
    assert play(bram, picks=1) == 1
    expect(ada.locator("#live .status.mine")).to_be_visible(timeout=STALL_SECONDS * 1000)  # revealed: the next pick
    checked(ada, "82-seat-after-the-first-reveal")

    # meanwhile Ada's own page showed the table and her seat's link, without a reload
    play_link = mine.get_by_role("link", name=de("Play at your seat"))
    expect(play_link).to_be_visible(timeout=PAGE_POLL_MS)
    assert str(play_link.get_attribute("href")).endswith(f"/play/{seats['Ada Moss']}")
    expect(mine.get_by_text(de("In the draft everyone picks at once: your seat only says who passes you cards.")))\
        .to_be_visible()
    expect(mine.get_by_text(de("You start the game."))).to_have_count(0)
    checked(mine, "81-player-page-seated-draft")

    # a bot takes the neighbour's seat while the phone is open: within a poll it says so and offers no card
    bram_position = table.names.index(neighbour)
    _bot(evening, mine_at, bram_position, True, "easy")
    taken = de("A bot plays this seat now; the organizer can give it back to you.")
    expect(bram.get_by_text(taken)).to_be_visible(timeout=5_000)
    expect(bram.locator("#live .hand input[name=card]:not([disabled])")).to_have_count(0)
    checked(bram, "83-seat-taken-by-a-bot")
    assert play(ada, picks=2) == 2  # the easy bot picks for the neighbour meanwhile

    # the seat given back: the phone offers the hand again, without a reload
    _bot(evening, mine_at, bram_position, False)
    expect(bram.get_by_text(taken)).to_have_count(0, timeout=5_000)
    expect(bram.locator("#live .hand input[name=card]:not([disabled])").first).to_be_visible(timeout=5_000)
    checked(bram, "84-seat-given-back")
    version = bram.locator("#live").get_attribute("data-version")
    bram.locator("#live .hand label.card-face").first.click()
    cells = bram.locator("#live button.cell-button")
    (cells.first if cells.count() else bram.locator("#live button[name=cell][value=discard]")).click()
    bram.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{version}'")
    assert not bram_loads, f"{neighbour}'s phone reloaded: {bram_loads}"

    # and taken again, by a normal bot, for the rest of the game
    _bot(evening, mine_at, bram_position, True, "normal")
    play(ada, until=lambda: last_pick_next(table))
    assert not over(ada), "the game ended before its last pick"

    # the Wi-Fi drops before the last reveal, and comes back
    polls = re.compile(r".*/(changed|tick)(\?.*)?$")
    ada.route(polls, lambda route: route.abort())
    notice = ada.locator("#reconnecting")
    expect(notice).to_be_visible(timeout=10_000)
    expect(notice).to_contain_text(de("Reconnecting… the game goes on as soon as the connection returns."))
    shot(ada, "85-seat-blip-before-the-last-reveal")
    ada.unroute(polls)
    play(ada)
    expect(ada.locator("#live .status.done")).to_be_visible(timeout=STALL_SECONDS * 1000)
    expect(notice).to_have_count(0, timeout=5_000)
    end = ada.locator("#live").inner_text()
    assert end.count(de("The game is over.")) + end.count(de("The draft is over.")) == 1, end
    checked(ada, "86-seat-final-scores")

    # the organizer's overview of the finished table on a phone: the replay is a finger's size
    organizer = browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=1)
    room = organizer.new_page()
    room.goto(base + "/sign-in")
    room.fill("input[name=name]", "Tess")
    room.fill("input[name=password]", PASSWORD)
    room.locator("main form button[type=submit]").first.click()
    room.wait_for_url(lambda url: "/sign-in" not in url)
    room.goto(f"{base}/events/{evening.event_id}/rounds/1/live")
    for number in (1, 2):
        expect(room.get_by_role("link", name=f"Replay Table {number}")).to_be_visible()
    checked(room, "88-overview-finished-table")
    organizer.close()

    # the table's result reaches Ada's page by itself
    next_poll(mine)
    expect(mine.get_by_text(de("Result confirmed"))).to_be_visible(timeout=PAGE_POLL_MS)
    checked(mine, "87-player-page-result")

    # the round closes; meanwhile the public page shows seats and places apart
    _organizer(evening, lambda db, event, rnd: rounds.close_round(db, event, rnd, "Tess"))  # type: ignore[arg-type]
    public = german(new_device(PHONE))
    public.goto(f"{base}/e/{evening.public_code}")
    card = public.locator("#public-tables li.card").first
    expect(card.locator(".seat-number")).to_have_text([de("Seat %(number)d", number=n) for n in (1, 2, 3)])
    expect(card.locator(".place")).to_have_count(3)
    checked(public, "90-public-page-seats-and-places")
    no_js_errors(public)
    # and Ada's page says the round is over, still without a reload
    next_poll(mine)
    expect(mine.get_by_text(de("Round %(number)d is over.", number=1))).to_be_visible(timeout=PAGE_POLL_MS)
    expect(mine.get_by_role("link", name=de("Play at your seat"))).to_have_count(0)
    checked(mine, "89-player-page-round-over")
    assert not loads, f"Ada's page reloaded: {loads}"
    for phone in (mine, bram):
        no_js_errors(phone)


# -- a paper table ---------------------------------------------------------------------------

def _neighbour_reports(evening: Evening, token: str) -> None:
    """Another player at the table of the player with ``token`` reports the result."""
    engine = make_engine(evening.database_url)
    with Session(engine, expire_on_commit=False) as db:
        me = self_report.player_by_token(db, token)
        assert me is not None
        page = self_report.player_page(db, me)
        assert page.view is not None and page.round is not None
        other = next(s.player for s in page.view.seats if s.player is not None and s.player.id != me.id)
        assert other is not None
        form = {"mode": "totals"}
        for seated, points in zip(page.view.seats, (40, 30, 20, 10), strict=False):
            form[f"points_{seated.seat.id}"], form[f"species_{seated.seat.id}"] = str(points), "4"
        self_report.report(db, other, page.round.number, page.view.table.number, form, 0)
    engine.dispose()


def _results_confirmed_and_next_round(db: Session, event: Event, rnd: Round | None) -> None:
    """The organizer enters what is missing, confirms every table, closes the round and seats the next."""
    assert rnd is not None and rnd.id is not None
    for view in rounds.tables_of(db, rnd.id):
        result = view.result
        if result is None:
            entries = [results.SeatEntry(s.seat.player_id, 30 - index, 4)  # type: ignore[arg-type]
                       for index, s in enumerate(view.seats)]
            result = results.save_result(db, event, rnd, view, results.Submission("totals", entries), 0, "Tess")
        if result.status != "confirmed":
            results.confirm_by_organizer(db, event, view, result, result.version, None, "Tess")
    rounds.close_round(db, event, rnd, "Tess")
    rounds.propose_round(db, event, "Tess", seed=5)


def test_a_player_s_page_at_a_paper_table_shows_the_right_form_at_every_step(
        server: tuple[ServerProcess, Evening], new_device: Any) -> None:
    process, evening = server
    token = evening.paper_tokens[PAPER_NAMES[0]]
    page = new_device(PHONE)
    page.clock.install()
    page.goto(f"{process.url}/p/{token}")
    loads = navigations(page)
    expect(page.get_by_text("You are not seated in round 1 yet.")).to_be_visible()
    checked(page, "93-paper-page-before-the-seating")

    # published while the page is open: the table and the report form come together
    _organizer(evening, lambda db, event, rnd: rounds.publish_round(db, event, rnd, "Tess"),  # type: ignore[arg-type]
               evening.paper_id)
    next_poll(page)
    form = page.locator("#player-status #player-report")
    expect(form).to_be_visible(timeout=PAGE_POLL_MS)
    expect(page.get_by_text("after the game, report the result below.")).to_be_visible()
    checked(page, "94-paper-page-report-form")

    # the player starts typing the result; a neighbour's report meanwhile waits for them
    points = form.locator("input[name^=points_]").first
    points.fill("17")
    page.locator("h1").click()  # the field loses the focus, and still holds what was typed
    _neighbour_reports(evening, token)
    with page.expect_response(lambda r: "/changed" in r.url and r.status == 200, timeout=PAGE_POLL_MS):
        next_poll(page)  # the refresh that brings the neighbour's result arrives, and waits
    settle(page)  # htmx has handled it: the page chose not to swap it in
    expect(points).to_have_value("17")
    expect(page.get_by_role("button", name="I agree")).to_have_count(0)

    # nothing unsent any more: the next refresh brings the result to confirm
    points.fill("")
    page.locator("h1").click()
    next_poll(page)
    agree = page.get_by_role("button", name="I agree")
    expect(agree).to_be_visible(timeout=PAGE_POLL_MS)
    expect(page.get_by_text("check the result below and confirm it.")).to_be_visible()
    expect(form.locator("input[name^=points_]").first).to_have_value("40")  # a correction starts from the figures
    checked(page, "95-paper-page-confirm")
    agree.click()
    expect(page.get_by_text("wait until the result is confirmed.")).to_be_visible()

    # the organizer confirms, closes the round and seats the next: the page says what is true
    _organizer(evening, _results_confirmed_and_next_round, evening.paper_id)
    next_poll(page)
    expect(page.get_by_text("Round 1 is over; round 2 is being seated.")).to_be_visible(timeout=PAGE_POLL_MS)
    expect(page.locator("#player-report")).to_have_count(0)
    expect(page.get_by_role("button", name="I agree")).to_have_count(0)
    checked(page, "96-paper-page-round-over")
    assert not loads, f"the player's page reloaded: {loads}"
    no_js_errors(page)


# -- practice ----------------------------------------------------------------------------------

def _practice(page: Page, base: str, mode: str, players: str, bots: dict[str, str]) -> None:
    page.goto(base + "/practice")
    page.locator(f"input[name=mode][value={mode}]").check()
    if players:
        page.locator(f"input[name=players][value='{players}']").check()
    for key, level in bots.items():
        page.select_option(f"#f-{key}", level)
    page.locator("button.practice-start").click()
    expect(page.locator("#live")).to_be_visible()


def test_a_practice_draft_against_an_easy_and_a_normal_bot_ends_by_itself(server: tuple[ServerProcess, Evening],
                                                                         new_device: Any) -> None:
    """The strong bot's practice draft is ``test_live_bots_finish.py``'s, at a person's pace."""
    process, _evening = server
    page = new_device(PHONE)
    bots = {"bot_1": "easy", "bot_2": "heuristic"}
    _practice(page, process.url, "draft", "3", bots)
    loads = navigations(page)
    assert play(page) >= 6
    expect(page.get_by_role("heading", name="Final scores")).to_be_visible()
    text = page.locator("#live").inner_text()
    assert text.count("The game is over.") + text.count("The draft is over.") == 1
    # the points by species say why a player without the right still scored
    page.get_by_text("Points by species").click()
    expect(page.get_by_text("in the draft that still scores 2 points, flat.")).to_be_visible()
    checked(page, "91-practice-draft-easy-normal-final")
    assert not loads, f"the practice page reloaded: {loads}"
    no_js_errors(page)


def test_solo_q_s_placement_is_said_in_words_and_marked(server: tuple[ServerProcess, Evening],
                                                        new_device: Any) -> None:
    process, _evening = server
    page = german(new_device(PHONE))
    _practice(page, process.url, "solo", "", {})
    live = page.locator("#live")
    raised = 0
    # the practice game's deal is random: gifts go on until one of them could raise a path of Q's
    for gift in range(8):
        if gift >= 3 and raised:
            break
        for _draw in range(2):
            version = live.get_attribute("data-version")
            live.locator(".sources button.source").first.click()
            page.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{version}'")
        pick(page)  # plant a card in the player's own arboretum
        # a card of a species Q has already: Q's rule puts it where it raises that path
        q_codes = set(live.locator(".arb").nth(1).locator(".cell.planted .code").all_inner_texts())
        gifts = live.locator("button[name=action][value^=give]")
        matching = [g for g in gifts.all() if g.locator(".code").inner_text() in q_codes]
        version = live.get_attribute("data-version")
        (matching[0] if matching else gifts.first).click()
        page.wait_for_function(f"() => document.getElementById('live').dataset.version !== '{version}'")
        note = live.locator(".q-note").inner_text()
        raised += bool(matching)
        if matching:  # "…, raising Q's Cassia path to 2 cards (2 points)."
            raising = GERMAN.gettext("Q planted %(card)s (★) next to %(cards)s, raising Q's %(paths)s.")
            cards = GERMAN.gettext("%(species)s path to %(num)d cards (%(points)d points)")
            assert raising.split("%(cards)s")[1].split("%(paths)s")[0] in note, note
            assert cards.split("%(num)d")[1].split("(")[0] in note, note
        assert note.startswith("Q hat ") and "(★)" in note, note
        assert not re.search(r"-?\d+, -?\d+", note), f"coordinates in Q's note: {note}"
        q_grid = live.locator(".arb").nth(1)
        expect(q_grid.locator(".cell.fresh .fresh-mark")).to_have_count(1)
        expect(q_grid.locator(".cell.fresh .sr")).to_contain_text(de("(just planted)"))
        if gift == 0:
            assert note.endswith(de("Q planted %(card)s (★): Q's first card.", card="").split("(★)")[1])
        if gift < 3:
            checked(page, f"92-solo-q-placed-{gift + 1}")
    assert raised, "no gift raised one of Q's paths"
    no_js_errors(page)
