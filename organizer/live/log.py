"""A live game as stored: the engine's parameters plus an append-only action log, shared by the
event tables (``GameTable``) and the practice games (``PracticeGame``).

Each log entry is ``[seat, action text, nonce, unix time]``. The state is rebuilt by replaying
the log; replayed states are cached in this process by (kind, id, log_version) so polling is
cheap, but nothing depends on the cache: the database row is the truth, and another process
serving the same table replays it for itself. Writes are an optimistic compare-and-set on
``log_version``: two seats acting at once are both applied, one after the other, each exactly
once (the second reloads, checks its action again against the new state and appends it)."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select, update
from sqlmodel import Session, SQLModel

from engine import (
    ArboretumError,
    CardError,
    DuplicateCardError,
    Game,
    GameOverError,
    NotYourTurnError,
    PlacementError,
    StaleActionError,
    State,
    parse_action,
)
from engine.bots import make_bot
from organizer.core.translate import N_, _

logger = logging.getLogger(__name__)

#: after this many lost compare-and-set races in a row the seat is asked to try again
MAX_ATTEMPTS = 50
CACHE_SIZE = 4096


class ActionRefused(ValueError):
    """An action the game does not allow now; the message is for the seat's screen. Nothing
    was stored."""


class StaleForm(ActionRefused):
    """A form from a situation that has passed (before a reveal, or an earlier turn)."""


#: What a refused move tells the player, by the engine's class (most precise first): a short
#: sentence in their language. The engine's own text (cards, cells, stamps) is for the log.
_REFUSALS: tuple[tuple[type[ArboretumError] | tuple[type[ArboretumError], ...], str], ...] = (
    (StaleActionError, N_("The game moved on; your card was not played. Choose again.")),
    (NotYourTurnError, N_("It is not your turn yet; nothing was done.")),
    (GameOverError, N_("The game is over; nothing was done.")),
    (PlacementError, N_("A card cannot be planted there; tap a highlighted cell.")),
    ((CardError, DuplicateCardError), N_("That card cannot be played now; choose again.")),
)
#: any other rule the move breaks
_NOT_ALLOWED = N_("That move is not allowed now; nothing was done. Choose again.")


def refusal(error: ArboretumError, seat: int, action_text: str) -> ActionRefused:
    """The refusal a seat's screen shows for the engine's ``error`` (the details are logged)."""
    logger.info("move refused at seat %d (%s): %s: %s", seat, action_text, type(error).__name__, error)
    sentence = next((message for kind, message in _REFUSALS if isinstance(error, kind)), _NOT_ALLOWED)
    return (StaleForm if isinstance(error, StaleActionError) else ActionRefused)(_(sentence))


@dataclass(frozen=True)
class Replayed:
    """A replayed log. Shared between threads through the cache: never change ``state``; act on
    ``state.clone()``."""

    version: int
    entries: tuple[tuple[Any, ...], ...]
    state: State
    nonces: frozenset[str]
    #: unix time when the situation the awaited seats are choosing in began (the last reveal in
    #: a draft, the last action in a turn-based game, or the start)
    since: float
    #: for each entry, whether a bot or the pick timer played it (for the overview and replay)
    automatic: tuple[bool, ...] = field(default=())
    #: when the game was dealt: with the game's parameters it tells this game from another that
    #: later got the same row id (a database emptied and filled again)
    origin: float = 0.0


def _entry_key(entry: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(entry)


def _extend(base: Replayed, entries: Sequence[Sequence[Any]], version: int) -> Replayed:
    state = base.state.clone() if entries else base.state
    nonces = set(base.nonces)
    since = base.since
    automatic = list(base.automatic)
    for entry in entries:
        seat, text, nonce, at = entry[0], entry[1], entry[2], entry[3]
        before = state.stamp(None)
        state.apply_action(parse_action(text), seat)
        if state.stamp(None) != before:
            since = float(at)
        nonces.add(str(nonce))
        automatic.append(str(nonce).startswith(("bot:", "timer:")))
    return Replayed(version, base.entries + tuple(_entry_key(e) for e in entries), state, frozenset(nonces), since,
                    tuple(automatic), base.origin)


def replay(game: Game, entries: Sequence[Sequence[Any]], version: int, started_at: float) -> Replayed:
    """Replay a whole log (no cache)."""
    empty = Replayed(0, (), game.new_initial_state(), frozenset(), started_at, (), started_at)
    return _extend(empty, entries, version)


#: (database URL, "table" or "practice", row id)
CacheKey = tuple[str, str, int]


def cache_key(db: Session | Engine, kind: str, row_id: int) -> CacheKey:
    engine = db if isinstance(db, Engine) else db.get_bind().engine
    return (str(engine.url), kind, row_id)


class ReplayCache:
    """Replayed states by (kind, id); a newer version extends the cached state by the new
    entries instead of replaying from the start."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._items: OrderedDict[CacheKey, Replayed] = OrderedDict()
        self._lock = threading.Lock()
        self.size = size

    def peek(self, key: CacheKey, version: int, game: Game | None = None, origin: float | None = None) -> Replayed | None:
        with self._lock:
            item = self._items.get(key)
            if (item is not None and item.version == version and (game is None or item.state.game == game)
                    and (origin is None or item.origin == origin)):
                self._items.move_to_end(key)
                return item
        return None

    def get(self, key: CacheKey, game: Game, log: Sequence[Sequence[Any]], version: int,
            started_at: float) -> Replayed:
        with self._lock:
            cached = self._items.get(key)
        if cached is not None and (cached.state.game != game or cached.origin != started_at):
            cached = None  # another game under the same row id (a test database, a rebuilt row)
        if cached is not None and cached.version == version:
            return cached
        if (cached is not None and cached.version < version and len(log) >= len(cached.entries)
                and all(_entry_key(log[i]) == cached.entries[i] for i in range(len(cached.entries)))):
            fresh = _extend(cached, log[len(cached.entries):], version)
        else:
            fresh = replay(game, log, version, started_at)
        with self._lock:
            current = self._items.get(key)
            if current is None or current.version <= version:
                self._items[key] = fresh
                self._items.move_to_end(key)
                while len(self._items) > self.size:
                    self._items.popitem(last=False)
        return fresh

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


