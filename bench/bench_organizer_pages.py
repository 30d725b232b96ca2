"""Benchmark: the result-entry and standings pages under concurrent use, on the documented
production server (gunicorn, ``--preload -w 4``), with its own load generator on loopback.

    .venv/bin/python bench/bench_organizer_pages.py [--seconds 15] [--tablets 16] [--viewers 4]
        [--players 64] [--database-url URL] [--write]

Set-up: a fresh database (SQLite in a temporary folder unless ``--database-url`` names an
empty PostgreSQL database) with one event of ``--players`` checked-in players, round 1 seated
at 4-player tables and published, and each table's result entered once.

Load: ``--tablets`` threads, one per table (as many tables as there are), each signed in with its
own session and CSRF token, loop like a judge correcting a result: open the result-entry form
(``GET .../tables/<t>?edit=1``), then save a correction naming the version it saw
(``POST .../result`` as htmx sends it). ``--viewers`` threads poll the standings (the page, then
its htmx fragment). Every response is checked (status and content); anything else is an error.

Reported per endpoint: requests, throughput, p50/p95/p99 latency, errors. ``--write`` puts the
figures into docs/performance.md (section "Organizer pages under load", one per database)."""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlmodel import Session  # noqa: E402

import organizer.club  # noqa: E402, F401 (the club's receivers, as in the app)
from organizer.accounts import service as accounts  # noqa: E402
from organizer.core.db import make_engine, upgrade_database  # noqa: E402
from organizer.core.models import Player  # noqa: E402
from organizer.events import service as events  # noqa: E402
from organizer.rounds import results  # noqa: E402
from organizer.rounds import service as rounds  # noqa: E402

PASSWORD = "benchmark password"
SECTION = "## Organizer pages under load (bench/bench_organizer_pages.py), {backend}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def prepare(url: str, players: int) -> tuple[int, int]:
    """The event to load: returns (event id, number of tables)."""
    engine = make_engine(url)
    upgrade_database(engine)
    with Session(engine) as session:
        accounts.create_organizer(session, "bench", PASSWORD)
        event = events.create_event(session, events.EventInput(name="Benchmark Open", date=date.today()), None, "bench")
        assert event.id is not None
        session.add_all([Player(event_id=event.id, name=f"Player {i:04d}", name_key=f"player {i:04d}", checked_in=True)
                         for i in range(players)])
        session.commit()
        first = rounds.propose_round(session, event, "bench", seed=1)
        rounds.publish_round(session, event, first, "bench")
        assert first.id is not None
        tables = rounds.tables_of(session, first.id)
        for view in tables:
            form = {}
            for position, seat in enumerate(view.seats):
                form[f"points_{seat.seat.id}"] = str(40 + position)
                form[f"species_{seat.seat.id}"] = "5"
            results.save_result(session, event, first, view, results.parse_totals(view, form), 0, "bench")
        count = len(tables)
        event_id = event.id
    engine.dispose()
    return event_id, count


