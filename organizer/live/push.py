"""What every app process knows of the live tables' versions without asking the database, and
the wake-up of the streams (:mod:`organizer.live.stream`) that push a seat's new version to its
phone the moment it is committed.

One :class:`Notifier` per process and database keeps a map of table versions and seats' bot
flags, learned from the database once per table and then kept current by the database itself:

- PostgreSQL: a trigger (migration 0016) sends ``NOTIFY arboretum_live`` with the new version in
  the transaction that writes it, so it is delivered on commit, to every process on every machine.
  One connection per process listens; a lost connection empties the map (what was missed meanwhile
  is read again when asked) and is opened again.
  A change reaches another process's map as fast as the notification travels (milliseconds);
  a commit of the process's own is waited for before its map answers again.
- SQLite (one machine): each process keeps one connection that reads the file's data version
  (``PRAGMA data_version``: a counter that changes when any other connection, in any process,
  committed; no table is read). A poll reads it, and so does one thread every
  :data:`WATCH_SECONDS` to wake the streams; only when it moved are the versions of the tables
  the process knows read, in one query. So a poll answers exactly as the file is.

While the notifier is healthy, an unchanged poll and a waiting stream read no table. A version
learned by a read that raced with a change is not kept (the next read keeps it), so the map never
holds a version older than the last one the process was told of.

The same notifier keeps the *marks* of the pages that follow a whole event (the public page, the
players' pages, the live overview; :meth:`Notifier.mark`): read by the first stream that asks after
a change, once per process however many streams wait, and forgotten at the next change of their
event (PostgreSQL: migration 0022's ``e<event>`` and ``r<round>`` notifications) or, on SQLite, at
the next commit of any process.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, event

log = logging.getLogger("organizer.live.push")

CHANNEL = "arboretum_live"
#: how often a SQLite process checks whether another connection committed
WATCH_SECONDS = 0.02
#: how often the listening connection, idle, checks that it is alive
LISTEN_SECONDS = 15.0
#: how long a pick timer setting read with a seat is trusted
TIMER_SECONDS = 30.0
MAX_TABLES = 100_000
#: an event's or round's mark is read at most this often per process (a draft commits many moves
#: a second, and on SQLite every commit may have changed any mark)
MARK_SECONDS = 0.2
MAX_MARKS = 10_000
#: how long a commit of this process that changed no version is waited for
AWAIT_SECONDS = 1.0


@dataclass
class _Table:
    version: int
    #: seat id -> a bot plays it
    bots: dict[int, bool]


#: what a mark is kept under: ("e", event id) or ("r", round id)
MarkKey = tuple[str, int]


@dataclass
class _Mark:
    #: the event a round's mark belongs to: a change of the event changes the round's mark too
    event_id: int
    #: what the last read found (None: to be read)
    value: Any = None
    known: bool = False
    #: grows with every change: a read that overlapped one is not kept
    generation: int = 0
    read_at: float = 0.0
    gate: threading.Event = field(default_factory=threading.Event)
    #: one read at a time: the streams waiting meanwhile take what it found
    reading: threading.Lock = field(default_factory=threading.Lock)


class Notifier:
    """The process's map of live table versions, kept current by the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine_ref = weakref.ref(engine)
        self.postgres = engine.dialect.name == "postgresql"
        self.url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False) \
            if self.postgres else ""
        self.lock = threading.Lock()
        self.tables: dict[int, _Table] = {}
        #: grows with every change applied: a read that overlapped one is not kept
        self.epoch = 0
        self.healthy = False
        #: this process's own commits of live writes whose notification is still on its way: the
        #: PostgreSQL backends that made them, and since when
        self.awaited: dict[int, float] = {}
        #: SQLite: the watcher's connection and the data version the map reflects
        self.sync_lock = threading.Lock()
        self.cursor: Any = None
        self.seen = -1
        self.gates: dict[int, threading.Event] = {}
        self.marks: dict[MarkKey, _Mark] = {}
        self.stopping = threading.Event()
        event.listen(engine, "after_cursor_execute", _note_live_write)
        event.listen(engine, "commit", self._committing)
        # a disposed engine (a test's app at its end, a forked worker's inherited pool) ends it
        event.listen(engine, "engine_disposed", self._disposed)
        self.thread = threading.Thread(target=self._run, name="live-notifier", daemon=True)
        self.thread.start()

    # -- what polls and streams ask ---------------------------------------------------------------

    def current(self) -> bool:
        """Whether the map holds every change committed so far by this process (and, up to the
        notification's way here, by every other)."""
        if not self.healthy:
            return False
        if not self.postgres:
            return self.sync()
        if not self.awaited:
            return True
        now = time.monotonic()
        with self.lock:  # a commit that changed no version sends nothing: stop waiting for it
            for pid, since in list(self.awaited.items()):
                if now - since > AWAIT_SECONDS:
                    del self.awaited[pid]
        return not self.awaited

    def version(self, table_id: int, seat_id: int) -> tuple[int, bool] | None:
        """The table's version and the seat's bot flag, or None when this process must ask the
        database (not known, a change of its own still on its way, or not connected)."""
        if not self.current():
            return None
        table = self.tables.get(table_id)
        if table is None or seat_id not in table.bots:
            return None
        return table.version, table.bots[seat_id]

    def begin_read(self) -> int:
        return self.epoch

    def learn(self, epoch: int, table_id: int, version: int, seats: dict[int, bool]) -> None:
        """What a database read (begun at ``epoch``) found; kept only if nothing changed since."""
        with self.lock:
            if not self.healthy or epoch != self.epoch:
                return
            if len(self.tables) >= MAX_TABLES:
                self.tables.clear()
            table = self.tables.get(table_id)
            if table is None:
                self.tables[table_id] = _Table(version, dict(seats))
            elif table.version == version:
                table.bots.update(seats)

    def gate(self, table_id: int) -> threading.Event:
        """Set at the table's next change: taken before reading its version, so no change between
        the read and the wait is missed."""
        with self.lock:
            gate = self.gates.get(table_id)
            if gate is None:
                gate = self.gates[table_id] = threading.Event()
            return gate

    def _mark(self, key: MarkKey, event_id: int) -> _Mark:
        with self.lock:
            found = self.marks.get(key)
            if found is None:
                if len(self.marks) >= MAX_MARKS:
                    self._forget_marks(lambda _key, _mark: True)
                    self.marks.clear()
                found = self.marks[key] = _Mark(event_id)
            return found

    def mark_gate(self, key: MarkKey, event_id: int) -> threading.Event:
        """Set at the next change of the mark ``key`` (of event ``event_id``): taken before
        reading the mark, so no change between the read and the wait is missed."""
        return self._mark(key, event_id).gate

    def mark(self, key: MarkKey, event_id: int, read: Callable[[], Any], wait: bool = True) -> Any:
        """The mark ``key`` as ``read`` finds it in the database, read once per change in this
        process however many streams ask (and, with ``wait``, no more often than every
        :data:`MARK_SECONDS`: a poll, which a phone waits for, does not wait)."""
        mark = self._mark(key, event_id)
        with self.lock:
            if mark.known and self.healthy:
                return mark.value
        with mark.reading:
            with self.lock:
                if mark.known and self.healthy:
                    return mark.value
                generation = mark.generation
            pause = mark.read_at + MARK_SECONDS - time.monotonic()
            if wait and pause > 0:
                time.sleep(pause)
            value = read()
            with self.lock:
                mark.read_at = time.monotonic()
                if mark.generation == generation and self.healthy:
                    mark.value, mark.known = value, True
            return value

    # -- applying changes -------------------------------------------------------------------------

    def _committing(self, connection: Any) -> None:
        """A commit of this process that wrote a live table or seat (PostgreSQL): the map is not
        current until its notification came back (the epoch keeps a read begun before it from
        being kept)."""
        if not connection.info.pop(LIVE_WRITE, False) or not self.postgres:
            return
        pid = _backend_pid(connection)
        with self.lock:
            self.epoch += 1
            if pid is not None:
                self.awaited[pid] = time.monotonic()

    def _changed(self, table_ids: Iterable[int]) -> None:
        """Wakes the streams waiting on these tables (called with the lock held)."""
        for table_id in table_ids:
            gate = self.gates.pop(table_id, None)
            if gate is not None:
                gate.set()

    def _forget_marks(self, which: Callable[[MarkKey, _Mark], bool]) -> None:
        """The marks ``which`` selects are read again when next asked, and their streams woken
        (called with the lock held)."""
        for key, mark in self.marks.items():
            if which(key, mark):
                mark.known, mark.value = False, None
                mark.generation += 1
                mark.gate.set()
                mark.gate = threading.Event()

    def _reset(self, healthy: bool) -> None:
        with self.lock:
            self.epoch += 1
            self.tables.clear()
            self.awaited.clear()
            self.healthy = healthy
            self._forget_marks(lambda _key, _mark: True)
            gates, self.gates = self.gates, {}
        for gate in gates.values():  # each stream reads its version again
            gate.set()

    def apply(self, payload: str, pid: int = 0) -> None:
        """One PostgreSQL notification: ``t<table>:<version>`` (-1: deleted),
        ``s<seat>:<0|1>:<table>``, ``e<event>`` or ``r<round>``, from backend ``pid``."""
        try:
            kind, rest = payload[0], payload[1:].split(":")
            numbers = [int(part) for part in rest]
        except (IndexError, ValueError):
            return
        with self.lock:
            if kind in "ts":
                # an event's notification of the same commit may come first: only the map's own
                # say that the commit's versions arrived
                self.epoch += 1
                self.awaited.pop(pid, None)
            if kind == "t" and len(numbers) == 2:
                table_id, version = numbers
                table = self.tables.get(table_id)
                if table is not None:
                    if version < 0:
                        del self.tables[table_id]
                    else:
                        table.version = version
                self._changed([table_id])
            elif kind == "s" and len(numbers) == 3:
                seat_id, bot, table_id = numbers
                table = self.tables.get(table_id)
                if table is not None:
                    table.bots[seat_id] = bool(bot)
                self._changed([table_id])
            elif kind == "e" and len(numbers) == 1:
                self._forget_marks(lambda _key, mark: mark.event_id == numbers[0])
            elif kind == "r" and len(numbers) == 1:
                self._forget_marks(lambda key, _mark: key == ("r", numbers[0]))

    def _gone(self) -> bool:
        return self.stopping.is_set() or self.engine_ref() is None

    def _run(self) -> None:
        watch = self._listen if self.postgres else self._watch
        while not self._gone():
            try:
                watch()
            except Exception:
                if self._gone():
                    return
                log.warning("live notifier lost its connection; polls ask the database until it is back",
                            exc_info=True)
            self._reset(False)
            self.stopping.wait(1.0)

    def _listen(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self._reset(True)  # from now on every commit is heard: what came before is read afresh
            checked = time.monotonic()
            while not self._gone():  # (looked at every second: a test's app goes, its listener soon after)
                for notice in connection.notifies(timeout=1.0):
                    self.apply(notice.payload, notice.pid)
                if time.monotonic() - checked > LISTEN_SECONDS:
                    connection.execute("SELECT 1")  # a dead connection says so here
                    checked = time.monotonic()

    def _watch(self) -> None:
        engine = self.engine_ref()
        if engine is None:
            return
        raw = engine.raw_connection()
        del engine
        try:
            with self.sync_lock:
                self.cursor = raw.cursor()
                self.seen = _data_version(self.cursor)
            self._reset(True)
            while not self._gone():
                time.sleep(WATCH_SECONDS)
                self.sync()
        finally:
            with self.sync_lock:
                self.cursor = None
            raw.close()

    def sync(self) -> bool:
        """SQLite: brings the map up to every commit made so far by any process (the file's data
        version changes with each; then the versions of the tables this process knows are read in
        one query). False when the watcher is not connected."""
        with self.sync_lock:
            cursor = self.cursor
            if cursor is None:
                return False
            now = _data_version(cursor)
            if now == self.seen:
                return True
            with self.lock:
                self.epoch += 1  # a read that began before this change is not kept
                known = list(self.tables)
                # which event a commit touched is not said here: every mark is read again once
                self._forget_marks(lambda _key, _mark: True)
            if known:
                self._rescan(cursor, known)
            cursor.connection.commit()  # no read transaction stays open between checks
            self.seen = now
            return True

    def _rescan(self, cursor: Any, known: list[int]) -> None:
        marks = ",".join("?" * len(known))
        cursor.execute(f"SELECT id, log_version FROM gametable WHERE id IN ({marks})", known)
        versions = {int(row[0]): int(row[1]) for row in cursor.fetchall()}
        cursor.execute(f"SELECT id, is_bot, table_id FROM seat WHERE table_id IN ({marks})", known)
        bots: dict[int, dict[int, bool]] = {}
        for seat_id, bot, table_id in cursor.fetchall():
            bots.setdefault(int(table_id), {})[int(seat_id)] = bool(bot)
        with self.lock:
            changed = []
            for table_id in known:
                table = self.tables.get(table_id)
                if table is None:
                    continue
                if table_id not in versions:
                    del self.tables[table_id]
                    changed.append(table_id)
                    continue
                fresh_bots = {seat: bots.get(table_id, {}).get(seat, False) for seat in table.bots}
                if versions[table_id] != table.version or fresh_bots != table.bots:
                    table.version, table.bots = versions[table_id], fresh_bots
                    changed.append(table_id)
            self._changed(changed)

    def _disposed(self, engine: Engine) -> None:
        self.stop()

    def stop(self) -> None:
        self.stopping.set()
        self.healthy = False
        engine = self.engine_ref()
        if engine is not None and event.contains(engine, "commit", self._committing):
            event.remove(engine, "commit", self._committing)


def _data_version(cursor: Any) -> int:
    cursor.execute("PRAGMA data_version")
    return int(cursor.fetchone()[0])


LIVE_WRITE = "organizer_live_write"


def _note_live_write(connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
    """Marks a connection whose transaction changed a live table's version or a seat's bot flag
    (any update or delete of those tables: a few more than needed costs one read each)."""
    head = statement[:40].lstrip().upper()
    if (head.startswith("UPDATE") or head.startswith("DELETE")) and ("GAMETABLE" in head or "SEAT" in head):
        connection.info[LIVE_WRITE] = True


def _backend_pid(connection: Any) -> int | None:
    try:
        return int(connection.connection.dbapi_connection.info.backend_pid)
    except AttributeError:
        return None
