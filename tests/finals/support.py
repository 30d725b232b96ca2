"""The finals' tests' shared steps: an event of one Swiss round played through the organizer's
pages, its results entered and confirmed, and the finals played to the end."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, Finals, Round
from organizer.rounds import service as round_service
from tests.fixtures.organizer import add_players, create_event


def enter_and_confirm(client: FlaskClient, event: Event, session: Session, number: int,
                      points_by_player: dict[int, int]) -> None:
    """Round ``number``'s results as totals, confirmed by the organizer."""
    rnd = session.exec(select(Round).where(Round.event_id == event.id, Round.number == number)).one()
    assert rnd.id is not None
    for view in round_service.tables_of(session, rnd.id):
        form = {"mode": "totals", "version": "0"}
        for seat_view in view.seats:
            assert seat_view.seat.player_id is not None
            form[f"points_{seat_view.seat.id}"] = str(points_by_player[seat_view.seat.player_id])
            form[f"species_{seat_view.seat.id}"] = "5"
        base = f"/events/{event.id}/rounds/{number}/tables/{view.table.number}"
        assert client.post(base + "/result", data=form).status_code == 302
        assert client.post(base + "/confirm", data={"seat": "organizer", "version": "1"}).status_code == 200


def one_round_event(session: Session, players: int) -> tuple[Event, list[int]]:
    event = create_event(session, round_formats=["standard"])
    ids = [p.id for p in add_players(session, event, players)]
    return event, ids


def play_swiss(client: FlaskClient, session: Session, event: Event, points: dict[int, int]) -> None:
    client.post(f"/events/{event.id}/rounds/propose", data={"seed": "7"})
    client.post(f"/events/{event.id}/rounds/1/publish")
    enter_and_confirm(client, event, session, 1, points)
    assert client.post(f"/events/{event.id}/rounds/1/close").status_code == 302


def seated(session: Session, event: Event, number: int) -> list[list[int | None]]:
    rnd = session.exec(select(Round).where(Round.event_id == event.id, Round.number == number)).one()
    assert rnd.id is not None
    return [[s.seat.player_id for s in view.seats] for view in round_service.tables_of(session, rnd.id)]


def finals_version(session: Session, event: Event) -> str:
    session.expire_all()
    return str(session.exec(select(Finals).where(Finals.event_id == event.id)).one().version)


def played_finals(client: FlaskClient, session: Session) -> tuple[Event, dict[int, int]]:
    """An event of one Swiss round, then semi-finals and the final table, all closed; the seeds'
    players by seed."""
    event, ids = one_round_event(session, 8)
    play_swiss(client, session, event, {pid: 40 - 2 * i for i, pid in enumerate(ids)})
    assert client.post(f"/events/{event.id}/finals/cut", data={"cut_size": "8", "version": "0"}).status_code == 302
    assert client.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    player_of = {s["seed"]: s["player_id"] for s in session.exec(select(Finals)).one().seeds}
    client.post(f"/events/{event.id}/rounds/2/publish")
    enter_and_confirm(client, event, session, 2, {player_of[n]: 20 + 2 * n for n in range(1, 9)})
    assert client.post(f"/events/{event.id}/rounds/2/close").status_code == 302
    assert client.post(f"/events/{event.id}/finals/seat", data={"version": finals_version(session, event)}).status_code == 302
    client.post(f"/events/{event.id}/rounds/3/publish")
    enter_and_confirm(client, event, session, 3, {player_of[7]: 30, player_of[8]: 24})
    assert client.post(f"/events/{event.id}/rounds/3/close").status_code == 302
    return event, player_of
