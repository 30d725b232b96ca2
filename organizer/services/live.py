"""Live tables of an event: drafts and standard games played on the players' own devices.

A digital table's game is its engine parameters (in ``GameTable.game``) and its action log
(``GameTable.action_log``), written only through :mod:`.live_log`'s compare-and-set. Seats are
reached by their private token. Bots (the TO's, in empty or abandoned seats) and the event's
pick timer act lazily whenever a request touches the table. At the end the engine scores the
table and the result is stored, confirmed, through the results service."""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select as sa_select
from sqlalchemy import update
from sqlmodel import Session, col, select

from engine import Edition, Game, GameSetupError, ScoreCase
from engine.scoring import Seat as ScoringSeat

from ..models import AuditEntry, Event, GameTable, Player, Result, Round, Seat
from . import live_log
from . import results as results_service
from .errors import InputError
from .rounds import SeatView, TableView, tables_of

KIND = "table"
BOT_KIND = "heuristic"
ACTOR = "live table"


@dataclass(frozen=True)
class SeatContext:
    """Everything a seat's page needs, found from its token."""

    event: Event
    round: Round
    table: GameTable
    seat: Seat
    view: TableView

    @property
    def position(self) -> int:
        return self.seat.position


def live_seed(round_seed: int, table_number: int) -> int:
    """The game's seed: from the round's seed and the table number (reproducible, and different
    at every table)."""
    digest = hashlib.sha256(f"arboretum-live:{round_seed}:{table_number}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def seat_names(view: TableView) -> list[str]:
    names: list[str] = []
    for seat_view in view.seats:
        name = seat_view.player.name if seat_view.player else f"Bot {seat_view.seat.position + 1}"
        # the engine wants distinct names; two players of one name get their seat number
        if name in names:
            name = f"{name} ({seat_view.seat.position + 1})"
        names.append(name)
    return names


def build_game(event: Event, rnd: Round, view: TableView) -> Game:
    mode = "draft" if rnd.format == "draft" else "standard"
    try:
        return Game(mode=mode, players=len(view.seats), seed=live_seed(rnd.seed, view.table.number),
                    edition=Edition.parse(event.edition), species=tuple(view.table.species),
                    names=tuple(seat_names(view)))
    except GameSetupError as bad:
        raise InputError({"": f"Table {view.table.number} cannot be played live: {bad}"}) from None


def game_of(table: GameTable) -> Game:
    assert table.game is not None
    return Game.from_json({k: v for k, v in table.game.items() if k != "started_at"})


def seat_players(view: TableView) -> list[str | None]:
    """Who plays each seat when it is due: the heuristic bot for a bot seat, else its person."""
    return [BOT_KIND if s.seat.is_bot else None for s in view.seats]


# -- finding --------------------------------------------------------------------------------------

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
        .where(Seat.token == token)
    ).first()
    if row is None:
        return None
    seat, table, rnd, event = row
    if not table.digital or rnd.status == "proposed":
        return None
    # the result is left unloaded: a seat's screen never shows it (record_result reads it itself)
    return SeatContext(event, rnd, table, seat, single_table_view(session, table, with_result=False))


def single_table_view(session: Session, table: GameTable, with_result: bool = True) -> TableView:
    """One table's seats, players and result (the rounds service's TableView, for one table)."""
    rows = session.exec(
        select(Seat, Player).join(Player, col(Player.id) == col(Seat.player_id), isouter=True)
        .where(Seat.table_id == table.id).order_by(col(Seat.position))
    ).all()
    result = session.exec(select(Result).where(Result.table_id == table.id)).first() if with_result else None
    return TableView(table, [SeatView(seat, player) for seat, player in rows], result)


def table_view(session: Session, table_id: int) -> tuple[Event, Round, TableView] | None:
    table = session.get(GameTable, table_id)
    if table is None:
        return None
    rnd = session.get(Round, table.round_id)
    assert rnd is not None and rnd.id is not None
    event = session.get(Event, rnd.event_id)
    assert event is not None
    return event, rnd, single_table_view(session, table)


# -- starting -------------------------------------------------------------------------------------

def start_table(session: Session, event: Event, rnd: Round, view: TableView) -> GameTable:
    """Deal the table's game (idempotent: the first request to start it wins; the others find
    it started). Only digital tables of a published round start."""
    table = view.table
    assert table.id is not None
    if table.game is not None and table.log_version > 0:
        return table
    if not table.digital:
        raise InputError({"": f"Table {table.number} is played on paper."})
    if rnd.status != "published":
        raise InputError({"": f"Round {rnd.number} is {rnd.status}: live tables start when it is published."})
    if any(s.player is None and not s.seat.is_bot for s in view.seats):
        raise InputError({"": f"Table {table.number} has an empty seat: put a bot in it first."})
    params: dict[str, Any] = build_game(event, rnd, view).to_json()
    params["started_at"] = time.time()
    session.execute(
        update(GameTable).where(col(GameTable.id) == table.id, col(GameTable.log_version) == 0)
        .values(game=params, action_log=[], log_version=1)
    )
    session.commit()
    session.refresh(table)
    return table


