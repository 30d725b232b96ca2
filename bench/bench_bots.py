"""Bots: games per second with random and heuristic bots in every mode (one core), and the
heuristic bot's win rate against random bots over seeded games.

Run: .venv/bin/python bench/bench_bots.py [--games 1000] [--seconds 3] [--jobs N] [--write]
     .venv/bin/python bench/bench_bots.py --levels [--games 1000] [--strong-games 300] [--playouts 60]

1. Speed: every seat played by the same bot (random, then heuristic), whole games dealt, played
   and scored, timed in process CPU time in this one process (one core).
2. Strength: ``--games`` seeded games per mode, player count (and edition for the standard
   game): the heuristic bot in one seat, random bots in the others, the heuristic's seat rotated
   one seat per game (``arboretum simulate --bots heuristic,random,... --rotate``), compared with
   the seat share 1/N. Solo: the heuristic's win rate against Q compared with the random bot's.
   These games are spread over ``--jobs`` processes; every game is seeded, so the figures are
   the same however many processes run them.

``--write`` puts the figures into docs/performance.md, section "Engine: games and bots".

3. ``--levels``: the levels against each other, seats rotated one seat per game: one strong bot
   against normal bots (``--strong-games`` games, the strong bot at a fixed ``--playouts`` budget,
   playouts of a two-player decision and fewer in longer games, by default its own, and no time
   cap, so the figures do not depend on the machine's load), one normal bot against easy bots,
   in standard 2 and 4 players and the draft with 3; then each level's solo win rate (Q placing
   by the rule), and the strong bot's CPU time per decision at its default budget. ``--rows
   strong|easy`` and ``--only "<game>"`` run a part of the table (a machine shared with others:
   one row per process); progress goes to stderr.

4. Long rows, resumable: ``--save FILE`` appends each finished game of the levels' rows (solo
   too, not timing) to FILE as one JSON line (row, game index, seeds, bots by seat, the tested
   bot's seat, winners, scores, CPU seconds, the commit and a hash of engine/**/*.py) the moment
   it ends, so a killed run keeps every finished game; ``--resume`` skips the games already in
   FILE (refusing a file made by other engine code). The games are exactly those of the plain
   run (game i's seeds and seats depend on i only). ``--report FILE [FILE ...]`` prints the
   rows' table from saved games, refusing to merge files made by different engine code. A copy
   of the tree without .git (``git archive``) names its commit in a ``.git-commit`` file at its
   root."""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import random
import subprocess
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.bots import DEFAULT_PLAYOUTS, make_bot, play_game  # noqa: E402
from engine.game import State  # noqa: E402
from engine.games import Game  # noqa: E402
from engine.simulate import bot_seed, game_seed, lineup_for, simulate  # noqa: E402

SPEED = [
    ("standard", 2, "2018"), ("standard", 3, "2018"), ("standard", 4, "2018"),
    ("standard", 2, "2010"), ("standard", 3, "2010"), ("standard", 4, "2010"),
    ("draft", 2, "2018"), ("draft", 3, "2018"), ("draft", 4, "2018"),
    ("solo", 1, "2018"),
]
STRENGTH = SPEED
SEED = 2026
START, END = "<!-- bench_bots:start -->", "<!-- bench_bots:end -->"


def label(mode: str, players: int, edition: str) -> str:
    if mode == "solo":
        return "solo"
    return f"{mode} {players}p" + (f" {edition}" if mode == "standard" else "")


def games_per_second(mode: str, players: int, edition: str, bot_name: str, seconds: float) -> tuple[float, int]:
    """(games per CPU second, games played) with ``bot_name`` in every seat."""
    bot = make_bot(bot_name)
    seats = players + 1 if mode == "solo" else players
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds or games < 3:
        state = Game(mode, players, seed=games, edition=edition).new_initial_state()
        play_game(state, [bot] * seats, random.Random(games))
        state.outcome()
        games += 1
    return games / (time.process_time() - start), games


def strength_chunk(args: tuple[str, int, str, list[str], int, int]) -> dict[str, Any]:
    mode, players, edition, bots, games, first = args
    summary = simulate(mode, players, games, bots, SEED, edition, rotate=True, first_index=first)
    return {row["bot"]: row for row in summary.to_json()["by_bot"]}


