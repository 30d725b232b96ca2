"""Helpers for the tests of the players' side: a seated event with its public page switched
on, what must never show on a player's page, the self-report form."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, Player, Round, Seat
from organizer.rounds import service as round_service
from tests.fixtures.organizer import add_players


def seated_event(signed_in: FlaskClient, session: Session, event: Event, players: int = 8) -> list[Player]:
    listed = add_players(session, event, players)
    for index, player in enumerate(listed):
        player.email = f"secret{index}@example.org"
        session.add(player)
    session.commit()
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "7"}).status_code in (200, 302)
    assert signed_in.post(f"/events/{event.id}/rounds/1/publish").status_code in (200, 302)
    for player in listed:
        session.refresh(player)
    return listed


def secrets_of(session: Session, event: Event) -> list[str]:
    """Everything no public page may show: e-mail addresses, player and seat tokens."""
    players = session.exec(select(Player).where(Player.event_id == event.id)).all()
    seats = session.exec(select(Seat)).all()
    return [p.email for p in players if p.email] + [p.token for p in players] + [s.token for s in seats]


def assert_no_secrets(body: str, secrets: list[str], allowed: tuple[str, ...] = ()) -> None:
    for secret in secrets:
        if secret not in allowed:
            assert secret not in body, f"a public response shows {secret!r}"


def settings_form(event: Event, **changes: Any) -> dict[str, Any]:
    form = {"public_page": "on", "self_report": event.self_report, "attention_minutes": "45",
            "version": str(event.version)}
    if event.self_check_in:
        form["self_check_in"] = "on"
    form.update(changes)
    return {k: v for k, v in form.items() if v is not None}


def set_players_side(signed_in: FlaskClient, session: Session, event: Event, **changes: Any) -> Event:
    session.refresh(event)
    response = signed_in.post(f"/events/{event.id}/players-side", data=settings_form(event, **changes))
    assert response.status_code == 302
    session.refresh(event)
    return event


def table_players(session: Session, players: list[Player], number: int) -> tuple[round_service.TableSeating, list[Player]]:
    rnd = session.exec(select(Round).where(Round.status == "published")).one()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id, number)[0]
    by_id = {p.id: p for p in players}
    return view, [by_id[s.seat.player_id] for s in view.seats]


def report_form(view: round_service.TableSeating, points: list[int], version: int = 0, round_number: int = 1) -> dict[str, Any]:
    form: dict[str, Any] = {"mode": "totals", "round": str(round_number), "table": str(view.table.number),
                            "version": str(version)}
    for seat, value in zip(view.seats, points, strict=True):
        form[f"points_{seat.seat.id}"], form[f"species_{seat.seat.id}"] = str(value), "4"
    return form
