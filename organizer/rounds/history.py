"""The rounds made final as history: who sat at which table in which seat, for the seating of
the next round, a proposal's repeats and an export's seats. Kept per process: a published
seating never changes."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import BigInteger, cast
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, func, select

from organizer.core.models import GameTable, Round, RoundFormat, RoundStatus, Seat
from organizer.core.translate import _
from organizer.rounds import seat_order, seating

#: a played table as the history reads it: its round's format and its player ids in seat order
#: (None: a seat without a player, a bot's)
PlayedTable = tuple[str, list[int | None]]


#: the tables of the rounds made final and the history built from them, per database, event and
#: round: a published seating never changes, so a 10,000-player event's proposal, its
#: page and its swaps read 40,000 seats once per process, not on every request. The key holds the
#: rounds and each one's seats counted and summed (players, seats times players), read each time
#: (one aggregate query): a database that reuses ids does not hand back another event's history.
_PLAYED: dict[tuple[Any, ...], tuple[list[PlayedTable], seating.SeatingHistory]] = {}
_MAX_PLAYED = 16


def _final_rounds(event_id: int, before: int | None) -> list[Any]:
    conditions = [Round.event_id == event_id, Round.status != RoundStatus.PROPOSED]
    if before is not None:
        conditions.append(Round.number < before)
    return conditions


def _played_key(session: Session, event_id: int, before: int | None) -> tuple[Any, ...]:
    rows = session.execute(
        select_columns(col(Round.id), col(Round.format), func.count(col(Seat.id)), func.sum(col(Seat.player_id)),
                       func.sum(cast(col(Seat.id), BigInteger) * col(Seat.player_id)))
        .join(GameTable, col(GameTable.round_id) == Round.id).join(Seat, col(Seat.table_id) == GameTable.id)
        .where(*_final_rounds(event_id, before)).group_by(col(Round.id), col(Round.format)).order_by(col(Round.id))).all()
    return (str(session.get_bind().engine.url), event_id, before, tuple(tuple(row) for row in rows))


def played_and_history(session: Session, event_id: int, before: int | None) -> tuple[list[PlayedTable], seating.SeatingHistory]:
    """Every table of the rounds made final before round ``before`` and the history from them,
    kept per process (``_PLAYED``): shared, so read them, do not change them."""
    key = _played_key(session, event_id, before)
    cached = _PLAYED.get(key)
    if cached is None:
        played = _read_played(session, event_id, before, None)
        cached = (played, history_of(played))
        if len(_PLAYED) >= _MAX_PLAYED:
            _PLAYED.clear()
        _PLAYED[key] = cached
    return cached


def played_tables(session: Session, event_id: int, before: int | None,
                  players: Collection[int] | None = None) -> list[PlayedTable]:
    """The tables of every round made final (published or finished), before round ``before``,
    in round and table order; with ``players``, only the tables where one of them sat. Read as
    columns (three per seat), not as rows of tables, seats, players and results; all of them
    are kept per process (``_PLAYED``). The list is shared: read it, do not change it."""
    if players is None:
        return played_and_history(session, event_id, before)[0]
    return _read_played(session, event_id, before, players)


def _read_played(session: Session, event_id: int, before: int | None,
                 players: Collection[int] | None) -> list[PlayedTable]:
    query = (select(Round.format, Seat.table_id, Seat.player_id)
             .join(GameTable, col(GameTable.id) == Seat.table_id).join(Round, col(Round.id) == GameTable.round_id)
             .where(Round.event_id == event_id, Round.status != RoundStatus.PROPOSED))
    if before is not None:
        query = query.where(Round.number < before)
    if players is not None:
        if not players:
            return []
        query = query.where(col(Seat.table_id).in_(select(Seat.table_id).where(col(Seat.player_id).in_(list(players)))))
    tables: dict[int, PlayedTable] = {}
    for round_format, table_id, player_id in session.exec(
            query.order_by(col(Round.number), col(GameTable.number), col(Seat.position))).all():
        tables.setdefault(table_id, (round_format, []))[1].append(player_id)
    return list(tables.values())


def history_of(played: Sequence[PlayedTable]) -> seating.SeatingHistory:
    history = seating.SeatingHistory()
    for round_format, table in played:
        # A draft table has no start player or dealer: it counts for who met, not for seats.
        history.add_table(table, positions=round_format != RoundFormat.DRAFT)
    return history


def history_before(session: Session, event_id: int, round_number: int) -> seating.SeatingHistory:
    """Who met whom and who sat where in the rounds before ``round_number`` (kept per process,
    ``_PLAYED``: shared, so read it, do not change it)."""
    return played_and_history(session, event_id, round_number)[1]


def seats_from(played: Sequence[PlayedTable], only: Collection[int] | None = None) -> dict[int, list[str]]:
    seats: dict[int, list[str]] = {}
    for round_format, table in played:
        for index, player_id in enumerate(table):
            if player_id is None or (only is not None and player_id not in only):
                continue
            label = (_("%(seat)d (draft)", seat=index + 1) if round_format == RoundFormat.DRAFT
                     else seat_order.seat_label(index, len(table)))
            seats.setdefault(player_id, []).append(label)
    return seats


def seats_played(session: Session, event_id: int, before: int | None = None) -> dict[int, list[str]]:
    """Player id → the seats they had in the rounds made final (before round ``before``), in
    round order: "1 (start)", "3", "4 (dealer)"; a draft round's seat is "2 (draft)"."""
    return seats_from(played_tables(session, event_id, before))
