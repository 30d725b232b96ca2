"""PDF downloads through the app: what the database part adds to the rendering.

Run: .venv/bin/python bench/bench_prints.py [--players 500] [--rounds 8] [--pack-players 4000] [--repeat 3]
Builds a throw-away SQLite event (every round seated by the seating service, every table's
result saved and confirmed through the results service), then times, best of N:
- the round pack of the last round (1,000 tables when --pack-players is 4000), all tables
  digital and none digital: reading the database into the printing data, and the whole HTTP
  download (gunicorn's worker timeout is 30 s; the aim is under 10 s);
- the standings after the last round and the end-of-event report for --players players
  (1,000 tables for 500 players in 8 rounds; the aim is under 5 s).
The rendering alone is timed in bench/bench_printing.py; here the difference between "data"
and "download" is the renderer plus Flask."""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlmodel import Session, select

from organizer import create_app
from organizer.accounts import service as accounts
from organizer.core.db import make_engine, upgrade_database
from organizer.core.models import Event, GameTable, Player
from organizer.events import service as event_service
from organizer.printing import qr
from organizer.printing.layout import fit_text
from organizer.prints import service as prints
from organizer.rounds import results
from organizer.rounds import service as rounds


def best_of(repeat: int, run: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(repeat):
        for cached in vars(qr).values():  # a new round's links are encoded afresh
            if hasattr(cached, "cache_clear"):
                cached.cache_clear()
        fit_text.cache_clear()
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def build_event(session: Session, name: str, players: int, round_count: int, seed: int) -> Event:
    event = event_service.create_event(session, event_service.EventInput(
        name=name, date=date(2026, 3, 14), round_formats=["standard"] * round_count), None, "bench")
    assert event.id is not None
    session.add_all([Player(event_id=event.id, name=f"Player {i:04d} Łódź", name_key=f"player {i:04d} łódź",
                            checked_in=True) for i in range(players)])
    session.commit()
    rng = random.Random(seed)
    for number in range(1, round_count + 1):
        rnd = rounds.propose_round(session, event, "bench", seed=seed + number)
        rounds.publish_round(session, event, rnd, "bench")
        assert rnd.id is not None
        for view in rounds.tables_of(session, rnd.id):
            form = {"mode": "totals"}
            for seat in view.seats:
                form[f"points_{seat.seat.id}"] = str(rng.randrange(10, 60))
                form[f"species_{seat.seat.id}"] = str(rng.randrange(3, 9))
            result = results.save_result(session, event, rnd, view, results.parse_totals(view, form), 0, "bench")
            results.confirm_by_organizer(session, event, view, result, result.version, None, "bench")
        if number < round_count:
            rounds.close_round(session, event, rnd, "bench")
    return event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--pack-players", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-prints-"))
    url = f"sqlite:///{folder / 'bench.sqlite3'}"
    engine = make_engine(url)
    upgrade_database(engine)
    engine.dispose()
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False})
    with Session(app.extensions["db_engine"], expire_on_commit=False) as session:
        start = time.perf_counter()
        accounts.create_organizer(session, "bench", "bench password")
        pack_event = build_event(session, "Pack Open", args.pack_players, 1, 1)
        big_event = build_event(session, "Big Open", args.players, args.rounds, 2)
        print(f"set-up: {time.perf_counter() - start:.1f} s "
              f"({args.pack_players} players in 1 round; {args.players} players in {args.rounds} rounds)")
        client = app.test_client()
        client.post("/sign-in", data={"name": "bench", "password": "bench password"})

        def download(path: str) -> Callable[[], None]:
            def run() -> None:
                response = client.get(path)
                assert response.status_code == 200 and response.mimetype == "application/pdf", response.status_code
            return run

        def timed(label: str, data: Callable[[], Any], path: str) -> None:
            data_time = best_of(args.repeat, data)
            total = best_of(args.repeat, download(path))
            print(f"| {label} | {data_time * 1000:.0f} ms | {total:.2f} s |")

        def table_url(r: int, t: int) -> str:
            return f"http://localhost/events/{pack_event.id}/rounds/{r}/tables/{t}"

        def seat_url(token: str) -> str:
            return f"http://localhost/play/{token}"

        tables = session.exec(select(GameTable)).all()
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("| document | reading the database | whole download |")
        print("|---|---:|---:|")
        pack_tables = [t for t in tables if t.round_id == 1]
        timed(f"round pack, {len(pack_tables)} tables, none digital",
              lambda: prints.round_pack_data(session, pack_event, 1, table_url, seat_url),
              f"/events/{pack_event.id}/rounds/1/pack.pdf")
        for table in pack_tables:
            table.digital = True
            session.add(table)
        session.commit()
        timed(f"round pack, {len(pack_tables)} tables, all digital",
              lambda: prints.round_pack_data(session, pack_event, 1, table_url, seat_url),
              f"/events/{pack_event.id}/rounds/1/pack.pdf")
        timed(f"standings, {args.players} players after round {args.rounds}",
              lambda: prints.standings_data(session, big_event), f"/events/{big_event.id}/standings.pdf")
        timed(f"event report, {args.players} players, {args.rounds} rounds",
              lambda: prints.event_report_data(session, big_event), f"/events/{big_event.id}/report.pdf")
    app.extensions["db_engine"].dispose()


if __name__ == "__main__":
    main()
