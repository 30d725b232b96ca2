"""The public event page under a room's load: phones refreshing ``/e/<code>`` every
10 seconds while the tables report their results from the players' own pages.

Run: .venv/bin/python bench/bench_public.py [--phones 500] [--tables 60] [--seconds 60]
     [--workers W] [--threads T] [--database-url ...]

1. A fresh SQLite database (or ``--database-url``, emptied first!) holds an event of
   ``4 x tables`` players (``bench/load.py``'s: round 1 closed, round 2 published), players
   reporting and confirming themselves.
2. The production server for live tables (``gunicorn -c python:organizer.live_gunicorn``) on a
   loopback port.
3. For ``--seconds``: every phone opens the page once, then asks ``/e/<code>/changed?since=``
   every 10 s (the page's own htmx poll: 204 while nothing changed, the page when something did),
   staggered over the 10 s as real phones are. Every table, every ``--report-every`` seconds
   (30: two results a second from 60 tables, far more than a real round's), has one of its
   players open their page and send a corrected result (totals, the version they saw), the
   players taking turns so no one meets the reporting rate limit. So nearly every poll finds a
   change: the figures are those of the page's fragment, not of the 204. ``--report-every 300``
   is a quieter room (a result every 5 s), where some polls find nothing new.
4. Figures per kind of request: count, p50/p95/p99 latency, errors (any status but the expected
   one, a timeout, a refused connection). The load generator runs on the same machine, and so may
   anything else: the CPU time the server's processes used is printed too, a figure the machine's
   other load does not change much.

The target of the issue: p95 under 100 ms for the phones, no errors, on SQLite."""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import REQUEST_TIMEOUT, Session, Stats, free_port, percentile, prepare, timed  # noqa: E402

PERIOD = 10.0
STAMP = re.compile(r"changed\?since=([0-9a-f]+)")
VERSION = re.compile(r'name="version" value="(\d+)"')
SEAT = re.compile(r'name="species_(\d+)"')
#: a player's page carries its CSRF token for htmx in the body's hx-headers
CSRF_HEADER = re.compile(r'"X-CSRFToken": "([^"]+)"')


class Phone(Session):
    """A phone's browser: htmx marks its polls, as the page's own poll does."""

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        if "/changed?" not in path:
            return super().request(method, path, form)
        try:
            self.connection.request(method, path, headers={"HX-Request": "true"})
            response = self.connection.getresponse()
            return response.status, response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
            raise


def setup(database_url: str, tables: int) -> tuple[str, list[list[str]]]:
    """The event's public code and each table's players' tokens (round 2)."""
    from sqlmodel import Session as DbSession
    from sqlmodel import select

    from organizer.core.db import make_engine
    from organizer.core.models import Event, Round
    from organizer.rounds import service as rounds

    event_id = prepare(database_url, tables)
    engine = make_engine(database_url)
    with DbSession(engine) as db:
        event = db.get(Event, event_id)
        assert event is not None
        event.self_report = "players"
        db.add(event)
        db.commit()
        second = db.exec(select(Round).where(Round.event_id == event_id, Round.number == 2)).one()
        assert second.id is not None
        tokens = [[s.player.token for s in view.seats if s.player] for view in rounds.tables_of(db, second.id)]
        code = event.public_code
    engine.dispose()
    return code, tokens


def phones(port: int, code: str, count: int, offset: float, stop: threading.Event, stats: Stats,
           ready: threading.Barrier) -> None:
    """``count`` phones on one connection, each polling every PERIOD seconds, spread over it."""
    session = Phone(port)
    stamps = [""] * count
    ready.wait()
    begun = time.monotonic()
    tick = 0
    while not stop.is_set():
        for index in range(count):
            due = begun + tick * PERIOD + offset + index * PERIOD / count
            wait = due - time.monotonic()
            if wait > 0 and stop.wait(wait):
                return
            if not stamps[index]:
                body = timed(stats, session, "page (first open)", 200, "GET", f"/e/{code}")
            else:
                started = time.perf_counter()
                try:
                    status, body = session.request("GET", f"/e/{code}/changed?since={stamps[index]}")
                except Exception as error:  # noqa: BLE001 - a timeout or a refused connection is an error of the run
                    stats.record("poll", 0, type(error).__name__)
                    continue
                elapsed = time.perf_counter() - started
                kind = "poll: 204 unchanged" if status == 204 else "poll: 200 changed"
                stats.record(kind, elapsed, "" if status in (200, 204) else f"HTTP {status}")
            found = STAMP.search(body)
            if found:
                stamps[index] = found.group(1)
        tick += 1


def reporter(port: int, tokens: list[str], offset: float, every: float, stop: threading.Event, stats: Stats,
             ready: threading.Barrier) -> None:
    session = Session(port)
    ready.wait()
    begun = time.monotonic()
    turn = 0
    while not stop.is_set():
        wait = begun + turn * every + offset - time.monotonic()
        if wait > 0 and stop.wait(wait):
            return
        token = tokens[turn % len(tokens)]
        body = timed(stats, session, "player page", 200, "GET", f"/p/{token}")
        csrf = CSRF_HEADER.search(body)
        if csrf:
            session.token = csrf.group(1)
        seats = list(dict.fromkeys(SEAT.findall(body)))
        version = VERSION.search(body)
        table = re.search(r'name="table" value="(\d+)"', body)
        if seats and table and not stop.is_set():
            form = {"mode": "totals", "round": "2", "table": table.group(1),
                    "version": version.group(1) if version else "0"}
            for i, seat in enumerate(seats):
                form[f"points_{seat}"] = str((turn + i * 13) % 70)
                form[f"species_{seat}"] = str(2 + (turn + i) % 6)
            timed(stats, session, "report", 200, "POST", f"/p/{token}/report", form)
        turn += 1