CACHE = ReplayCache()


@dataclass(frozen=True)
class StoredLog:
    """One row's live columns as read in one statement."""

    log: list[Any]
    version: int


def read_log(session: Session, model: type[SQLModel], row_id: int) -> StoredLog | None:
    # a Core select, not the ORM identity map: each retry must see the latest committed row
    row = session.execute(
        select(model.action_log, model.log_version).where(model.id == row_id)  # type: ignore[attr-defined]
    ).first()
    if row is None:
        return None
    return StoredLog(list(row[0] or []), int(row[1]))


def compare_and_set(session: Session, model: type[SQLModel], row_id: int, expected_version: int,
                    new_log: list[Any], **values: Any) -> bool:
    """Store ``new_log`` as version ``expected_version + 1`` if the row is still at
    ``expected_version``; False when another request got there first."""
    result = session.execute(
        update(model)
        .where(model.id == row_id, model.log_version == expected_version)  # type: ignore[attr-defined]
        .values(action_log=new_log, log_version=expected_version + 1, **values)
    )
    session.commit()
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


# -- bots -----------------------------------------------------------------------------------------

#: who plays a seat when it is due: None for a person, else a bot kind
SeatPlayers = Sequence[str | None]
#: at a table with a strong bot a request starts no further bot move after this long, so the
#: strong bot (capped at 0.8 s a decision) holds a web worker about a second at most; the moves
#: left are owed and played by the screen's next tick
BOT_SECONDS = 0.2


def bot_entries(state: State, players: SeatPlayers, game_seed: int, now: float,
                timed_out: Sequence[int] = ()) -> list[list[Any]]:
    """Play, on ``state`` (a clone; it is changed), every action now due from a bot seat, and
    for ``timed_out`` seats (the pick timer ran out) the heuristic bot's choice once; return the
    log entries. Deterministic: each choice draws from a generator seeded by the game's seed,
    the log position and the seat."""
    entries: list[list[Any]] = []
    started = time.perf_counter()
    slow = "strong" in players  # the other bots take milliseconds: their moves all come at once
    pending_timeouts = set(timed_out)
    situation = state.stamp(None)
    while not state.is_terminal():
        due = []
        for seat in state.awaited_seats():
            kind = players[seat] if seat < len(players) else None
            if kind is not None:
                due.append((seat, kind, "bot"))
            elif seat in pending_timeouts:
                due.append((seat, "heuristic", "timer"))
        if not due:
            break
        for seat, kind, why in due:
            if slow and entries and time.perf_counter() - started > BOT_SECONDS:
                return entries  # the rest stays owed: the screen's tick POST plays it next
            rng = random.Random(f"arboretum-live-bot:{game_seed}:{state.version}:{seat}")
            action = make_bot(kind).choose(state, seat, rng)
            before = state.version
            state.apply_action(action, seat)
            if state.version != before:
                # a bot's entry names its kind: a seat's level may change during the game, and the
                # replay says why each move was made by the bot that made it
                nonce = f"bot:{before}:{seat}:{kind}" if why == "bot" else f"{why}:{before}:{seat}"
                entries.append([seat, str(action), nonce, now])
            if state.stamp(None) != situation:
                situation = state.stamp(None)
                pending_timeouts.clear()
                break  # a reveal or a new turn: ask again who is due
            if state.is_terminal():
                break
    return entries


