"""Game state machines: random games per second in every mode, on one core.

Run: .venv/bin/python bench/bench_games.py [--seconds S]
Each game is dealt from its seed, played to the end by a uniform random choice among the legal
actions and scored (``outcome()``). Three drivers: ``state.playout(rng)`` (the simulations' fast path: the
same actions, states and random numbers as the ``random_action`` loop, in one call; the
aim is 2,000 four-player standard games a second on one core), ``random_action(rng)`` through
``apply_action`` (the random bot's hot path, the same choice as ``rng.choice(legal_actions())``
without building the list) and ``rng.choice(legal_actions())`` itself. "play only" leaves the
scoring out.

For steadier figures on a busy machine pin it to one core: ``taskset -c 0 .venv/bin/python
bench/bench_games.py``."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import SIMULTANEOUS, State
from engine.games import Game, replay

GAMES = [("standard", 2), ("standard", 3), ("standard", 4), ("draft", 2), ("draft", 3), ("draft", 4), ("solo", 1)]


def play(mode: str, players: int, seed: int, use_list: bool, score: bool, fast: bool = False) -> State:
    state = Game(mode, players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    if fast:
        state.playout(rng)
    while not state.terminal:
        player = state.current_player()
        if player == SIMULTANEOUS:
            for seat in state.awaited_seats():
                action = rng.choice(state.legal_actions(seat)) if use_list else state.random_action(rng, seat)
                state.apply_action(action, seat)
        else:
            action = rng.choice(state.legal_actions()) if use_list else state.random_action(rng)
            state.apply_action(action)
    if score:
        state.outcome()
    return state


def rate(
    mode: str, players: int, seconds: float, use_list: bool, score: bool, fast: bool = False
) -> tuple[float, float]:
    """(games per second, actions per second) on one core: the best batch of 10 games, as
    ``timeit`` reports the best run, since other processes on a shared machine only ever slow
    a batch down. Process CPU time, so waiting for the CPU is not counted either."""
    best_games = best_actions = 0.0
    seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        batch_start = time.process_time()
        actions = 0
        for _ in range(10):
            actions += play(mode, players, seed, use_list, score, fast).version
            seed += 1
        elapsed = time.process_time() - batch_start
        if elapsed > 0 and 10 / elapsed > best_games:
            best_games, best_actions = 10 / elapsed, actions / elapsed
    return best_games, best_actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    print(
        f"{'game':<12} {'playout':>11} {'(play only)':>12} {'random_action':>15} {'(play only)':>12}"
        f" {'legal_actions':>15} {'actions/s':>11}"
    )
    for mode, players in GAMES:
        playout, playout_actions = rate(mode, players, args.seconds, use_list=False, score=True, fast=True)
        playout_only, _ = rate(mode, players, args.seconds, use_list=False, score=False, fast=True)
        fast, _ = rate(mode, players, args.seconds, use_list=False, score=True)
        play_only, _ = rate(mode, players, args.seconds, use_list=False, score=False)
        listed, _ = rate(mode, players, args.seconds, use_list=True, score=True)
        label = f"{mode} {players}p" if mode != "solo" else "solo"
        print(
            f"{label:<12} {playout:>7.0f} g/s {playout_only:>8.0f} g/s {fast:>11.0f} g/s {play_only:>8.0f} g/s"
            f" {listed:>11.0f} g/s {playout_actions:>11.0f}"
        )
    # a live-table server rebuilds a table from its saved action log
    print()
    for mode, players in GAMES:
        saved = json.loads(json.dumps(play(mode, players, 1, False, False).to_json()))
        best = min(_timed(lambda saved=saved: replay(saved)) for _ in range(30))
        label = f"{mode} {players}p" if mode != "solo" else "solo"
        print(f"replay a finished {label:<12} ({len(saved['actions'])} actions from JSON): {best * 1000:.2f} ms")


def _timed(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


if __name__ == "__main__":
    main()
