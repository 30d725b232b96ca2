"""Helpers for the club's tests: an event played with given results, its players signed up
through the services so the registry matches them."""

from __future__ import annotations

from datetime import date
from typing import Any

from openskill.models import PlackettLuce
from sqlmodel import Session

from organizer.club import ratings
from organizer.core.models import Event, GameTable, Result, ResultStatus, Round, RoundStatus
from organizer.core.models import Seat as SeatRow  # the module's Seat is a seat's figures
from organizer.players import service as player_service
from tests.fixtures.organizer import create_event

Seat = tuple[str, int, int]  # name, points, species


def play_event(session: Session, name: str, day: date, rounds: list[list[list[Seat]]], edition: str = "2018",
               status: str = ResultStatus.CONFIRMED) -> Event:
    """An event whose rounds' tables have the given results (players added by name through the
    sign-up service, so they are matched in the registry)."""
    event = create_event(session, name=name, date=day, edition=edition)
    assert event.id is not None
    ids: dict[str, int] = {}
    for round_tables in rounds:
        for table in round_tables:
            for player_name, _, _ in table:
                if player_name not in ids:
                    ids[player_name] = player_service.add_player(session, event, player_name, "", "", "t").id or 0
    for number, round_tables in enumerate(rounds, start=1):
        round_ = Round(event_id=event.id, number=number, status=RoundStatus.FINISHED)
        session.add(round_)
        session.flush()
        for t, table in enumerate(round_tables, start=1):
            row = GameTable(round_id=round_.id or 0, number=t)
            session.add(row)
            session.flush()
            session.add_all(SeatRow(table_id=row.id or 0, player_id=ids[n], position=i) for i, (n, _, _) in enumerate(table))
            session.add(Result(table_id=row.id or 0, status=status, seats=[
                {"player_id": ids[n], "points": p, "species_count": s} for n, p, s in table]))
    session.commit()
    return event


def direct(tables: list[tuple[list[str], list[int]]]) -> dict[str, Any]:
    model = PlackettLuce()
    current: dict[str, Any] = {}
    for names, ranks in tables:
        teams = [[current.setdefault(n, model.rating())] for n in names]
        for n, (r,) in zip(names, model.rate(teams, ranks=ranks), strict=True):
            current[n] = r
    return current


def latest(session: Session) -> dict[str, tuple[float, float]]:
    return {row.entry.name: (row.mu, row.sigma) for row in ratings.current_ratings(session)}
