"""The answer to every device's once-a-second "changed since N?" (and to the public page's
"changed since this stamp?"), kept cheap and exact.

Each process remembers which table a seat token belongs to (that never changes) and the table
versions its notifier (:mod:`organizer.live.push`) holds: the database tells every process of each
committed change, so an unchanged poll costs no query. When the notifier is not current (not
connected, a table not known yet, a change of this process's own still on its way back), the poll
asks the database for that table's version and the seat's bot flag by the seat's primary key, on a
connection in autocommit mode with no ping before each checkout (a connection the server dropped
is retried once instead). A token the process does not know yet is looked up with its seat,
table, round and event, so a wrong token still answers 404. Another process's change reaches this
one's map as fast as its notification travels (milliseconds); the phone told of it by its stream
asks with ``pushed`` and is answered from the database.

:func:`seat_now` and :func:`is_current` are the whole answer; :mod:`organizer.live.fastpoll` gives the common "no"
even earlier, when the table has no pick timer."""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, bindparam, create_engine, select, text
from sqlalchemy.exc import DBAPIError
from sqlmodel import col

from organizer.core.models import Event, GameTable, Round, Seat
from organizer.live import log as live_log
from organizer.live import push
from organizer.live.games import pick_time_up
from organizer.live.seats import reachable
from organizer.live.tables import KIND
from organizer.public import service as public

_BY_TOKEN = (
    select(col(GameTable.log_version), col(Event.pick_timer_seconds), col(Seat.is_bot), col(GameTable.id),
           col(Seat.id))
    .select_from(Seat)
    .join(GameTable, col(GameTable.id) == col(Seat.table_id))
    .join(Round, col(Round.id) == col(GameTable.round_id))
    .join(Event, col(Event.id) == col(Round.event_id))
    .where(col(Seat.token) == bindparam("token"), reachable())
)
_BY_SEAT = text(
    "SELECT gametable.log_version, event.pick_timer_seconds, seat.is_bot FROM seat"
    " JOIN gametable ON gametable.id = seat.table_id JOIN round ON round.id = gametable.round_id"
    " JOIN event ON event.id = round.event_id WHERE seat.id = :id"
)
#: what the live overview of a round shows besides its event's stamp: its tables' moves, which
#: tables were dealt, the bots' levels
_ROUND_FIGURES = text(
    "SELECT r.event_id, r.status, (SELECT coalesce(sum(t.log_version), 0) FROM gametable t WHERE t.round_id = r.id),"
    " (SELECT count(t.game) FROM gametable t WHERE t.round_id = r.id),"
    " (SELECT sum(hashtext(cast(s.id AS varchar) || '|' || s.bot_level)) FROM seat s"
    " JOIN gametable t ON t.id = s.table_id WHERE t.round_id = r.id)"
    " FROM round r WHERE r.id = :id"
)
#: tokens remembered per process (a seat token never moves to another seat or table)
MAX_TOKENS = 100_000
#: whether processes keep the versions the database notifies them of (off: every poll asks the database)
NOTIFY = True
#: the mark of a seat's screen shown while a bot plays the seat (after its log version)
BOT_MARK = "b"


@dataclass(frozen=True)
class PollInfo:
    version: int
    pick_timer_seconds: int | None
    table_id: int
    #: a bot plays the seat now
    bot: bool = False


def since_mark(version: int, bot: bool) -> str:
    """What a seat's screen asks its poll "changed since?" with: the table's log version, marked
    when a bot plays the seat, so a bot seated or the seat given back (which writes no move)
    changes the answer too."""
    return f"{version}{BOT_MARK}" if bot else str(version)


def read_since(since: str) -> tuple[int, bool] | None:
    """The version and bot flag of a :func:`since_mark`, or None for anything else."""
    bot = since.endswith(BOT_MARK)
    digits = since[:-len(BOT_MARK)] if bot else since
    if not digits.isascii() or not digits.isdigit() or len(digits) > 18:
        return None
    return int(digits), bot


