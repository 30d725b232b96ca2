"""One seat's page: what it shows, wrong tokens, double taps, illegal and stale forms, the
organizer's overview with bots and the pick timer, QR codes of the seat links."""

from __future__ import annotations

import html
import logging
import random
import re
import time

import pytest
from flask import Flask
from sqlmodel import Session, select

from organizer.accounts import service as accounts
from organizer.core.models import AuditEntry, GameTable, Result, Seat
from organizer.live import seats as live_seats
from tests.fixtures.organizer import HX, PASSWORD, sign_in
from tests.live.support import (
    TICK,
    assert_hides,
    cards_mentioned,
    fast_sqlite,
    follow_tick,
    form_of,
    live_round,
    seat_clients,
    sqlite_app,  # noqa: F401
    sqlite_session,  # noqa: F401
    stored_log,
    true_state,
)

FLASH = re.compile(r'<p class="flash error" role="alert">([^<]*)</p>')


def flash(page: str) -> str:
    """The refusal a seat's screen shows."""
    found = FLASH.search(page)
    return html.unescape(found.group(1)) if found else ""


def test_seat_page_shows_only_that_seats_hand(sqlite_app: Flask, sqlite_session: Session) -> None:
    _, _, views = live_round(sqlite_session, 4, "draft")
    view = views[0]
    assert view.table.id is not None
    seats = seat_clients(sqlite_app, view)
    state = true_state(sqlite_app, view.table.id)
    for seat in seats:
        html = seat.page()
        own = {str(card) for card in state.hands[seat.position]}  # type: ignore[attr-defined]
        assert own <= cards_mentioned(html)
        assert_hides(html, state, seat.position)
        assert "Round 1 of 2 · pick 1 of 7 · hands pass to the next player" in html
        assert "Your choice is awaited" in html
        assert 'name="cell" value="0,0"' in html  # the first card may go anywhere: offered at 0,0
    # one seat picks: the others see that it has chosen, not what
    action = random.Random(1).choice(state.legal_actions(0))
    response = seats[0].post(form_of(action))
    note = response.text.split('class="pending-note">', 1)[1].split("</p>", 1)[0]
    assert "Your choice:" in note and f'title="{action.card}"' in note  # type: ignore[union-attr]
    assert "pick " not in note  # the screen speaks of cards, not of the engine's action text
    other = seats[1].page()
    assert str(action) not in other and f"{view.seats[0].player.name} ✓" in other  # type: ignore[union-attr]


def test_wrong_or_missing_token_learns_nothing(sqlite_app: Flask, sqlite_session: Session) -> None:
    _, _, views = live_round(sqlite_session, 2, "draft", table_size=2)
    client = sqlite_app.test_client()
    real = views[0].seats[0].seat.token
    for token in ("nope", real[:-1] + ("A" if real[-1] != "A" else "B"), "x" * 200):
        for url in (f"/play/{token}", f"/play/{token}/changed?since=0", f"/replay/seat/{token}"):
            response = client.get(url)
            assert response.status_code == 404
            assert not cards_mentioned(response.text) and "Table" not in response.text
        response = client.post(f"/play/{token}/act", data={"nonce": "n", "stamp": "0", "action": "draw deck"})
        assert response.status_code == 404 and not cards_mentioned(response.text)
    assert client.get("/play/").status_code == 404


def test_double_submit_is_applied_once(sqlite_app: Flask, sqlite_session: Session) -> None:
    _, _, views = live_round(sqlite_session, 2, "standard", table_size=2)
    view = views[0]
    assert view.table.id is not None
    with Session(sqlite_app.extensions["db_engine"]) as db:
        table = db.get(GameTable, view.table.id)
        assert table is not None
        table.digital = True
        db.add(table)
        db.commit()
    seat = seat_clients(sqlite_app, view)[0]
    seat.page()
    nonce, stamp = seat.nonce_and_stamp()
    first = seat.post({"action": "draw deck"}, nonce, stamp)
    assert first.status_code == 200
    again = seat.post({"action": "draw deck"}, nonce, stamp)
    assert again.status_code == 200 and "already done" in again.text
    log = stored_log(sqlite_app, view.table.id)
    assert [entry[1] for entry in log] == ["draw deck"]
    # a new form after the page moved on is a new action
    second = seat.post({"action": "draw deck"})
    assert second.status_code == 200
    assert [entry[1] for entry in stored_log(sqlite_app, view.table.id)] == ["draw deck", "draw deck"]


