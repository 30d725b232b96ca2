"""CPU time of one self-reported result: the ``POST /p/<token>/report`` of a player's own page,
in process (Flask's test client, no server, no network), so the figure is the request's own work.

Run: .venv/bin/python bench/bench_self_report.py [--tables 60] [--reports 240] [--rounds 2]
     [--database-url ...]

1. A fresh SQLite database (or ``--database-url``, emptied first!) holds ``bench/load.py``'s event
   of ``4 x tables`` players (round 1 closed, round 2 published), players reporting and
   confirming themselves (as ``bench/bench_public.py``'s room); with ``--rounds N``, rounds 2 to
   N - 1 are played and closed too and round N is the one reported (each player's page lists
   their rounds).
2. ``--reports`` times, a table in turn has one of its players (taking turns, under the rate
   limit) open their page and send a corrected result (totals, the version they saw).
3. Printed: the CPU time (process time) of the page and of the report, median and p90 in ms, and
   how many times one report built the player's page (``self_report.player_page``)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_public import setup  # noqa: E402

VERSION = re.compile(r'name="version" value="(\d+)"')
SEAT = re.compile(r'name="species_(\d+)"')
TABLE = re.compile(r'name="table" value="(\d+)"')


def play_on(database_url: str, rounds: int) -> list[list[str]]:
    """Rounds 2 to ``rounds`` - 1 played and closed, round ``rounds`` published: its tables'
    players' tokens."""
    from sqlmodel import Session as DbSession
    from sqlmodel import select

    from organizer.core.db import make_engine
    from organizer.core.models import Event, Round
    from organizer.rounds import results
    from organizer.rounds import service as round_service

    engine = make_engine(database_url)
    with DbSession(engine, expire_on_commit=False) as db:
        event = db.exec(select(Event)).one()
        if event.rounds < rounds:
            event.round_formats = list(event.round_formats) + ["standard"] * (rounds - event.rounds)
        db.add(event)
        db.commit()
        current = db.exec(select(Round).where(Round.event_id == event.id, Round.number == 2)).one()
        for number in range(2, rounds):
            assert current.id is not None
            for index, view in enumerate(round_service.tables_of(db, current.id)):
                form = {"mode": "totals"}
                for i, seat in enumerate(view.seats):
                    form[f"points_{seat.seat.id}"] = str((number * 5 + index * 7 + i * 11) % 60)
                    form[f"species_{seat.seat.id}"] = str(3 + (index + i) % 5)
                saved = results.save_result(db, event, current, view, results.parse_totals(view, form), 0, "bench")
                results.confirm_by_organizer(db, event, view, saved, saved.version, None, "bench")
            round_service.close_round(db, event, current, "bench")
            current = round_service.propose_round(db, event, "bench", seed=number + 1)
            round_service.publish_round(db, event, current, "bench")
        assert current.id is not None
        tokens = [[s.player.token for s in view.seats if s.player] for view in round_service.tables_of(db, current.id)]
    engine.dispose()
    return tokens


def run(args: argparse.Namespace) -> str:
    from organizer import create_app
    from organizer.public import self_report

    workdir = Path(tempfile.mkdtemp(prefix="arboretum-self-report-"))
    try:
        database_url = args.database_url or f"sqlite:///{workdir / 'self-report.sqlite3'}"
        _code, tokens = setup(database_url, args.tables)
        if args.rounds > 2:
            tokens = play_on(database_url, args.rounds)
        os.environ["ORGANIZER_INSTANCE_PATH"] = str(workdir / "instance")
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": database_url,
                          "WTF_CSRF_ENABLED": False})
        built = 0
        original = self_report.player_page

        def counted(*call: Any, **named: Any) -> Any:
            nonlocal built
            built += 1
            return original(*call, **named)

        self_report.player_page = counted  # type: ignore[assignment]  # counts only; the page is the real one
        client = app.test_client()
        page_cpu: list[float] = []
        report_cpu: list[float] = []
        builds: list[int] = []
        for turn in range(args.reports + args.warm_up):
            table = tokens[turn % len(tokens)]
            token = table[(turn // len(tokens)) % len(table)]
            started = time.process_time()
            body = client.get(f"/p/{token}").text
            page_took = time.process_time() - started
            seats = list(dict.fromkeys(SEAT.findall(body)))
            version, number = VERSION.search(body), TABLE.search(body)
            assert seats and number, "the player may report"
            form = {"mode": "totals", "round": str(args.rounds), "table": number.group(1),
                    "version": version.group(1) if version else "0"}
            for i, seat in enumerate(seats):
                form[f"points_{seat}"] = str((turn + i * 13) % 70)
                form[f"species_{seat}"] = str(2 + (turn + i) % 6)
            built = 0
            started = time.process_time()
            response = client.post(f"/p/{token}/report", data=form, headers={"HX-Request": "true"})
            report_took = time.process_time() - started
            assert response.status_code == 200, (response.status_code, response.text[:500])
            if turn >= args.warm_up:
                page_cpu.append(page_took)
                report_cpu.append(report_took)
                builds.append(built)
        self_report.player_page = original  # type: ignore[assignment]
        app.extensions["db_engine"].dispose()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    def ms(values: list[float]) -> str:
        ordered = sorted(values)
        return f"median {statistics.median(ordered) * 1000:.1f} ms, p90 {ordered[int(len(ordered) * 0.9)] * 1000:.1f} ms"

    backend = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
    return (f"Self-report, {args.reports} reports from {len(tokens)} tables ({4 * len(tokens)} players, "
            f"round {args.rounds} of {args.rounds}), "
            f"{backend}, in process (load average {os.getloadavg()[0]:.2f} at the end)\n"
            f"  player page GET /p/<token>: CPU {ms(page_cpu)}\n"
            f"  report POST /p/<token>/report: CPU {ms(report_cpu)}; "
            f"player page built {statistics.mean(builds):.1f} times per report")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--reports", type=int, default=240)
    parser.add_argument("--warm-up", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2, help="the round reported (the ones before it closed)")
    parser.add_argument("--database-url", default="")
    print(run(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
