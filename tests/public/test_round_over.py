"""A player's page once a round is closed: it says the round is over (and that the next one is
being seated, or that the event is over), and a tap on a form of the closed round is refused
with that reason, changing nothing."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, func, select

from organizer.core.models import AuditEntry, Confirmation, Event, Player, Result
from tests.fixtures.organizer import HX, create_event
from tests.public.support import report_form, seated_event, set_players_side, table_players

DE = {"Accept-Language": "de"}


def close_round_one(signed_in: FlaskClient, session: Session, event: Event, players: list[Player]) -> None:
    phone = signed_in.application.test_client()
    for number in (1, 2):
        view, seated = table_players(session, players, number)
        assert phone.post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10])).status_code == 200
        assert signed_in.post(f"/events/{event.id}/rounds/1/tables/{number}/confirm",
                              data={"seat": "organizer", "version": "1"}).status_code in (200, 302)
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code in (200, 302)


def stored(session: Session) -> tuple[int, int, int]:
    session.expire_all()
    return (session.exec(select(func.sum(Result.version))).one() or 0,
            session.exec(select(func.count()).select_from(Confirmation)).one(),
            session.exec(select(func.count()).select_from(AuditEntry)).one())


def test_a_closed_round_is_over_on_every_page(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 1)
    form = report_form(view, [10, 20, 30, 40], version=1)
    close_round_one(signed_in, session, event, players)
    phone = app.test_client()
    page = phone.get(f"/p/{seated[1].token}").text
    assert "Round 1 is over." in page and "not seated" not in page
    assert "Ronde 1 is voorbij." in phone.get(f"/p/{seated[1].token}", headers={"Accept-Language": "nl"}).text
    assert "Runde 1 ist vorbei." in phone.get(f"/p/{seated[1].token}", headers=DE).text
    # late taps from a screen of round 1: refused with the reason, nothing stored
    before = stored(session)
    late = phone.post(f"/p/{seated[1].token}/report", data=form, headers=HX)
    assert late.status_code == 422 and "Round 1 is over." in late.text and "not seated" not in late.text
    late = phone.post(f"/p/{seated[2].token}/confirm", data={"round": "1", "table": "1", "version": "1"}, headers=DE)
    assert late.status_code == 422 and "Runde 1 ist vorbei." in late.text
    late = phone.post(f"/p/{seated[3].token}/dispute", data={"round": "1", "table": "1", "version": "1", "note": "x"})
    assert late.status_code == 422 and "Round 1 is over." in late.text
    assert stored(session) == before
    # the next round proposed: it is being seated
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"}).status_code in (200, 302)
    page = phone.get(f"/p/{seated[1].token}").text
    assert "Round 1 is over; round 2 is being seated." in page and "not seated" not in page
    assert "Runde 1 ist vorbei; Runde 2 wird gerade eingeteilt." in phone.get(f"/p/{seated[1].token}", headers=DE).text
    late = phone.post(f"/p/{seated[1].token}/report", data=form)
    assert late.status_code == 422 and "Round 1 is over; round 2 is being seated." in late.text
    # published: a form of round 1 is still a closed round's
    assert signed_in.post(f"/events/{event.id}/rounds/2/publish").status_code in (200, 302)
    before = stored(session)
    late = phone.post(f"/p/{seated[1].token}/report", data=form)
    assert late.status_code == 422 and "Round 1 is over." in late.text
    assert stored(session) == before


def test_after_the_last_round_the_event_is_over(app: Flask, signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, round_formats=["standard"])
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players", self_check_in="on")
    close_round_one(signed_in, session, event, players)
    phone = app.test_client()
    latecomer = Player(event_id=event.id, name="Late Comer", name_key="late comer", checked_in=False)
    session.add(latecomer)
    session.commit()
    session.refresh(latecomer)
    page = phone.get(f"/p/{latecomer.token}").text
    assert "The event is over." in page and "not seated" not in page
    assert "check me in" not in page and "Drop out" not in page and "Not checked in" not in page
    assert "Das Event ist vorbei." in phone.get(f"/p/{latecomer.token}", headers=DE).text
    before = stored(session)
    late = phone.post(f"/p/{latecomer.token}/check-in", headers=HX)
    assert late.status_code == 422 and "The event is over." in late.text
    late = phone.post(f"/p/{latecomer.token}/drop", headers=DE)
    assert late.status_code == 422 and "Das Event ist vorbei." in late.text
    session.expire_all()
    fresh = session.get(Player, latecomer.id)
    assert fresh is not None and not fresh.checked_in and not fresh.dropped
    assert stored(session) == before
