"""Load: the organizer's pages under concurrent use, then the live-table benchmark, in one run.

Run: .venv/bin/python bench/load.py [--tablets 24] [--viewers 8] [--seconds 20] [--gthread]
     [--workers W] [--threads T] [--database-url postgresql+psycopg://...] [--skip-live]
     [-- <bench_live.py options>]

1. A fresh database (SQLite in a temporary directory, or ``--database-url``, emptied first!)
   holds an event of ``4 x tablets`` players, round 1 published at 4-player tables, and a
   finished earlier round, so the standings have real work to do.
2. The production server as the README documents it on a loopback port: ``gunicorn --preload
   -w 4``, or with ``--gthread`` the live-table configuration ``-c python:organizer.live_gunicorn``.
3. For ``--seconds``: every tablet (one per table, signed in as a judge, its own keep-alive
   connection) loops over what a table does: open its table page, save a corrected result
   (totals, with the version it read, as the form posts it), open the standings. Every viewer
   loops over the standings page and the projector's standings. All closed loop, no think time,
   so the figures are the server's capacity, not a real room's load (a room of 64 tables sends
   a few requests a second).
4. Figures per page: requests, throughput, p50/p95/p99 latency, errors (any status but the
   expected one, timeouts, refused connections); then ``bench/bench_live.py`` (100 tables x 4
   seats polling once a second; its own load generator) with the options after ``--``.

Bounded: the client count, the phase length and a 10-second timeout per request."""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REQUEST_TIMEOUT = 10.0
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')
SEAT = re.compile(r'name="species_(\d+)"')
PASSWORD = "bench password"


def prepare(database_url: str, tables: int) -> int:
    """The event and the judge account; returns the event id."""
    from sqlalchemy import text
    from sqlmodel import Session

    from organizer.accounts import service as accounts
    from organizer.core.db import make_engine, upgrade_database
    from organizer.core.models import Player
    from organizer.events import service as events
    from organizer.rounds import results
    from organizer.rounds import service as rounds

    engine = make_engine(database_url)
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    upgrade_database(engine)
    with Session(engine, expire_on_commit=False) as db:
        accounts.create_organizer(db, "judge", PASSWORD)
        event = events.create_event(db, events.EventInput(name="Load Open", date=date.today()), None, "bench")
        assert event.id is not None
        db.add_all([Player(event_id=event.id, name=f"Player {i:03d}", name_key=f"player {i:03d}", checked_in=True)
                    for i in range(tables * 4)])
        db.commit()
        # Round 1 played and closed, so the standings page ranks real results.
        first = rounds.propose_round(db, event, "bench", seed=1)
        rounds.publish_round(db, event, first, "bench")
        assert first.id is not None
        for number, view in enumerate(rounds.tables_of(db, first.id)):
            form = {"mode": "totals"}
            for i, seat in enumerate(view.seats):
                form[f"points_{seat.seat.id}"] = str((number * 7 + i * 11) % 60)
                form[f"species_{seat.seat.id}"] = str(3 + (number + i) % 5)
            saved = results.save_result(db, event, first, view, results.parse_totals(view, form), 0, "bench")
            results.confirm_by_organizer(db, event, view, saved, saved.version, None, "bench")
        rounds.close_round(db, event, first, "bench")
        second = rounds.propose_round(db, event, "bench", seed=2)
        rounds.publish_round(db, event, second, "bench")
        event_id = event.id
    engine.dispose()
    return event_id


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, page: str, seconds: float, error: str = "") -> None:
        with self.lock:
            if error:
                self.errors[page].append(error)
            else:
                self.latencies[page].append(seconds)


