"""Live tables under load: 100 tables x 4 seats, each with its stream open and polling once a
second besides, against the production server (gunicorn), with its own load generator on loopback.

Run: .venv/bin/python bench/bench_live.py [--tables 100] [--seconds 30] [--workers 3] [--threads 8]
     [--worker-class gevent|gthread] [--database-url postgresql+psycopg://...] [--servers 2 --caddy] [--write]

1. Sets up an event in a fresh database (SQLite in a temporary directory, or ``--database-url``,
   emptied first): 4 x ``--tables`` players, round 1 a draft at 4-player tables, published, the
   tables dealt.
2. Starts ``gunicorn -c python:organizer.live_gunicorn -w W`` on a loopback port (gevent workers;
   ``--worker-class gthread`` runs the threaded workers, where pages only poll); with
   ``--servers N`` (PostgreSQL only) N such servers, each with its own instance folder and port and
   no shared secret but the database; with ``--caddy`` Caddy in front of them on its own port (round
   robin, health checks on ``/health``, as deploy/Caddyfile.domain), and every request of the load
   goes through Caddy.
3. Live phase (``--seconds``): every seat keeps one HTTP/1.1 keep-alive connection and asks
   ``/play/<token>/changed?since=N`` once a second (start times spread over the first second),
   as the seat page's HTMX poll does; a 200 carries the new screen and its version. Under gevent
   every seat also keeps its stream (``/play/<token>/events``) open, and when the stream says a
   version newer than its screen's, asks for its screen at once (``…&pushed=M``), on the poll's
   connection, as the page does; while its stream has said a mark in the last 12 s (the server
   repeats it every 5 s), the seat's timed poll goes out only every 5 s, as static/core/push.js
   does. Meanwhile
   ``--pickers`` tables play picks through the seat forms (page, then the pick with its nonce,
   stamp and CSRF token), and for each pick round the time from the last seat's pick to the
   moment every seat's poll has shown the reveal is measured.
4. Baseline phase: the same server's (or proxy's) throughput on the trivial ``/healthz``
   endpoint, closed loop with 32 connections for 5 seconds, in the same run.

Everything is bounded: the connection count, the phase lengths and a hard timeout per request.
``--write`` appends the figures to docs/performance.md ("Live tables")."""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REQUEST_TIMEOUT = 10.0
#: as static/core/push.js: a stream heard within STREAM_ALIVE s lets the timed poll wait SLOW_POLL s
STREAM_ALIVE = 12.0
SLOW_POLL = 5.0
VERSION = re.compile(rb'data-version="(\d+)"')
STAMP = re.compile(rb'name="stamp" value="(-?\d+)"')
NONCE = re.compile(rb'name="nonce" value="([^"]+)"')
CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')
CARD = re.compile(rb'name="card" value="([^"]+)"')
CELL = re.compile(rb'name="cell" value="(-?\d+,-?\d+)"')


# -- a small HTTP/1.1 keep-alive client ------------------------------------------------------------

class Connection:
    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie = ""

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
                      retry: bool = True) -> tuple[int, bytes]:
        try:
            return await asyncio.wait_for(self._request(method, path, body, headers or {}), REQUEST_TIMEOUT)
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            await self.close()
            if not retry:
                raise
            return await self.request(method, path, body, headers, retry=False)

    async def _request(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        if self.writer is None:
            await self._open()
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: keep-alive"]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        for key, value in headers.items():
            lines.append(f"{key}: {value}")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        length = 0
        close = False
        while True:
            line = await self.reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            value = value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and value.lower() == "close":
                close = True
            elif name == "set-cookie":
                self.cookie = value.split(";", 1)[0]
            elif name == "transfer-encoding":
                raise RuntimeError("chunked answers are not expected here")
        data = await self.reader.readexactly(length) if length else b""
        if close:
            await self.close()
        return status, data


# -- the measurements ----------------------------------------------------------------------------

@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, status: int, seconds: float) -> None:
        self.latencies.append(seconds)
        self.statuses[status] = self.statuses.get(status, 0) + 1


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Seat:
    token: str
    table: int
    position: int
    version: int = 0
    #: the screen the seat's phone shows now, and its cookie (session and CSRF token)
    html: bytes = b""
    cookie: str = ""
    #: when the seat's stream last said a mark, and when its poll last went out
    heard_at: float = 0.0
    polled_at: float = 0.0


