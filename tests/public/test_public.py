"""The players' side of an event: the public page /e/<code>, players' own pages
/p/<token>, check-in, dropping out, the organizer's settings, link, card and attention list.
Every public or player response is scanned for other players' e-mail addresses and tokens."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import AuditEntry, Event, Round
from organizer.rounds import service as round_service
from tests.fixtures.organizer import HX, add_players, create_event
from tests.public.support import assert_no_secrets, seated_event, secrets_of, set_players_side


def test_public_page_shows_tables_and_hides_secrets(app: Flask, signed_in: FlaskClient, session: Session,
                                                     event: Event) -> None:
    players = seated_event(signed_in, session, event)
    public = app.test_client()
    page = public.get(f"/e/{event.public_code}")
    assert page.status_code == 200 and "Spring Open" in page.text and "Round 1 of 3" in page.text
    assert "Table 1" in page.text and "Table 2" in page.text and players[0].name in page.text
    assert_no_secrets(page.text, secrets_of(session, event))
    assert "X-CSRFToken" not in page.text and "Set-Cookie" not in page.headers  # the same page for everyone
    found = public.get(f"/e/{event.public_code}?q={players[3].name}", headers=HX)
    assert found.status_code == 200 and found.text.count('class="card public-table"') == 1 and players[3].name in found.text
    assert public.get(f"/e/{event.public_code}x").status_code == 404
    assert public.get("/e/" + "A" * 16).status_code == 404
    assert public.get(f"/e/{event.id}").status_code == 404


def test_public_page_refreshes_cheaply(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    seated_event(signed_in, session, event)
    public = app.test_client()
    page = public.get(f"/e/{event.public_code}").text
    stamp = page.split("since=")[1].split('"')[0]
    assert public.get(f"/e/{event.public_code}/changed?since={stamp}").status_code == 204
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id)[0]
    form = {"mode": "totals", "version": "0"}
    for seat, points in zip(view.seats, [40, 30, 20, 10], strict=True):
        form[f"points_{seat.seat.id}"], form[f"species_{seat.seat.id}"] = str(points), "3"
    assert signed_in.post(f"/events/{event.id}/rounds/1/tables/1/result", data=form).status_code == 302
    changed = public.get(f"/e/{event.public_code}/changed?since={stamp}", headers=HX)
    assert changed.status_code == 200 and "entered" in changed.text and 'id="public-event"' in changed.text


def test_standings_only_after_a_closed_round(app: Flask, signed_in: FlaskClient, session: Session,
                                             event: Event) -> None:
    players = seated_event(signed_in, session, event, players=4)
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id)[0]
    form = {"mode": "totals", "version": "0"}
    for seat, points in zip(view.seats, [40, 30, 20, 10], strict=True):
        form[f"points_{seat.seat.id}"], form[f"species_{seat.seat.id}"] = str(points), "3"
    signed_in.post(f"/events/{event.id}/rounds/1/tables/1/result", data=form)
    public = app.test_client()
    assert "Standings after" not in public.get(f"/e/{event.public_code}").text
    signed_in.post(f"/events/{event.id}/rounds/1/tables/1/confirm", data={"seat": "organizer", "version": "1"})
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code in (200, 302)
    page = public.get(f"/e/{event.public_code}").text
    assert "Standings after round 1" in page and "Results round by round" in page
    winner = next(p for p in players if p.id == view.seats[0].seat.player_id)
    assert page.index(winner.name) < page.index("Results round by round")
    assert "40 <span class=\"muted\">(1.)</span>" in page


def test_organizer_switches_the_page_off(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    seated_event(signed_in, session, event, players=4)
    set_players_side(signed_in, session, event, public_page=None)
    assert event.public_page is False and event.version == 2
    assert app.test_client().get(f"/e/{event.public_code}").status_code == 404
    # a form opened before that save is refused as stale and changes nothing
    stale = signed_in.post(f"/events/{event.id}/players-side",
                           data={"public_page": "on", "self_report": "off", "attention_minutes": "45", "version": "1"})
    assert stale.status_code == 302
    session.refresh(event)
    assert event.public_page is False
    overview = signed_in.get(f"/events/{event.id}").text
    assert "Players&#39; side" in overview or "Players' side" in overview


def test_qr_on_the_projector_and_overview(signed_in: FlaskClient, session: Session, event: Event) -> None:
    seated_event(signed_in, session, event, players=4)
    link = f"/e/{event.public_code}"
    assert link in signed_in.get(f"/events/{event.id}/projector").text
    overview = signed_in.get(f"/events/{event.id}").text
    assert link in overview and '<svg class="qr"' in overview


def test_player_page_table_seat_and_404(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    me = players[2]
    client = app.test_client()
    page = client.get(f"/p/{me.token}")
    assert page.status_code == 200 and me.name in page.text and "table" in page.text and "seat" in page.text
    assert_no_secrets(page.text, secrets_of(session, event), allowed=(me.token,))
    assert client.get(f"/p/{me.token[:-1]}").status_code == 404
    assert client.get("/p/" + "x" * 32).status_code == 404
    stamp = page.text.split("since=")[1].split('"')[0]
    assert client.get(f"/p/{me.token}/changed?since={stamp}").status_code == 204


def test_self_check_in_when_opened_and_rate_limited(app: Flask, signed_in: FlaskClient, session: Session,
                                                    event: Event) -> None:
    players = add_players(session, event, 3, checked_in=False)
    me = players[0]
    client = app.test_client()
    assert "I am here: check me in" not in client.get(f"/p/{me.token}").text
    refused = client.post(f"/p/{me.token}/check-in")
    assert refused.status_code == 422 and "desk for this event" in refused.text
    session.refresh(me)
    assert me.checked_in is False
    set_players_side(signed_in, session, event, self_check_in="on")
    done = client.post(f"/p/{me.token}/check-in", headers=HX)
    assert done.status_code == 200 and "Checked in" in done.text
    assert "&lt;" not in done.text  # the status part is markup, not text
    session.refresh(me)
    assert me.checked_in and me.self_checked_in_at is not None
    entry = session.exec(select(AuditEntry).where(AuditEntry.action == "player.checked_in")).one()
    assert entry.actor == f"player {me.name}"
    statuses = [client.post(f"/p/{me.token}/check-in").status_code for _ in range(12)]
    assert 429 in statuses


def test_dropping_makes_the_page_read_only(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 3, checked_in=False)
    set_players_side(signed_in, session, event, self_check_in="on")
    me = players[1]
    client = app.test_client()
    assert client.post(f"/p/{me.token}/drop").status_code == 200
    session.refresh(me)
    assert me.dropped
    page = client.get(f"/p/{me.token}").text
    assert "dropped out" in page and "check me in" not in page
    again = client.post(f"/p/{me.token}/check-in")
    assert again.status_code == 422
    session.refresh(me)
    assert not me.checked_in


def test_player_link_card_and_attention_for_the_organizer(signed_in: FlaskClient, session: Session,
                                                          event: Event) -> None:
    players = seated_event(signed_in, session, event, players=4)
    me = players[0]
    link = signed_in.get(f"/events/{event.id}/players/{me.id}/link")
    assert link.status_code == 200 and f"/p/{me.token}" in link.text and '<svg class="qr"' in link.text
    card = signed_in.get(f"/events/{event.id}/players/{me.id}/card.pdf")
    assert card.status_code == 200 and card.data.startswith(b"%PDF")
    from io import BytesIO

    from pypdf import PdfReader

    text = PdfReader(BytesIO(card.data)).pages[0].extract_text()
    assert me.name in text and me.email not in text
    cards = signed_in.get(f"/events/{event.id}/player-cards.pdf")
    assert cards.status_code == 200 and len(PdfReader(BytesIO(cards.data)).pages) == 1
    attention = signed_in.get(f"/events/{event.id}/rounds/1/attention", headers=HX)
    assert attention.status_code == 200 and "Needs attention" in attention.text
    assert f'hx-get="/events/{event.id}/rounds/1/attention"' in signed_in.get(f"/events/{event.id}/rounds/1").text


def test_another_event_creates_nothing_shared(app: Flask, session: Session) -> None:
    first, second = create_event(session), create_event(session, name="Autumn")
    assert first.public_code != second.public_code and len(first.public_code) >= 16


def test_players_page_offers_each_players_link(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 2)
    page = signed_in.get(f"/events/{event.id}/players").text
    assert f'hx-get="/events/{event.id}/players/{players[0].id}/link"' in page
    assert players[0].token not in page  # the link itself only when asked for, one player at a time


def test_a_rename_to_a_name_of_the_same_length_shows_on_the_public_page(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    from organizer.players import service as player_service

    players = seated_event(signed_in, session, event)
    public = app.test_client()
    url = f"/e/{event.public_code}"
    page = public.get(url).text
    stamp = page.split("since=")[1].split('"')[0]
    old = players[0].name
    new = ("Q" + old[1:]) if old[0] != "Q" else ("Z" + old[1:])
    assert len(new) == len(old) and new not in page
    player_service.update_player(session, players[0], new, players[0].club, players[0].email, "t")
    assert public.get(f"{url}/changed?since={stamp}").status_code == 200  # the poll sees a change
    shown = public.get(url).text
    assert new in shown and old not in shown
