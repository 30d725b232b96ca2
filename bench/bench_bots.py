"""Bots: games per second with random and heuristic bots in every mode (one core), and the
heuristic bot's win rate against random bots over seeded games.

Run: .venv/bin/python bench/bench_bots.py [--games 1000] [--seconds 3] [--jobs N] [--write]
     .venv/bin/python bench/bench_bots.py --levels [--games 1000] [--strong-games 300] [--playouts 120]

1. Speed: every seat played by the same bot (random, then heuristic), whole games dealt, played
   and scored, timed in process CPU time in this one process (one core).
2. Strength: ``--games`` seeded games per mode, player count (and edition for the standard
   game): the heuristic bot in one seat, random bots in the others, the heuristic's seat rotated
   one seat per game (``arboretum simulate --bots heuristic,random,... --rotate``), compared with
   the seat share 1/N. Solo: the heuristic's win rate against Q compared with the random bot's.
   These games are spread over ``--jobs`` processes; every game is seeded, so the figures are
   the same however many processes run them.

``--write`` puts the figures into docs/benchmarks.md, section "Engine: games and bots".

3. ``--levels``: the levels against each other, seats rotated one seat per game: one strong bot
   against normal bots (``--strong-games`` games, the strong bot at a fixed ``--playouts`` per
   decision instead of its 1-second default, so the figures do not depend on the machine's
   load), one normal bot against easy bots, in standard 2 and 4 players and the draft with 3;
   then each level's solo win rate (Q placing by the rule), and the strong bot's time per
   decision at its default budget."""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bots import make_bot, play_game  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.simulate import simulate  # noqa: E402

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


def win_rate(mode: str, players: int, edition: str, bots: list[str], games: int, pool: ProcessPoolExecutor,
             jobs: int) -> dict[str, dict[str, float]]:
    """Per bot: seat-games, wins and mean score over ``games`` seeded games, merged over chunks."""
    size = math.ceil(games / (jobs * 4))
    chunks = [(mode, players, edition, bots, min(size, games - first), first) for first in range(0, games, size)]
    merged: dict[str, dict[str, float]] = {}
    for part in pool.map(strength_chunk, chunks):
        for name, row in part.items():
            into = merged.setdefault(name, {"games": 0, "wins": 0, "score_sum": 0.0})
            into["games"] += row["games"]
            into["wins"] += row["wins"]
            into["score_sum"] += row["mean_score"] * row["games"]
    return merged


def wilson(wins: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


LEVEL_ROWS = [("standard", 2, "2018"), ("standard", 4, "2018"), ("draft", 3, "2018")]


def levels_table(args: argparse.Namespace, pool: ProcessPoolExecutor, emit: Any) -> None:
    strong = f"strong:{args.playouts}"
    emit(f"Levels, seats rotated one seat per game (seed {SEED}); the strong bot at {args.playouts} playouts a "
         "decision; 95% Wilson intervals; a shared win counts for every winner:")
    emit()
    emit("| game | bot against | games | wins | 95% interval | seat share | mean score (bot / others) |")
    emit("|---|---|---:|---:|---:|---:|---|")
    for top, low, games in ((strong, "heuristic", args.strong_games), ("heuristic", "easy", args.games)):
        for mode, players, edition in LEVEL_ROWS:
            started = time.perf_counter()
            merged = win_rate(mode, players, edition, [top] + [low] * (players - 1), games, pool, args.jobs)
            a, b = merged[top], merged[low]
            lo, hi = wilson(a["wins"], a["games"])
            name = {strong: "strong", "heuristic": "normal"}[top]
            other = {"heuristic": "normal", "easy": "easy"}[low]
            emit(f"| {label(mode, players, edition)} | {name} vs {players - 1} {other} | {a['games']:.0f} | "
                 f"{a['wins'] / a['games']:.1%} | {lo:.1%}–{hi:.1%} | {1 / players:.1%} | "
                 f"{a['score_sum'] / a['games']:.1f} / {b['score_sum'] / b['games']:.1f} |")
            print(f"  ({time.perf_counter() - started:.0f} s)", flush=True)
    emit()
    emit("| solo (Q places by the rule) | games | player wins | 95% interval | mean score |")
    emit("|---|---:|---:|---:|---:|")
    for bot, games in (("random", args.games), ("easy", args.games), ("heuristic", args.games),
                       (strong, args.strong_games)):
        row = win_rate("solo", 1, "2018", [bot], games, pool, args.jobs)[bot]
        lo, hi = wilson(row["wins"], row["games"])
        name = {"heuristic": "normal", strong: "strong"}.get(bot, bot)
        emit(f"| {name} | {row['games']:.0f} | {row['wins'] / row['games']:.1%} | {lo:.1%}–{hi:.1%} | "
             f"{row['score_sum'] / row['games']:.1f} |")
    emit()
    emit("Strong bot, default budget (400 playouts, capped at 1 s), seconds per decision on this machine:")
    emit()
    emit("| game | decisions | searched | mean | 95th percentile | max |")
    emit("|---|---:|---:|---:|---:|---:|")
    for mode, players, edition in [*LEVEL_ROWS, ("solo", 1, "2018")]:
        times, searched = decision_times(mode, players, edition, games=2)
        times.sort()
        emit(f"| {label(mode, players, edition)} | {len(times)} | {searched} | {sum(times) / len(times):.3f} | "
             f"{times[int(len(times) * 0.95)]:.3f} | {times[-1]:.3f} |")


def decision_times(mode: str, players: int, edition: str, games: int) -> tuple[list[float], int]:
    """Wall seconds of each strong-bot decision (default budget) in a few games against normal bots."""
    from engine.bots import StrongBot
    from engine.game import SIMULTANEOUS

    times: list[float] = []
    searched = 0
    for index in range(games):
        state = Game(mode, players, seed=index, edition=edition).new_initial_state()
        seats = players + 1 if mode == "solo" else players
        bots = [StrongBot()] + [make_bot("heuristic")] * (seats - 1)
        rng = random.Random(index)
        while not state.is_terminal():
            player = state.current_player()
            for seat in state.awaited_seats() if player == SIMULTANEOUS else [player]:
                start = time.perf_counter()
                action = bots[seat].choose(state, seat, rng)
                if seat == 0:
                    times.append(time.perf_counter() - start)
                    reason = getattr(bots[0], "last_reason", None)
                    searched += bool(reason is not None and getattr(reason, "playouts", 0))
                state.apply_action(action, seat)
    return times, searched


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per strength row (default 1000)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per speed row (default 3)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the strength games")
    parser.add_argument("--skip-speed", action="store_true", help="only the strength table")
    parser.add_argument("--write", action="store_true", help="write the figures into docs/benchmarks.md")
    parser.add_argument("--levels", action="store_true", help="the levels' table instead (easy, normal, strong)")
    parser.add_argument("--strong-games", type=int, default=300, help="games per strong-bot row (default 300)")
    parser.add_argument("--playouts", type=int, default=120, help="the strong bot's playouts a decision (default 120)")
    args = parser.parse_args()
    out: list[str] = []

    def emit(line: str = "") -> None:
        print(line, flush=True)
        out.append(line)

    emit(f"Python {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}.")
    emit()
    if args.levels:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            levels_table(args, pool, emit)
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
    path = ROOT / "docs" / "benchmarks.md"
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