@dataclass(frozen=True)
class Applied:
    """What became of a submitted action."""

    replayed: Replayed
    #: False when nothing new was stored (a resent form, or choosing again the same pick)
    changed: bool
    #: the nonce had been seen: the same form was already applied
    repeated: bool = False


def submit(
    session: Session,
    model: type[SQLModel],
    row_id: int,
    load: Callable[[StoredLog], Replayed],
    seat: int,
    action_text: str,
    nonce: str,
    stamp: int | None,
    players: SeatPlayers,
    game_seed: int,
    now: Callable[[], float] = time.time,
    values: Callable[[], dict[str, Any]] = dict,
) -> Applied:
    """Validate ``seat``'s action against the latest state and append it (and any bot actions
    that fall due) with compare-and-set, retrying on a lost race; ``values()``: further columns
    stored with it. Raises ActionRefused with a short sentence for an illegal action (StaleForm
    for one from a situation that has passed); nothing is stored then."""
    if not nonce or len(nonce) > 64:
        raise ActionRefused(_("This form is incomplete (no form number); reload the page and choose again."))
    try:
        action = parse_action(action_text)
    except ArboretumError as bad:
        # a tampered or garbled form: what the engine says of it is for the log
        logger.info("unreadable action at seat %d (%r): %s", seat, action_text[:200], bad)
        raise ActionRefused(_("That is not an action this screen offers; nothing was done.")) from None
    for _attempt in range(MAX_ATTEMPTS):
        stored = read_log(session, model, row_id)
        if stored is None:
            raise ActionRefused(_("This game no longer exists."))
        replayed = load(stored)
        if nonce in replayed.nonces:
            return Applied(replayed, changed=False, repeated=True)
        state = replayed.state.clone()
        try:
            if stamp is None:
                state.apply_action(action, seat)
            else:
                state.apply_stamped(action, seat, stamp)
        except ArboretumError as bad:
            raise refusal(bad, seat, str(action)) from None
        at = now()
        entries: list[list[Any]] = []
        if state.version != replayed.state.version:
            entries.append([seat, str(action), nonce, at])
        entries.extend(bot_entries(state, players, game_seed, at))
        if not entries:
            return Applied(replayed, changed=False)
        if compare_and_set(session, model, row_id, stored.version, stored.log + entries, **values()):
            fresh = load(StoredLog(stored.log + entries, stored.version + 1))
            return Applied(fresh, changed=True)
        session.rollback()
    raise ActionRefused(_("The table is very busy right now; nothing was done. Tap again."))


def settle_bots(
    session: Session,
    model: type[SQLModel],
    row_id: int,
    load: Callable[[StoredLog], Replayed],
    players: SeatPlayers,
    game_seed: int,
    timed_out: Callable[[Replayed, float], Sequence[int]] = lambda _r, _t: (),
    now: Callable[[], float] = time.time,
) -> Replayed | None:
    """Play whatever bots (and the pick timer) owe the table now; None when nothing was due.
    Called lazily on requests, so a table with bots needs no background worker."""
    for _attempt in range(MAX_ATTEMPTS):
        stored = read_log(session, model, row_id)
        if stored is None:
            return None
        replayed = load(stored)
        at = now()
        late = timed_out(replayed, at)
        if replayed.state.is_terminal() or (
            not late and not any(s < len(players) and players[s] for s in replayed.state.awaited_seats())
        ):
            return None
        state = replayed.state.clone()
        entries = bot_entries(state, players, game_seed, at, late)
        if not entries:
            return None
        if compare_and_set(session, model, row_id, stored.version, stored.log + entries):
            return load(StoredLog(stored.log + entries, stored.version + 1))
        session.rollback()
    return None