def test_illegal_actions_are_refused_with_a_message_and_change_nothing(sqlite_app: Flask, sqlite_session: Session) -> None:
    _, _, views = live_round(sqlite_session, 2, "draft", table_size=2)
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    seats = seat_clients(sqlite_app, view)
    for seat in seats:
        seat.page()
    state = true_state(sqlite_app, table_id)
    mine = state.hands[0]  # type: ignore[attr-defined]
    theirs = state.hands[1]  # type: ignore[attr-defined]
    cases = [
        ({"verb": "pick", "card": str(theirs[0]), "cell": "0,0"}, "That move is not allowed now"),
        ({"verb": "pick", "card": "Oak 9", "cell": "0,0"}, "not an action this screen offers"),
        ({"verb": "pick", "card": "", "cell": "0,0"}, "Choose a card of your hand first"),
        ({"verb": "pick", "card": str(mine[0]), "cell": ""}, "Tap a highlighted cell"),
        ({"action": "draw deck"}, "That move is not allowed now"),
        ({"verb": "pick", "card": str(mine[0]), "cell": "5,x"}, "There is no cell"),
        ({"action": "pick up the deck"}, "not an action this screen offers"),
    ]
    for fields, message in cases:
        response = seats[0].post(fields)
        assert response.status_code == 422, fields
        assert message in response.text, (fields, response.text[:500])
        assert "(" not in flash(response.text), "the engine's details are for the log"
        # the message repeats the card the seat itself named, and nothing else hidden
        assert_hides(response.text.replace(fields.get("card", "") or "-", ""), state, 0)
        assert stored_log(sqlite_app, table_id) == []
    # plant the first card, then an unconnected cell is refused
    seats[0].post({"verb": "pick", "card": str(mine[0]), "cell": "0,0"})
    seats[1].post({"verb": "pick", "card": str(theirs[0]), "cell": "0,0"})
    seats[0].page()
    hand = true_state(sqlite_app, table_id).hands[0]  # type: ignore[attr-defined]
    before = stored_log(sqlite_app, table_id)
    for cell, message in (("0,0", "A card cannot be planted there"), ("3,3", "A card cannot be planted there")):
        response = seats[0].post({"verb": "pick", "card": str(hand[0]), "cell": cell})
        assert response.status_code == 422 and message in response.text
    assert stored_log(sqlite_app, table_id) == before


def test_not_your_turn_in_a_standard_game(sqlite_app: Flask, sqlite_session: Session) -> None:
    _, _, views = live_round(sqlite_session, 3, "standard", table_size=3)
    view = views[0]
    assert view.table.id is not None
    with Session(sqlite_app.extensions["db_engine"]) as db:
        table = db.get(GameTable, view.table.id)
        assert table is not None
        table.digital = True
        db.add(table)
        db.commit()
    seats = seat_clients(sqlite_app, view)
    seats[0].page()
    html = seats[1].page()
    assert "draws a first card" in html and 'value="draw deck"' not in html
    response = seats[1].post({"action": "draw deck"})
    assert response.status_code == 422 and "It is not your turn yet; nothing was done." in response.text
    assert stored_log(sqlite_app, view.table.id) == []
    # the seat to act sees the draw pile's card before choosing the second source
    first = seats[0].post({"action": "draw deck"})
    drawn = true_state(sqlite_app, view.table.id).drawn[0][1]  # type: ignore[attr-defined]
    assert re.search(r"You drew <span [^>]*title=\"" + str(drawn) + r"\".*? from the draw pile\.", first.text)
    watcher = seats[1].page()
    name = view.seats[0].player.name  # type: ignore[union-attr]
    assert f"{name} drew a card from the draw pile." in watcher and str(drawn) not in watcher


