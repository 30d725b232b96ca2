"""The race harness: the production server (gunicorn, several worker processes; passwords hashed
cheaply) on its own database, organizers signed in as separate clients, forms fetched ahead, and
requests released at the same instant by a barrier. The tests then read the database directly and check what must
hold whatever order the requests were served in.

API (used by the test modules):

- :class:`RaceServer` (``race_server`` fixture, one per test module and database): ``url``,
  ``database_url``, ``client()`` (a new signed-in organizer), ``session()`` (a fresh database
  session), ``import_event(data)`` (a new event from an export, its id), ``export_event(id)``.
- :func:`page_forms` / :func:`form_for`: the forms of a page as a browser would submit them
  (hidden fields, CSRF token and version included), to pre-fetch before the barrier.
- :func:`simultaneously`: run callables in threads released together by a ``threading.Barrier``;
  every reply is returned (an exception is re-raised after all have finished). ``RACE_SERIAL=1``
  runs them one after the other instead (a control run).
- :func:`run_trials`: ``RACE_TRIALS`` trials (default 50), each returning the broken invariants;
  fails with how many trials broke and the first messages.
- :func:`result_problems` / :func:`audit_story`: the invariants of a table's result.
- :func:`enter_result_here`, :func:`confirm_here`, :func:`confirm_seats_here`: a trial's starting
  result set through the services in this process, where the set-up is not what races.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, make_url, text
from sqlmodel import Session, col, select

import organizer.club  # noqa: F401  # the club's receivers, as in the app, for enter_result_here
from organizer.core.db import make_engine, normalise_url
from organizer.core.models import AuditEntry, Confirmation, Event, GameTable, Organizer, Result, Round, Seat
from organizer.rounds import results
from organizer.rounds import service as round_service
from organizer.rounds.submission import SeatEntry, Submission
from tests.fixtures.organizer import empty_postgres
from tests.system.faults.harness import CHEAP_HASH, Client, Reply, ServerProcess, add_demo, sign_in

DEMO_ACCOUNT = ("demo", "demo")
WORKERS = 3
#: the real app; the fault hooks stay off, and passwords are hashed cheaply (what races is never
#: a password, and an argon2 sign-in costs half a second of the server's time)
FACTORY = "tests.system.faults.fault_app:create_app()"


def trial_count() -> int:
    return max(1, int(os.environ.get("RACE_TRIALS", "50")))


# -- databases ------------------------------------------------------------------------------------

@contextmanager
def postgres_schema(base_url: str, name: str) -> Iterator[str]:
    """A schema of its own in the database of ``base_url`` (created empty, dropped afterwards),
    and a URL whose connections use it: a module's server shares no rows with another suite,
    and the test role needs no right to create databases."""
    engine = make_engine(normalise_url(base_url))
    try:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
            connection.execute(text(f'CREATE SCHEMA "{name}"'))
        yield engine.url.update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(hide_password=False)
    finally:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        engine.dispose()


# -- the server -----------------------------------------------------------------------------------

@dataclass
class RaceServer:
    server: ServerProcess
    database_url: str
    engine: Engine
    _admin: Client | None = None

    @property
    def url(self) -> str:
        return self.server.url

    def client(self) -> Client:
        """Another organizer's device: its own session cookie and CSRF token."""
        client = Client(self.url)
        reply = sign_in(client, *DEMO_ACCOUNT)
        assert reply.status == 302, f"sign-in failed: {reply.status}"
        return client

    @property
    def admin(self) -> Client:
        """The client that prepares each trial (never one of the racers)."""
        if self._admin is None:
            self._admin = self.client()
        return self._admin

    def session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def export_event(self, event_id: int) -> bytes:
        reply = self.admin.get(f"/events/{event_id}/export.json")
        assert reply.status == 200, reply.status
        return reply.body

    def import_event(self, export: bytes) -> int:
        """A new event from an export, through the import form; its id."""
        boundary = "----race-harness-boundary"
        self.admin.get("/")
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n"
                f"{self.admin.csrf_token}\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"event.json\"\r\nContent-Type: application/json\r\n\r\n").encode() + export + \
               f"\r\n--{boundary}--\r\n".encode()
        reply = self.admin.request("POST", "/events/import", body=body,
                                   content_type=f"multipart/form-data; boundary={boundary}")
        assert reply.status == 302, f"import refused ({reply.status}): {reply.text[:2000]}"
        return int(reply.location.rstrip("/").rsplit("/", 1)[1])


