"""Benchmark: every organizer GET page of one big event (the aim: "any organizer page under
0.5 s at 10,000 players").

    .venv/bin/python bench/bench_big_event.py [--players 10000] [--rounds 4] [--repeat 5]
        [--database-url URL] [--with-pdfs] [--digital] [--only SUBSTRING[,SUBSTRING...]] [--no-actions]

Set-up (about ten seconds on SQLite): an event of ``--players`` checked-in players and
``--rounds`` rounds at 4-player tables (2,500 tables a round at 10,000 players), every round but
the last closed with every result confirmed, the last one published with half its results
entered, and an audit log of one entry per result plus the rounds' own. Players, tables, seats,
results and audit entries are written with multi-row INSERTs, as the event import writes players:
the services' one-by-one paths would take minutes here and are not what is measured.

Measured: every GET route of the app's url_map that belongs to the event (``/events/<id>...``),
with the event's ids filled in (the first and the current round, table 1, a player), requested
signed in through Flask's test client (no network, no server: the page's own time, and the CPU time
of this process, which a busy machine inflates less; on PostgreSQL the database's own CPU is not in
it); fragments a page
loads with htmx (``FRAGMENTS``: the attention list) are asked as htmx. Each page
is requested ``--repeat`` times; reported are the best and the median time and the size of the
body. Downloads (exports, PDFs) are whole by design: exports are timed, PDFs only with
``--with-pdfs`` (bench/bench_prints.py measures them; ``--digital`` makes every table digital,
so a round pack prints every seat's private-link slip and QR code).

Actions (unless ``--no-actions``): a second event of the same size whose rounds are all closed;
the organizer proposes its next round (``POST .../rounds/propose``: standings, history, the Swiss
search and 2,500 tables written), opens the unpublished proposal's page, and discards it,
``--repeat`` times with a new seed each time. The first proposal is reported apart: it computes
the standings, which later requests of the same process find cached. The load average is
printed: the machine may be shared, so take the best of several runs."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402
from sqlmodel import Session, col  # noqa: E402

from engine import Edition, choose_species, species_count  # noqa: E402
from organizer import create_app  # noqa: E402
from organizer.accounts import service as accounts  # noqa: E402
from organizer.core.db import make_engine, upgrade_database  # noqa: E402
from organizer.core.models import (  # noqa: E402
    AuditEntry,
    Confirmation,
    GameTable,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundStatus,
    Seat,
    new_token,
)
from organizer.events import service as events  # noqa: E402

PASSWORD = "benchmark password"
ACCOUNT = "bench"
#: a budget per page
BUDGET = 0.5
#: fragments a page loads with htmx (opened by themselves they redirect to their page): asked as htmx
FRAGMENTS = ("public.attention",)


def build_event(url: str, players: int, rounds: int, seed: int = 1, *, open_last: bool = True,
                digital: bool = False, name: str = "Big Open") -> dict[str, Any]:
    """The big event; returns the ids the pages need. ``open_last=False``: every round closed,
    and the event has one round more to propose."""
    rng = random.Random(seed)
    engine = make_engine(url)
    upgrade_database(engine)
    started = time.perf_counter()
    with Session(engine) as session:
        if accounts.find_by_name(session, ACCOUNT) is None:
            accounts.create_organizer(session, ACCOUNT, PASSWORD)
        formats = ["standard"] * (rounds + (0 if open_last else 1))
        event = events.create_event(session, events.EventInput(name=name, date=date.today(),
                                                               round_formats=formats), None, ACCOUNT)
        assert event.id is not None
        event_id = event.id
        names = [f"{rng.choice(FIRST)} {rng.choice(LAST)} {i:05d}" for i in range(players)]
        player_rows = [dict(event_id=event_id, name=name, name_key=name.casefold(), club=rng.choice(CLUBS),
                            checked_in=True) for name in names]
        player_ids = list(session.scalars(insert(Player).returning(col(Player.id), sort_by_parameter_order=True),
                                          player_rows))
        edition = Edition.parse(event.edition)
        now = datetime.now(UTC)
        audit: list[dict[str, Any]] = []
        for number in range(1, rounds + 1):
            current = number == rounds and open_last
            status = RoundStatus.PUBLISHED if current else RoundStatus.FINISHED
            rnd = Round(event_id=event_id, number=number, status=status, seed=number,
                        published_at=now - timedelta(hours=rounds - number))
            session.add(rnd)
            session.flush()
            assert rnd.id is not None
            audit += [dict(event_id=event_id, actor=ACCOUNT, action="round.proposed", at=now,
                           new={"round": number, "seed": number}),
                      dict(event_id=event_id, actor=ACCOUNT, action="round.published", at=now, new={"round": number})]
            order = player_ids[:]
            rng.shuffle(order)
            groups = [order[i:i + 4] for i in range(0, len(order), 4)]
            table_rows = [dict(round_id=rnd.id, number=t, digital=digital, action_log=[], log_version=0,
                               species=list(choose_species(edition, species_count("standard", len(group)), rng=rng)))
                          for t, group in enumerate(groups, start=1)]
            table_ids = list(session.scalars(insert(GameTable).returning(col(GameTable.id), sort_by_parameter_order=True),
                                             table_rows))
            seat_rows = [dict(table_id=table_id, player_id=player_id, position=position, token=new_token(), is_bot=False)
                         for table_id, group in zip(table_ids, groups, strict=True)
                         for position, player_id in enumerate(group)]
            session.execute(insert(Seat), seat_rows)
            result_rows, with_result = [], []
            for index, (table_id, group) in enumerate(zip(table_ids, groups, strict=True)):
                if current and index % 2:
                    continue
                seats = [{"player_id": p, "points": rng.randint(10, 60), "species_count": rng.randint(2, 6)} for p in group]
                result_rows.append(dict(table_id=table_id, entry_mode="totals", seats=seats,
                                        status=ResultStatus.ENTERED if current else ResultStatus.CONFIRMED,
                                        dispute_note="", version=1, entered_by=ACCOUNT, entered_at=now, updated_at=now))
                with_result.append(index)
                audit.append(dict(event_id=event_id, table_id=table_id, actor=ACCOUNT, action="result.entered",
                                  at=now, new={"version": 1, "mode": "totals", "status": "entered", "seats": seats}))
            result_ids = list(session.scalars(insert(Result).returning(col(Result.id), sort_by_parameter_order=True),
                                              result_rows))
            if not current:
                session.execute(insert(Confirmation), [
                    dict(result_id=result_id, result_version=1, seat_id=None, organizer_id=None, at=now)
                    for result_id in result_ids])
                audit += [dict(event_id=event_id, actor=ACCOUNT, action="result.confirmed", at=now,
                               table_id=table_ids[i], new={"version": 1}) for i in with_result]
                audit.append(dict(event_id=event_id, actor=ACCOUNT, action="round.closed", at=now, new={"round": number}))
        session.execute(insert(AuditEntry), audit)
        session.commit()
        player_id = player_ids[len(player_ids) // 2]
    engine.dispose()
    return {"event_id": event_id, "rounds": rounds, "player_id": player_id, "audit": len(audit),
            "built_in": time.perf_counter() - started}


def event_pages(app: Any, ids: dict[str, Any], with_pdfs: bool) -> list[tuple[str, str]]:
    """(endpoint, path) of every GET route under the event, with its ids filled in; the round
    routes twice: the first (closed) round and the current one."""
    values = {"event_id": ids["event_id"], "table": 1, "player_id": ids["player_id"]}
    pages: list[tuple[str, str]] = []
    with app.test_request_context():
        from flask import url_for

        for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
            if "GET" not in (rule.methods or ()) or "event_id" not in rule.arguments:
                continue
            if rule.rule.endswith(".pdf") and not with_pdfs:
                continue
            numbers = [1, ids["rounds"]] if "number" in rule.arguments else [None]
            for number in numbers:
                arguments = {name: values[name] for name in rule.arguments if name != "number"}
                if number is not None:
                    arguments["number"] = number
                label = rule.endpoint + (f" (round {number})" if number is not None else "")
                pages.append((label, url_for(rule.endpoint, **arguments)))
    return pages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", help="an empty database (default: SQLite in a temporary folder)")
    parser.add_argument("--with-pdfs", action="store_true")
    parser.add_argument("--digital", action="store_true", help="every table digital (private-link slips in the pack)")
    parser.add_argument("--no-actions", action="store_true", help="skip proposing a round of a second event")
    parser.add_argument("--closed", action="store_true",
                        help="every round of the event closed (its report prints only then)")
    parser.add_argument("--only", help="only pages whose endpoint or path contains one of these (comma-separated)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'big.sqlite3'}"
        ids = build_event(url, args.players, args.rounds, digital=args.digital, open_last=not args.closed)
        print(f"{args.players} players, {args.rounds} rounds, {ids['audit']} audit entries: "
              f"built in {ids['built_in']:.1f} s ({url.split(':')[0]})")
        closed = None if args.no_actions else build_event(url, args.players, args.rounds, seed=2, open_last=False,
                                                            name="Big Open, every round closed")
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url, "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        signed = client.post("/sign-in", data={"name": ACCOUNT, "password": PASSWORD})
        if signed.status_code != 302:
            raise SystemExit(f"sign-in failed with {signed.status_code}")
        if client.get(f"/events/{ids['event_id']}").status_code != 200:
            raise SystemExit("signed in, but the event's page is not shown")
        pages = event_pages(app, ids, args.with_pdfs)
        if args.only:
            wanted = [part for part in args.only.split(",") if part]
            pages = [(label, path) for label, path in pages if any(w in label or w in path for w in wanted)]
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
              f"{args.repeat} requests a page")
        print(f"{'page':<44} {'status':>6} {'best s':>8} {'median s':>9} {'size':>10} {'CPU s':>7}")
        slow = []
        for label, path in pages:
            times, cpu, size, status = [], [], 0, 0
            headers = {"HX-Request": "true"} if label.startswith(FRAGMENTS) else {}
            for _ in range(args.repeat):
                started, started_cpu = time.perf_counter(), time.process_time()
                response = client.get(path, headers=headers)
                body = response.get_data()
                times.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                size, status = len(body), response.status_code
            best, median = min(times), statistics.median(times)
            flag = "  over budget" if best > BUDGET and not path.endswith((".pdf", ".json", ".zip")) else ""
            if flag:
                slow.append(label)
            print(f"{label:<44} {status:>6} {best:>8.3f} {median:>9.3f} {_size(size):>10} {min(cpu):>7.3f}{flag}")
        if closed is not None:
            slow += time_actions(client, closed, args.repeat)
        app.extensions["db_engine"].dispose()
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print("over 0.5 s: " + (", ".join(slow) if slow else "none"))


def time_actions(client: Any, ids: dict[str, Any], repeat: int) -> list[str]:
    """Propose the next round of the event whose rounds are all closed, open the proposal's page,
    discard it; ``repeat`` times. Returns the labels over budget."""
    base = f"/events/{ids['event_id']}/rounds"
    number = ids["rounds"] + 1
    labels = (f"propose round {number} (POST)", f"rounds.show (round {number}, proposal)",
              f"rounds.show (round {number}, proposal, page 50)", f"discard round {number} (POST)")
    times: dict[str, list[float]] = {label: [] for label in labels}
    cpu: dict[str, list[float]] = {label: [] for label in labels}
    sizes: dict[str, int] = {}
    for attempt in range(repeat):
        requests = ((labels[0], "post", base + "/propose", {"seed": str(attempt + 1)}, 302),
                    (labels[1], "get", f"{base}/{number}", None, 200),
                    (labels[2], "get", f"{base}/{number}?page=50", None, 200),
                    (labels[3], "post", f"{base}/{number}/discard", {}, 302))
        for label, method, path, data, expected in requests:
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.post(path, data=data) if method == "post" else client.get(path)
            body = response.get_data()
            times[label].append(time.perf_counter() - started)
            cpu[label].append(time.process_time() - started_cpu)
            sizes[label] = len(body)
            if response.status_code != expected:
                raise SystemExit(f"{label}: {response.status_code}, not {expected}")
    slow = []
    for label in labels:
        values = times[label]
        later = values[1:] or values
        best, median = min(later), statistics.median(later)
        flag = "  over budget" if best > BUDGET else ""
        if flag:
            slow.append(label)
        first = f"  (first {values[0]:.3f})" if label == labels[0] else ""
        print(f"{label:<44} {'ok':>6} {best:>8.3f} {median:>9.3f} {_size(sizes[label]):>10} "
              f"{min(cpu[label][1:] or cpu[label]):>7.3f}{flag}{first}")
    return slow


def _size(size: int) -> str:
    return f"{size / 1024:.0f} kB" if size < 1024 * 1024 else f"{size / 1024 / 1024:.1f} MB"


FIRST = ["Ann", "Ben", "Chloé", "Dara", "Emil", "Fatima", "Goran", "Hana", "Ivo", "Jun", "Kai", "Lena", "Mira", "Nils"]
LAST = ["Lee", "Novak", "Okafor", "Peña", "Quist", "Rossi", "Sato", "Tan", "Ueda", "Vogel", "Weiss", "Young"]
CLUBS = ["", "Oak Club", "Maple Society", "Birch Circle", "Willow Friends"]

if __name__ == "__main__":
    main()