def test_stale_form_from_before_the_reveal_is_refused(sqlite_app: Flask, sqlite_session: Session,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    """The player reads a short sentence in their language; the engine's details (seat, card,
    cell, stamps) go to the log."""
    _, _, views = live_round(sqlite_session, 2, "draft", table_size=2)
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    seats = seat_clients(sqlite_app, view)
    for seat in seats:
        seat.page()
    state = true_state(sqlite_app, table_id)
    first_pick = state.legal_actions(0)[0]
    old_page = seats[0].post(form_of(first_pick)).text  # its screen after choosing, before the reveal
    seats[1].post(form_of(state.legal_actions(1)[0]))  # the reveal
    seats[0].last_html = old_page  # a tab left open from before the reveal
    before = stored_log(sqlite_app, table_id)
    card_still_seen = str(state.hands[0][1])  # type: ignore[attr-defined]
    nonce, stamp = seats[0].nonce_and_stamp()
    with caplog.at_level(logging.INFO, logger="organizer.live.log"):
        response = seats[0].post({"verb": "pick", "card": card_still_seen, "cell": "1,0"})
    assert response.status_code == 422
    assert flash(response.text) == "The game moved on; your card was not played. Choose again."
    assert "stamp" in caplog.text and "StaleActionError" in caplog.text and card_still_seen in caplog.text
    german = seats[0].client.post(f"{seats[0].url}/act", headers={**HX, "Accept-Language": "de"}, data={
        "nonce": nonce, "stamp": stamp, "verb": "pick", "card": card_still_seen, "cell": "1,0"})
    assert german.status_code == 422
    assert flash(german.text) == "Die Partie ist weitergegangen; Ihre Karte wurde nicht gespielt. Bitte erneut wählen."
    assert stored_log(sqlite_app, table_id) == before


def test_changed_endpoint_answers_204_until_something_changes(sqlite_app: Flask, sqlite_session: Session) -> None:
    _, _, views = live_round(sqlite_session, 2, "draft", table_size=2)
    seats = seat_clients(sqlite_app, views[0])
    html = seats[1].page()
    version = int(html.split('data-version="')[1].split('"')[0])
    assert seats[1].client.get(f"{seats[1].url}/changed?since={version}").status_code == 204
    seats[0].page()
    state = true_state(sqlite_app, views[0].table.id or 0)
    seats[0].post(form_of(state.legal_actions(0)[0]))
    response = seats[1].client.get(f"{seats[1].url}/changed?since={version}", headers=HX)
    assert response.status_code == 200 and response.text.lstrip().startswith('<div id="live"')
    assert f'data-version="{version + 1}"' in response.text


def test_overview_bots_and_pick_timer(app: Flask, session: Session) -> None:
    fast_sqlite(app)
    event, rnd, views = live_round(session, 6, "draft", table_size=3, pick_timer=30)
    accounts.create_organizer(session, "Tess", PASSWORD)
    client = app.test_client()
    sign_in(client)
    page = client.get(f"/events/{event.id}/rounds/1/live")
    assert page.status_code == 200
    assert "round 1 of 3, pick 1 of 7" in page.text and "30 s" in page.text
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    # the TO puts a bot into seat 3: it picks at once, and keeps picking as picks fall due
    response = client.post(f"/events/{event.id}/rounds/1/live/tables/1/seats/2/bot", data={"bot": "1"})
    assert response.status_code == 302
    page = client.get(f"/events/{event.id}/rounds/1/live")
    assert true_state(app, table_id).pending[2] is not None  # type: ignore[attr-defined]
    names = [s.player.name for s in view.seats if s.player]
    assert names[0] in page.text and "0m" in page.text
    seats = seat_clients(app, view)
    seats[0].page()
    seats[0].post(form_of(true_state(app, table_id).legal_actions(0)[0]))
    # seat 2 dawdles: once the timer has run out the heuristic bot's pick is played for it
    log = stored_log(app, table_id)
    assert len(log) == 2
    with Session(app.extensions["db_engine"]) as db:
        table = db.get(GameTable, table_id)
        assert table is not None and table.game is not None
        table.game = {**table.game, "started_at": time.time() - 31}  # as if dealt 31 s ago
        db.add(table)
        db.commit()
    live_seats.clear_caches()
    polled = seats[0].client.get(f"{seats[0].url}/changed?since=999")
    assert polled.status_code == 200 and TICK.search(polled.text), "the screen sends the tick the timer owes"
    assert len(stored_log(app, table_id)) == 2, "the poll (a GET) played nothing"
    assert follow_tick(seats[0].client, polled).status_code == 200
    log = stored_log(app, table_id)
    # the timer played seat 1; after the reveal the bot in seat 2 picked again at once
    assert [entry[0] for entry in log] == [2, 0, 1, 2] and str(log[2][2]).startswith("timer:")
    assert true_state(app, table_id).reveals == 1  # type: ignore[attr-defined]
    audit = [a.action for a in session.exec(select(AuditEntry).where(AuditEntry.table_id == table_id)).all()]
    assert "live.bot_seated" in audit
    # give the seat back
    client.post(f"/events/{event.id}/rounds/1/live/tables/1/seats/2/bot", data={"bot": "0"})
    session.expire_all()
    assert not session.exec(select(Seat).where(Seat.table_id == table_id, Seat.position == 2)).one().is_bot
    assert client.get(f"/play/{view.seats[2].seat.token}").status_code == 200


def test_bots_finish_a_table_and_the_result_is_confirmed(sqlite_app: Flask, sqlite_session: Session) -> None:
    event, rnd, views = live_round(sqlite_session, 2, "draft", table_size=2)
    accounts.create_organizer(sqlite_session, "Tess", PASSWORD)
    client = sqlite_app.test_client()
    sign_in(client)
    for position in (0, 1):
        client.post(f"/events/{event.id}/rounds/1/live/tables/1/seats/{position}/bot", data={"bot": "1"})
    page = client.get(f"/events/{event.id}/rounds/1/live")
    assert "finished after 3 rounds" in page.text
    result = sqlite_session.exec(select(Result)).one()
    assert result.status == "confirmed" and result.entered_by == "live table"
    replay = client.get(f"/events/{event.id}/rounds/1/tables/1/replay?step=3")
    assert replay.status_code == 200 and "Move 3 of 42" in replay.text and "(bot)" in replay.text


def test_table_page_shows_a_qr_code_per_seat(sqlite_app: Flask, sqlite_session: Session) -> None:
    event, _, views = live_round(sqlite_session, 3, "draft", table_size=3)
    accounts.create_organizer(sqlite_session, "Tess", PASSWORD)
    client = sqlite_app.test_client()
    sign_in(client)
    page = client.get(f"/events/{event.id}/rounds/1/tables/1")
    assert page.status_code == 200
    for seat_view in views[0].seats:
        assert f"/play/{seat_view.seat.token}" in page.text
    assert page.text.count('<svg class="qr"') == 3
    assert not cards_mentioned(page.text)


def test_qr_code_scans_back_to_the_seat_link() -> None:
    import pytest

    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    from organizer.printing.qr import qr_modules

    url = "http://127.0.0.1:5000/play/abcdefghijklmnopqrstuvwxyz012345"
    modules = qr_modules(url)
    scale, quiet = 6, 4
    side = (len(modules) + 2 * quiet) * scale
    image = Image.new("L", (side, side), 255)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                image.paste(0, ((x + quiet) * scale, (y + quiet) * scale, (x + quiet + 1) * scale, (y + quiet + 1) * scale))
    assert [r.text for r in zxingcpp.read_barcodes(image)] == [url]
    from organizer.accounts.qr import qr_svg

    svg = str(qr_svg(url))
    assert svg.startswith('<svg class="qr"') and url in svg


def test_unchanged_poll_is_answered_before_flask_with_the_same_headers(sqlite_app: Flask, sqlite_session: Session) -> None:
    _, _, views = live_round(sqlite_session, 2, "draft", table_size=2)
    seat = seat_clients(sqlite_app, views[0])[0]
    html = seat.page()
    version = html.split('data-version="')[1].split('"')[0]
    fast = seat.client.get(f"{seat.url}/changed?since={version}")
    slow = seat.client.get(f"{seat.url}/changed?since={version}&card=")  # not the fast path's shape
    assert fast.status_code == slow.status_code == 204 and fast.data == b""
    for header in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Cache-Control",
                   "Referrer-Policy"):
        assert fast.headers[header] == slow.headers[header]
    assert seat.client.get("/play/nope/changed?since=1").status_code == 404


