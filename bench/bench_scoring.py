"""Scoring speed: the engine's path search against the naive enumerator, in the same run.

Run: .venv/bin/python bench/bench_scoring.py [--arboretums N] [--tables N]
Measures (1) 48-card arboretums holding all six species of a 2-player deck, every species
scored, and (2) whole 4-player tables (ten species, 7-card hands, arboretums of 10-20 cards)."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.arboretum import Arboretum  # noqa: E402
from engine.cards import Card, Edition, edition_species  # noqa: E402
from engine.naive import naive_best_points  # noqa: E402
from engine.paths import PathFinder  # noqa: E402
from engine.scoring import Seat, score_table  # noqa: E402


def random_arboretum(rng: random.Random, cards: list[Card]) -> Arboretum:
    arb = Arboretum()
    for card in cards:
        arb.place(card, rng.choice(arb.legal_cells()))
    return arb


def random_table(rng: random.Random, species: tuple[str, ...]) -> list[Seat]:
    deck = [Card(s, v) for s in species for v in range(1, 9)]
    rng.shuffle(deck)
    seats = []
    for i in range(4):
        size = rng.randint(10, 12)
        hand, deck = deck[:7], deck[7:]
        planted, deck = deck[:size], deck[size:]
        seats.append(Seat(f"P{i + 1}", random_arboretum(rng, planted), tuple(hand)))
    return seats


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--arboretums", type=int, default=20)
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(2026)

    six = edition_species(Edition.E2018)[:6]
    arboretums = [random_arboretum(rng, rng.sample([Card(s, v) for s in six for v in range(1, 9)], 48))
                  for _ in range(args.arboretums)]
    fast_times, naive_times = [], []
    for arb in arboretums:
        fast_times.append(timed(lambda: [PathFinder(arb).best_path(s) for s in six], 20))
        naive_times.append(timed(lambda: [naive_best_points(arb, s) for s in six], 1))
        fast = [p.points if (p := PathFinder(arb).best_path(s)) else None for s in six]
        assert fast == [naive_best_points(arb, s) for s in six]
    fast_48, naive_48 = statistics.mean(fast_times), statistics.mean(naive_times)
    print(f"48-card arboretum, 6 species: engine {fast_48 * 1e3:.3f} ms, naive {naive_48 * 1e3:.1f} ms, "
          f"{naive_48 / fast_48:.0f}x faster")

    ten = edition_species(Edition.E2018)
    tables = [random_table(rng, ten) for _ in range(args.tables)]

    def naive_table(seats: list[Seat]) -> list[int]:
        result = score_table("standard-2018", seats, ten)  # rights as the engine decides them
        return [sum((naive_best_points(seat.arboretum, s) or 0) for s in ten if result.players[i].species[s].right)
                for i, seat in enumerate(seats)]

    fast_times, naive_times = [], []
    for seats in tables:
        fast_times.append(timed(lambda: score_table("standard-2018", seats, ten), 50))
        naive_times.append(timed(lambda: naive_table(seats), 3))
        assert [p.total for p in score_table("standard-2018", seats, ten).players] == naive_table(seats)
    fast_t, naive_t = statistics.mean(fast_times), statistics.mean(naive_times)
    print(f"whole 4-player table, 10 species: engine {fast_t * 1e3:.3f} ms ({1 / fast_t:.0f} tables/s), "
          f"naive {naive_t * 1e3:.1f} ms, {naive_t / fast_t:.1f}x faster")


if __name__ == "__main__":
    main()