class Session:
    """One device: a keep-alive connection and its cookies."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
        self.cookies: dict[str, str] = {}
        self.token = ""

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode({**form, "csrf_token": self.token})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
            raise
        for raw in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = raw.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        token = CSRF.search(data)
        if token:
            self.token = token.group(1)
        return response.status, data

    def sign_in(self) -> None:
        self.request("GET", "/sign-in")
        status, _ = self.request("POST", "/sign-in", {"name": "judge", "password": PASSWORD})
        if status != 302:
            raise RuntimeError(f"sign-in failed: {status}")


def timed(stats: Stats, session: Session, page: str, expected: int, method: str, path: str,
          form: dict[str, str] | None = None) -> str:
    started = time.perf_counter()
    try:
        status, body = session.request(method, path, form)
    except Exception as error:  # noqa: BLE001 - a timeout or a refused connection is an error of the run
        stats.record(page, 0, f"{type(error).__name__}")
        return ""
    elapsed = time.perf_counter() - started
    stats.record(page, elapsed, "" if status == expected else f"HTTP {status}")
    return body


def signed_in_copy(port: int, signed: Session) -> Session:
    """Another tablet of the same judge: the session cookie (and its CSRF token) copied, as if
    signed in there too; one scrypt check per run instead of one per device."""
    session = Session(port)
    session.cookies = dict(signed.cookies)
    session.token = signed.token
    return session


def tablet(port: int, signed: Session, event_id: int, table: int, stop: threading.Event, stats: Stats,
           ready: threading.Barrier) -> None:
    session = signed_in_copy(port, signed)
    page_path = f"/events/{event_id}/rounds/2/tables/{table}"
    ready.wait()
    turn = 0
    while not stop.is_set():
        body = timed(stats, session, "table page", 200, "GET", page_path + "?edit=1&mode=totals")
        seats = list(dict.fromkeys(SEAT.findall(body)))
        version = VERSION.search(body)
        if seats and version and not stop.is_set():
            form = {"mode": "totals", "version": version.group(1)}
            for i, seat in enumerate(seats):
                form[f"points_{seat}"] = str((turn + i * 13) % 70)
                form[f"species_{seat}"] = str(2 + (turn + i) % 6)
            timed(stats, session, "save result", 302, "POST", page_path + "/result", form)
        if not stop.is_set():
            timed(stats, session, "standings", 200, "GET", f"/events/{event_id}/standings")
        turn += 1


def viewer(port: int, signed: Session, event_id: int, stop: threading.Event, stats: Stats,
           ready: threading.Barrier) -> None:
    session = signed_in_copy(port, signed)
    ready.wait()
    while not stop.is_set():
        timed(stats, session, "standings", 200, "GET", f"/events/{event_id}/standings")
        if not stop.is_set():
            timed(stats, session, "projector", 200, "GET", f"/events/{event_id}/projector")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def organizer_load(args: argparse.Namespace) -> str:
    workdir = Path(tempfile.mkdtemp(prefix="arboretum-load-"))
    try:
        database_url = args.database_url or f"sqlite:///{workdir / 'load.sqlite3'}"
        started = time.perf_counter()
        event_id = prepare(database_url, args.tablets)
        print(f"prepared {args.tablets * 4} players at {args.tablets} tables in {time.perf_counter() - started:.1f} s",
              flush=True)
        port = free_port()
        env = {**os.environ, "DATABASE_URL": database_url, "ORGANIZER_INSTANCE_PATH": str(workdir / "instance")}
        gunicorn = Path(sys.executable).parent / "gunicorn"
        if args.gthread:  # the README's server for live tables: its config file, overridable
            command = [str(gunicorn), "-c", "python:organizer.live_gunicorn"]
            command += ["-w", str(args.workers)] if args.workers else []
            command += ["--threads", str(args.threads)] if args.threads else []
        else:
            command = [str(gunicorn), "--preload", "-w", str(args.workers or 4), "--threads", str(args.threads or 1)]
        command += ["-b", f"127.0.0.1:{port}", "--log-level", "warning", "organizer:create_app()"]
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
            signed = Session(port)
            signed.sign_in()
            stats = Stats()
            stop = threading.Event()
            clients = args.tablets + args.viewers
            ready = threading.Barrier(clients + 1)
            threads = [threading.Thread(target=tablet, args=(port, signed, event_id, t + 1, stop, stats, ready), daemon=True)
                       for t in range(args.tablets)]
            threads += [threading.Thread(target=viewer, args=(port, signed, event_id, stop, stats, ready), daemon=True)
                        for _ in range(args.viewers)]
            for thread in threads:
                thread.start()
            ready.wait(timeout=120)
            begun = time.perf_counter()
            time.sleep(args.seconds)
            stop.set()
            for thread in threads:
                thread.join(REQUEST_TIMEOUT + 5)
            elapsed = time.perf_counter() - begun
        finally:
            server.terminate()
            server.wait(timeout=30)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    backend = "PostgreSQL" if args.database_url.startswith("postgres") else "SQLite"
    load = os.getloadavg()[0]
    server_text = " ".join(command[1:command.index("-b")])
    lines = [f"Organizer pages under concurrent use: {args.tablets} tablets (one per table: table page, save "
             f"result, standings) + {args.viewers} standings/projector viewers, closed loop, {elapsed:.0f} s, "
             f"gunicorn {server_text}, {backend}, {args.tablets * 4} players, "
             f"{platform.machine()} x {os.cpu_count()} cores (load average {load:.1f} at the end), load generator on "
             f"the same machine.", "",
             "| page | requests | per second | p50 ms | p95 ms | p99 ms | errors |", "|---|---|---|---|---|---|---|"]
    total, total_errors = 0, 0
    for page in ("table page", "save result", "standings", "projector"):
        values = stats.latencies.get(page, [])
        errors = stats.errors.get(page, [])
        total += len(values)
        total_errors += len(errors)
        if not values:
            lines.append(f"| {page} | 0 | - | - | - | - | {len(errors)} |")
            continue
        lines.append(f"| {page} | {len(values)} | {len(values) / elapsed:.1f} | {statistics.median(values) * 1000:.0f} "
                     f"| {percentile(values, 0.95) * 1000:.0f} | {percentile(values, 0.99) * 1000:.0f} | {len(errors)} |")
    lines.append(f"| all | {total} | {total / elapsed:.1f} | | | | {total_errors} |")
    kinds = sorted({e for errors in stats.errors.values() for e in errors})
    if kinds:
        lines.append("")
        lines.append("errors: " + ", ".join(kinds))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    live_args: list[str] = []
    if "--" in argv:
        live_args = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=24, help="tables entering results (one tablet each)")
    parser.add_argument("--viewers", type=int, default=8, help="clients reading standings and the projector")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=0, help="gunicorn workers (default: the README's -w 4, "
                        "or the config file's with --gthread)")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--gthread", action="store_true",
                        help="serve with the README's live-table config (-c python:organizer.live_gunicorn)")
    parser.add_argument("--database-url", default="", help="PostgreSQL to use (emptied first!); default SQLite")
    parser.add_argument("--skip-live", action="store_true", help="only the organizer pages")
    args = parser.parse_args(argv)
    if args.tablets < 1 or args.seconds <= 0 or args.seconds > 600 or args.tablets + args.viewers > 500:
        parser.error("keep it bounded: 1..500 clients, 0..600 seconds")

    print(organizer_load(args), flush=True)
    if args.skip_live:
        return 0
    live = ROOT / "bench" / "bench_live.py"
    if not live.exists():
        print("\n(bench/bench_live.py not found: the live-table benchmark is skipped)")
        return 0
    print(f"\nLive tables: {live.relative_to(ROOT)} {' '.join(live_args)}", flush=True)
    return subprocess.call([sys.executable, str(live), *live_args], cwd=ROOT)


if __name__ == "__main__":
    raise SystemExit(main())
