"""A flood of practice games from one address against the production server (issue 10: one
client made about 4,500 practice games in 20 s and slowed the organizer's pages 5x).

Run: .venv/bin/python bench/bench_practice_flood.py [--seconds 20] [--flooders 8] [--workers 2]
     [--threads 4] [--limit 20] [--trials 3] [--flood-in threads|processes]

1. The demo database (SQLite in a temporary directory) and gunicorn (``--workers`` x
   ``--threads``) on a loopback port, with ``ORGANIZER_PRACTICE_PER_ADDRESS=--limit`` per
   10 minutes.
2. ``--trials`` times, in the same run (the machine may be shared: other load changes both
   halves of a trial alike): unloaded, a signed-in organizer opens table 3's page 150 times in a
   row (p50, p95); then the flood (``--seconds``): ``--flooders`` clients from 127.0.0.1 post
   the practice form as fast as the server answers, while the organizer keeps opening the table
   page. The flooders run in processes of their own by default, so their Python does not hold
   the measuring client's interpreter lock (``--flood-in threads`` for the old way).
3. Counted: the answers by status, the games stored (in the database, after every trial), and
   the server's CPU time per flood request (its processes' /proc times: what a refused request
   costs the app, which other load on the machine does not inflate). ``--control`` floods with
   GETs of a static file instead: what a flood of the cheapest requests does to the table page
   on this machine, the baseline for judging the practice form's share.
Passes when no more than the limit were created and the median over the trials of the loaded
p95 over the unloaded p95 is within 2x."""

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

from tests.faults.harness import Client, ServerProcess, demo_database


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
            seen[client.get("/static/organizer.css").status] += 1
        else:
            seen[client.post("/practice", {"mode": "solo", "edition": "2018"}).status] += 1
    counts.append(dict(seen))


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
                unloaded = [_table_page(organizer, page) for _ in range(150)]
                counts = manager.list()
                deadline = time.time() + args.seconds
                if args.flood_in == "processes":
                    flooders: list[Any] = [
                        multiprocessing.Process(target=_flood, args=(server.url, deadline, counts, args.control))
                        for _ in range(args.flooders)]
                else:
                    flooders = [threading.Thread(target=_flood, args=(server.url, deadline, counts, args.control))
                                for _ in range(args.flooders)]
                cpu_before = server_cpu_seconds(server.process.pid)
                for flooder in flooders:
                    flooder.start()
                loaded = []
                while time.time() < deadline:
                    loaded.append(_table_page(organizer, page))
                for flooder in flooders:
                    flooder.join()
                cpu = server_cpu_seconds(server.process.pid) - cpu_before
                statuses = dict(sorted(sum((Counter(c) for c in counts), Counter()).items()))
                stored = sqlite3.connect(database).execute("SELECT count(*) FROM practicegame").fetchone()[0]
                trials.append({"unloaded": unloaded, "loaded": loaded, "statuses": statuses, "stored": stored,
                               "cpu": cpu, "load": (load_before, os.getloadavg()[0])})
        finally:
            server.stop()
            manager.shutdown()

    kind = " (control: a static file)" if args.control else ""
    print(f"flood{kind}: {args.flooders} clients ({args.flood_in}) from one address, {args.seconds:.0f} s, gunicorn "
          f"{args.workers} workers x {args.threads} threads, limit {args.limit} per 10 minutes, {args.trials} trials, "
          f"{os.cpu_count()} cores")
    ratios = []
    for number, trial in enumerate(trials, start=1):
        unloaded, loaded = trial["unloaded"], trial["loaded"]
        p95_unloaded, p95_loaded = _percentile(unloaded, 0.95), _percentile(loaded, 0.95)
        ratios.append(p95_loaded / p95_unloaded)
        requests = sum(trial["statuses"].values())
        print(f"  trial {number} (load average {trial['load'][0]:.1f} -> {trial['load'][1]:.1f}):")
        print(f"    answers: {trial['statuses']} ({requests / args.seconds:.0f}/s); practice games stored so far: "
              f"{trial['stored']}; server CPU {trial['cpu']:.1f} s = "
              f"{trial['cpu'] / max(1, requests + len(loaded)) * 1000:.1f} ms a request")
        print(f"    table page, unloaded: p50 {statistics.median(unloaded) * 1000:.1f} ms, p95 "
              f"{p95_unloaded * 1000:.1f} ms ({len(unloaded)} requests)")
        print(f"    table page, flooded:  p50 {statistics.median(loaded) * 1000:.1f} ms, p95 {p95_loaded * 1000:.1f} ms "
              f"({len(loaded)} requests); ratio of p95s {ratios[-1]:.2f}")
    stored = trials[-1]["stored"] if trials else 0
    ratio = statistics.median(ratios)
    print(f"  games stored {stored} (limit {args.limit}); median ratio of p95s {ratio:.2f} "
          f"(each trial: {', '.join(f'{r:.2f}' for r in ratios)})")
    ok = stored <= args.limit and ratio <= 2
    print("  PASS" if ok else "  FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
