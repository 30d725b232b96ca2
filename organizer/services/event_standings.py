"""An event's standings: its stored results, read from the database, handed to the pure
computation in ``standings`` (which knows nothing of the database)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from ..models import PLAYED_STATUSES, Event, GameTable, Player, Result, ResultStatus, Round
from .rules import species_tiebreak


@dataclass(frozen=True)
class StandingsView:
    rows: list[Any]
    players: dict[int, Player]
    counted_tables: int
    unconfirmed_tables: int
    disputed_tables: int


def seat_player_id(table_id: int, position: int, player_id: Any) -> int:
    """The id a seat's result counts under. A bot put into an empty or abandoned seat has no
    player, yet the people at its table played against it: it counts as an opponent beaten or lost
    to, under an id of its own (negative, one per table and seat) that no standings row shows."""
    if player_id is not None:
        return int(player_id)
    return -(table_id * 8 + position + 1)


def _table_results(session: Session, event: Event) -> tuple[list[Any], int, int]:
    from . import standings

    rows = session.exec(
        select(Result, GameTable, Round)
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .where(Round.event_id == event.id, col(Round.status).in_(PLAYED_STATUSES))
        .order_by(col(Round.number), col(GameTable.number))
    ).all()
    results = []
    unconfirmed = disputed = 0
    for result, table, rnd in rows:
        # A disputed result waits for the organizer; an entered one counts, marked provisional.
        if result.status == ResultStatus.DISPUTED:
            disputed += 1
            continue
        if result.status != ResultStatus.CONFIRMED:
            unconfirmed += 1
        assert table.id is not None
        seats = [standings.SeatResult(seat_player_id(table.id, i, s.get("player_id")), int(s["points"]),
                                      int(s["species_count"]))
                 for i, s in enumerate(result.seats)]
        results.append(standings.TableResult(table.id, rnd.number, seats, species_tiebreak(event.edition, rnd.format)))
    return results, unconfirmed, disputed


def standings_for(session: Session, event: Event) -> list[Any]:
    return standings_view(session, event).rows


def standings_view(session: Session, event: Event) -> StandingsView:
    from . import standings

    assert event.id is not None
    players = {p.id: p for p in session.exec(select(Player).where(Player.event_id == event.id)).all() if p.id is not None}
    results, unconfirmed, disputed = _table_results(session, event)
    order = tuple(event.tiebreak_order) or tuple(standings.DEFAULT_TIEBREAKS)
    rows = standings.compute_standings(sorted(players), results, order, event.point_scheme)
    return StandingsView(list(rows), players, len(results), unconfirmed, disputed)
