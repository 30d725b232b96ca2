"""A flood of practice games from one address against the production server (issue 10: one
client made about 4,500 practice games in 20 s and slowed the organizer's pages 5x).

Run: .venv/bin/python bench/bench_practice_flood.py [--seconds 20] [--flooders 8] [--workers 2]
     [--threads 4] [--limit 20]

1. The demo database (SQLite in a temporary directory) and gunicorn (``--workers`` x
   ``--threads``) on a loopback port, with ``ORGANIZER_PRACTICE_PER_ADDRESS=--limit`` per
   10 minutes.
2. Unloaded: a signed-in organizer opens table 3's page 200 times in a row; its p50 and p95.
3. Flood (``--seconds``): ``--flooders`` threads from 127.0.0.1 post the practice form as fast
   as the server answers, while the organizer keeps opening the table page; the answers are
   counted by status, the games stored are counted in the database after.
Passes when no more than the limit were created and the loaded p95 is within 2x the unloaded
one."""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--flooders", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--limit", type=int, default=20)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "demo.sqlite3"
        url = demo_database(database)
        server = ServerProcess(url, Path(tmp) / "instance", workers=args.workers, threads=args.threads,
                               env={"ORGANIZER_PRACTICE_PER_ADDRESS": str(args.limit)}).start()
        try:
            organizer = Client(server.url)
            organizer.get("/sign-in")
            assert organizer.post("/sign-in", {"name": "demo", "password": "demo"}).status == 302
            event_id = sqlite3.connect(database).execute("SELECT id FROM event").fetchone()[0]
            page = f"/events/{event_id}/rounds/1/tables/3"
            for _ in range(20):  # warm every worker's caches
                _table_page(organizer, page)
            unloaded = [_table_page(organizer, page) for _ in range(200)]

            statuses: Counter[int] = Counter()
            lock = threading.Lock()
            stop = time.monotonic() + args.seconds

            def flood() -> None:
                client = Client(server.url)
                client.get("/practice")
                while time.monotonic() < stop:
                    status = client.post("/practice", {"mode": "solo", "edition": "2018"}).status
                    with lock:
                        statuses[status] += 1

            flooders = [threading.Thread(target=flood) for _ in range(args.flooders)]
            for thread in flooders:
                thread.start()
            loaded = []
            while time.monotonic() < stop:
                loaded.append(_table_page(organizer, page))
            for thread in flooders:
                thread.join()
        finally:
            server.stop()
        stored = sqlite3.connect(database).execute("SELECT count(*) FROM practicegame").fetchone()[0]

    p95_unloaded, p95_loaded = _percentile(unloaded, 0.95), _percentile(loaded, 0.95)
    print(f"flood: {args.flooders} clients from one address, {args.seconds:.0f} s, gunicorn {args.workers} workers "
          f"x {args.threads} threads, limit {args.limit} per 10 minutes")
    print(f"  answers: {dict(sorted(statuses.items()))} ({sum(statuses.values()) / args.seconds:.0f}/s)")
    print(f"  practice games stored: {stored}")
    print(f"  table page, unloaded: p50 {statistics.median(unloaded) * 1000:.1f} ms, p95 {p95_unloaded * 1000:.1f} ms "
          f"({len(unloaded)} requests)")
    print(f"  table page, flooded:  p50 {statistics.median(loaded) * 1000:.1f} ms, p95 {p95_loaded * 1000:.1f} ms "
          f"({len(loaded)} requests); ratio of p95s {p95_loaded / p95_unloaded:.2f}")
    ok = stored <= args.limit and p95_loaded <= 2 * p95_unloaded
    print("  PASS" if ok else "  FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
