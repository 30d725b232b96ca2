"""An event's live tables: drafts and standard games played on the players' own devices.

A digital table's game is its engine parameters (in ``GameTable.game``) and its action log
(``GameTable.action_log``), played through :class:`TableGame`, the event table's
:class:`~.live_games.LiveGame`. Here: dealing a table's game (when its round is published, when
the TO moves a table onto the devices or seats the bot that fills it: all POSTs), and the TO's
bots in empty or abandoned seats."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from sqlmodel import Session

from engine import Edition, Game, GameSetupError
from engine.bots import LEVELS
from organizer.core.errors import InputError
from organizer.core.models import AuditEntry, Event, GameTable, Round, RoundFormat, RoundStatus
from organizer.core.translate import LEVEL_WORDS, _
from organizer.live import log as live_log
from organizer.live.games import LiveGame
from organizer.live.results import record_result
from organizer.rounds.service import TableSeating, lock_round, lock_table, tables_of

KIND = "table"
#: the level a bot seat gets unless the organizer chooses another
DEFAULT_LEVEL = "normal"
assert tuple(LEVEL_WORDS) == LEVELS


def bot_kind(level: str) -> str:
    """The engine's bot for a seat's level; the normal bot keeps the name "heuristic" it has in
    stored games (an unknown level, from an older row, plays as normal)."""
    return level if level in LEVELS and level != DEFAULT_LEVEL else "heuristic"


def level_word(level: str) -> str:
    """A level's name in the current language ("strong")."""
    return _(LEVEL_WORDS.get(level, LEVEL_WORDS[DEFAULT_LEVEL]))


def bot_label(level: str) -> str:
    """How a bot seat is shown: "Bot (strong)"."""
    return _("Bot (%(level)s)", level=level_word(level))


def level_choices() -> list[tuple[str, str]]:
    """The levels as the overview offers them, weakest first: (level, translated name)."""
    return [(level, level_word(level)) for level in LEVELS]


def parse_level(raw: str | None) -> str:
    """A level from a form (empty: the default); raises InputError for any other value."""
    level = (raw or "").strip().lower() or DEFAULT_LEVEL
    if level not in LEVELS:
        raise InputError({"": _("Choose the bot's level: %(levels)s.",
                                     levels=", ".join(level_word(one) for one in LEVELS))})
    return level


