"""Bots: games per second with random and heuristic bots in every mode (one core), and the
heuristic bot's win rate against random bots over seeded games.

Run: .venv/bin/python bench/bench_bots.py [--games 1000] [--seconds 3] [--jobs N] [--write]

1. Speed: every seat played by the same bot (random, then heuristic), whole games dealt, played
   and scored, timed in process CPU time in this one process (one core).
2. Strength: ``--games`` seeded games per mode, player count (and edition for the standard
   game): the heuristic bot in one seat, random bots in the others, the heuristic's seat rotated
   one seat per game (``arboretum simulate --bots heuristic,random,... --rotate``), compared with
   the seat share 1/N. Solo: the heuristic's win rate against Q compared with the random bot's.
   These games are spread over ``--jobs`` processes; every game is seeded, so the figures are
   the same however many processes run them.

``--write`` puts the figures into docs/benchmarks.md, section "Engine: games and bots"."""

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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeded games per strength row (default 1000)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per speed row (default 3)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes for the strength games")
    parser.add_argument("--skip-speed", action="store_true", help="only the strength table")
    parser.add_argument("--write", action="store_true", help="write the figures into docs/benchmarks.md")
    args = parser.parse_args()
    out: list[str] = []

    def emit(line: str = "") -> None:
        print(line, flush=True)
        out.append(line)

    emit(f"Python {platform.python_version()} on {platform.machine()}, {time.strftime('%Y-%m-%d')}.")
    emit()
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