@contextmanager
def running_server(database_url: str, instance: Path, workers: int = WORKERS,
                   prepared: bool = False) -> Iterator[RaceServer]:
    """gunicorn with ``workers`` sync worker processes on ``database_url`` (prepared first, unless
    ``prepared`` says it holds the demo already)."""
    if not prepared:
        add_demo(database_url)
    engine = make_engine(database_url)
    server = ServerProcess(database_url, instance, factory=FACTORY, workers=workers, threads=1,
                           env={"FAULT_HASH_METHOD": CHEAP_HASH})
    server.start()
    try:
        yield RaceServer(server, database_url, engine)
    finally:
        # killed, not stopped: nothing is checked after the last trial, and gunicorn's quick
        # shutdown still takes its second
        server.kill()
        engine.dispose()


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (a gunicorn arbiter's workers)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue  # ended meanwhile
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                found.add(int(entry))
    return found


def renew_workers(server: ServerProcess, workers: int = WORKERS, wait: float = 30) -> None:
    """Replace the server's workers by new ones forked from its arbiter's preloaded app, as a
    restart would give, without importing the app again: nothing a worker kept in memory (its
    caches, its sign-in refusals) reaches what comes next. The old workers are killed (SIGKILL:
    a graceful exit would spend half a second each tearing down the interpreter) and the arbiter
    forks their replacements. Returns once only new workers are left, all of them up, and the
    server answers."""
    assert server.process is not None
    arbiter = server.process.pid
    old = _children(arbiter)
    for pid in old:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + wait
    while True:
        now = _children(arbiter)
        if len(now) == workers and not now & old:
            break
        assert server.process.poll() is None, f"the server ended:\n{server.log()}"
        assert time.monotonic() < deadline, f"the workers were not renewed:\n{server.log()}"
        time.sleep(0.05)
    client = Client(server.url)
    while client.get("/sign-in").status != 200:
        assert time.monotonic() < deadline, f"the renewed server does not answer:\n{server.log()}"
        time.sleep(0.05)


def restore_demo(database_url: str, template: Path | None) -> None:
    """Put the database back to the demo as :func:`add_demo` makes it: the SQLite ``template``'s
    pages written over the file through SQLite's backup (every connection sees the change), or
    PostgreSQL's tables emptied, their ids restarted, and the demo added again."""
    if template is not None:
        source, target = sqlite3.connect(template), sqlite3.connect(make_url(database_url).database or "")
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        return
    engine = make_engine(database_url)
    try:
        empty_postgres(engine)
    finally:
        engine.dispose()
    add_demo(database_url)


# -- forms ----------------------------------------------------------------------------------------

@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    #: select name -> its options' values (to choose another)
    options: dict[str, list[str]] = field(default_factory=dict)

    def values(self, **changes: str | list[str]) -> list[tuple[str, str]]:
        """The fields as submitted, with ``changes`` replacing fields of those names."""
        kept = [(k, v) for k, v in self.fields if k not in changes]
        for key, value in changes.items():
            kept.extend((key, v) for v in ([value] if isinstance(value, str) else value))
        return kept

    def get(self, name: str, default: str = "") -> str:
        return next((v for k, v in self.fields if k == name), default)


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._select: tuple[str, list[str], list[str]] | None = None
        self._textarea: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(Form(a.get("action", "")))
            return
        if not self.forms:
            return
        form = self.forms[-1]
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
            elif kind not in ("submit", "button", "file", "image", "reset"):
                form.fields.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self._select = (name, [], [])
        elif tag == "option" and self._select is not None:
            value = a.get("value", "")
            self._select[1].append(value)
            if "selected" in a:
                self._select[2].append(value)
        elif tag == "textarea" and name:
            self._textarea = (name, [])

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None and self.forms:
            name, values, chosen = self._select
            self.forms[-1].options[name] = values
            for value in chosen or values[:1]:
                self.forms[-1].fields.append((name, value))
            self._select = None
        elif tag == "textarea" and self._textarea is not None and self.forms:
            self.forms[-1].fields.append((self._textarea[0], "".join(self._textarea[1])))
            self._textarea = None


def page_forms(page: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(page)
    return parser.forms


def form_for(page: str, action_suffix: str, **having: str) -> Form:
    """The page's form posting to an action ending in ``action_suffix`` (and holding the fields
    ``having``, e.g. ``seat="organizer"``)."""
    for form in page_forms(page):
        if form.action.endswith(action_suffix) and all(form.get(k, None) == v for k, v in having.items()):  # type: ignore[arg-type]
            return form
    raise AssertionError(f"no form for {action_suffix} {having or ''} on the page")


def fetch_form(client: Client, path: str, action_suffix: str, **having: str) -> Form:
    reply = client.get(path)
    assert reply.status == 200, f"GET {path}: {reply.status}"
    return form_for(reply.text, action_suffix, **having)


def submit(client: Client, form: Form, headers: dict[str, str] | None = None, **changes: str | list[str]) -> Reply:
    """Post the form as fetched (its own CSRF token), with ``changes``."""
    return client.post(form.action, form.values(**changes), csrf=False, headers=headers)


# -- firing together ------------------------------------------------------------------------------

def simultaneously(*calls: Callable[[], Reply]) -> list[Reply]:
    """Run ``calls`` in threads that wait on one barrier and then send at the same instant.

    ``RACE_SERIAL=1`` sends them one after the other instead, in the order given: a control run
    showing that the invariants hold when nothing races (the tests then fail only for what is
    wrong even without a race)."""
    if os.environ.get("RACE_SERIAL") == "1":
        return [call() for call in calls]
    barrier = threading.Barrier(len(calls))
    replies: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Reply]) -> None:
        try:
            barrier.wait(timeout=30)
            replies[index] = call()
        except Exception as error:  # noqa: BLE001 - re-raised below, in the test's thread
            replies[index] = error

    threads = [threading.Thread(target=run, args=(i, c), daemon=True) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for reply in replies:
        if isinstance(reply, Exception):
            raise reply
    return replies


def server_errors(replies: Sequence[Reply], what: Sequence[str] = ()) -> list[str]:
    """A 5xx is a fault whatever raced it."""
    names = list(what) + [f"request {i + 1}" for i in range(len(what), len(replies))]
    return [f"{name} answered {reply.status}" for name, reply in zip(names, replies, strict=True) if reply.status >= 500]


def run_trials(trial: Callable[[int], list[str]], trials: int | None = None) -> None:
    """Run ``trial(i)`` ``RACE_TRIALS`` times; each returns the invariants it found broken. All
    trials run (the count of broken ones is the measure), then the test fails if any broke."""
    count = trials or trial_count()
    broken: list[tuple[int, list[str]]] = []
    for index in range(count):
        problems = trial(index)
        if problems:
            broken.append((index, problems))
    if broken:
        first = "\n".join(f"  trial {i}: {'; '.join(p)}" for i, p in broken[:5])
        raise AssertionError(f"{len(broken)} of {count} trials broke an invariant:\n{first}")


# -- invariants of a result -----------------------------------------------------------------------

def result_of_table(session: Session, table_id: int) -> Result | None:
    return session.exec(select(Result).where(Result.table_id == table_id)).first()


def result_entries(session: Session, table_id: int) -> list[AuditEntry]:
    """The audit entries of the table's result in the order the audit log shows them (oldest
    first). By table, not result id: an imported event's entries name only their table."""
    return [entry for entry in session.exec(select(AuditEntry).where(AuditEntry.table_id == table_id)
                                            .order_by(col(AuditEntry.at), col(AuditEntry.id))).all()
            if entry.action.startswith("result.")]


def audit_story(entries: Sequence[AuditEntry]) -> tuple[int, str, list[str]]:
    """Replay the audit entries of one result in the log's order: the version and status they
    tell, and where they contradict themselves (a player's confirmation of another version than
    the one the log says was current)."""
    version, status, problems = 0, "", []
    for entry in entries:
        new = entry.new or {}
        if entry.action in ("result.entered", "result.corrected"):
            version, status = int(new.get("version", version + 1)), "entered"
        elif entry.action == "result.confirmed_by_player":
            if int(new.get("version", -1)) != version:
                problems.append(f"audit: a player's confirmation of version {new.get('version')} is listed "
                                f"while version {version} is current")
        elif entry.action == "result.confirmed":
            # a confirmation makes a version of its own (entries that name none kept the version)
            version, status = int(new.get("version", version)), "confirmed"
        elif entry.action == "result.disputed":
            status = "disputed"
    return version, status, problems


def result_problems(session: Session, table_id: int) -> list[str]:
    """What must hold of a table's result at any moment:

    - a confirmed result has, for its current version, a confirmation from every seat or from
      an organizer;
    - a result whose seats have all confirmed its current version is confirmed (or disputed);
    - the audit log, read in its order, ends at the stored version and status."""
    session.expire_all()
    result = result_of_table(session, table_id)
    if result is None:
        return []
    seats = {s.id for s in session.exec(select(Seat).where(Seat.table_id == table_id)).all()}
    confirmations = session.exec(select(Confirmation).where(Confirmation.result_id == result.id,
                                                            Confirmation.result_version == result.version)).all()
    by_seat = {c.seat_id for c in confirmations if c.seat_id is not None}
    by_organizer = any(c.seat_id is None for c in confirmations)
    problems = []
    if result.status == "confirmed" and not (by_organizer or seats <= by_seat):
        problems.append(f"confirmed at version {result.version} without a confirmation of that version "
                        f"(seats {len(by_seat)}/{len(seats)}, organizer: no)")
    if result.status == "entered" and seats and seats <= by_seat:
        problems.append(f"every seat confirmed version {result.version}, but the result is still entered")
    version, status, story = audit_story(result_entries(session, table_id))
    problems.extend(story)
    if (version, status) != (result.version, result.status):
        problems.append(f"the audit log tells version {version} {status}, the result is version "
                        f"{result.version} {result.status}")
    return problems


# -- a table's result through its page ------------------------------------------------------------

DEMO_EVENT = 1


def table_path(event_id: int, round_number: int, table: int) -> str:
    return f"/events/{event_id}/rounds/{round_number}/tables/{table}"


def correction_form(client: Client, path: str) -> Form:
    """The table's result form in totals mode, as fetched (its version is the stored one)."""
    return fetch_form(client, f"{path}?edit=1&mode=totals", "/result")


def figures(form: Form, salt: int) -> dict[str, str]:
    """New totals for every seat of a result form (different for every ``salt``)."""
    changes: dict[str, str] = {}
    seats = [name.split("_", 1)[1] for name, _ in form.fields if name.startswith("points_")]
    for index, seat in enumerate(seats):
        # figures a finished game can give: never above 19 a species, never twice the others'
        changes[f"points_{seat}"] = str(20 + (salt * 7 + index * 13) % 20)
        changes[f"species_{seat}"] = str(3 + (salt + index) % 5)
    return changes


def enter_fresh_result(client: Client, path: str, salt: int) -> None:
    """A first entry, or a correction: the table's result is entered, at a new version, with no
    confirmation of it yet."""
    form = correction_form(client, path)
    reply = submit(client, form, **figures(form, salt))
    assert reply.status in (200, 302), f"entering a result: {reply.status} {reply.text[:500]}"


def _table_here(session: Session, table_id: int) -> tuple[Event, Round, round_service.TableSeating]:
    """The table's event, round and view as the results service takes them, read afresh."""
    session.expire_all()
    table = session.get(GameTable, table_id)
    assert table is not None
    rnd = session.get(Round, table.round_id)
    assert rnd is not None and rnd.id is not None
    event = session.get(Event, rnd.event_id)
    assert event is not None
    return event, rnd, round_service.tables_of(session, rnd.id, table.number)[0]


def _demo_organizer(session: Session) -> Organizer:
    return session.exec(select(Organizer).where(Organizer.name == DEMO_ACCOUNT[0])).one()


def enter_result_here(session: Session, table_id: int, salt: int) -> None:
    """What :func:`enter_fresh_result` does through the page, through the results service in this
    process (the club's receivers connected, as in the app): for a trial's starting state when
    the entry is not what races. The totals are the ones :func:`figures` gives a form."""
    event, rnd, view = _table_here(session, table_id)
    entries = [SeatEntry(s.seat.player_id or 0, 20 + (salt * 7 + index * 13) % 20, 3 + (salt + index) % 5)
               for index, s in enumerate(view.seats)]
    version = view.result.version if view.result is not None else 0
    results.save_result(session, event, rnd, view, Submission("totals", entries), version, DEMO_ACCOUNT[0])


def confirm_seats_here(session: Session, table_id: int, seat_ids: Sequence[int]) -> None:
    """The demo organizer taps "confirm" for each of ``seat_ids`` at the table's current version,
    through the results service in this process (a trial's starting state)."""
    organizer = _demo_organizer(session)
    for seat_id in seat_ids:
        event, _rnd, view = _table_here(session, table_id)
        assert view.result is not None
        results.confirm_by_seat(session, event, view, view.result, seat_id, view.result.version, organizer.id,
                                organizer.name)


def confirm_here(session: Session, table_id: int) -> None:
    """The demo organizer confirms the table's result for the whole table, through the results
    service in this process (a trial's starting state)."""
    organizer = _demo_organizer(session)
    event, _rnd, view = _table_here(session, table_id)
    assert view.result is not None
    results.confirm_by_organizer(session, event, view, view.result, view.result.version, organizer.id, organizer.name)


def awaits_confirmation(session: Session, table_id: int) -> bool:
    """The table's result is entered and nobody has confirmed its current version yet."""
    session.expire_all()
    result = result_of_table(session, table_id)
    if result is None or result.status != "entered":
        return False
    return session.exec(select(Confirmation).where(Confirmation.result_id == result.id,
                                                   Confirmation.result_version == result.version)).first() is None


def seat_ids_of(session: Session, table_id: int) -> list[int]:
    session.expire_all()
    return [s.id for s in session.exec(select(Seat).where(Seat.table_id == table_id).order_by(col(Seat.position))).all()
            if s.id is not None]


def without_rounds(export: bytes) -> bytes:
    """An event export as it was before its first round: its players, checked in, no rounds."""
    import json

    data = json.loads(export)
    data["rounds"], data["audit"] = [], []
    return json.dumps(data).encode()