def live_seed(round_seed: int, table_number: int) -> int:
    """The game's seed: from the round's seed and the table number (reproducible, and different
    at every table)."""
    digest = hashlib.sha256(f"arboretum-live:{round_seed}:{table_number}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def seat_names(view: TableSeating) -> list[str]:
    names: list[str] = []
    for seat_view in view.seats:
        name = seat_view.player.name if seat_view.player else f"Bot {seat_view.seat.position + 1}"
        # the engine wants distinct names; two players of one name get their seat number
        if name in names:
            name = f"{name} ({seat_view.seat.position + 1})"
        names.append(name)
    return names


def build_game(event: Event, rnd: Round, view: TableSeating) -> Game:
    mode = "draft" if rnd.format == RoundFormat.DRAFT else "standard"
    try:
        return Game(mode=mode, players=len(view.seats), seed=live_seed(rnd.seed, view.table.number),
                    edition=Edition.parse(event.edition), species=tuple(view.table.species),
                    names=tuple(seat_names(view)))
    except GameSetupError as bad:
        raise InputError({"": _("Table %(number)d cannot be played live: %(reason)s", number=view.table.number,
                              reason=str(bad))}) from None


def game_of(table: GameTable) -> Game:
    assert table.game is not None
    return Game.from_json({k: v for k, v in table.game.items() if k != "started_at"})


def _started_at(table: GameTable) -> float:
    return float((table.game or {}).get("started_at", 0.0))


def seat_players(view: TableSeating) -> list[str | None]:
    """Who plays each seat when it is due: a bot seat's bot at the seat's level (read afresh for
    every move, so a level changed mid-game plays from the seat's next move), else its person."""
    return [bot_kind(s.seat.bot_level) if s.seat.is_bot else None for s in view.seats]


def bot_seats(view: TableSeating, names: list[str]) -> list[str]:
    """The table's bot seats as a seat's screen lists them, by the names the game gave them: an
    empty seat's bot "Bot 3 (strong)", a player's seat taken over "Rosa (bot, strong)"."""
    out = []
    for s in view.seats:
        if not s.seat.is_bot:
            continue
        position = s.seat.position
        name = names[position] if position < len(names) else str(position + 1)
        level = level_word(s.seat.bot_level)
        out.append(_("%(name)s (bot, %(level)s)", name=name, level=level) if s.player is not None
                   else _("%(name)s (%(level)s)", name=name, level=level))
    return out


class TableGame(LiveGame):
    """A started event table as a live game: people and the TO's bots in its seats, the event's
    pick timer; it changes only while its round is published, and its end is recorded as the
    table's confirmed result."""

    def __init__(self, event: Event, rnd: Round, view: TableSeating) -> None:
        super().__init__(GameTable, KIND, view.table.id, game_of(view.table), _started_at(view.table),
                         seat_players(view), event.pick_timer_seconds)
        self.event = event
        self.round = rnd
        self.view = view

    def refusal(self, seat: int) -> str | None:
        if self.round.status != RoundStatus.PUBLISHED:
            return _("Round %(number)d is no longer being played; the game can no longer change.", number=self.round.number)
        if self.players[seat] is not None:
            return _("A bot plays this seat now; ask the organizer to give it back to you.")
        return None

    def open_for_play(self) -> bool:
        return self.round.status == RoundStatus.PUBLISHED

    def on_finish(self, session: Session, replayed: live_log.Replayed) -> None:
        record_result(session, self.event, self.round, self.view, replayed)


def load_state(session: Session, table: GameTable) -> live_log.Replayed:
    """A started table's game as stored (nothing played for bots, nothing recorded)."""
    return LiveGame(GameTable, KIND, table.id, game_of(table), _started_at(table)).load(session)


def find_table(session: Session, rnd: Round, number: int) -> TableSeating | None:
    assert rnd.id is not None
    # only that table: a round of 2,500 tables took seconds to load whole
    return next(iter(tables_of(session, rnd.id, number)), None)


# -- starting -------------------------------------------------------------------------------------

def deal_parameters(event: Event, rnd: Round, view: TableSeating) -> dict[str, Any]:
    """The dealt game's stored parameters; raises InputError when the table cannot start yet."""
    table = view.table
    if not table.digital:
        raise InputError({"": _("Table %(number)d is played on paper.", number=table.number)})
    if rnd.status != RoundStatus.PUBLISHED:
        raise InputError({"": _("Round %(number)d is not published yet: live tables start when it is published.",
                              number=rnd.number)})
    if any(s.player is None and not s.seat.is_bot for s in view.seats):
        raise InputError({"": _("Table %(number)d has an empty seat: put a bot in it first.", number=table.number)})
    params: dict[str, Any] = build_game(event, rnd, view).to_json()
    params["started_at"] = time.time()
    return params


def _deal(table: GameTable, params: dict[str, Any]) -> None:
    # only under the table's lock (rounds.lock_table), after checking it is not dealt: the game
    # holds the species the table shows, and a species change waits for the lock and is refused
    table.game, table.action_log, table.log_version = params, [], 1


def start_table(session: Session, event: Event, rnd: Round, view: TableSeating) -> GameTable:
    """Deal the table's game and play what its bots owe at once (idempotent: the first request
    to start it wins; the others find it started). Only digital tables of a published round
    start. Called by POSTs only: publishing, a table made digital, a bot seated, a seat's tick."""
    if view.table.game is not None and view.table.log_version > 0:
        return view.table
    rnd, view = lock_table(session, rnd, view.table)
    table = view.table
    if table.game is None or table.log_version == 0:
        _deal(table, deal_parameters(event, rnd, view))
        session.add(table)
    session.commit()
    TableGame(event, rnd, view).settle(session)
    return table


def start_round(session: Session, event: Event, rnd: Round) -> None:
    """Deal every digital table of a published round that has not started (one transaction),
    then play what bots owe at those tables. A table that cannot start yet (an empty seat) is
    left; seating a bot there deals it."""
    # the round's lock, which every change of a table's species takes first, holds for them all
    rnd = lock_round(session, rnd)
    assert rnd.id is not None
    if rnd.status != RoundStatus.PUBLISHED:
        session.rollback()
        return
    dealt = []
    for view in tables_of(session, rnd.id):
        if view.table.digital and view.table.log_version == 0:
            try:
                params = deal_parameters(event, rnd, view)
            except InputError:
                continue
            _deal(view.table, params)
            session.add(view.table)
            dealt.append(view)
    session.commit()
    started = time.perf_counter()
    for view in dealt:
        if any(s.seat.is_bot for s in view.seats):
            if has_strong_bot(view) and time.perf_counter() - started > live_log.BOT_SECONDS:
                continue  # a strong bot thinks up to a second a move: owed, played by the next tick
            session.refresh(view.table)
            TableGame(event, rnd, view).settle(session)


def has_strong_bot(view: TableSeating) -> bool:
    return any(s.seat.is_bot and s.seat.bot_level == "strong" for s in view.seats)


def make_digital(session: Session, event: Event, rnd: Round, view: TableSeating, actor: str) -> None:
    """The TO moves a standard table onto the players' devices (before it has a result)."""
    rnd, view = lock_table(session, rnd, view.table)
    table = view.table
    if table.digital:
        session.rollback()
        if rnd.status == RoundStatus.PUBLISHED and table.log_version == 0:
            start_table(session, event, rnd, view)  # not dealt yet (published before dealing on publish)
        return
    if view.result is not None:
        raise InputError({"": _("Table %(number)d already has a result; it stays on paper.", number=table.number)})
    if rnd.status == RoundStatus.FINISHED:
        raise InputError({"": _("Round %(number)d is finished.", number=rnd.number)})
    build_game(event, rnd, view)  # refuses a table the engine cannot play, before changing anything
    table.digital = True
    session.add(table)
    assert event.id is not None
    session.add(AuditEntry(event_id=event.id, table_id=table.id, actor=actor, action="live.made_digital",
                           new={"table": table.number}))
    session.commit()
    if rnd.status == RoundStatus.PUBLISHED:
        start_table(session, event, rnd, view)


# -- bots in seats --------------------------------------------------------------------------------

def set_bot(session: Session, event: Event, rnd: Round, view: TableSeating, position: int, bot: bool, actor: str,
            level: str | None = None) -> None:
    """Put a bot into a seat (empty or abandoned) at ``level`` (None: normal, or the level it
    has), change a bot seat's level (it plays at the new one from its next move), or give the
    seat back. Each change is audited."""
    wanted = parse_level(level) if level is not None else None
    rnd, view = lock_table(session, rnd, view.table)
    seat_view = next((s for s in view.seats if s.seat.position == position), None)
    if seat_view is None:
        raise InputError({"": _("Table %(number)d has no seat %(seat)d.", number=view.table.number, seat=position + 1)})
    if rnd.status != RoundStatus.PUBLISHED:
        raise InputError({"": _("Round %(number)d is not being played; bots sit in only while it is published.",
                              number=rnd.number)})
    if not bot and seat_view.player is None:
        raise InputError({"": _("This seat has no player to give it back to; the bot stays.")})
    seat = seat_view.seat
    assert event.id is not None
    who = seat_view.player.name if seat_view.player else f"empty seat {position + 1}"
    where = {"table": view.table.number, "seat": position + 1, "player": who}
    if seat.is_bot == bot:
        if not bot or wanted is None or wanted == seat.bot_level:
            return
        old_level, seat.bot_level = seat.bot_level, wanted
        session.add(seat)
        session.add(AuditEntry(event_id=event.id, table_id=view.table.id, actor=actor, action="live.bot_level",
                               old={"level": old_level}, new={**where, "level": wanted}))
        session.commit()
        return
    seat.is_bot = bot
    if bot:
        seat.bot_level = wanted or DEFAULT_LEVEL
    session.add(seat)
    session.add(AuditEntry(event_id=event.id, table_id=view.table.id, actor=actor,
                           action="live.bot_seated" if bot else "live.bot_removed",
                           new={**where, "level": seat.bot_level} if bot else where))
    session.commit()


def seat_bot(session: Session, event: Event, rnd: Round, table_number: int, position: int, bot: bool,
             actor: str, level: str | None = None) -> bool:
    """:func:`set_bot` on the round's table ``table_number``, then deal the table's game if the
    bot filled its last empty seat, and play the bot's move if it is due. False when the round
    has no such table."""
    view = find_table(session, rnd, table_number)
    if view is None:
        return False
    set_bot(session, event, rnd, view, position, bot, actor, level)
    view = find_table(session, rnd, table_number)
    assert view is not None
    if view.table.digital and view.table.log_version == 0:
        start_table(session, event, rnd, view)
    elif view.table.digital:
        TableGame(event, rnd, view).settle(session)
    return True


def settle_owed(session: Session, event: Event, rnd: Round, numbers: list[int]) -> int:
    """Play what bots and the pick timer owe at the round's tables ``numbers`` (the overview's
    page, its tick POST: a table of bots alone has no seat's screen to send one), within about a
    second: a strong bot thinks up to 0.8 s a move, and what is left stays owed for the next
    tick. Returns how many tables were settled."""
    assert rnd.id is not None
    if rnd.status != RoundStatus.PUBLISHED or not numbers:
        return 0
    started = time.perf_counter()
    settled = 0
    now = time.time()
    for view in tables_of(session, rnd.id, numbers=numbers):
        if not view.table.digital or view.table.log_version == 0:
            continue
        if settled and time.perf_counter() - started > live_log.BOT_SECONDS:
            break  # at least one table a tick, however long reading took
        game = TableGame(event, rnd, view)
        if game.owes(game.load(session), now):
            game.settle(session)
            settled += 1
    return settled