def run(args: argparse.Namespace) -> str:
    workdir = Path(tempfile.mkdtemp(prefix="arboretum-public-"))
    try:
        database_url = args.database_url or f"sqlite:///{workdir / 'public.sqlite3'}"
        code, tokens = setup(database_url, args.tables)
        port = free_port()
        env = {**os.environ, "DATABASE_URL": database_url, "ORGANIZER_INSTANCE_PATH": str(workdir / "instance")}
        if not args.no_wal:  # the README's setting for a room of phones on SQLite: readers never wait for a writer
            env["ORGANIZER_SQLITE_WAL"] = "1"
        gunicorn = Path(sys.executable).parent / "gunicorn"
        command = [str(gunicorn), "-c", "python:organizer.live_gunicorn"]
        command += ["-w", str(args.workers)] if args.workers else []
        command += ["--threads", str(args.threads)] if args.threads else []
        command += ["-b", f"127.0.0.1:{port}", "--log-level", "warning", "organizer:create_app()"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        setup_cpu = before.ru_utime + before.ru_stime
        server = subprocess.Popen(command, cwd=ROOT, env=env)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    Session(port).request("GET", "/sign-in")
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise RuntimeError("gunicorn did not start") from None
                    time.sleep(0.1)
            stats = Stats()
            stop = threading.Event()
            per_thread = max(1, args.phones // args.phone_threads)
            groups = [per_thread] * (args.phones // per_thread) + ([args.phones % per_thread] if args.phones % per_thread else [])
            ready = threading.Barrier(len(groups) + len(tokens) + 1)
            threads = [threading.Thread(target=phones, daemon=True,
                                        args=(port, code, count, i * PERIOD / len(groups) / per_thread, stop, stats, ready))
                       for i, count in enumerate(groups)]
            threads += [threading.Thread(target=reporter, daemon=True,
                                         args=(port, table_tokens, i * args.report_every / len(tokens), args.report_every,
                                               stop, stats, ready))
                        for i, table_tokens in enumerate(tokens)]
            for thread in threads:
                thread.start()
            ready.wait(timeout=120)
            begun = time.perf_counter()
            own = resource.getrusage(resource.RUSAGE_SELF)
            client_cpu_before = own.ru_utime + own.ru_stime
            time.sleep(args.seconds)
            stop.set()
            for thread in threads:
                thread.join(REQUEST_TIMEOUT + 5)
            elapsed = time.perf_counter() - begun
        finally:
            server.terminate()
            server.wait(timeout=30)
        # the server's processes, reaped: its CPU time is the figure the machine's other load does not blur
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        server_cpu = children.ru_utime + children.ru_stime - setup_cpu
        own = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = own.ru_utime + own.ru_stime - client_cpu_before
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    backend = "PostgreSQL" if args.database_url.startswith("postgres") else "SQLite"
    wal = "" if args.no_wal or backend != "SQLite" else " (WAL)"
    lines = [f"Public event page: {args.phones} phones polling every {PERIOD:.0f} s while {len(tokens)} tables report "
             f"from the players' pages (each table every {args.report_every:.0f} s), {elapsed:.0f} s, gunicorn "
             f"{' '.join(command[1:command.index('-b')])}, {backend}{wal}, "
             f"{platform.machine()} x {os.cpu_count()} cores "
             f"(load average {os.getloadavg()[0]:.1f} at the end), load generator on the same machine; "
             f"CPU time of the server {server_cpu:.1f} s (start-up included), of the load generator {client_cpu:.1f} s.", "",
             "| request | count | per second | p50 ms | p95 ms | p99 ms | errors |", "|---|---|---|---|---|---|---|"]
    phone_latencies: list[float] = []
    for kind in ("page (first open)", "poll: 204 unchanged", "poll: 200 changed", "player page", "report"):
        values = stats.latencies.get(kind, [])
        errors = stats.errors.get(kind, [])
        if kind.startswith("poll"):
            phone_latencies += values
        if not values:
            lines.append(f"| {kind} | 0 | - | - | - | - | {len(errors)} |")
            continue
        lines.append(f"| {kind} | {len(values)} | {len(values) / elapsed:.1f} | {statistics.median(values) * 1000:.1f} "
                     f"| {percentile(values, 0.95) * 1000:.1f} | {percentile(values, 0.99) * 1000:.1f} | {len(errors)} |")
    all_errors = sorted({e for errors in stats.errors.values() for e in errors})
    if phone_latencies:
        lines.append(f"| phones' polls together | {len(phone_latencies)} | {len(phone_latencies) / elapsed:.1f} "
                     f"| {statistics.median(phone_latencies) * 1000:.1f} | {percentile(phone_latencies, 0.95) * 1000:.1f} "
                     f"| {percentile(phone_latencies, 0.99) * 1000:.1f} | {len(stats.errors.get('poll', []))} |")
    if all_errors:
        lines += ["", "errors: " + ", ".join(all_errors)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--phone-threads", type=int, default=50, help="load-generator threads the phones share")
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--report-every", type=float, default=30.0,
                        help="seconds between two results sent from one table (the tables spread over it)")
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--no-wal", action="store_true", help="SQLite without ORGANIZER_SQLITE_WAL=1")
    args = parser.parse_args(argv)
    print(run(args), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
