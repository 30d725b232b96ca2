"""An event's standings: its stored results, read from the database, handed to the pure
computation in ``standings`` (which knows nothing of the database)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from organizer.core import text
from organizer.core.models import (
    PLAYED_STATUSES,
    Event,
    GameTable,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundStage,
)
from organizer.core.paging import Page, page_of
from organizer.scoring.rules import species_tiebreak


@dataclass(frozen=True)
class StandingsView:
    """The standings' rows with the figures behind the provisional and disputed notes;
    ``players`` holds at least the players of the rows shown (every player: ``standings_view``)."""

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


#: each result's seats as the standings read them, by (database, result id, version, last change):
#: its figures change only with a new version (the time tells a reused id apart), so an event's
#: standings after one result lands parse one result, not 10,000 (per process; cleared when it
#: grows past what a few big events hold)
_PARSED: dict[tuple[Any, ...], list[Any]] = {}
_MAX_PARSED = 200_000


def _seats_of(session: Session, wanted: list[tuple[Any, ...]], table_of: dict[int, int]) -> None:
    from organizer.scoring import standings

    if len(_PARSED) + len(wanted) > _MAX_PARSED:
        _PARSED.clear()
    keys = {key[1]: key for key in wanted}
    ids = list(keys)
    for start in range(0, len(ids), 1000):
        for result_id, result_seats in session.execute(
                select_columns(col(Result.id), col(Result.seats)).where(col(Result.id).in_(ids[start:start + 1000]))):
            table_id = table_of[result_id]
            _PARSED[keys[result_id]] = [
                standings.SeatResult(seat_player_id(table_id, i, s.get("player_id")), int(s["points"]),
                                     int(s["species_count"]))
                for i, s in enumerate(result_seats)]


def _table_results(session: Session, event: Event, stages: tuple[str, ...] = (RoundStage.SWISS,)) -> tuple[list[Any], int, int]:
    from organizer.scoring import standings

    # columns, not model objects: 10,000 results load in a fraction of the time
    # sqlalchemy's select: sqlmodel's types stop at four columns
    rows = session.execute(
        select_columns(col(Result.id), col(Result.version), col(Result.updated_at), col(Result.status),
                       col(GameTable.id), col(Round.number), col(Round.format))
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .where(col(Round.event_id) == event.id, col(Round.status).in_(PLAYED_STATUSES), col(Round.stage).in_(stages))
        .order_by(col(Round.number), col(GameTable.number))
    ).all()
    database = str(session.get_bind().engine.url)
    keys = [(database, result_id, version, changed) for result_id, version, changed, *_ in rows]
    missing = [key for key, row in zip(keys, rows, strict=True)
               if row[3] != ResultStatus.DISPUTED and key not in _PARSED]
    if missing:
        _seats_of(session, missing, {row[0]: row[4] for row in rows})
    results = []
    unconfirmed = disputed = 0
    tiebreaks: dict[str, Any] = {}
    for key, (_, _, _, status, table_id, round_number, round_format) in zip(keys, rows, strict=True):
        # A disputed result waits for the organizer; an entered one counts, marked provisional.
        if status == ResultStatus.DISPUTED:
            disputed += 1
            continue
        if status != ResultStatus.CONFIRMED:
            unconfirmed += 1
        if round_format not in tiebreaks:
            tiebreaks[round_format] = species_tiebreak(event.edition, round_format)
        results.append(standings.TableResult(table_id, round_number, _PARSED[key],
                                             tiebreaks[round_format]))
    return results, unconfirmed, disputed


def stage_results(session: Session, event: Event, stage: str) -> list[Any]:
    """The counted table results (entered or confirmed, not disputed) of the event's rounds of
    ``stage``: a finals' semi-final or final round."""
    return _table_results(session, event, (stage,))[0]


def _fingerprint(session: Session, event: Event, player_ids: list[int]) -> tuple[Any, ...]:
    """What the standings' rows depend on, read cheaply: every result entered, corrected,
    confirmed, disputed or removed changes a count, a sum or the newest change; the rounds'
    statuses and formats, the event's settings and its players (as in ``leagues._fingerprints``)."""
    # sqlalchemy's select: sqlmodel's types stop at four columns
    results = session.execute(
        select_columns(func.count(), func.sum(col(Result.id)), func.sum(col(Result.version)),
                       func.max(col(Result.updated_at)),
                       func.count().filter(col(Result.status) == ResultStatus.DISPUTED),
                       func.count().filter(col(Result.status) == ResultStatus.CONFIRMED))
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .where(col(Round.event_id) == event.id)).one()
    # only the rounds whose results count: proposing (or discarding) the next round keeps the
    # standings it was seated from, which a 10,000-player proposal's page shows again
    rounds = session.execute(
        select_columns(col(Round.id), col(Round.number), col(Round.status), col(Round.format))
        .where(col(Round.event_id) == event.id, col(Round.status).in_(PLAYED_STATUSES), col(Round.stage) == RoundStage.SWISS)
        .order_by(col(Round.id))).all()
    return (event.version, event.edition, event.point_scheme, tuple(event.tiebreak_order), tuple(results),
            tuple(tuple(r) for r in rounds), tuple(player_ids))


