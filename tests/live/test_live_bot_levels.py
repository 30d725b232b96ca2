"""A bot seat's level on the live tables: chosen where the organizer seats the bot,
played at (the log names the bot of each move), shown on the overview, the table's page and
the seats' screens, changed mid-game from the bot's next move on and audited."""

from __future__ import annotations

import functools
import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from engine import bots
from engine.bots import StrongBot
from organizer.accounts import service as accounts
from organizer.core.models import AuditEntry, Result, Seat
from organizer.live import log as live_log
from tests.fixtures.organizer import HX, PASSWORD, sign_in
from tests.live.support import (
    form_of,
    live_round,
    seat_clients,
    sqlite_app,  # noqa: F401
    sqlite_session,  # noqa: F401
    stored_log,
    true_state,
)

SELECT = re.compile(r'<select id="level-t1-s(\d)" name="level">(.*?)</select>', re.S)


def _seat(session: Session, table_id: int, position: int) -> Seat:
    session.expire_all()
    return session.exec(select(Seat).where(Seat.table_id == table_id, Seat.position == position)).one()


def _bot_kinds(log: list[list[object]], seat: int) -> list[str]:
    return [str(entry[2]).split(":")[3] for entry in log if entry[0] == seat and str(entry[2]).startswith("bot:")]


def _organizer(app: Flask, session: Session) -> FlaskClient:
    accounts.create_organizer(session, "Tess", PASSWORD)
    client = app.test_client()
    sign_in(client)
    return client


def test_the_organizer_chooses_the_level_and_changes_it_mid_game(sqlite_app: Flask, sqlite_session: Session) -> None:
    event, _, views = live_round(sqlite_session, 2, "draft", table_size=2)
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    client = _organizer(sqlite_app, sqlite_session)
    base = f"/events/{event.id}/rounds/1/live"
    page = client.get(base).text
    selects = SELECT.findall(page)
    assert [seat for seat, _options in selects] == ["0", "1"], "each seat a person plays offers a bot's level"
    options = re.findall(r'<option value="(\w+)"( selected)?>(\w+)</option>', selects[1][1])
    assert options == [("easy", "", "easy"), ("normal", " selected", "normal"), ("strong", "", "strong")]
    assert '<label for="level-t1-s1" class="bot-level-label">Level:</label>' in page

    # a strong bot takes seat 2 and picks at once, as the strong bot
    assert client.post(f"{base}/tables/1/seats/1/bot", data={"bot": "1", "level": "strong"}).status_code == 302
    seat = _seat(sqlite_session, table_id, 1)
    assert seat.is_bot and seat.bot_level == "strong"
    assert _bot_kinds(stored_log(sqlite_app, table_id), 1) == ["strong"]
    page = html.unescape(client.get(base).text)
    assert "Bot (strong)" in page and 'value="strong" aria-pressed="true"' in page
    seated = sqlite_session.exec(select(AuditEntry).where(AuditEntry.action == "live.bot_seated")).one()
    assert seated.new is not None and seated.new["level"] == "strong"
    # the table's page and the other seat's screen say so too
    assert "Bot (strong)" in html.unescape(client.get(f"/events/{event.id}/rounds/1/tables/1").text)
    person = seat_clients(sqlite_app, view)[0]
    name = view.seats[1].player.name if view.seats[1].player else ""
    assert f"Bots at this table: {name} (bot, strong)" in html.unescape(person.page())

    # the level changes with one tap; the bot plays at it from its next move, and it is audited
    assert client.post(f"{base}/tables/1/seats/1/bot", data={"bot": "1", "level": "easy"}).status_code == 302
    assert _seat(sqlite_session, table_id, 1).bot_level == "easy"
    changed = sqlite_session.exec(select(AuditEntry).where(AuditEntry.action == "live.bot_level")).one()
    assert changed.old == {"level": "strong"} and changed.new is not None and changed.new["level"] == "easy"
    audit = html.unescape(client.get(f"/events/{event.id}/audit").text)
    assert "The bot in seat 2 at Round 1, Table 1 plays at level easy now (was strong)." in audit
    person.page()
    person.post(form_of(true_state(sqlite_app, table_id).legal_actions(0)[0]))
    assert _bot_kinds(stored_log(sqlite_app, table_id), 1) == ["strong", "easy"]
    assert f"{name} (bot, easy)" in html.unescape(person.page())
    # the same level again changes nothing and writes nothing
    client.post(f"{base}/tables/1/seats/1/bot", data={"bot": "1", "level": "easy"})
    assert len(sqlite_session.exec(select(AuditEntry).where(AuditEntry.action == "live.bot_level")).all()) == 1

    # a level the overview does not offer is refused with the choices, and nothing changes
    refused = client.post(f"{base}/tables/1/seats/1/bot", data={"bot": "1", "level": "genius"}, headers=HX)
    assert refused.status_code == 422
    assert "Choose the bot's level: easy, normal, strong." in html.unescape(refused.text)
    assert _seat(sqlite_session, table_id, 1).bot_level == "easy"

    # a normal bot in seat 1 finishes the draft; the replay names each move's bot by its level
    client.post(f"{base}/tables/1/seats/0/bot", data={"bot": "1"})
    log = stored_log(sqlite_app, table_id)
    assert sqlite_session.exec(select(Result)).one().status == "confirmed"
    assert set(_bot_kinds(log, 0)) == {"heuristic"} and _bot_kinds(log, 1)[:2] == ["strong", "easy"]
    replay = f"/events/{event.id}/rounds/1/tables/1/replay"
    for kind, words in (("strong", "The strong bot"), ("easy", "The easy bot"), ("heuristic", "The normal bot")):
        step = next(i for i, entry in enumerate(log, start=1) if str(entry[2]).endswith(":" + kind))
        assert words in html.unescape(client.get(f"{replay}?step={step}").text), kind