def test_paper_tables_stay_off_the_devices_until_the_organizer_moves_them(sqlite_app: Flask,
                                                                          sqlite_session: Session) -> None:
    event, _, views = live_round(sqlite_session, 4, "standard", table_size=2)
    accounts.create_organizer(sqlite_session, "Tess", PASSWORD)
    client = sqlite_app.test_client()
    sign_in(client)
    first, second = views
    assert client.get(f"/play/{first.seats[0].seat.token}").status_code == 404  # played on paper
    page = client.get(f"/events/{event.id}/rounds/1/live")
    assert page.text.count("Play it on the players' devices") == 2
    # a table with a result stays on paper
    client.post(f"/events/{event.id}/rounds/1/tables/2/result", data={
        "mode": "totals", "version": "0", **{f"points_{s.seat.id}": "40" for s in second.seats},
        **{f"species_{s.seat.id}": "5" for s in second.seats}})
    refused = client.post(f"/events/{event.id}/rounds/1/live/tables/2/digital")
    assert refused.status_code == 422 and "already has a result" in refused.text
    moved = client.post(f"/events/{event.id}/rounds/1/live/tables/1/digital")
    assert moved.status_code == 302
    assert client.get(f"/play/{first.seats[0].seat.token}").status_code == 200
    audit = [a.action for a in sqlite_session.exec(select(AuditEntry).where(AuditEntry.table_id == first.table.id)).all()]
    assert "live.made_digital" in audit


