"""A player's own page refreshes as one region: its status and the forms that go with the round,
the table and the result come with the same poll, so a page left open when the round is
published shows the report form with "report the result below", and the region stays put
while nothing changed."""

from __future__ import annotations

import html
import re
import time

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.core.models import Event
from tests.fixtures.organizer import HX, add_players
from tests.public.support import report_form, set_players_side, table_players

POLL = re.compile(r'<div id="player-status" hx-get="([^"]+)"')


def poll_of(page: str) -> str:
    found = POLL.search(page)
    assert found, "the page does not poll"
    return html.unescape(found.group(1))


def test_the_report_form_comes_with_the_status_that_asks_for_it(app: Flask, signed_in: FlaskClient, session: Session,
                                                                event: Event) -> None:
    players = add_players(session, event, 8)
    set_players_side(signed_in, session, event, self_report="players")
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "7"}).status_code in (200, 302)
    phone = app.test_client()
    me = players[0]
    page = phone.get(f"/p/{me.token}").text
    assert "Send the result" not in page
    since = poll_of(page)
    assert phone.get(since, headers=HX).status_code == 204

    # the round is published while the page is open: the next poll brings the table and its form
    assert signed_in.post(f"/events/{event.id}/rounds/1/publish").status_code in (200, 302)
    polled = phone.get(since, headers=HX)
    assert polled.status_code == 200
    assert "after the game, report the result below." in polled.text
    assert 'id="player-report"' in polled.text and "Send the result" in polled.text
    assert "Drop out of the event" in polled.text
    # nothing changed: the region stays, however often the phone asks (its form's CSRF token is
    # signed anew each second, which is no change)
    time.sleep(1.1)
    assert phone.get(poll_of(polled.text), headers=HX).status_code == 204

    # someone at the table reports: the result, "I agree" and the correction form come together
    view, seated = table_players(session, players, next(
        n for n in (1, 2) if me in table_players(session, players, n)[1]))
    other = next(p for p in seated if p is not me)
    assert app.test_client().post(f"/p/{other.token}/report", data=report_form(view, [40, 30, 20, 10])).status_code == 200
    polled = phone.get(poll_of(polled.text), headers=HX)
    assert polled.status_code == 200
    assert "check the result below and confirm it." in polled.text and "I agree" in polled.text
    assert f"Correct the result of table {view.table.number}" in polled.text


def test_a_refused_report_keeps_what_was_typed(app: Flask, signed_in: FlaskClient, session: Session,
                                               event: Event) -> None:
    """The page sent back with the refusal marks its region as holding unsent input, so the
    phone's script keeps it until the player sends again."""
    players = add_players(session, event, 8)
    set_players_side(signed_in, session, event, self_report="players")
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "7"}).status_code in (200, 302)
    assert signed_in.post(f"/events/{event.id}/rounds/1/publish").status_code in (200, 302)
    view, seated = table_players(session, players, 1)
    form = report_form(view, [40, 30, 20, 10])
    form[f"points_{view.seats[0].seat.id}"] = "lots"
    phone = app.test_client()
    refused = phone.post(f"/p/{seated[0].token}/report", data=form, headers=HX)
    assert refused.status_code == 422 and 'value="lots"' in refused.text
    assert 'data-unsent="true"' in refused.text
    assert 'data-unsent' not in phone.get(f"/p/{seated[0].token}").text


def test_the_correction_form_starts_from_the_stored_figures(app: Flask, signed_in: FlaskClient, session: Session,
                                                            event: Event) -> None:
    from tests.public.support import seated_event

    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 1)
    phone = app.test_client()
    assert phone.post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10])).status_code == 200
    for page in (phone.get(f"/p/{seated[1].token}").text,
                 phone.get(poll_of(phone.get(f"/p/{seated[1].token}").text).split("?")[0], headers=HX).text):
        correction = page.split("Correct the result of table 1")[1]
        for seat, points in zip(view.seats, [40, 30, 20, 10], strict=True):
            assert f'name="points_{seat.seat.id}" inputmode="numeric" class="short-number"' in correction
            assert re.search(rf'name="points_{seat.seat.id}"[^>]*value="{points}"', correction), points
