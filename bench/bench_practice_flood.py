"""A flood of practice games from one address against the production server: unlimited, one
client can make about 4,500 practice games in 20 s and slow the organizer's pages 5x.

Run: .venv/bin/python bench/bench_practice_flood.py [--seconds 20] [--flooders 8] [--workers 2]
     [--threads 4] [--limit 20] [--trials 3] [--flood-in threads|processes] [--control]
     [--open-loop [--rate 225]]

1. The demo database (SQLite in a temporary directory) and gunicorn (``--workers`` x
   ``--threads``) on a loopback port, with ``ORGANIZER_PRACTICE_PER_ADDRESS=--limit`` per
   10 minutes.
2. ``--trials`` times, in the same run (the machine may be shared: other load changes both
   halves of a trial alike): unloaded, a signed-in organizer opens table 3's page 150 times in a
   row (p50, p95); then the flood (``--seconds``): ``--flooders`` clients from 127.0.0.1 post
   the practice form as fast as the server answers, while the organizer keeps opening the table
   page. The flooders run in processes of their own by default, so their Python does not hold
   the measuring client's interpreter lock (``--flood-in threads``: threads of the client's process).
3. Counted: the answers by status, the games stored (in the database, after every trial), and
   the server's CPU time per flood request (its processes' /proc times, less the table pages'
   share at their unloaded cost: what a refused request costs the app, which other load on the
   machine inflates little). ``--control`` floods with
   GETs of a static file instead: what a flood of the cheapest requests does to the table page
   on this machine, the baseline for judging the practice form's share.
Passes when no more than the limit were created and the median over the trials of the loaded
p95 over the unloaded p95 is within 2x. The issue's criterion is judged on ``--open-loop`` (its
flood, at its rate): closed loops answer each refusal with the next request, so the cheaper a
refusal, the more of them come, and on a small machine they measure mostly their own Python's
share of the cores (``--control`` shows the same with a static file)."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.system.faults.harness import Client, ServerProcess, demo_database


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _table_page(client: Client, path: str) -> float:
    began = time.perf_counter()
    reply = client.get(path)
    assert reply.status == 200, reply.status
    return time.perf_counter() - began


def _flood(url: str, deadline: float, counts: Any, control: bool = False) -> None:
    """One flooding client: posts the practice form until ``deadline`` (time.time()), then adds
    its answers counted by status to ``counts`` (a shared list). ``control``: asks for a static
    file instead, the cheapest answer the server gives, so a flood's cost to the machine can be
    told from what the app spends on each refusal."""
    client = Client(url)
    client.get("/practice")
    seen: Counter[int] = Counter()
    while time.time() < deadline:
        if control:
            seen[client.get("/static/core/organizer.css").status] += 1
        else:
            seen[client.post("/practice", {"mode": "solo", "edition": "2018"}).status] += 1
    counts.append(dict(seen))


def _open_loop_flood(url: str, start_at: float, seconds: float, rate: float, request: bytes, max_open: int,
                     results: Any) -> None:
    """One process sending ``request`` (raw HTTP, ``Connection: close``) ``rate`` times a second
    from ``start_at`` (time.time()) for ``seconds``, on schedule; puts (statuses by count,
    latencies, skipped sends) on ``results``."""
    import asyncio
    import urllib.parse

    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80

    async def run() -> tuple[dict[int, int], list[float], int]:
        loop = asyncio.get_running_loop()
        seen: Counter[int] = Counter()
        latencies: list[float] = []
        skipped = 0

        async def one() -> None:
            began = loop.time()
            try:
                reader, writer = await asyncio.open_connection(host, port)
                writer.write(request)
                await writer.drain()
                head = await reader.readline()
                await reader.read()  # to the end: the server closes the connection
                writer.close()
                status = int(head.split()[1])
            except (OSError, IndexError, ValueError):
                status = 0  # no answer: counted as such
            seen[status] += 1
            latencies.append(loop.time() - began)

        pending: set[asyncio.Task[None]] = set()
        await asyncio.sleep(max(0.0, start_at - time.time()))
        first = loop.time()
        for number in range(int(seconds * rate)):
            await asyncio.sleep(max(0.0, first + number / rate - loop.time()))
            if len(pending) >= max_open:
                skipped += 1
                continue
            task = asyncio.create_task(one())
            pending.add(task)
            task.add_done_callback(pending.discard)
        if pending:
            await asyncio.wait(pending, timeout=30)
        return dict(seen), latencies, skipped

    results.put(asyncio.run(run()))


def _raw_request(client: Client, control: bool) -> bytes:
    """The flood's request as bytes: the practice form with this client's session and CSRF token
    (or, ``control``, a GET of the static file)."""
    import urllib.parse

    cookie = "; ".join(f"{key}={value}" for key, value in client.cookies.items())
    if control:
        return (f"GET /static/core/organizer.css HTTP/1.1\r\nHost: {client.host}:{client.port}\r\nCookie: {cookie}\r\n"
                "Connection: close\r\n\r\n").encode()
    body = urllib.parse.urlencode({"mode": "solo", "edition": "2018", "csrf_token": client.csrf_token}).encode()
    return (f"POST /practice HTTP/1.1\r\nHost: {client.host}:{client.port}\r\nCookie: {cookie}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


def server_cpu_seconds(master: int) -> float:
    """CPU time used so far by the server's master and worker processes (Linux /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == master or int(fields[1]) == master:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--flooders", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--flood-in", choices=("processes", "threads"), default="processes")
    parser.add_argument("--control", action="store_true",
                        help="flood with GETs of a static file instead (what any flood costs on this machine)")
    parser.add_argument("--open-loop", action="store_true",
                        help="send at a fixed --rate from one process instead of --flooders closed loops")
    parser.add_argument("--rate", type=float, default=225, help="open loop: requests a second (the issue's: 225)")
    parser.add_argument("--max-open", type=int, default=256, help="open loop: connections open at most at once")
    args = parser.parse_args()

    trials: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "demo.sqlite3"
        url = demo_database(database)
        server = ServerProcess(url, Path(tmp) / "instance", workers=args.workers, threads=args.threads,
                               env={"ORGANIZER_PRACTICE_PER_ADDRESS": str(args.limit)}).start()
        assert server.process is not None
        manager = multiprocessing.Manager()
        try:
            organizer = Client(server.url)
            organizer.get("/sign-in")
            assert organizer.post("/sign-in", {"name": "demo", "password": "demo"}).status == 302
            event_id = sqlite3.connect(database).execute("SELECT id FROM event").fetchone()[0]
            page = f"/events/{event_id}/rounds/1/tables/3"
            for _ in range(20):  # warm every worker's caches
                _table_page(organizer, page)
            for _trial in range(args.trials):
                load_before = os.getloadavg()[0]
                cpu_unloaded = server_cpu_seconds(server.process.pid)
                unloaded = [_table_page(organizer, page) for _ in range(150)]
                cpu_unloaded = server_cpu_seconds(server.process.pid) - cpu_unloaded
                counts = manager.list()
                flood_latencies: list[float] = []
                skipped = 0
                cpu_before = server_cpu_seconds(server.process.pid)
                if args.open_loop:
                    sender = Client(server.url)
                    sender.get("/practice")  # its session and CSRF token, as a browser's
                    results = multiprocessing.Queue()
                    start_at = time.time() + 0.5
                    deadline = start_at + args.seconds
                    flooders: list[Any] = [multiprocessing.Process(
                        target=_open_loop_flood, args=(server.url, start_at, args.seconds, args.rate,
                                                       _raw_request(sender, args.control), args.max_open, results))]
                    flooders[0].start()
                    while time.time() < start_at:
                        time.sleep(0.01)
                else:
                    deadline = time.time() + args.seconds
                    if args.flood_in == "processes":
                        flooders = [
                            multiprocessing.Process(target=_flood, args=(server.url, deadline, counts, args.control))
                            for _ in range(args.flooders)]
                    else:
                        flooders = [threading.Thread(target=_flood, args=(server.url, deadline, counts, args.control))
                                    for _ in range(args.flooders)]
                    for flooder in flooders:
                        flooder.start()
                loaded = []
                while time.time() < deadline:
                    loaded.append(_table_page(organizer, page))
                if args.open_loop:
                    seen, flood_latencies, skipped = results.get(timeout=60)
                    counts.append(seen)
                for flooder in flooders:
                    flooder.join()
                cpu = server_cpu_seconds(server.process.pid) - cpu_before
                statuses = dict(sorted(sum((Counter(c) for c in counts), Counter()).items()))
                stored = sqlite3.connect(database).execute("SELECT count(*) FROM practicegame").fetchone()[0]
                trials.append({"unloaded": unloaded, "loaded": loaded, "statuses": statuses, "stored": stored,
                               "cpu": cpu, "cpu_page": cpu_unloaded / len(unloaded),
                               "load": (load_before, os.getloadavg()[0]),
                               "flood_latencies": flood_latencies, "skipped": skipped})
        finally:
            server.stop()
            manager.shutdown()

    kind = " (control: a static file)" if args.control else ""
    how = (f"open loop at {args.rate:.0f} requests/s" if args.open_loop
           else f"{args.flooders} clients ({args.flood_in})")
    print(f"flood{kind}: {how} from one address, {args.seconds:.0f} s, gunicorn "
          f"{args.workers} workers x {args.threads} threads, limit {args.limit} per 10 minutes, {args.trials} trials, "
          f"{os.cpu_count()} cores")
    ratios = []
    for number, trial in enumerate(trials, start=1):
        unloaded, loaded = trial["unloaded"], trial["loaded"]
        p95_unloaded, p95_loaded = _percentile(unloaded, 0.95), _percentile(loaded, 0.95)
        ratios.append(p95_loaded / p95_unloaded)
        requests = sum(trial["statuses"].values())
        print(f"  trial {number} (load average {trial['load'][0]:.1f} -> {trial['load'][1]:.1f}):")
        # the table pages' share of the server's CPU, as they cost unloaded, left out
        flood_cpu = max(0.0, trial["cpu"] - trial["cpu_page"] * len(loaded))
        print(f"    answers: {trial['statuses']} ({requests / args.seconds:.0f}/s); practice games stored so far: "
              f"{trial['stored']}; server CPU {trial['cpu']:.1f} s, of which the flood's about {flood_cpu:.1f} s = "
              f"{flood_cpu / max(1, requests) * 1000:.2f} ms a flood request (a table page: "
              f"{trial['cpu_page'] * 1000:.1f} ms)")
        if trial["flood_latencies"]:
            latencies = trial["flood_latencies"]
            print(f"    flood answers: p50 {statistics.median(latencies) * 1000:.1f} ms, p95 "
                  f"{_percentile(latencies, 0.95) * 1000:.1f} ms; sends skipped (over --max-open): {trial['skipped']}")
        print(f"    table page, unloaded: p50 {statistics.median(unloaded) * 1000:.1f} ms, p95 "
              f"{p95_unloaded * 1000:.1f} ms ({len(unloaded)} requests)")
        print(f"    table page, flooded:  p50 {statistics.median(loaded) * 1000:.1f} ms, p95 {p95_loaded * 1000:.1f} ms "
              f"({len(loaded)} requests); ratio of p95s {ratios[-1]:.2f}")
    stored = trials[-1]["stored"] if trials else 0
    ratio = statistics.median(ratios)
    p95s = {kind: statistics.median(_percentile(t[kind], 0.95) for t in trials) * 1000 for kind in ("unloaded", "loaded")}
    print(f"  medians over the trials: table page p95 {p95s['unloaded']:.1f} ms unloaded, {p95s['loaded']:.1f} ms flooded")
    print(f"  games stored {stored} (limit {args.limit}); median ratio of p95s {ratio:.2f} "
          f"(each trial: {', '.join(f'{r:.2f}' for r in ratios)})")
    ok = stored <= args.limit and ratio <= 2
    print("  PASS" if ok else "  FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
