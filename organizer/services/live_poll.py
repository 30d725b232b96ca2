"""The answer to every device's once-a-second "changed since N?", kept cheap.

Each server process keeps a board of the live tables its devices poll: seat token -> table, and
table -> (log_version, the event's pick timer). The board is refreshed by one query for all of
its tables at most every :data:`REFRESH_SECONDS`, so 400 polling devices cost a handful of
queries a second instead of 400. A change made by any process is seen within that interval (the
device that acted gets its new screen in the answer to its action at once). A token the board
does not know yet is looked up in the database, so a wrong token still answers 404."""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, bindparam, create_engine, text
from sqlalchemy.exc import DBAPIError

#: how stale a version on the board may be (the devices poll once a second)
REFRESH_SECONDS = 0.1
#: tables not polled for this long drop off the board (their games ended or the round closed)
IDLE_SECONDS = 120.0

_BY_TOKEN = text(
    "SELECT gametable.log_version, event.pick_timer_seconds, gametable.id FROM seat"
    " JOIN gametable ON gametable.id = seat.table_id JOIN round ON round.id = gametable.round_id"
    " JOIN event ON event.id = round.event_id"
    " WHERE seat.token = :token AND gametable.digital AND round.status != 'proposed'"
)
_BY_TABLES = text(
    "SELECT gametable.id, gametable.log_version, event.pick_timer_seconds FROM gametable"
    " JOIN round ON round.id = gametable.round_id JOIN event ON event.id = round.event_id"
    " WHERE gametable.id IN :ids"
).bindparams(bindparam("ids", expanding=True))


@dataclass(frozen=True)
class PollInfo:
    version: int
    pick_timer_seconds: int | None
    table_id: int


class VersionBoard:
    def __init__(self, engine: Engine) -> None:
        # autocommit and no ping before each checkout: one round trip per query (a dropped
        # connection is retried once instead)
        self.engine = engine if engine.dialect.name == "sqlite" else create_engine(
            engine.url, isolation_level="AUTOCOMMIT", pool_size=2, max_overflow=8)
        self.lock = threading.Lock()
        self.tokens: dict[str, int] = {}
        self.tables: dict[int, tuple[int, int | None]] = {}
        self.polled: dict[int, float] = {}
        self.refreshed = 0.0
        self.refreshing = False

    def _query(self, statement: Any, params: dict[str, Any]) -> list[Any]:
        for attempt in (1, 2):
            try:
                with self.engine.connect() as connection:
                    return list(connection.execute(statement, params))
            except DBAPIError as error:
                if attempt == 2 or not error.connection_invalidated:
                    raise
        return []

    def lookup(self, token: str) -> PollInfo | None:
        if not token or len(token) > 64:
            return None
        now = time.monotonic()
        table_id = self.tokens.get(token)
        if table_id is None:
            rows = self._query(_BY_TOKEN, {"token": token})
            if not rows:
                return None
            version, timer, table_id = int(rows[0][0]), rows[0][1], int(rows[0][2])
            with self.lock:
                self.tokens[token] = table_id
                self.tables[table_id] = (version, timer)
                self.polled[table_id] = now
            return PollInfo(version, timer, table_id)
        self.polled[table_id] = now
        if now - self.refreshed > REFRESH_SECONDS:
            self._refresh(now)
        entry = self.tables.get(table_id)
        if entry is None:  # the table went away: ask the database about this token again
            self.tokens.pop(token, None)
            return self.lookup(token)
        return PollInfo(entry[0], entry[1], table_id)

    def _refresh(self, now: float) -> None:
        with self.lock:
            if self.refreshing or now - self.refreshed <= REFRESH_SECONDS:
                return  # another thread is at it; its answer is at most a moment away
            self.refreshing = True
            ids = [table for table, at in self.polled.items() if now - at <= IDLE_SECONDS]
        try:
            rows = self._query(_BY_TABLES, {"ids": ids}) if ids else []
            fresh: dict[int, tuple[int, int | None]] = {int(row[0]): (int(row[1]), row[2]) for row in rows}
            with self.lock:
                self.tables = fresh
                self.polled = {table: at for table, at in self.polled.items() if table in fresh}
                self.tokens = {token: table for token, table in self.tokens.items() if table in fresh}
                self.refreshed = time.monotonic()
        finally:
            self.refreshing = False

    def changed(self, table_id: int, version: int) -> None:
        """This process just stored ``version``: show it at once to the devices it serves."""
        with self.lock:
            entry = self.tables.get(table_id)
            if entry is not None and entry[0] < version:
                self.tables[table_id] = (version, entry[1])


_BOARDS: weakref.WeakKeyDictionary[Engine, VersionBoard] = weakref.WeakKeyDictionary()
_BOARDS_LOCK = threading.Lock()


def board_for(engine: Engine) -> VersionBoard:
    """The board of this process for the database behind ``engine``."""
    with _BOARDS_LOCK:
        board = _BOARDS.get(engine)
        if board is None:
            board = _BOARDS[engine] = VersionBoard(engine)
        return board