def start_round(session: Session, event: Event, rnd: Round) -> None:
    """Start every digital table of a published round that has not started."""
    assert rnd.id is not None
    if rnd.status != "published":
        return
    for view in tables_of(session, rnd.id):
        if view.table.digital and view.table.log_version == 0:
            try:
                start_table(session, event, rnd, view)
            except InputError:
                session.rollback()


def make_digital(session: Session, event: Event, rnd: Round, view: TableView, actor: str) -> None:
    """The TO moves a standard table onto the players' devices (before it has a result)."""
    table = view.table
    if table.digital:
        return
    if view.result is not None:
        raise InputError({"": f"Table {table.number} already has a result; it stays on paper."})
    if rnd.status == "finished":
        raise InputError({"": f"Round {rnd.number} is finished."})
    build_game(event, rnd, view)  # refuses a table the engine cannot play, before changing anything
    table.digital = True
    session.add(table)
    assert event.id is not None
    session.add(AuditEntry(event_id=event.id, table_id=table.id, actor=actor, action="live.made_digital",
                           new={"table": table.number}))
    session.commit()
    if rnd.status == "published":
        start_table(session, event, rnd, view)


# -- playing --------------------------------------------------------------------------------------

def _loader(session: Session, table: GameTable) -> Any:
    game = game_of(table)
    started = float((table.game or {}).get("started_at", 0.0))
    assert table.id is not None
    key = live_log.cache_key(session, KIND, table.id)

    def load(stored: live_log.StoredLog) -> live_log.Replayed:
        return live_log.CACHE.get(key, game, stored.log, stored.version, started)

    return load


def load_state(session: Session, table: GameTable, fresh: bool = False) -> live_log.Replayed:
    """The table's replayed state (from the cache when its version is current). ``fresh``: the
    row was read in this request just now, so its log_version is current enough."""
    assert table.id is not None
    version = table.log_version if fresh else session.execute(
        sa_select(GameTable.log_version).where(col(GameTable.id) == table.id)  # type: ignore[call-overload]
    ).scalar_one()
    cached = live_log.CACHE.peek(live_log.cache_key(session, KIND, table.id), int(version), game_of(table),
                                 float((table.game or {}).get("started_at", 0.0)))
    if cached is not None:
        return cached
    stored = live_log.read_log(session, GameTable, table.id)
    assert stored is not None
    replayed: live_log.Replayed = _loader(session, table)(stored)
    return replayed


def _timed_out(event: Event) -> Any:
    def late(replayed: live_log.Replayed, now: float) -> list[int]:
        timer = event.pick_timer_seconds
        state = replayed.state
        if not timer or state.mode != "draft" or state.is_terminal():
            return []
        return list(state.awaited_seats()) if now - replayed.since >= timer else []

    return late


def settle(session: Session, event: Event, rnd: Round, view: TableView, fresh: bool = False) -> live_log.Replayed:
    """The table's state after whatever bots and the pick timer owe it now, with the result
    stored if the game is over."""
    table = view.table
    assert table.id is not None
    replayed = load_state(session, table, fresh)
    players = seat_players(view)
    due = any(players) or bool(_timed_out(event)(replayed, time.time()))
    if due and rnd.status == "published" and not replayed.state.is_terminal():
        settled = live_log.settle_bots(session, GameTable, table.id, _loader(session, table), players,
                                       game_of(table).seed, _timed_out(event))
        if settled is not None:
            replayed = settled
    if replayed.state.is_terminal():
        record_result(session, event, rnd, view, replayed)
    return replayed


def act(session: Session, ctx: SeatContext, action_text: str, nonce: str, stamp: int | None) -> live_log.Applied:
    """``ctx``'s seat acts. Raises live_log.ActionRefused (with the message for the screen)."""
    table = ctx.table
    assert table.id is not None
    if ctx.round.status != "published":
        raise live_log.ActionRefused(f"Round {ctx.round.number} is {ctx.round.status}; the game can no longer change.")
    if ctx.seat.is_bot:
        raise live_log.ActionRefused("A bot plays this seat now; ask the organizer to give it back to you.")
    applied = live_log.submit(session, GameTable, table.id, _loader(session, table), ctx.position, action_text, nonce, stamp,
                              seat_players(ctx.view), game_of(table).seed)
    if applied.replayed.state.is_terminal():
        record_result(session, ctx.event, ctx.round, ctx.view, applied.replayed)
    return applied


# -- the end --------------------------------------------------------------------------------------

def score_case_of(replayed: live_log.Replayed) -> ScoreCase:
    state: Any = replayed.state
    game = state.game
    hands = state.hands if game.mode == "standard" else [[] for _ in range(state.seats)]
    seats = tuple(ScoringSeat(name, arb, tuple(hand)) for name, arb, hand in zip(state.names, state.arboretums, hands))
    return ScoreCase(game.rules, tuple(state.species), seats, game.rounds if game.mode == "draft" else None)


