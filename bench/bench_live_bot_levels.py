"""How long a request holds a web worker at a live table whose bots play at each level.

Run: .venv/bin/python bench/bench_live_bot_levels.py [--games 2] [--mode standard] [--players 4]

For each level, in a fresh SQLite database: an event whose round 1 is one ``--players`` table of
``--mode`` (a standard table is moved onto the devices), published and dealt; the organizer seats
bots at that level in every seat but the first (``live_tables.seat_bot``, the overview's POST);
then the person in seat 0 plays random legal moves (``LiveGame.act``, the seat form's POST) and,
while the bots still owe moves, the seat screen's tick (``LiveGame.settle``, its POST) is sent
again, until the game ends. Every one of those calls is timed: it is what one request of the web
worker does besides rendering. Prints, per level, the calls, the median, 95th percentile and
longest call, and the game's whole time."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def play(level: str, mode: str, players: int, seed: int, folder: Path) -> tuple[list[float], float]:
    os.environ["ORGANIZER_INSTANCE_PATH"] = str(folder / "instance")
    from sqlmodel import Session

    from organizer import create_app
    from organizer.core.models import Player
    from organizer.events import service as event_service
    from organizer.live import log as live_log
    from organizer.live import tables as live_tables
    from organizer.rounds import service as round_service

    app = create_app({"DATABASE_URL": f"sqlite:///{folder / f'{level}-{seed}.sqlite3'}", "SECRET_KEY": "bench"})
    engine = app.extensions["db_engine"]
    times: list[float] = []
    with Session(engine, expire_on_commit=False) as db:
        data = event_service.EventInput(name="Bot levels", date=date(2026, 6, 1))
        data.round_formats = [mode]
        data.preferred_table_size = players
        event = event_service.create_event(db, data, None, "bench")
        assert event.id is not None
        db.add_all([Player(event_id=event.id, name=f"Player {i}", name_key=f"player {i}", checked_in=True)
                    for i in range(players)])
        db.commit()
        rnd = round_service.propose_round(db, event, "bench", seed=seed)
        round_service.publish_round(db, event, rnd, "bench")
        view = live_tables.find_table(db, rnd, 1)
        assert view is not None
        if not view.table.digital:
            live_tables.make_digital(db, event, rnd, view, "bench")
        live_tables.start_round(db, event, rnd)
        started = time.perf_counter()
        for position in range(1, players):
            began = time.perf_counter()
            live_tables.seat_bot(db, event, rnd, 1, position, True, "bench", level)
            times.append(time.perf_counter() - began)
        rng = random.Random(seed)
        for step in range(5000):
            view = live_tables.find_table(db, rnd, 1)
            assert view is not None
            game = live_tables.TableGame(event, rnd, view)
            state = game.load(db).state
            if state.is_terminal():
                break
            began = time.perf_counter()
            if 0 in state.awaited_seats():
                action = rng.choice(state.legal_actions(0))
                game.act(db, 0, str(action), f"bench-{step}", None)
            else:
                game.settle(db)  # the seat screen's tick while the bots owe moves
            times.append(time.perf_counter() - began)
        whole = time.perf_counter() - started
        live_log.CACHE.clear()
    engine.dispose()
    return times, whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--mode", choices=["standard", "draft"], default="standard")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}; {args.mode}, {args.players} seats, "
          f"{args.players - 1} bots, {args.games} games a level")
    with tempfile.TemporaryDirectory() as folder:
        for level in ("easy", "normal", "strong"):
            times: list[float] = []
            wholes = []
            for seed in range(1, args.games + 1):
                one, whole = play(level, args.mode, args.players, seed, Path(folder))
                times += one
                wholes.append(whole)
            ordered = sorted(times)
            p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
            print(f"{level:>6}: {len(times)} requests, median {statistics.median(times) * 1000:.0f} ms, "
                  f"p95 {p95 * 1000:.0f} ms, longest {max(times) * 1000:.0f} ms; "
                  f"a game {statistics.median(wholes):.1f} s")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