def test_a_table_of_bots_alone_is_played_by_the_overview_s_tick(sqlite_app: Flask, sqlite_session: Session,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # strong bots at a small fixed budget, and one move a request: what a strong bot's second
    # of thought a move makes of a table with nobody at it to send the screens' ticks
    monkeypatch.setitem(bots.BOTS, "strong", functools.partial(StrongBot, iterations=4, seconds=None))
    monkeypatch.setattr(live_log, "BOT_SECONDS", 0.0)
    event, _, views = live_round(sqlite_session, 2, "draft", table_size=2)
    table_id = views[0].table.id
    assert table_id is not None
    client = _organizer(sqlite_app, sqlite_session)
    base = f"/events/{event.id}/rounds/1/live"
    for position in (0, 1):
        client.post(f"{base}/tables/1/seats/{position}/bot", data={"bot": "1", "level": "strong"})
    assert not true_state(sqlite_app, table_id).is_terminal()
    page = client.get(base).text
    tick = re.search(r'hx-post="([^"]+/live/tick)" hx-trigger="load delay:1s"', page)
    assert tick and '<input type="hidden" name="table" value="1">' in page
    before = len(stored_log(sqlite_app, table_id))
    assert len(stored_log(sqlite_app, table_id)) == before, "showing the overview (a GET) played nothing"
    for _ in range(100):
        answer = client.post(tick.group(1), data={"table": "1"}, headers=HX)
        assert answer.status_code == 200
        if "/live/tick" not in answer.text:
            break
    assert true_state(sqlite_app, table_id).is_terminal() and "finished after 3 rounds" in answer.text
    assert sqlite_session.exec(select(Result)).one().status == "confirmed"
    assert set(_bot_kinds(stored_log(sqlite_app, table_id), 0)) == {"strong"}
    # a judge who is not staff of the event, or nobody signed in, plays nothing
    signed_out = sqlite_app.test_client().post(tick.group(1), data={"table": "1"})
    assert signed_out.status_code in (302, 401, 403)


def test_seating_a_bot_keeps_the_overview_s_page(sqlite_app: Flask, sqlite_session: Session,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from organizer.live import overview as live_overview

    monkeypatch.setattr(live_overview, "PER_PAGE", 1)
    event, _, _views = live_round(sqlite_session, 4, "standard", table_size=2)
    client = _organizer(sqlite_app, sqlite_session)
    base = f"/events/{event.id}/rounds/1/live"
    page = client.get(f"{base}?page=2").text
    assert 'name="page" value="2"' in page
    pressed = client.post(f"{base}/tables/2/seats/1/bot", data={"bot": "1", "level": "easy", "page": "2"})
    assert pressed.status_code == 302 and pressed.headers["Location"].endswith(f"{base}?page=2")


def test_publishing_leaves_a_strong_bot_s_moves_owed_once_its_time_is_up(sqlite_app: Flask, sqlite_session: Session,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import date

    from organizer.events import service as event_service
    from organizer.live import tables as live_tables
    from organizer.rounds import service as round_service
    from tests.fixtures.organizer import add_players

    monkeypatch.setattr(live_log, "BOT_SECONDS", 0.0)  # the time is up at once
    data = event_service.EventInput(name="Bot Cup", date=date(2026, 5, 2))
    data.round_formats = ["draft"]
    data.preferred_table_size = 2
    event = event_service.create_event(sqlite_session, data, None, "test")
    add_players(sqlite_session, event, 4)
    rnd = round_service.propose_round(sqlite_session, event, "test", seed=5)
    assert rnd.id is not None
    # bots seated before the round is published (an imported round): a strong one at table 1,
    # a normal one at table 2
    for view, level in zip(round_service.tables_of(sqlite_session, rnd.id), ("strong", "normal"), strict=True):
        view.seats[1].seat.is_bot, view.seats[1].seat.bot_level = True, level
        sqlite_session.add(view.seats[1].seat)
    sqlite_session.commit()
    round_service.publish_round(sqlite_session, event, rnd, "test")
    live_tables.start_round(sqlite_session, event, rnd)
    strong, normal = round_service.tables_of(sqlite_session, rnd.id)
    assert strong.table.id is not None and normal.table.id is not None
    assert stored_log(sqlite_app, strong.table.id) == [], "the strong bot's pick stays owed for a tick"
    assert _bot_kinds(stored_log(sqlite_app, normal.table.id), 1) == ["heuristic"]
    client = _organizer(sqlite_app, sqlite_session)
    page = client.get(f"/events/{event.id}/rounds/1/live").text
    assert '<input type="hidden" name="table" value="1">' in page and 'name="table" value="2"' not in page