class VersionBoard:
    """Per process: seat token -> (seat id, table id, pick timer), and the version: from the
    process's notifier (:mod:`organizer.live.push`) while it is current, else from the database."""

    def __init__(self, engine: Engine) -> None:
        # weakly: the board (and its notifier's thread) ends with the app's engine
        self.source = weakref.ref(engine)
        self.own_engine = None if engine.dialect.name == "sqlite" else create_engine(
            engine.url, isolation_level="AUTOCOMMIT", pool_size=4, max_overflow=12)
        self.lock = threading.Lock()
        #: token -> seat id, table id, pick timer, when the timer was read
        self.tokens: dict[str, tuple[int, int, int | None, float]] = {}
        #: a public page's code -> its event (checked against the event's mark at every use)
        self.codes: dict[str, int] = {}
        self._notifier: push.Notifier | None = None
        self._pid = 0

    @property
    def engine(self) -> Engine:
        """What the polls read with: the app's engine on SQLite, an autocommit pool of its own on
        PostgreSQL."""
        if self.own_engine is not None:
            return self.own_engine
        engine = self.source()
        assert engine is not None, "the app's engine is gone"
        return engine

    @property
    def notifier(self) -> push.Notifier | None:
        """This process's notifier (a forked worker starts its own), or None when switched off."""
        if not NOTIFY:
            return None
        if self._pid != os.getpid() or (self._notifier is not None and self._notifier.stopping.is_set()):
            with self.lock:
                if self._pid != os.getpid() or (self._notifier is not None and self._notifier.stopping.is_set()):
                    engine = self.source()
                    if engine is None:
                        return None
                    self._notifier, self._pid = push.Notifier(engine), os.getpid()
        return self._notifier

    def _query(self, statement: Any, params: dict[str, Any]) -> list[Any]:
        for attempt in (1, 2):
            try:
                with self.engine.connect() as connection:
                    return list(connection.execute(statement, params))
            except DBAPIError as error:
                if attempt == 2 or not error.connection_invalidated:
                    raise
        return []

    def lookup(self, token: str, fresh: bool = False) -> PollInfo | None:
        """The seat's table version and bot flag; ``fresh``: read from the database whatever the
        notifier knows (a phone told of a change asks so, in case this process hears of it later)."""
        if not token or len(token) > 64:
            return None
        notifier = self.notifier
        epoch = notifier.begin_read() if notifier is not None else 0
        known = self.tokens.get(token)
        if known is not None:
            seat_id, table_id, timer, read_at = known
            if notifier is not None and not fresh and time.monotonic() - read_at < push.TIMER_SECONDS:
                mapped = notifier.version(table_id, seat_id)
                if mapped is not None:
                    return PollInfo(mapped[0], timer, table_id, mapped[1])
            rows = self._query(_BY_SEAT, {"id": seat_id})
            if rows:
                info = PollInfo(int(rows[0][0]), rows[0][1], table_id, bool(rows[0][2]))
                self._remember(token, seat_id, info, epoch)
                return info
            with self.lock:  # the table went away (its event was deleted)
                self.tokens.pop(token, None)
            return None
        rows = self._query(_BY_TOKEN, {"token": token})
        if not rows:
            return None
        version, timer, bot, table_id, seat_id = int(rows[0][0]), rows[0][1], bool(rows[0][2]), int(rows[0][3]), int(rows[0][4])
        info = PollInfo(version, timer, table_id, bot)
        self._remember(token, seat_id, info, epoch)
        return info

    def _remember(self, token: str, seat_id: int, info: PollInfo, epoch: int) -> None:
        with self.lock:
            if len(self.tokens) >= MAX_TOKENS:
                self.tokens.clear()
            self.tokens[token] = (seat_id, info.table_id, info.pick_timer_seconds, time.monotonic())
        notifier = self.notifier
        if notifier is not None:
            notifier.learn(epoch, info.table_id, info.version, {seat_id: info.bot})

    def public_stamp(self, code: str, fresh: bool = False) -> str | None:
        """The stamp of the public page ``/e/<code>`` (:func:`.public.stamp`), or None when no
        event shows a page under that code. While the notifier is current, the event's mark
        answers (read once per change in this process: an unchanged poll reads no table);
        ``fresh``: from the database whatever the notifier knows (a phone whose stream said a
        stamp this process has not heard of yet asks so)."""
        if not code or len(code) > public.MAX_CODE:
            return None
        notifier = self.notifier
        event_id = self.codes.get(code)
        if notifier is not None and event_id is not None and not fresh and notifier.current():
            found: EventStamp | None = notifier.mark(("e", event_id), event_id,
                                                     lambda: self._event_stamp(event_id), wait=False)
            if found is not None and found.code == code and found.public_page:
                return found.stamp
        rows = self._query(public.STAMP_BY_CODE, {"code": code})
        with self.lock:
            if not rows:
                self.codes.pop(code, None)
                return None
            if len(self.codes) >= MAX_TOKENS:
                self.codes.clear()
            self.codes[code] = int(rows[0][0])
        return public.stamp_of(tuple(rows[0])[1:])

    # -- the marks of the pages that follow a whole event (organizer/live/stream.py) --------------

    def page_event(self, code: str) -> int | None:
        """The event whose public page ``/e/<code>`` is (None: no page under that code)."""
        if not code or len(code) > public.MAX_CODE:
            return None
        rows = self._query(public.EVENT_BY_CODE, {"code": code})
        return int(rows[0][0]) if rows else None

    def player_event(self, token: str) -> int | None:
        """The event of the player whose own page is ``/p/<token>`` (None: no such player)."""
        if not public.MIN_PLAYER_TOKEN <= len(token) <= public.MAX_PLAYER_TOKEN:
            return None
        rows = self._query(public.EVENT_BY_PLAYER_TOKEN, {"token": token})
        return int(rows[0][0]) if rows else None

    def _event_stamp(self, event_id: int) -> EventStamp | None:
        rows = self._query(public.STREAM_STAMP, {"id": event_id})
        if not rows:
            return None
        row = tuple(rows[0])
        return EventStamp(public.stamp_of(row[2:]), str(row[0]), bool(row[1]))

    def _round_mark(self, round_id: int) -> str | None:
        rows = self._query(_ROUND_FIGURES, {"id": round_id})
        if not rows:
            return None
        event = self._event_stamp(int(rows[0][0]))
        return None if event is None else public.stamp_of((event.stamp, *tuple(rows[0])[1:]))

    def _watched(self, key: push.MarkKey, event_id: int, read: Callable[[], Any]) -> Any:
        notifier = self.notifier
        return read() if notifier is None else notifier.mark(key, event_id, read)

    def event_stamp(self, event_id: int) -> EventStamp | None:
        """The stamp of the event's public and players' pages, read once per change in this
        process (None: the event is gone)."""
        found: EventStamp | None = self._watched(("e", event_id), event_id, lambda: self._event_stamp(event_id))
        return found

    def round_mark(self, round_id: int, event_id: int) -> str | None:
        """What changes with anything the round's live overview shows, read once per change in
        this process (None: the round is gone)."""
        found: str | None = self._watched(("r", round_id), event_id, lambda: self._round_mark(round_id))
        return found