def record_result(session: Session, event: Event, rnd: Round, view: TableView, replayed: live_log.Replayed) -> None:
    """Store the engine's score as the table's confirmed result, once (a second process doing
    the same at the same instant is refused by the results service and changes nothing)."""
    table = view.table
    if rnd.status != "published":
        return
    existing = session.exec(select(Result).where(Result.table_id == table.id)).first()
    if existing is not None and existing.entry_mode == "digital":
        return
    if existing is not None:
        return  # a result typed in by hand stands; the TO sees both on the table page
    outcome = replayed.state.outcome()
    assert outcome is not None
    case = score_case_of(replayed)
    entries = []
    for seat_view, player in zip(view.seats, outcome.players):
        entries.append(results_service.SeatEntry(
            seat_view.seat.player_id,  # type: ignore[arg-type]  # None for a bot in an empty seat
            player.total, player.species_in_arboretum,
            {name: s.points for name, s in player.species.items()}, player.bonus))
    submission = results_service.Submission("digital", entries, score_case=case.to_json(),
                                            score_output=outcome.to_json())
    try:
        result = results_service.save_result(session, event, rnd, view, submission, 0, ACTOR)
    except (results_service.ResultConflict, InputError):
        session.rollback()
        return
    results_service.confirm_by_organizer(session, event, view, result, result.version, None, ACTOR)


# -- the organizer's overview ---------------------------------------------------------------------

@dataclass(frozen=True)
class AwaitedSeat:
    position: int
    name: str
    seconds: float
    is_bot: bool


@dataclass(frozen=True)
class TableProgress:
    view: TableView
    started: bool
    mode: str
    progress: str
    cards_left: str
    awaited: list[AwaitedSeat]
    finished: bool
    version: int


def _progress(state: Any) -> tuple[str, str]:
    if state.mode == "draft":
        if state.is_terminal():
            return f"finished after {state.rounds} rounds", "0 cards in hands"
        left = sum(len(hand) for hand in state.hands)
        return (f"round {state.round + 1} of {state.rounds}, pick {state.pick + 1} of 7",
                f"{left} cards in hands, {len(state.deck)} undealt")
    if state.is_terminal():
        return f"finished after {state.turn} turns", "draw pile empty"
    return f"turn {state.turn}, {state.names[state.seat]} {state.phase.replace('1', ' (first card)').replace('2', ' (second card)')}", \
        f"{len(state.deck)} cards in the draw pile"


def overview(session: Session, event: Event, rnd: Round, now: float | None = None) -> list[TableProgress]:
    """Every table of the round: progress, and who is holding it up for how long."""
    assert rnd.id is not None
    start_round(session, event, rnd)
    now = time.time() if now is None else now
    rows = []
    for view in tables_of(session, rnd.id):
        table = view.table
        if not table.digital or table.log_version == 0:
            rows.append(TableProgress(view, False, rnd.format, "on paper" if not table.digital else "not started",
                                      "", [], view.result is not None, table.log_version))
            continue
        replayed = settle(session, event, rnd, view)
        state = replayed.state
        names = list(state.names)
        awaited = [AwaitedSeat(s, names[s], max(0.0, now - replayed.since), view.seats[s].seat.is_bot)
                   for s in state.awaited_seats()]
        progress, left = _progress(state)
        rows.append(TableProgress(view, True, state.mode, progress, left, awaited, state.is_terminal(), replayed.version))
    return rows


def set_bot(session: Session, event: Event, rnd: Round, view: TableView, position: int, bot: bool, actor: str) -> None:
    """Put the heuristic bot into a seat (empty or abandoned), or give the seat back."""
    seat_view = next((s for s in view.seats if s.seat.position == position), None)
    if seat_view is None:
        raise InputError({"": f"Table {view.table.number} has no seat {position + 1}."})
    if rnd.status != "published":
        raise InputError({"": f"Round {rnd.number} is {rnd.status}; bots sit in only while it is published."})
    if not bot and seat_view.player is None:
        raise InputError({"": "This seat has no player to give it back to; the bot stays."})
    seat = seat_view.seat
    if seat.is_bot == bot:
        return
    seat.is_bot = bot
    session.add(seat)
    assert event.id is not None
    who = seat_view.player.name if seat_view.player else f"empty seat {position + 1}"
    session.add(AuditEntry(event_id=event.id, table_id=view.table.id, actor=actor,
                           action="live.bot_seated" if bot else "live.bot_removed",
                           new={"table": view.table.number, "seat": position + 1, "player": who}))
    session.commit()


def player_names(session: Session, ids: list[int]) -> dict[int, str]:
    if not ids:
        return {}
    return {p.id: p.name for p in session.exec(select(Player).where(col(Player.id).in_(ids))).all() if p.id is not None}
