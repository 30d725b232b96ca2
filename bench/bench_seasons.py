"""Club seasons at scale (issue 16): ratings recomputed and a league table read.

Run: .venv/bin/python bench/bench_seasons.py [--players 2000] [--events 300] [--tables 40] [--repeat 3]
Builds a throw-away SQLite club: --players registry entries, --events events (one a week) of
--tables 4-player tables each (4 rounds of tables/4 tables, the event's players drawn from the
club), every result confirmed; one season holding every event. Times, best of N:
- ``ratings.recompute`` (read every confirmed table, openskill over all, store every point;
  the aim is under 10 s);
- ``leagues.league`` of the season (the aim is under 0.5 s).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert
from sqlmodel import Session

from organizer.db import make_engine, upgrade_database
from organizer.models import ClubPlayer, Event, GameTable, Player, Result, Round, Season, SeasonEvent
from organizer.services import leagues, ratings


def best_of(repeat: int, run: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def build(session: Session, players: int, events: int, tables: int, rng: random.Random) -> None:
    session.exec(insert(ClubPlayer), params=[  # type: ignore[call-overload]
        {"id": i, "name": f"Player {i}", "name_key": f"player {i}", "email": ""} for i in range(1, players + 1)])
    rounds_per_event, per_round = 4, tables // 4
    player_id = table_id = round_id = 0
    player_rows: list[dict[str, Any]] = []
    round_rows: list[dict[str, Any]] = []
    table_rows: list[dict[str, Any]] = []
    result_rows: list[dict[str, Any]] = []
    start = date(2020, 1, 6)
    for e in range(1, events + 1):
        day = start + timedelta(days=7 * e)
        session.exec(insert(Event), params=[{  # type: ignore[call-overload]
            "id": e, "name": f"Club night {e}", "date": day, "edition": "2018", "round_formats": ["standard"] * 4,
            "preferred_table_size": 4, "point_scheme": "beaten", "tiebreak_order": [], "entry_modes": ["totals"],
            "version": 1, "judges_may_seat": False}])
        club = rng.sample(range(1, players + 1), per_round * 4)
        ids = []
        for cp in club:
            player_id += 1
            ids.append(player_id)
            player_rows.append({"id": player_id, "event_id": e, "name": f"Player {cp}", "name_key": f"player {cp}",
                                "club_player_id": cp, "club": "", "email": "", "checked_in": True, "dropped": False,
                                "joined_round": 1})
        for number in range(1, rounds_per_event + 1):
            round_id += 1
            round_rows.append({"id": round_id, "event_id": e, "number": number, "format": "standard",
                               "status": "finished", "seed": 0})
            rng.shuffle(ids)
            for t in range(per_round):
                table_id += 1
                table_rows.append({"id": table_id, "round_id": round_id, "number": t + 1, "species": [],
                                   "digital": False, "action_log": [], "log_version": 0})
                result_rows.append({"table_id": table_id, "entry_mode": "totals", "status": "confirmed",
                                    "version": 1, "dispute_note": "", "entered_by": "bench", "seats": [
                                        {"player_id": p, "points": rng.randint(0, 40),
                                         "species_count": rng.randint(3, 8)} for p in ids[4 * t:4 * t + 4]]})
    for model, rows in ((Player, player_rows), (Round, round_rows), (GameTable, table_rows), (Result, result_rows)):
        session.exec(insert(model), params=rows)  # type: ignore[call-overload]
    session.add(Season(id=1, name="All", starts_on=start, ends_on=start + timedelta(days=7 * (events + 1))))
    session.flush()
    session.exec(insert(SeasonEvent), params=[{"season_id": 1, "event_id": e}  # type: ignore[call-overload]
                                              for e in range(1, events + 1)])
    session.commit()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{tmp}/club.sqlite3")
        upgrade_database(engine)
        with Session(engine) as session:
            started = time.perf_counter()
            build(session, args.players, args.events, args.tables, random.Random(16))
            print(f"built {args.players} players, {args.events} events x {args.tables} tables "
                  f"in {time.perf_counter() - started:.1f} s")
            summary = ratings.recompute(session)
            print(f"ratings: {summary.tables} tables, {summary.players} players, {summary.points} points")
            took = best_of(args.repeat, lambda: ratings.recompute(session))
            print(f"ratings.recompute: {took:.2f} s (aim < 10 s)")
            took = best_of(args.repeat, lambda: ratings.compute(ratings.rated_tables(session)))
            print(f"  of which reading + openskill (no store): {took:.2f} s")
            took = best_of(args.repeat, lambda: leagues.league(session, 1))
            print(f"leagues.league (one season of {args.events} events): {took:.3f} s (aim < 0.5 s)")
            took = best_of(args.repeat, lambda: ratings.current_ratings(session))
            print(f"ratings.current_ratings (top 500): {took:.3f} s")
        engine.dispose()


if __name__ == "__main__":
    main()