@dataclass(frozen=True)
class _Computed:
    rows: list[Any]
    counted_tables: int
    unconfirmed_tables: int
    disputed_tables: int


#: the last standings computed per event, with the fingerprint they were computed at: a page or
#: the projector polling an unchanged event of 10,000 players costs two small queries, not a
#: second of arithmetic (per process; the fingerprint is read from the database each time)
_COMPUTED: dict[int, tuple[tuple[Any, ...], _Computed]] = {}
_MAX_CACHED = 32


def _computed(session: Session, event: Event) -> _Computed:
    from organizer.scoring import standings

    assert event.id is not None
    ids = [int(p) for p in session.execute(select_columns(col(Player.id)).where(col(Player.event_id) == event.id)
                                            .order_by(col(Player.id))).scalars()]
    key = _fingerprint(session, event, ids)
    # one process may serve several databases (the tests do): the event's id is not enough
    key = (str(session.get_bind().engine.url), *key)
    cached = _COMPUTED.get(event.id)
    if cached is not None and cached[0] == key:
        return cached[1]
    results, unconfirmed, disputed = _table_results(session, event)
    order = tuple(event.tiebreak_order) or tuple(standings.DEFAULT_TIEBREAKS)
    rows = standings.compute_standings(ids, results, order, event.point_scheme)
    computed = _Computed(rows, len(results), unconfirmed, disputed)
    if len(_COMPUTED) >= _MAX_CACHED and event.id not in _COMPUTED:
        _COMPUTED.clear()
    _COMPUTED[event.id] = (key, computed)
    return computed


def standings_for(session: Session, event: Event) -> list[Any]:
    return list(_computed(session, event).rows)


def standings_view(session: Session, event: Event) -> StandingsView:
    assert event.id is not None
    computed = _computed(session, event)
    players = {p.id: p for p in session.exec(select(Player).where(Player.event_id == event.id)).all() if p.id is not None}
    return StandingsView(list(computed.rows), players, computed.counted_tables, computed.unconfirmed_tables,
                         computed.disputed_tables)


def standings_top(session: Session, event: Event, count: int) -> StandingsView:
    """The first ``count`` rows of the standings, with only their players (the projector)."""
    computed = _computed(session, event)
    rows = computed.rows[:count]
    return StandingsView(rows, _players(session, [row.player_id for row in rows]), computed.counted_tables,
                         computed.unconfirmed_tables, computed.disputed_tables)


def _players(session: Session, ids: list[int]) -> dict[int, Player]:
    if not ids:
        return {}
    return {p.id: p for p in session.exec(select(Player).where(col(Player.id).in_(ids))).all() if p.id is not None}


@dataclass(frozen=True)
class StandingsPage:
    """A page of the standings, or of the rows whose player's name holds ``search`` (ranks stay
    those of the whole event). ``view.players`` holds the players of the page's rows."""

    view: StandingsView
    rows: list[Any]
    page: Page
    search: str


def standings_page(session: Session, event: Event, search: str = "", number: int | None = None,
                   per_page: int = 100) -> StandingsPage:
    assert event.id is not None
    computed = _computed(session, event)
    search = text.clean_name(search)[:80]
    rows = computed.rows
    key = text.name_key(search)
    if key:
        # names as a column, not 10,000 model objects
        found = {player_id for player_id, name_key in session.exec(
            select(Player.id, Player.name_key).where(Player.event_id == event.id)).all() if key in name_key}
        rows = [row for row in rows if row.player_id in found]
    page = page_of(len(rows), number, per_page)
    shown = rows[page.offset:page.offset + page.per_page]
    view = StandingsView(list(computed.rows), _players(session, [row.player_id for row in shown]),
                         computed.counted_tables, computed.unconfirmed_tables, computed.disputed_tables)
    return StandingsPage(view, shown, page, search)