@dataclass(frozen=True)
class EventStamp:
    #: the stamp of the public page (:func:`.public.stamp`)
    stamp: str
    #: the code the page is under, and whether it is shown
    code: str
    public_page: bool


_BOARDS: weakref.WeakKeyDictionary[Engine, VersionBoard] = weakref.WeakKeyDictionary()
_BOARDS_LOCK = threading.Lock()


def board_for(engine: Engine) -> VersionBoard:
    """The board of this process for the database behind ``engine``."""
    with _BOARDS_LOCK:
        board = _BOARDS.get(engine)
        if board is None:
            board = _BOARDS[engine] = VersionBoard(engine)
        return board


def seat_now(engine: Engine, token: str, fresh: bool = False) -> PollInfo | None:
    """The seat's table version and bot flag as they are now (None: no such seat); ``fresh``: as
    the database has them, whatever this process heard so far."""
    return board_for(engine).lookup(token, fresh)


def is_current(engine: Engine, info: PollInfo, since: str) -> bool:
    """Whether a seat's screen marked ``since`` (:func:`since_mark`) still shows the seat as
    ``info`` found it. With a pick timer the state this process has cached says whether a seat's
    time ran out; a state not cached here yet counts as changed, so the full path decides."""
    shown = read_since(since)
    if shown is None or shown != (info.version, info.bot):
        return False
    if not info.pick_timer_seconds:
        return True
    cached = live_log.CACHE.peek(live_log.cache_key(engine, KIND, info.table_id), info.version)
    return cached is not None and not pick_time_up(info.pick_timer_seconds, cached, time.time())
