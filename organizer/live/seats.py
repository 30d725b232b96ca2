"""A live table's seat, found by its private token: the seat, its table, round and event, and
the table's game: read as stored for the screen (:func:`seat_state`, a GET), dealt and settled
by the seat page's POSTs (:func:`tick`, :func:`seat_game`).

A seat is reachable by its token only at a digital table of a round that is not proposed
(:func:`reachable`, the one statement of that rule, also used by the poll's SQL)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from organizer.core.errors import InputError
from organizer.core.models import Event, GameTable, Player, Result, Round, RoundStatus, Seat
from organizer.core.translate import _
from organizer.live import log as live_log
from organizer.live.tables import TableGame, deal_parameters, start_table
from organizer.rounds.service import SeatedPlayer, TableSeating


@dataclass(frozen=True)
class SeatContext:
    """Everything a seat's page needs, found from its token."""

    event: Event
    round: Round
    table: GameTable
    seat: Seat
    view: TableSeating

    @property
    def position(self) -> int:
        return self.seat.position


def reachable() -> Any:
    """The SQL condition on a seat's table and round for its token to open it."""
    return col(GameTable.digital) & (col(Round.status) != RoundStatus.PROPOSED)


#: how long a seat's screen may reuse what it read about the seat, table, round and event (the
#: table's log version is always read afresh); an action always reads everything afresh
CONTEXT_SECONDS = 2.0
_CONTEXTS: dict[tuple[str, str], tuple[float, SeatContext]] = {}
_CONTEXTS_LOCK = threading.Lock()


def seat_context(session: Session, token: str, recent_ok: bool = False) -> SeatContext | None:
    """The seat with this token at a digital table of a published (or finished) round. With
    ``recent_ok`` (showing a screen, not acting) a context read in the last
    :data:`CONTEXT_SECONDS` by this process may be reused: a bot seated or a round closed shows
    within that time. Its objects are shared between threads and never changed."""
    if not token or len(token) > 64:
        return None
    key = (str(session.get_bind().engine.url), token)
    now = time.monotonic()
    if recent_ok:
        with _CONTEXTS_LOCK:
            cached = _CONTEXTS.get(key)
        if cached is not None and now - cached[0] <= CONTEXT_SECONDS:
            return cached[1]
    ctx = _read_context(session, token)
    if ctx is not None and ctx.table.log_version > 0:
        with _CONTEXTS_LOCK:
            if len(_CONTEXTS) > 10_000:
                _CONTEXTS.clear()
            _CONTEXTS[key] = (now, ctx)
    return ctx


def clear_caches() -> None:
    """Forget everything this process remembers about live tables (as a restart does)."""
    with _CONTEXTS_LOCK:
        _CONTEXTS.clear()
    live_log.CACHE.clear()


def _read_context(session: Session, token: str) -> SeatContext | None:
    row = session.exec(
        select(Seat, GameTable, Round, Event)
        .join(GameTable, col(GameTable.id) == col(Seat.table_id))
        .join(Round, col(Round.id) == col(GameTable.round_id))
        .join(Event, col(Event.id) == col(Round.event_id))
        .where(Seat.token == token, reachable())
    ).first()
    if row is None:
        return None
    seat, table, rnd, event = row
    # the result is left unloaded: a seat's screen never shows it (record_result reads it itself)
    return SeatContext(event, rnd, table, seat, single_table_view(session, table, with_result=False))


def single_table_view(session: Session, table: GameTable, with_result: bool = True) -> TableSeating:
    """One table's seats, players and result (the rounds service's TableSeating, for one table)."""
    rows = session.exec(
        select(Seat, Player).join(Player, col(Player.id) == col(Seat.player_id), isouter=True)
        .where(Seat.table_id == table.id).order_by(col(Seat.position))
    ).all()
    result = session.exec(select(Result).where(Result.table_id == table.id)).first() if with_result else None
    return TableSeating(table, [SeatedPlayer(seat, player) for seat, player in rows], result)


def seat_game(session: Session, ctx: SeatContext) -> TableGame:
    """The seat's table as a live game, dealt first if it has not been (raises InputError when
    it cannot be yet: an empty seat, a round not published). Writes: for POSTs only."""
    if ctx.table.log_version == 0:
        start_table(session, ctx.event, ctx.round, ctx.view)
    return TableGame(ctx.event, ctx.round, ctx.view)


@dataclass(frozen=True)
class SeatState:
    """What a seat's screen shows, read without writing anything."""

    replayed: live_log.Replayed
    #: bots or the pick timer owe the table a move now: the page's script sends the tick
    owed: bool


class NotDealt(InputError):
    """The table's game is not dealt yet; ``dealable``: a tick would deal it now."""

    def __init__(self, errors: dict[str, str], dealable: bool) -> None:
        super().__init__(errors)
        self.dealable = dealable


def seat_state(session: Session, ctx: SeatContext, fresh: bool = False) -> SeatState:
    """What the seat's screen shows, as stored (a GET: nothing is dealt or played here).
    ``fresh``: the table row was read in this request, so its log version is current. Raises
    :class:`NotDealt` for a table not dealt yet."""
    if ctx.table.log_version == 0:
        try:
            dealable(ctx)
        except InputError as bad:
            raise NotDealt(bad.errors, False) from None
        raise NotDealt({"": _("The cards are being dealt.")}, True)
    game = TableGame(ctx.event, ctx.round, ctx.view)
    replayed = game.load(session, ctx.table.log_version if fresh else None)
    return SeatState(replayed, game.owes(replayed, time.time()))


def owes(ctx: SeatContext, replayed: live_log.Replayed) -> bool:
    """Whether bots or the pick timer owe the seat's table a move in ``replayed`` (a state an
    action or a tick just wrote): a strong bot may leave moves owed after any request, and only
    a screen that says so sends the tick that plays them."""
    return TableGame(ctx.event, ctx.round, ctx.view).owes(replayed, time.time())


def dealable(ctx: SeatContext) -> None:
    """Raises InputError saying why the seat's table cannot be dealt now."""
    deal_parameters(ctx.event, ctx.round, ctx.view)


def tick(session: Session, ctx: SeatContext) -> live_log.Replayed:
    """The POST a seat's page sends when its screen says something is owed: deal the table if
    it is not, and play what bots and the pick timer owe it now (once, whichever process and
    however many seats ask: the log's compare-and-set)."""
    return seat_game(session, ctx).settle(session)
