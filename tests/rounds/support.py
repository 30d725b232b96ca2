"""Helpers for the tests of results and a table's page: a published table, its URLs, the
result forms as the pages fill them (totals, scorepad, the assistant's typed cases)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, Round
from organizer.rounds import service as round_service
from tests.fixtures.organizer import add_players


def published_table(client: FlaskClient, session: Session, event: Event, players: int = 4) -> round_service.TableSeating:
    add_players(session, event, players)
    client.post(f"/events/{event.id}/rounds/propose", data={"seed": "11"})
    client.post(f"/events/{event.id}/rounds/1/publish")
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    return round_service.tables_of(session, rnd.id)[0]


def totals_form(view: round_service.TableSeating, points: list[Any], species: list[Any], version: int = 0) -> dict[str, Any]:
    form: dict[str, Any] = {"mode": "totals", "version": str(version)}
    for seat_view, p, s in zip(view.seats, points, species, strict=True):
        form[f"points_{seat_view.seat.id}"] = str(p)
        form[f"species_{seat_view.seat.id}"] = str(s)
    return form


def url(event: Event, action: str = "") -> str:
    return f"/events/{event.id}/rounds/1/tables/1" + (f"/{action}" if action else "")


def scorepad_form(view: round_service.TableSeating, rows: list[list[Any]], species: list[int], version: int = 0,
                  bonus: list[Any] | None = None) -> dict[str, Any]:
    form: dict[str, Any] = {"mode": "scorepad", "version": str(version)}
    for seat_index, seat_view in enumerate(view.seats):
        for index, value in enumerate(rows[seat_index]):
            form[f"pad_{seat_view.seat.id}_{index}"] = str(value)
        form[f"species_{seat_view.seat.id}"] = str(species[seat_index])
        if bonus is not None:
            form[f"bonus_{seat_view.seat.id}"] = str(bonus[seat_index])
    return form


def typed_form(view: round_service.TableSeating) -> dict[str, Any]:
    sp = view.table.species
    first, second = (s.seat.id for s in view.seats)
    return {
        "mode": "assistant", "version": "0",
        f"arboretum_{first}": f"0,0 {sp[0]} 1\n1,0 {sp[0]} 4\n(2, 0) {sp[0]} 8\n",
        f"hand_{first}": ", ".join(f"{sp[1]} {v}" for v in range(1, 8)),
        f"arboretum_{second}": f"0,0 {sp[2]} 2\n0,1 {sp[2]} 5",
        f"hand_{second}": "\n".join(f"{sp[3]} {v}" for v in range(1, 8)),
    }