@dataclass
class Reveal:
    target: int
    started: float
    seen: dict[int, float] = field(default_factory=dict)


class Bench:
    def __init__(self, port: int, seats: list[Seat], seconds: float, push: bool = False) -> None:
        self.port = port
        self.seats = seats
        self.seconds = seconds
        self.push = push
        self.polls = Stats()
        self.pushed = Stats()
        self.streams_open = 0
        self.stream_errors: list[str] = []
        self.connections: dict[str, Connection] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.memory: Callable[[], float] | None = None
        self.rss_connected = 0.0
        self.pick_requests = Stats()
        self.reveals: dict[int, Reveal] = {}
        self.reveal_times: list[float] = []
        self.end = 0.0

    async def ask(self, seat: Seat, stats: Stats, pushed: str = "") -> None:
        """The seat's poll (or, told by its stream, its poll with the mark it was told), on the
        seat's one connection, one request at a time as htmx queues them."""
        conn = self.connections[seat.token]
        async with self.locks[seat.token]:
            began = seat.polled_at = time.perf_counter()
            path = f"/play/{seat.token}/changed?since={seat.version}" + (f"&pushed={pushed}" if pushed else "")
            try:
                status, body = await conn.request("GET", path, headers={"HX-Request": "true"})
            except Exception as exc:  # noqa: BLE001 - counted as an error
                stats.errors.append(f"{type(exc).__name__}: {exc}")
                return
            done = time.perf_counter()
            stats.add(status, done - began)
            if status == 200:
                match = VERSION.search(body)
                if match and int(match.group(1)) >= seat.version:
                    seat.version = int(match.group(1))
                    seat.html = body
                    seat.cookie = conn.cookie
                    self.saw(seat, done)
            elif status != 204:
                stats.errors.append(f"status {status}")

    async def poller(self, seat: Seat, start: float) -> None:
        conn = self.connections[seat.token] = Connection(self.port)
        self.locks[seat.token] = asyncio.Lock()
        conn.cookie = seat.cookie
        next_at = start + random.random()
        try:
            while True:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                now = time.perf_counter()
                if now >= self.end:
                    return
                next_at += 1.0
                if self.push and now - seat.heard_at < STREAM_ALIVE and now - seat.polled_at < SLOW_POLL - 0.5:
                    continue  # the stream is alive: the page's timed poll waits
                await self.ask(seat, self.polls)
        finally:
            await conn.close()

    async def stream(self, seat: Seat) -> None:
        """The seat's EventSource: a version newer than the screen's is asked for at once."""
        await asyncio.sleep(random.random())
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError as exc:
            self.stream_errors.append(f"{type(exc).__name__}: {exc}")
            return
        try:
            writer.write(f"GET /play/{seat.token}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            status = await asyncio.wait_for(reader.readuntil(b"\r\n"), REQUEST_TIMEOUT)
            if b" 200 " not in status:
                self.stream_errors.append(f"stream answered {status!r}")
                return
            self.streams_open += 1
            while True:
                left = self.end - time.perf_counter()
                if left <= 0:
                    return
                try:
                    line = await asyncio.wait_for(reader.readline(), left)
                except TimeoutError:
                    return
                if not line:
                    self.stream_errors.append("a stream ended early")
                    return
                if line.startswith(b"data: "):
                    seat.heard_at = time.perf_counter()
                    mark = line[len(b"data: "):].strip().decode()
                    if int(mark.rstrip("b")) > seat.version and seat.token in self.connections:
                        asyncio.get_running_loop().create_task(self.ask(seat, self.pushed, mark))
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
            self.stream_errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            writer.close()

    def saw(self, seat: Seat, at: float) -> None:
        reveal = self.reveals.get(seat.table)
        if reveal is not None and seat.version >= reveal.target and seat.position not in reveal.seen:
            reveal.seen[seat.position] = at
            if len(reveal.seen) == 4:
                self.reveal_times.append(max(reveal.seen.values()) - reveal.started)
                del self.reveals[seat.table]

    async def picker(self, table_seats: list[Seat], start: float, rounds: int) -> None:
        """Plays ``rounds`` picks at one table as four phones would: each seat taps a card and a
        cell on the screen its polls last brought (its nonce, stamp and CSRF token)."""
        conns = [Connection(self.port) for _ in table_seats]
        await asyncio.sleep(2.0 + random.random() * 3.0)
        try:
            for _ in range(rounds):
                if time.perf_counter() > self.end - 4.0:
                    return
                last_sent = 0.0
                last_version = 0
                for seat, conn in zip(table_seats, conns, strict=True):
                    page = seat.html
                    cards, cells = CARD.findall(page), CELL.findall(page)
                    form = {
                        "csrf_token": CSRF.search(page).group(1), "nonce": NONCE.search(page).group(1),  # type: ignore[union-attr]
                        "stamp": STAMP.search(page).group(1), "verb": b"pick",  # type: ignore[union-attr]
                        "card": random.choice(cards), "cell": random.choice(cells) if cells else b"discard",
                    }
                    body = b"&".join(f"{k}=".encode() + _quote(v) for k, v in form.items())
                    conn.cookie = seat.cookie
                    last_sent = time.perf_counter()
                    try:
                        status, answer = await conn.request(
                            "POST", f"/play/{seat.token}/act", body,
                            {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"})
                    except Exception as exc:  # noqa: BLE001 - counted as an error; the table stops
                        self.pick_requests.errors.append(f"pick {type(exc).__name__}: {exc}")
                        return
                    self.pick_requests.add(status, time.perf_counter() - last_sent)
                    if status != 200:
                        self.pick_requests.errors.append(f"pick status {status}: {answer[:200]!r}")
                        return
                    match = VERSION.search(answer)
                    last_version = int(match.group(1)) if match else 0
                    if last_version >= seat.version:
                        seat.version, seat.html = last_version, answer
                # the last pick revealed all four: now wait until every seat's poll shows it
                self.reveals[table_seats[0].table] = Reveal(last_version, last_sent)
                for seat in table_seats:
                    if seat.version >= last_version:
                        self.saw(seat, time.perf_counter())
                while table_seats[0].table in self.reveals and time.perf_counter() < self.end:
                    await asyncio.sleep(0.1)
                await asyncio.sleep(2.0 + random.random())
        finally:
            for conn in conns:
                await conn.close()

    async def warm_up(self) -> None:
        """Every seat opens its page once, as each phone does when its QR code is scanned (not
        measured: the first answers of each worker also compile the templates)."""
        queue = list(self.seats)

        async def opener() -> None:
            conn = Connection(self.port)
            try:
                while queue:
                    seat = queue.pop()
                    conn.cookie = ""  # each phone has its own session
                    status, body = await conn.request("GET", f"/play/{seat.token}")
                    match = VERSION.search(body)
                    if status != 200 or not match:
                        self.polls.errors.append(f"seat page answered {status} in the warm-up")
                        continue
                    seat.version, seat.html, seat.cookie = int(match.group(1)), body, conn.cookie
            finally:
                await conn.close()

        await asyncio.gather(*(opener() for _ in range(16)))

    async def run(self, pickers: int, pick_rounds: int) -> None:
        await self.warm_up()
        start = time.perf_counter()
        self.end = start + self.seconds
        tasks = [asyncio.create_task(self.poller(seat, start)) for seat in self.seats]
        if self.push:
            tasks += [asyncio.create_task(self.stream(seat)) for seat in self.seats]
        by_table: dict[int, list[Seat]] = {}
        for seat in self.seats:
            by_table.setdefault(seat.table, []).append(seat)
        for table in list(by_table)[:pickers]:
            tasks.append(asyncio.create_task(self.picker(sorted(by_table[table], key=lambda s: s.position), start,
                                                         pick_rounds)))
        tasks.append(asyncio.create_task(self.sample_memory()))
        await asyncio.gather(*tasks)

    async def sample_memory(self) -> None:
        """The server's memory while every seat is connected (two seconds before the end)."""
        await asyncio.sleep(max(0.0, self.end - 2.0 - time.perf_counter()))
        if self.memory is not None:
            self.rss_connected = self.memory()


def _quote(value: bytes | str) -> bytes:
    from urllib.parse import quote_plus

    return quote_plus(value if isinstance(value, bytes) else value.encode()).encode()


async def baseline(port: int, seconds: float, connections: int = 32) -> Stats:
    stats = Stats()
    end = time.perf_counter() + seconds

    async def loop() -> None:
        conn = Connection(port)
        try:
            while time.perf_counter() < end:
                began = time.perf_counter()
                try:
                    status, _ = await conn.request("GET", "/healthz")
                except Exception as exc:  # noqa: BLE001
                    stats.errors.append(str(exc))
                    continue
                stats.add(status, time.perf_counter() - began)
        finally:
            await conn.close()

    await asyncio.gather(*(loop() for _ in range(connections)))
    return stats


# -- set-up and server ---------------------------------------------------------------------------

def set_up(database_url: str, instance: Path, tables: int) -> list[Seat]:
    os.environ["ORGANIZER_INSTANCE_PATH"] = str(instance)
    from datetime import date

    from sqlmodel import Session

    from organizer import create_app
    from organizer.core.models import Player
    from organizer.events import service as event_service
    from organizer.live import tables as live_tables
    from organizer.rounds import service as round_service

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "bench-secret"})
    engine = app.extensions["db_engine"]
    with Session(engine, expire_on_commit=False) as db:
        data = event_service.EventInput(name="Benchmark Open", date=date(2026, 6, 1))
        data.round_formats = ["draft"]
        event = event_service.create_event(db, data, None, "bench")
        assert event.id is not None
        db.add_all([Player(event_id=event.id, name=f"Player {i:04d}", name_key=f"player {i:04d}", checked_in=True)
                    for i in range(tables * 4)])
        db.commit()
        rnd = round_service.propose_round(db, event, "bench", seed=1)
        round_service.publish_round(db, event, rnd, "bench")
        live_tables.start_round(db, event, rnd)
        assert rnd.id is not None
        seats = [Seat(s.seat.token, view.table.number, s.seat.position, view.table.log_version)
                 for view in round_service.tables_of(db, rnd.id) for s in view.seats]
    engine.dispose()
    return seats


def empty_database(url: str) -> None:
    from sqlalchemy import text

    from organizer.core.db import make_engine

    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(database_url: str, instance: Path, port: int, workers: int, threads: int,
                 worker_class: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": database_url, "ORGANIZER_INSTANCE_PATH": str(instance),
           "ORGANIZER_WORKER_CLASS": worker_class}
    # the documented production command (organizer/live_gunicorn.py), with the benchmark's sizes
    command = [str(Path(sys.executable).parent / "gunicorn"), "-c", "python:organizer.live_gunicorn",
               "-w", str(workers), "--threads", str(threads), "-b", f"127.0.0.1:{port}", "--log-level", "warning",
               "organizer:create_app()"]
    log = (instance / "gunicorn.log").open("wb")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                              start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            if server.poll() is not None:
                raise SystemExit("gunicorn did not start:\n" + (instance / "gunicorn.log").read_text()) from None
            time.sleep(0.2)
    os.killpg(server.pid, signal.SIGTERM)
    raise SystemExit("gunicorn did not answer within 30 s")


def start_caddy(upstreams: list[int], port: int, work: Path) -> subprocess.Popen[bytes]:
    """Caddy on ``port`` in front of the servers on ``upstreams``: round robin, active health
    checks on /health, no buffering (the reverse_proxy block of deploy/Caddyfile.domain)."""
    caddy = shutil.which("caddy")
    if caddy is None:
        raise SystemExit("--caddy needs Caddy (apt-get install caddy)")
    dials = " ".join(f"127.0.0.1:{upstream}" for upstream in upstreams)
    config = work / "Caddyfile"
    config.write_text(f"{{\n\tadmin off\n\tauto_https off\n}}\n\n"
                      f"http://127.0.0.1:{port} {{\n\tbind 127.0.0.1\n\treverse_proxy {dials} {{\n"
                      "\t\tlb_policy round_robin\n\t\tlb_try_duration 5s\n\t\thealth_uri /health\n"
                      "\t\thealth_interval 10s\n\t\tflush_interval -1\n\t}\n}\n")
    log = (work / "caddy.log").open("wb")
    proxy = subprocess.Popen([caddy, "run", "--config", str(config), "--adapter", "caddyfile"], cwd=work,
                             env={**os.environ, "HOME": str(work), "XDG_DATA_HOME": str(work / "caddy-data"),
                                  "XDG_CONFIG_HOME": str(work / "caddy-config")},
                             stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proxy
        except OSError:
            if proxy.poll() is not None:
                raise SystemExit("Caddy did not start:\n" + (work / "caddy.log").read_text()) from None
            time.sleep(0.2)
    os.killpg(proxy.pid, signal.SIGTERM)
    raise SystemExit("Caddy did not answer within 30 s")


def server_cpu_seconds(master: int) -> float:
    """CPU time used so far by the gunicorn master and its workers (Linux /proc)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == master or ppid == master:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def server_rss_mb(master: int) -> float:
    """Resident memory of the gunicorn master and its workers (Linux /proc), in MB."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            ppid = int(re.search(r"PPid:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
            rss = re.search(r"VmRSS:\s+(\d+) kB", status)
        except (OSError, AttributeError):
            continue
        if (int(entry.name) == master or ppid == master) and rss:
            total += int(rss.group(1))
    return total / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--worker-class", choices=("gevent", "gthread"), default="gevent")
    parser.add_argument("--pickers", type=int, default=20, help="tables that play picks during the run")
    parser.add_argument("--pick-rounds", type=int, default=5)
    parser.add_argument("--database-url", default="", help="PostgreSQL to use (emptied first!); default SQLite")
    parser.add_argument("--servers", type=int, default=1, help="app servers on the one database (2+: PostgreSQL)")
    parser.add_argument("--caddy", action="store_true", help="send the load through Caddy in front of the servers")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.tables <= 500 or not 5 <= args.seconds <= 300:
        parser.error("--tables 1..500 and --seconds 5..300 keep the run bounded")
    if not 1 <= args.servers <= 4:
        parser.error("--servers 1..4")
    if args.servers > 1 and not args.database_url:
        parser.error("--servers 2 or more share one database: give --database-url (PostgreSQL)")
    if args.servers > 1 and not args.caddy:
        parser.error("--servers 2 or more take the load through a proxy: add --caddy")

    work = Path(tempfile.mkdtemp(prefix="bench-live-"))
    instance = work / "instance"
    instance.mkdir()
    database_url = args.database_url or f"sqlite:///{work / 'bench.sqlite3'}"
    if args.database_url:
        empty_database(database_url)
    began = time.perf_counter()
    seats = set_up(database_url, instance, args.tables)
    print(f"set up {args.tables} tables ({len(seats)} seats) in {time.perf_counter() - began:.1f} s", flush=True)
    instances = [instance] + [work / f"instance-{number}" for number in range(2, args.servers + 1)]
    for folder in instances[1:]:
        folder.mkdir()
    ports = [free_port() for _ in instances]
    push = args.worker_class == "gevent"
    processes: list[subprocess.Popen[bytes]] = []
    try:
        processes.extend(start_server(database_url, folder, port, args.workers, args.threads, args.worker_class)
                         for folder, port in zip(instances, ports, strict=True))
        servers_only = list(processes)
        port = ports[0]
        if args.caddy:
            port = free_port()
            processes.append(start_caddy(ports, port, work))
        bench = Bench(port, seats, args.seconds, push)
        bench.memory = lambda: sum(server_rss_mb(server.pid) for server in servers_only)
        load_before = os.getloadavg()[0]
        cpu_before = os.times()
        rss_before = sum(server_rss_mb(server.pid) for server in servers_only)
        server_before = sum(server_cpu_seconds(process.pid) for process in processes)
        asyncio.run(bench.run(args.pickers, args.pick_rounds))
        server_cpu = sum(server_cpu_seconds(process.pid) for process in processes) - server_before
        cpu_after = os.times()
        base = asyncio.run(baseline(port, 5.0))
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=20)
        server_log = "".join((folder / "gunicorn.log").read_text(errors="replace") for folder in instances
                             if (folder / "gunicorn.log").exists())
        shutil.rmtree(work, ignore_errors=True)
        if "Traceback" in server_log:
            print("server errors (first one):\n" + server_log[server_log.index("Traceback"):][:3000])

    polls = bench.polls
    generator_cpu = (cpu_after.user - cpu_before.user) + (cpu_after.system - cpu_before.system)
    seconds_total = args.seconds
    requests = len(polls.latencies) + len(bench.pushed.latencies) + len(bench.pick_requests.latencies)
    servers = f"{args.servers} servers, each " if args.servers > 1 else "server: "
    proxy = "; the load through Caddy (round robin)" if args.caddy else ""
    lines = [
        f"database: {'PostgreSQL' if args.database_url else 'SQLite'}; {servers}gunicorn -c python:organizer.live_gunicorn "
        f"-w {args.workers} ({args.worker_class}{'' if push else f', {args.threads} threads'}, preloaded){proxy}; "
        f"{args.tables} tables x 4 seats {'with a stream open each and ' if push else ''}polling once a second "
        f"for {args.seconds:.0f} s; {args.pickers} tables picking meanwhile",
        f"streams: {bench.streams_open} opened, errors {len(bench.stream_errors)}; polls a stream prompted: "
        f"{len(bench.pushed.latencies)}, p50 {percentile(bench.pushed.latencies, .5) * 1000:.1f} ms, "
        f"p95 {percentile(bench.pushed.latencies, .95) * 1000:.1f} ms, errors {len(bench.pushed.errors)}"
        if push else "streams: none (threaded workers: the pages poll only)",
        f"fallback polls: {len(polls.latencies)} answered ({len(polls.latencies) / args.seconds:.0f}/s), statuses "
        f"{polls.statuses}, errors {len(polls.errors)}",
        f"fallback poll latency ms: p50 {percentile(polls.latencies, .5) * 1000:.1f}, p95 "
        f"{percentile(polls.latencies, .95) * 1000:.1f}, p99 {percentile(polls.latencies, .99) * 1000:.1f}, max "
        f"{max(polls.latencies, default=0) * 1000:.1f}",
        f"picks: {len(bench.pick_requests.latencies)}, p50 "
        f"{percentile(bench.pick_requests.latencies, .5) * 1000:.1f} ms, p95 "
        f"{percentile(bench.pick_requests.latencies, .95) * 1000:.1f} ms, errors {len(bench.pick_requests.errors)}",
        f"last pick to every seat showing the reveal: {len(bench.reveal_times)} reveals, median "
        f"{statistics.median(bench.reveal_times) if bench.reveal_times else float('nan'):.2f} s, p95 "
        f"{percentile(bench.reveal_times, .95):.2f} s, max {max(bench.reveal_times, default=float('nan')):.2f} s",
        f"trivial endpoint /healthz, 32 connections closed loop, same {'proxy' if args.caddy else 'server'}: "
        f"{len(base.latencies) / 5.0:.0f} req/s, "
        f"p50 {percentile(base.latencies, .5) * 1000:.1f} ms, errors {len(base.errors)}",
        f"server{'s and proxy' if args.caddy else ''} CPU {server_cpu:.1f} s over the live phase (incl. warm-up), "
        f"{server_cpu / max(1, requests) * 1000:.2f} ms a request, "
        f"{server_cpu / seconds_total / max(1, len(seats)) * 1000:.2f} ms of CPU a second per connected seat; "
        f"server memory with every seat connected {bench.rss_connected:.0f} MB "
        f"({bench.rss_connected * 1024 / max(1, len(seats)):.0f} kB a seat, all included), before the phase "
        f"{rss_before:.0f} MB; load generator CPU {generator_cpu:.1f} s; load average before {load_before:.1f}; "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
    ]
    for line in lines:
        print(line)
    for problem in (polls.errors + bench.pushed.errors + bench.stream_errors + bench.pick_requests.errors)[:5]:
        print("  error:", problem)
    if args.write:
        database = "PostgreSQL" if args.database_url else "SQLite"
        command = "bench/bench_live.py " + " ".join(a for a in sys.argv[1:] if a != "--write")
        command = re.sub(r"--database-url \S+", "--database-url postgresql+psycopg://…", command)
        with (ROOT / "docs" / "performance.md").open("a") as out:
            where = f", {args.servers} servers behind Caddy" if args.caddy and args.servers > 1 else (
                ", behind Caddy" if args.caddy else "")
            out.write(f"\n## Live tables on {database}{where}, {args.pickers} tables picking (bench/bench_live.py)\n\n"
                      f"`.venv/bin/python {command}` "
                      f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}). Latency is measured by the load "
                      "generator from sending a request to the last byte of its answer, on one keep-alive "
                      "connection per seat; the load generator runs on the same 2 cores.\n\n")
            out.writelines(f"- {line}\n" for line in lines)

if __name__ == "__main__":
    main()
