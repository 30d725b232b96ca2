"""A bot seated in a person's seat, or the seat given back, shows on that seat's open screen
within a poll, though it writes no move: the screen says a bot plays the seat and its cards can
no longer be tapped, then offers them again once the seat is the person's."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.accounts import service as accounts
from tests.fixtures.organizer import HX, PASSWORD, sign_in
from tests.live.support import SeatClient, form_of, live_round, seat_clients, stored_log, true_state

POLL = re.compile(r'hx-get="([^"]+/changed\?[^"]*)"')
CARD = re.compile(r'<input type="radio" name="card"[^>]*>')
BOT_NOTICE = "A bot plays this seat now"


def poll_url(screen: str) -> str:
    found = POLL.search(screen)
    assert found, "the screen does not poll"
    return html.unescape(found.group(1))


def cards(screen: str) -> list[str]:
    return CARD.findall(screen)


def organizer(app: Flask, session: Session) -> FlaskClient:
    accounts.create_organizer(session, "Tess", PASSWORD)
    client = app.test_client()
    sign_in(client)
    return client


def test_a_bot_taking_the_seat_shows_on_its_open_screen_within_a_poll(app: Flask, session: Session) -> None:
    event, _rnd, views = live_round(session, 2, "draft", table_size=2)
    view = views[0]
    assert view.table.id is not None
    staff = organizer(app, session)
    bot_url = f"/events/{event.id}/rounds/1/live/tables/1/seats/1/bot"
    seat: SeatClient = seat_clients(app, view)[1]
    seat.page()
    pick = true_state(app, view.table.id).legal_actions(1)[0]
    assert seat.post(form_of(pick)).status_code == 200  # chosen; seat 1 (a person) still chooses
    screen = seat.last_html
    assert cards(screen) and not any("disabled" in card for card in cards(screen))
    assert seat.client.get(poll_url(screen), headers=HX).status_code == 204
    moves = len(stored_log(app, view.table.id))

    # the organizer seats a bot: it owes no pick (the seat has chosen), so no move is written
    assert staff.post(bot_url, data={"bot": "1"}).status_code == 302
    assert len(stored_log(app, view.table.id)) == moves
    polled = seat.client.get(poll_url(screen), headers=HX)
    assert polled.status_code == 200 and BOT_NOTICE in polled.text
    assert cards(polled.text) and all("disabled" in card for card in cards(polled.text))
    assert "Discard the chosen card" not in polled.text
    german = seat.client.get(poll_url(screen), headers={**HX, "Accept-Language": "de"})
    assert german.status_code == 200 and BOT_NOTICE not in german.text and "Bot" in german.text
    # the bot's screen is current now: the next polls are 204 again
    assert seat.client.get(poll_url(polled.text), headers=HX).status_code == 204

    # the seat given back: the screen offers the cards again within a poll
    assert staff.post(bot_url, data={"bot": "0"}).status_code == 302
    assert len(stored_log(app, view.table.id)) == moves
    back = seat.client.get(poll_url(polled.text), headers=HX)
    assert back.status_code == 200 and BOT_NOTICE not in back.text
    assert cards(back.text) and not any("disabled" in card for card in cards(back.text))
    assert seat.client.get(poll_url(back.text), headers=HX).status_code == 204
