"""Club seasons at scale: ratings recomputed and a league table read.

Run: .venv/bin/python bench/bench_seasons.py [--players 2000] [--events 300] [--tables 40] [--repeat 5]
[--database-url URL (an empty database; default: SQLite in a temporary folder)]
Builds a throw-away club: --players registry entries, --events events (one a week) of --tables
4-player tables each (4 rounds of tables/4 tables, the event's players drawn from the club),
every result confirmed; one season holding every event. Times (best and median of N):
- the league with nothing stored (every event scored from its results, as for events whose
  figures are not stored), then storing every event's figures (what closing rounds does over time);
- ``ratings.recompute`` (read every confirmed table, openskill over all, store every point;
  the aim is under 10 s); ``ratings.follow`` after the newest event's results settled (what
  closing its round does) and after an event half-way back (a correction);
- the league page through Flask's test client, signed in, cold (no figures cached in the
  process): the page, a far page, a search, the projector (the aim is under 0.5 s).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
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

from organizer import create_app
from organizer.accounts import service as accounts
from organizer.club import leagues, ratings
from organizer.core.db import make_engine, upgrade_database
from organizer.core.models import ClubPlayer, Event, GameTable, Player, Result, Round, Season, SeasonEvent

PASSWORD = "benchmark password"
ACCOUNT = "bench"


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


def cold(run: Callable[[], Any]) -> Callable[[], Any]:
    """``run`` as a new process would meet it: no figures cached in memory."""
    def fresh() -> Any:
        leagues._TALLIES.clear()
        leagues._RANKED.clear()
        return run()
    return fresh


def timed(repeat: int, run: Callable[[], Any]) -> str:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return f"best {min(times):.3f} s, median {statistics.median(times):.3f} s"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--events", type=int, default=300)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", help="an empty database (default: SQLite in a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/club.sqlite3"
        engine = make_engine(url)
        upgrade_database(engine)
        with Session(engine) as session:
            started = time.perf_counter()
            build(session, args.players, args.events, args.tables, random.Random(16))
            if accounts.find_by_name(session, ACCOUNT) is None:
                accounts.create_organizer(session, ACCOUNT, PASSWORD)
            print(f"built {args.players} players, {args.events} events x {args.tables} tables "
                  f"in {time.perf_counter() - started:.1f} s ({url.split(':')[0]}); {load()}")
            # nothing stored yet (results written straight into the tables): every event scored
            # from its results, as the league does for events whose figures are not stored
            took = timed(args.repeat, cold(lambda: leagues.league_page(session, 1)))
            print(f"league, no stored figures, cold: {took}")
            started = time.perf_counter()
            stored = leagues.store_tallies(session)
            print(f"store_tallies: {stored} events stored in {time.perf_counter() - started:.2f} s "
                  f"(a round's close stores its event's; ratings, seasons and imports store what is stale)")
            summary = ratings.recompute(session)
            print(f"ratings: {summary.tables} tables, {summary.players} players, {summary.points} points")
            print(f"ratings.recompute: {timed(min(args.repeat, 3), lambda: ratings.recompute(session))} (aim < 10 s)")
            took = timed(min(args.repeat, 3), lambda: ratings.compute(ratings.rated_tables(session)))
            print(f"  of which reading + openskill (no store): {took}")
            newest, middle = args.events, max(1, args.events // 2)
            took = timed(args.repeat, lambda: ratings.follow(session, [newest]))
            print(f"ratings.follow, the newest event settled (what closing its round does): {took}")
            took = timed(min(args.repeat, 3), lambda: ratings.follow(session, [middle]))
            print(f"ratings.follow, an event half-way back settled (a correction): {took}")
            took = timed(args.repeat, cold(lambda: leagues.league_page(session, 1)))
            print(f"leagues.league_page, stored figures, cold: {took}")
            print(f"ratings.current_ratings (top 500): {timed(args.repeat, lambda: ratings.current_ratings(session))}")
        engine.dispose()
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        if client.post("/sign-in", data={"name": ACCOUNT, "password": PASSWORD}).status_code != 302:
            raise SystemExit("sign-in failed")
        for label, path in (("league page", "/seasons/1"), ("league page 40", "/seasons/1?page=40"),
                            ("league page, a name searched", "/seasons/1?q=player+17"),
                            ("projector", "/seasons/1/projector")):
            status = client.get(path).status_code
            took = timed(args.repeat, cold(lambda path=path: client.get(path).get_data()))  # type: ignore[misc]
            print(f"GET {label} ({path}), cold: {took} (aim < 0.5 s), status {status}")
            took = timed(args.repeat, lambda path=path: client.get(path).get_data())  # type: ignore[misc]
            print(f"GET {label}, warm (ranked rows cached under the season's data version): {took}")
        app.extensions["db_engine"].dispose()
        print(load())


if __name__ == "__main__":
    main()