def win_rate(mode: str, players: int, edition: str, bots: list[str], games: int, pool: Executor,
             jobs: int, chunk: int = 0) -> dict[str, dict[str, float]]:
    """Per bot: seat-games, wins and mean score over ``games`` seeded games, merged over chunks
    of ``chunk`` games (0: about eight chunks a process)."""
    size = chunk or max(1, math.ceil(games / (jobs * 8)))
    chunks = [(mode, players, edition, bots, min(size, games - first), first) for first in range(0, games, size)]
    merged: dict[str, dict[str, float]] = {}
    for part in pool.map(strength_chunk, chunks):
        for name, row in part.items():
            into = merged.setdefault(name, {"games": 0, "wins": 0, "score_sum": 0.0})
            into["games"] += row["games"]
            into["wins"] += row["wins"]
            into["score_sum"] += row["mean_score"] * row["games"]
        # progress (not part of the table): the first bot's running figure, the chunks in order
        first = merged[bots[0]]
        print(f"  ... {label(mode, players, edition)} {bots[0]}: {first['wins']:.0f} wins of {first['games']:.0f} "
              f"seat-games", file=sys.stderr, flush=True)
    return merged


def wilson(wins: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


class SavedGamesError(Exception):
    """Saved games that cannot be resumed or merged (other engine code, another row's games)."""


def engine_hash() -> str:
    """What the games depend on: a hash of every source file (path and bytes) of the engine
    package this process imported (an editable install could import another tree's than ROOT's)."""
    package = Path(engine.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package.parent).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def code_commit() -> str:
    """The commit the tree was taken from: git's HEAD (``+engine-changes`` when engine/ differs
    from it), else the ``.git-commit`` file a ``git archive`` copy was given, else ``unknown``."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "engine"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + ("+engine-changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        marker = ROOT / ".git-commit"
        return marker.read_text(encoding="utf-8").strip() if marker.exists() else "unknown"


def row_key(record: dict[str, Any]) -> tuple[str, int, str, tuple[str, ...], int]:
    """The row a saved game belongs to: game, bots in lineup order, run seed."""
    return (record["mode"], record["players"], record["edition"], tuple(record["bots"]), record["seed"])


def game_record(mode: str, players: int, edition: str, bots: list[str], index: int, state: State,
                cpu: float, code: tuple[str, str]) -> dict[str, Any]:
    """One finished game as a saved line; the tested bot is ``bots[0]``."""
    outcome = state.outcome()
    assert outcome is not None  # simulate hands over finished games only
    seats = lineup_for(bots, players, index, True)
    return {
        "row": label(mode, players, edition), "mode": mode, "players": players, "edition": edition,
        "bots": bots, "seed": SEED, "game": index, "deal_seed": game_seed(SEED, index),
        "bot_seed": bot_seed(SEED, index), "seats": seats, "tested_seat": seats.index(bots[0]),
        "winners": list(outcome.winners), "scores": [p.total for p in outcome.players],
        "cpu": round(cpu, 3), "engine": code[0], "commit": code[1],
    }


def saved_chunk(args: tuple[str, int, str, list[str], int, int, str, tuple[str, str]]) -> int:
    """Play games ``first`` .. ``first + games - 1`` of a row, appending each to ``path`` as it
    ends (one write of one line, so processes appending to the same file do not interleave)."""
    mode, players, edition, bots, games, first, path, code = args
    clock = [time.process_time()]

    def on_game(offset: int, state: State) -> None:
        now = time.process_time()
        line = json.dumps(game_record(mode, players, edition, bots, first + offset, state, now - clock[0], code))
        with open(path, "a", encoding="utf-8") as out:
            out.write(line + "\n")
        clock[0] = time.process_time()

    simulate(mode, players, games, bots, SEED, edition, rotate=True, on_game=on_game, first_index=first)
    return games


def read_saved(path: Path) -> list[dict[str, Any]]:
    """The games saved in ``path``; a last line cut short by a killed run is left out."""
    if not path.exists():
        return []
    records = []
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):  # no newline after it: the write was cut off
                continue
            raise SavedGamesError(f"{path}:{number}: not a saved game") from None
    return records


def merge_saved(sources: dict[str, list[dict[str, Any]]]) -> dict[tuple[str, int, str, tuple[str, ...], int],
                                                                   dict[int, dict[str, Any]]]:
    """Saved games by row and game index, from one or more files; refuses games played by
    different engine code, and a game saved twice with different results."""
    hashes: dict[str, set[str]] = {}
    for name, records in sources.items():
        for record in records:
            hashes.setdefault(record["engine"], set()).add(name)
    if len(hashes) > 1:
        told = "; ".join(f"engine {h} in {', '.join(sorted(files))}" for h, files in sorted(hashes.items()))
        raise SavedGamesError(f"games played by different engine code cannot be merged: {told}")
    rows: dict[tuple[str, int, str, tuple[str, ...], int], dict[int, dict[str, Any]]] = {}
    for name, records in sources.items():
        for record in records:
            games = rows.setdefault(row_key(record), {})
            seen = games.get(record["game"])
            if seen is not None and (seen["winners"], seen["scores"]) != (record["winners"], record["scores"]):
                raise SavedGamesError(f"{name}: game {record['game']} of {record['row']} was saved with another "
                                      "result before: not the same games")
            games[record["game"]] = record
    return rows


def play_saved(mode: str, players: int, edition: str, bots: list[str], games: int, pool: Executor,
               jobs: int, chunk: int, path: Path, resume: bool) -> list[dict[str, Any]]:
    """Games 0 .. ``games`` - 1 of a row, played into ``path`` (those already there skipped when
    resuming); returns the row's saved games."""
    code = (engine_hash(), code_commit())
    existing = read_saved(path)
    if existing and not resume:
        raise SavedGamesError(f"{path} holds {len(existing)} saved games: --resume to add to them")
    if existing:
        merge_saved({str(path): existing})
        if existing[0]["engine"] != code[0]:
            raise SavedGamesError(f"{path}: its games were played by engine {existing[0]['engine']}, this "
                                  f"code is engine {code[0]}: resume with the code that began them")
    text = path.read_bytes() if path.exists() else b""
    if text and not text.endswith(b"\n"):  # a line cut off by a kill: drop it before appending
        path.write_bytes(text[: text.rfind(b"\n") + 1])
    key = (mode, players, edition, tuple(bots), SEED)
    done = {r["game"] for r in existing if row_key(r) == key}
    missing = [index for index in range(games) if index not in done]
    size = chunk or max(1, math.ceil(games / (jobs * 8)))
    chunks = []
    for index in missing:  # contiguous runs of missing games, cut into chunks of ``size``
        last = chunks[-1] if chunks else None
        if last is not None and last[5] + last[4] == index and last[4] < size:
            chunks[-1] = (*last[:4], last[4] + 1, *last[5:])
        else:
            chunks.append((mode, players, edition, bots, 1, index, str(path), code))
    print(f"  ... {label(mode, players, edition)}: {len(done & set(range(games)))} of {games} games saved in "
          f"{path}, {len(missing)} to play (engine {code[0]} from {Path(engine.__file__).parent}, "
          f"commit {code[1]})", file=sys.stderr, flush=True)
    for _ in pool.map(saved_chunk, chunks):
        row = [r for r in read_saved(path) if row_key(r) == key and r["game"] < games]
        wins = sum(r["tested_seat"] in r["winners"] for r in row)
        print(f"  ... {label(mode, players, edition)} {bots[0]}: {wins} wins of {len(row)} games", file=sys.stderr,
              flush=True)
    rows = merge_saved({str(path): read_saved(path)})
    return [record for index, record in sorted(rows.get(key, {}).items()) if index < games]


def level_name(bot: str) -> str:
    """A bot's name in the tables: its level (the strong bot at its default budget: "strong")."""
    return "strong" if bot == f"strong:{DEFAULT_PLAYOUTS}" else {"heuristic": "normal"}.get(bot, bot)


def saved_row_line(records: list[dict[str, Any]]) -> str:
    """The levels table's line of a row from its saved games."""
    first = records[0]
    players = first["players"]
    top = first["bots"][0]
    wins = sum(r["tested_seat"] in r["winners"] for r in records)
    lo, hi = wilson(wins, len(records))
    mine = sum(r["scores"][r["tested_seat"]] for r in records) / len(records)
    others = [s for r in records for seat, s in enumerate(r["scores"]) if seat != r["tested_seat"]]
    name = level_name(top)
    if first["mode"] == "solo":  # against Q, who places the cards it is given by the rule
        against, share = "Q", "–"
    else:
        against, share = f"{players - 1} {level_name(first['bots'][1])}", f"{1 / players:.1%}"
    return (f"| {first['row']} | {name} vs {against} | {len(records)} | {wins / len(records):.1%} | "
            f"{lo:.1%}–{hi:.1%} | {share} | {mine:.1f} / {sum(others) / len(others):.1f} |")


def report_saved(paths: list[Path], emit: Any) -> None:
    """The rows' table from saved games (``--report``)."""
    rows = merge_saved({str(path): read_saved(path) for path in paths})
    if not rows:
        raise SavedGamesError(f"no saved games in {', '.join(map(str, paths))}")
    first = next(iter(next(iter(rows.values())).values()))
    emit(f"Saved games (seed {SEED}, seats rotated one seat per game; 95% Wilson intervals; a shared win counts "
         f"for every winner); engine {first['engine']}, commit {first['commit']}:")
    emit()
    emit("| game | bot against | games | wins | 95% interval | seat share | mean score (bot / others) |")
    emit("|---|---|---:|---:|---:|---:|---|")
    notes = []
    for key in sorted(rows):
        games = rows[key]
        records = [games[i] for i in sorted(games)]
        emit(saved_row_line(records))
        span = max(games) + 1
        gaps = "" if len(games) == span else f"; {span - len(games)} of games 0–{span - 1} missing"
        by_seat = ", ".join(
            f"seat {seat + 1} {sum(r['tested_seat'] in r['winners'] for r in records if r['tested_seat'] == seat)}/"
            f"{sum(r['tested_seat'] == seat for r in records)}" for seat in range(key[1]))
        cpu = sum(r["cpu"] for r in records) / len(records)
        notes.append(f"{records[0]['row']} ({key[3][0]}): games {min(games)}–{span - 1}{gaps}; the tested bot's wins "
                     f"by its seat: {by_seat}; {cpu:.2f} CPU s a game")
    emit()
    for note in notes:
        emit(note)


LEVEL_ROWS = [("standard", 2, "2018"), ("standard", 4, "2018"), ("draft", 3, "2018")]


def levels_table(args: argparse.Namespace, pool: Executor, emit: Any) -> None:
    strong = f"strong:{args.playouts}"
    rows = args.rows
    emit(f"Levels, seats rotated one seat per game (seed {SEED}); the strong bot at {args.playouts} playouts a "
         "decision and no time cap (so the figures do not depend on the machine's load); 95% Wilson "
         "intervals; a shared win counts for every winner:")
    emit()
    emit("| game | bot against | games | wins | 95% interval | seat share | mean score (bot / others) |")
    emit("|---|---|---:|---:|---:|---:|---|")
    pairs = []
    if rows in ("all", "strong"):
        pairs.append((strong, "heuristic", args.strong_games))
    if rows in ("all", "easy"):
        pairs.append(("heuristic", "easy", args.games))
    for top, low, games in pairs:
        for mode, players, edition in LEVEL_ROWS:
            if args.only and args.only != label(mode, players, edition):
                continue
            started = time.perf_counter()
            if args.save:
                records = play_saved(mode, players, edition, [top] + [low] * (players - 1), games, pool,
                                     args.jobs, args.chunk, Path(args.save), args.resume)
                emit(saved_row_line(records))
                print(f"  ({time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.1f})", flush=True)
                continue
            merged = win_rate(mode, players, edition, [top] + [low] * (players - 1), games, pool, args.jobs,
                              args.chunk)
            a, b = merged[top], merged[low]
            lo, hi = wilson(a["wins"], a["games"])
            name = {strong: "strong", "heuristic": "normal"}[top]
            other = {"heuristic": "normal", "easy": "easy"}[low]
            emit(f"| {label(mode, players, edition)} | {name} vs {players - 1} {other} | {a['games']:.0f} | "
                 f"{a['wins'] / a['games']:.1%} | {lo:.1%}–{hi:.1%} | {1 / players:.1%} | "
                 f"{a['score_sum'] / a['games']:.1f} / {b['score_sum'] / b['games']:.1f} |")
            print(f"  ({time.perf_counter() - started:.0f} s, load {os.getloadavg()[0]:.1f})", flush=True)
    emit()
    solo = []
    if rows in ("all", "easy"):
        solo += [("random", args.games), ("easy", args.games), ("heuristic", args.games)]
    if rows in ("all", "strong"):
        solo.append((strong, args.strong_games))
    if args.no_solo or (args.only and args.only != "solo"):
        solo = []
    if args.save:  # saved rows print in the levels table's shape: the player against Q
        emit("| game | bot against | games | wins | 95% interval | seat share | mean score (bot / Q) |")
        emit("|---|---|---:|---:|---:|---:|---|")
    else:
        emit("| solo (Q places by the rule) | games | player wins | 95% interval | mean score |")
        emit("|---|---:|---:|---:|---:|")
    for bot, games in solo:
        if args.save:
            records = play_saved("solo", 1, "2018", [bot], games, pool, args.jobs, args.chunk, Path(args.save),
                                 args.resume)
            emit(saved_row_line(records))
            continue
        row = win_rate("solo", 1, "2018", [bot], games, pool, args.jobs)[bot]
        lo, hi = wilson(row["wins"], row["games"])
        name = {"heuristic": "normal", strong: "strong"}.get(bot, bot)
        emit(f"| {name} | {row['games']:.0f} | {row['wins'] / row['games']:.1%} | {lo:.1%}–{hi:.1%} | "
             f"{row['score_sum'] / row['games']:.1f} |")
    emit()
    if args.timing_games <= 0:
        return
    emit(f"Strong bot at its default budget ({DEFAULT_PLAYOUTS} playouts a decision of a two-player game, fewer "
         "where playouts are longer: engine.bots.search.playouts_for) "
         f"{'with its time cap (the bot of the live tables)' if args.capped else 'without its time cap'}, "
         "CPU seconds per decision in this one process (one core), in a few games against normal bots; "
         "'searched': decisions that ran the search (the others are the heuristic's, in the early turns):")
    emit()
    emit("| game | decisions | searched | median searched | 90th percentile searched | mean | max |")
    emit("|---|---:|---:|---:|---:|---:|---:|")
    for mode, players, edition in [*LEVEL_ROWS, ("solo", 1, "2018")]:
        if args.only and args.only != label(mode, players, edition):
            continue
        times, searched = decision_times(mode, players, edition, games=args.timing_games, capped=args.capped)
        ordered = sorted(times)
        hard = sorted(t for t, s in zip(times, searched, strict=True) if s)
        median = hard[len(hard) // 2] if hard else 0.0
        p90 = hard[min(len(hard) - 1, int(0.9 * len(hard)))] if hard else 0.0
        emit(f"| {label(mode, players, edition)} | {len(times)} | {len(hard)} | {median:.3f} | {p90:.3f} | "
             f"{sum(times) / len(times):.3f} | {ordered[-1]:.3f} |")


def decision_times(mode: str, players: int, edition: str, games: int, capped: bool = False
                   ) -> tuple[list[float], list[bool]]:
    """CPU seconds of each strong-bot decision (default playouts; no time cap unless ``capped``:
    then the live tables' bot, cap included) in a few games against normal bots, and whether
    each one searched."""
    from engine.bots import StrongBot
    from engine.game import SIMULTANEOUS

    times: list[float] = []
    searched: list[bool] = []
    for index in range(games):
        state = Game(mode, players, seed=index, edition=edition).new_initial_state()
        seats = players + 1 if mode == "solo" else players
        strong = StrongBot() if capped else StrongBot(seconds=None)
        bots = [strong] + [make_bot("heuristic")] * (seats - 1)
        rng = random.Random(index)
        while not state.is_terminal():
            player = state.current_player()
            for seat in state.awaited_seats() if player == SIMULTANEOUS else [player]:
                start = time.process_time()
                action = bots[seat].choose(state, seat, rng)
                if seat == 0:
                    times.append(time.process_time() - start)
                    reason = strong.last_reason
                    searched.append(bool(reason is not None and getattr(reason, "playouts", 0)))
                state.apply_action(action, seat)
    return times, searched


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per strength row (default 1000)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per speed row (default 3)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the strength games")
    parser.add_argument("--skip-speed", action="store_true", help="only the strength table")
    parser.add_argument("--write", action="store_true", help="write the figures into docs/performance.md")
    parser.add_argument("--levels", action="store_true", help="the levels' table instead (easy, normal, strong)")
    parser.add_argument("--strong-games", type=int, default=300, help="games per strong-bot row (default 300)")
    parser.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS,
                        help=f"the strong bot's playouts a decision (default {DEFAULT_PLAYOUTS}, its own default)")
    parser.add_argument("--only", default="", help="levels: only this game's rows, e.g. 'standard 2p 2018' or 'solo'")
    parser.add_argument("--chunk", type=int, default=0, help="games per chunk of work (progress after each)")
    parser.add_argument("--no-solo", action="store_true", help="levels: without the solo rows")
    parser.add_argument("--timing-games", type=int, default=2, help="games for the strong bot's time per decision")
    parser.add_argument("--capped", action="store_true",
                        help="timing: the strong bot with its time cap, as on the live tables")
    parser.add_argument("--rows", default="all", help=(
        "levels: 'strong', 'easy' (normal vs easy and solo), 'timing' (only the time per decision) or 'all'"))
    parser.add_argument("--save", default="", metavar="FILE", help=(
        "levels: append each finished game of the bot-against-bot rows to FILE, one JSON line each"))
    parser.add_argument("--resume", action="store_true", help="with --save: skip the games already in FILE")
    parser.add_argument("--report", nargs="+", default=[], metavar="FILE",
                        help="print the rows' table from files written by --save (merged; no games played)")
    args = parser.parse_args()
    out: list[str] = []

    def emit(line: str = "") -> None:
        print(line, flush=True)
        out.append(line)

    if args.report:
        try:
            report_saved([Path(name) for name in args.report], emit)
        except (SavedGamesError, OSError) as exc:
            parser.exit(2, f"bench_bots: error: {exc}\n")
        return
    if (args.save or args.resume) and not args.levels:
        parser.error("--save and --resume go with --levels")
    if args.resume and not args.save:
        parser.error("--resume needs --save FILE")
    emit(f"Python {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}.")
    emit()
    if args.levels:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            try:
                levels_table(args, pool, emit)
            except SavedGamesError as exc:
                parser.exit(2, f"bench_bots: error: {exc}\n")
        return
    if not args.skip_speed:
        emit("Games per second on one core (every seat the same bot; dealt, played and scored):")
        emit()
        emit("| game | random bots | heuristic bots |")
        emit("|---|---:|---:|")
        for mode, players, edition in SPEED:
            fast, _ = games_per_second(mode, players, edition, "random", args.seconds)
            slow, _ = games_per_second(mode, players, edition, "heuristic", args.seconds)
            emit(f"| {label(mode, players, edition)} | {fast:,.0f} | {slow:,.1f} |")
        emit()
    emit(
        f"Heuristic bot against random bots, {args.games:,} seeded games per row (seed {SEED}; the "
        "heuristic in one seat, rotated one seat per game; a shared win counts for every winner):"
    )
    emit()
    emit("| game | heuristic wins | 95% interval | seat share | heuristic mean score | random mean score |")
    emit("|---|---:|---:|---:|---:|---:|")
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for mode, players, edition in STRENGTH:
            seats = 1 if mode == "solo" else players
            bots = ["heuristic"] + ["random"] * (seats - 1)
            merged = win_rate(mode, players, edition, bots, args.games, pool, args.jobs)
            h = merged["heuristic"]
            low, high = wilson(h["wins"], h["games"])
            if mode == "solo":
                alone = win_rate(mode, players, edition, ["random"], args.games, pool, args.jobs)["random"]
                share = f"random bot: {alone['wins'] / alone['games']:.1%}"
                other = alone["score_sum"] / alone["games"]
            else:
                share = f"{1 / players:.1%}"
                r = merged["random"]
                other = r["score_sum"] / r["games"]
            emit(
                f"| {label(mode, players, edition)} | {h['wins'] / h['games']:.1%} | {low:.1%}–{high:.1%} | {share} "
                f"| {h['score_sum'] / h['games']:.1f} | {other:.1f} |"
            )
    emit()
    emit(f"(strength games: {time.perf_counter() - started:.0f} s wall time on {args.jobs} processes)")
    if args.write:
        write_section(out)


def write_section(lines: list[str]) -> None:
    path = ROOT / "docs" / "performance.md"
    body = "\n".join([START, "## Engine: games and bots", "", "`bench/bench_bots.py`", "", *lines, END])
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if START in text and END in text:
        before, rest = text.split(START, 1)
        after = rest.split(END, 1)[1]
        text = before + body + after
    else:
        text = text.rstrip("\n") + "\n\n" + body + "\n"
    path.write_text(text, encoding="utf-8")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