class Client:
    """One browser: its own cookies, its own CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()),
                                                  NoRedirect())
        page = self.get("/sign-in")[1]
        self.token = csrf_token(page)
        status, _ = self.post("/sign-in", {"name": "bench", "password": PASSWORD})
        if status != 302:
            raise RuntimeError(f"sign-in failed with {status}")
        self.token = csrf_token(self.get("/")[1])

    def get(self, path: str, htmx: bool = False) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path, headers={"HX-Request": "true"} if htmx else {})
        return self._send(request)

    def post(self, path: str, data: dict[str, str], htmx: bool = False) -> tuple[int, str]:
        body = urllib.parse.urlencode({**data, "csrf_token": self.token}).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if htmx:
            headers["HX-Request"] = "true"
        return self._send(urllib.request.Request(self.base + path, data=body, headers=headers))

    def _send(self, request: urllib.request.Request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def plain_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())[-300:]


def csrf_token(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    if not match:
        raise RuntimeError("no CSRF token on the page")
    return match.group(1)


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.samples: list[str] = []

    def record(self, name: str, seconds: float, ok: bool, detail: str = "") -> None:
        with self.lock:
            self.times.setdefault(name, []).append(seconds)
            if not ok:
                self.errors[name] = self.errors.get(name, 0) + 1
                if len(self.samples) < 5:
                    self.samples.append(f"{name}: {detail}")


def tablet(client: Client, event_id: int, table: int, stop: float, recorder: Recorder) -> None:
    path = f"/events/{event_id}/rounds/1/tables/{table}"
    while time.monotonic() < stop:
        started = time.perf_counter()
        status, page = client.get(path + "?edit=1")
        recorder.record("GET result-entry form", time.perf_counter() - started, status == 200 and 'name="points_' in page,
                        f"{status} {plain_text(page)}")
        version = re.search(r'name="version" value="(\d+)"', page)
        seats = re.findall(r'name="points_(\d+)"', page)
        if not version or not seats:
            continue
        form = {"mode": "totals", "version": version.group(1)}
        for position, seat in enumerate(seats):
            form[f"points_{seat}"] = str(30 + (position * 7 + int(version.group(1))) % 40)
            form[f"species_{seat}"] = "5"
        started = time.perf_counter()
        status, reply = client.post(path + "/result", form, htmx=True)
        # 200 with HX-Redirect is the saved correction; 409 would mean someone else wrote first.
        recorder.record("POST result (correction)", time.perf_counter() - started, status == 200,
                        f"{status} {plain_text(reply)}")


def viewer(client: Client, event_id: int, stop: float, recorder: Recorder) -> None:
    while time.monotonic() < stop:
        started = time.perf_counter()
        status, page = client.get(f"/events/{event_id}/standings")
        recorder.record("GET standings page", time.perf_counter() - started, status == 200 and "<table" in page)
        started = time.perf_counter()
        status, page = client.get(f"/events/{event_id}/standings", htmx=True)
        recorder.record("GET standings fragment (htmx)", time.perf_counter() - started,
                        status == 200 and page.lstrip().startswith('<section class="card" id="standings">'))


def server_cpu_seconds(master: int) -> float:
    """CPU time used so far by the server's master and worker processes (Linux /proc): a figure
    that other load on a shared machine does not inflate the way it inflates wall-clock latency."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == master or ppid == master:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--tablets", type=int, default=16)
    parser.add_argument("--viewers", type=int, default=4)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--sqlite-wal", action="store_true", help="run the server with ORGANIZER_SQLITE_WAL=1")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--server-log", default=os.devnull, help="where the server's output goes")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
        event_id, tables = prepare(url, args.players)
        port = free_port()
        env = {**os.environ, "DATABASE_URL": url, "ORGANIZER_INSTANCE_PATH": str(Path(folder) / "instance")}
        if args.sqlite_wal:
            env["ORGANIZER_SQLITE_WAL"] = "1"
        gunicorn = Path(sys.executable).parent / "gunicorn"
        command = [str(gunicorn), "--preload", "-w", str(args.workers), "-b", f"127.0.0.1:{port}", "organizer:create_app()"]
        log = open(args.server_log, "w")
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(base + "/sign-in", timeout=2).read()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            tablet_count = min(args.tablets, tables)
            clients = [Client(base) for _ in range(tablet_count + args.viewers)]
            recorder = Recorder()
            stop = time.monotonic() + args.seconds
            threads = [threading.Thread(target=tablet, args=(clients[i], event_id, i + 1, stop, recorder))
                       for i in range(tablet_count)]
            threads += [threading.Thread(target=viewer, args=(clients[tablet_count + i], event_id, stop, recorder))
                        for i in range(args.viewers)]
            cpu_before = server_cpu_seconds(server.pid)
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - started
            cpu_used = server_cpu_seconds(server.pid) - cpu_before
        finally:
            server.terminate()
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()

    backend = "PostgreSQL" if url.startswith("postgres") else ("SQLite (WAL)" if args.sqlite_wal else "SQLite")
    load = os.getloadavg()[0]
    lines = [
        f"{args.players} players ({tables} tables), {tablet_count} tablets correcting results and {args.viewers} "
        f"standings viewers for {args.seconds:.0f} s; gunicorn --preload -w {args.workers} (sync) on {backend}; "
        f"load generator in the same machine ({os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load:.1f} at the end: other work on the machine slows every figure).",
        "",
        "| endpoint | requests | per second | p50 ms | p95 ms | p99 ms | errors |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, values in recorder.times.items():
        lines.append(f"| {name} | {len(values)} | {len(values) / elapsed:.1f} | {statistics.median(values) * 1000:.1f} | "
                     f"{percentile(values, 0.95) * 1000:.1f} | {percentile(values, 0.99) * 1000:.1f} | "
                     f"{recorder.errors.get(name, 0)} |")
    total = sum(len(values) for values in recorder.times.values())
    lines += ["", f"Server CPU time: {cpu_used:.1f} s for {total} requests = {cpu_used / max(total, 1) * 1000:.1f} ms "
                  "per request (all endpoints together; the steadier figure on a shared machine)."]
    report = "\n".join(lines)
    print(report)
    for sample in recorder.samples:
        print("error:", sample, file=sys.stderr)
    if args.write:
        write_section(SECTION.format(backend=backend), report)


def write_section(heading: str, report: str) -> None:
    target = ROOT / "docs" / "performance.md"
    text = target.read_text() if target.exists() else "# Benchmarks\n"
    body = f"{heading}\n\n{report}\n"
    if heading in text:
        start = text.index(heading)
        following = text.find("\n## ", start + len(heading))
        text = text[:start] + body + ("\n" + text[following + 1:] if following != -1 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + body
    target.write_text(text)


if __name__ == "__main__":
    main()