def test_publishing_deals_the_tables_and_a_due_bot_moves_on_the_pages_tick(sqlite_app: Flask,
                                                                          sqlite_session: Session) -> None:
    """No GET deals or plays: the publishing POST deals the draft's tables; a bot's
    move that is owed (a seat handed to a bot as an older version left it) is shown as owed by
    the seat page, which changes nothing, and is played by the tick POST the page sends."""
    from datetime import date

    from organizer.events import service as event_service
    from organizer.rounds import service as round_service
    from tests.fixtures.organizer import add_players

    data = event_service.EventInput(name="Publish Cup", date=date(2026, 5, 2))
    data.round_formats = ["draft"]
    data.preferred_table_size = 3
    event = event_service.create_event(sqlite_session, data, None, "test")
    add_players(sqlite_session, event, 6)
    rnd = round_service.propose_round(sqlite_session, event, "test", seed=3)
    accounts.create_organizer(sqlite_session, "Tess", PASSWORD)
    client = sqlite_app.test_client()
    sign_in(client)
    assert client.post(f"/events/{event.id}/rounds/1/publish").status_code == 302
    assert rnd.id is not None
    views = round_service.tables_of(sqlite_session, rnd.id)
    assert [v.table.log_version for v in views] == [1, 1], "both tables were dealt by the publishing POST"
    view = views[0]
    table_id = view.table.id
    assert table_id is not None
    with Session(sqlite_app.extensions["db_engine"]) as db:
        seat = db.get(Seat, view.seats[1].seat.id)
        assert seat is not None
        seat.is_bot = True
        db.add(seat)
        db.commit()
    seats = seat_clients(sqlite_app, view)
    shown = seats[0].client.get(seats[0].url)
    assert shown.status_code == 200 and TICK.search(shown.text)
    assert stored_log(sqlite_app, table_id) == [], "the GET played nothing"
    ticked = follow_tick(seats[0].client, shown)
    assert ticked.status_code == 200 and not TICK.search(ticked.text)
    assert [entry[0] for entry in stored_log(sqlite_app, table_id)] == [1], "the bot picked, once"
    assert follow_tick(seats[2].client, seats[2].client.post(f"{seats[2].url}/tick", headers=HX)).status_code == 200
    assert [entry[0] for entry in stored_log(sqlite_app, table_id)] == [1], "a second tick owes nothing"
