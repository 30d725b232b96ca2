"""An event's standings: its stored results, read from the database, handed to the pure
computation in ``standings`` (which knows nothing of the database)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from ..models import PLAYED_STATUSES, Event, GameTable, Player, Result, ResultStatus, Round
from . import text
from .paging import Page, page_of
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

    # columns, not model objects: 10,000 results load in a fraction of the time
    # sqlalchemy's select: sqlmodel's types stop at four columns
    rows = session.execute(
        select_columns(col(Result.seats), col(Result.status), col(GameTable.id), col(Round.number), col(Round.format))
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .where(col(Round.event_id) == event.id, col(Round.status).in_(PLAYED_STATUSES))
        .order_by(col(Round.number), col(GameTable.number))
    ).all()
    results = []
    unconfirmed = disputed = 0
    tiebreaks: dict[str, Any] = {}
    for result_seats, status, table_id, round_number, round_format in rows:
        # A disputed result waits for the organizer; an entered one counts, marked provisional.
        if status == ResultStatus.DISPUTED:
            disputed += 1
            continue
        if status != ResultStatus.CONFIRMED:
            unconfirmed += 1
        seats = [standings.SeatResult(seat_player_id(table_id, i, s.get("player_id")), int(s["points"]),
                                      int(s["species_count"]))
                 for i, s in enumerate(result_seats)]
        if round_format not in tiebreaks:
            tiebreaks[round_format] = species_tiebreak(event.edition, round_format)
        results.append(standings.TableResult(table_id, round_number, seats, tiebreaks[round_format]))
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


@dataclass(frozen=True)
class StandingsPage:
    """A page of the standings, or of the rows whose player's name holds ``search`` (ranks stay
    those of the whole event)."""

    view: StandingsView
    rows: list[Any]
    page: Page
    search: str


def standings_page(session: Session, event: Event, search: str = "", number: int | None = None,
                   per_page: int = 100) -> StandingsPage:
    view = standings_view(session, event)
    search = text.clean_name(search)[:80]
    rows = view.rows
    key = text.name_key(search)
    if key:
        rows = [row for row in rows if row.player_id in view.players
                and key in view.players[row.player_id].name_key]
    page = page_of(len(rows), number, per_page)
    return StandingsPage(view, rows[page.offset:page.offset + page.per_page], page, search)
