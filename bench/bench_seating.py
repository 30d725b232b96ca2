"""Benchmark: Swiss seating and standings at club and convention scale.

    .venv/bin/python bench/bench_seating.py [--quick]

1. 1,000 players at 4-player tables, round 6, after five simulated rounds (each seated by the
   same code, results drawn from hidden skills, standings recomputed between rounds): time,
   repeated pairs (0 is the optimum whenever reached), rank spread against its lower bound.
2. Small events (8, 12 and 16 players) over several rounds: repeats against an exhaustive search;
   10 to 12 players: repeats and spread together against every possible grouping.
3. Seat positions: repeated seats, start/dealer counts and the rank spread over an
   event: the grouping that counts unavoidable repeated seats with the seat order of
   `seat_order`, against the same seat order after a grouping blind to seats, a plain
   rotation and a simpler order (`previous_order`: fewest starts first); on small events, repeated seats against the
   fewest any grouping with as few repeated opponents allows.
4. Standings for 500 players after 8 rounds.

Timings are wall-clock and CPU (process) seconds; the machine may be shared, so CPU is the
steadier figure.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from organizer.rounds import seating
from organizer.rounds.seat_order import DEALER, START, repeated_seats
from organizer.rounds.seating import SeatingHistory, SeatingPlayer, propose_seating, rank_spread, repeated_pairs, table_sizes
from organizer.rounds.seating_search import ALL_POSITIONS
from organizer.scoring.standings import SeatResult, TableResult, compute_standings


def timed(action: Callable[[], object], repeat: int) -> tuple[object, float, float]:
    """Result of the last run, median wall seconds, median CPU seconds."""
    walls, cpus = [], []
    result: object = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return result, statistics.median(walls), statistics.median(cpus)


def play(tables: list[list[int]], round_number: int, skill: dict[int, float], rng: random.Random,
         first_table_id: int) -> list[TableResult]:
    """Results drawn around each player's hidden skill (points 10..60, species 3..9)."""
    results = []
    for offset, table in enumerate(tables):
        seats = [
            SeatResult(p, max(0, round(skill[p] * 30 + rng.gauss(20, 8))), rng.randint(3, 9))
            for p in table
        ]
        results.append(TableResult(first_table_id + offset, round_number, seats, True))
    return results


def ranks_from_standings(player_ids: Sequence[int], results: list[TableResult]) -> dict[int, int]:
    return {row.player_id: row.rank - 1 for row in compute_standings(player_ids, results)}


def simulate_event(count: int, rounds: int, seed: int) -> tuple[
    list[SeatingPlayer], SeatingHistory, list[TableResult], list[float]
]:
    """Seat and play `rounds` rounds; return the players ranked for the next round."""
    rng = random.Random(seed)
    ids = list(range(1, count + 1))
    skill = {p: rng.random() for p in ids}
    history = SeatingHistory()
    results: list[TableResult] = []
    ranks = {p: 0 for p in ids}
    seat_times = []
    for round_number in range(1, rounds + 1):
        players = [SeatingPlayer(p, ranks[p]) for p in ids]
        start = time.process_time()
        tables = propose_seating(players, round_number, 4, seed, history)
        seat_times.append(time.process_time() - start)
        for table in tables:
            history.add_table(table)
        results += play(tables, round_number, skill, rng, len(results) + 1)
        ranks = ranks_from_standings(ids, results)
    return [SeatingPlayer(p, ranks[p]) for p in ids], history, results, seat_times


def fewest_repeats_possible(
    players: Sequence[SeatingPlayer], sizes: list[int], history: SeatingHistory, known: int
) -> int:
    """Exhaustive (branch and bound) minimum of repeated pairs over every grouping."""
    best = [known]
    tables: list[list[int]] = [[] for _ in sizes]
    ids = [p.id for p in players]

    def place(index: int, so_far: int) -> None:
        if so_far >= best[0]:
            return
        if index == len(ids):
            best[0] = so_far
            return
        tried_empty: set[int] = set()
        for number, table in enumerate(tables):
            if len(table) >= sizes[number] or (not table and sizes[number] in tried_empty):
                continue
            if not table:
                tried_empty.add(sizes[number])
            added = sum(history.have_met(ids[index], other) for other in table)
            table.append(ids[index])
            place(index + 1, so_far + added)
            table.pop()

    place(0, 0)
    return best[0]


def groupings(items: list[int], sizes: list[int]) -> Iterator[list[list[int]]]:
    """Every split of `items` into tables of the given sizes (as a multiset)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in sorted(set(sizes), reverse=True):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [x for x in rest if x not in others]
            for tail in groupings(remaining, left):
                yield [[first, *others], *tail]


def bench_spread(events: int) -> None:
    print("== Spread against exhaustive search (random ranks and history)")
    for count, preferred in ((10, 3), (11, 4), (12, 4)):
        exact = checked = 0
        gaps = []
        for seed in range(events):
            rng = random.Random(seed)
            ranks = list(range(count))
            rng.shuffle(ranks)
            players = [SeatingPlayer(i, ranks[i]) for i in range(count)]
            history = SeatingHistory()
            for _ in range(rng.randint(1, 3)):
                shuffled = list(range(count))
                rng.shuffle(shuffled)
                start = 0
                for size in table_sizes(count, preferred):
                    history.add_table(shuffled[start:start + size])
                    start += size
            rank_of = {p.id: p.rank for p in players}
            tables = propose_seating(players, 4, preferred, seed, history)
            ours = (len(repeated_pairs(tables, history)), rank_spread(tables, rank_of))
            best = min(
                (len(repeated_pairs(g, history)), rank_spread(g, rank_of))
                for g in groupings(list(range(count)), [len(t) for t in tables])
            )
            checked += 1
            exact += ours == best
            if ours != best:
                gaps.append(f"{ours} vs {best}")
        print(f"   {count} players at {preferred}-tables: (repeats, spread) equal to the exhaustive best in "
              f"{exact} of {checked} events" + (f"; otherwise {', '.join(gaps)}" if gaps else ""))


def bench_large(count: int, rounds: int, seed: int, repeat: int) -> None:
    print(f"== Seating {count} players at 4-player tables, round {rounds + 1} "
          f"(history of {rounds} simulated rounds, seed {seed})")
    players, history, _, seat_times = simulate_event(count, rounds, seed)
    print(f"   rounds 1-{rounds} seated in CPU s: " + ", ".join(f"{t:.2f}" for t in seat_times))
    tables, wall, cpu = timed(lambda: propose_seating(players, rounds + 1, 4, seed, history), repeat)
    assert isinstance(tables, list)
    ranks = {p.id: p.rank for p in players}
    repeats = len(repeated_pairs(tables, history))
    sorted_deal = sorted(players, key=lambda p: p.rank)
    sizes = table_sizes(count, 4)
    chunks, start = [], 0
    for size in sizes:
        chunks.append([p.id for p in sorted_deal[start:start + size]])
        start += size
    print(f"   round {rounds + 1}: median {wall:.3f} s wall, {cpu:.3f} s CPU over {repeat} runs")
    print(f"   repeated pairs: {repeats} (optimum 0 when 0); a plain rank-sorted deal would "
          f"have {len(repeated_pairs(chunks, history))}")
    print(f"   rank spread (sum of table rank ranges): {rank_spread(tables, ranks)}; "
          f"the rank-sorted deal, which ignores repeats: {rank_spread(chunks, ranks)}")
    starters = [t[0] for t in tables]
    again = sum(history.start_counts.get(p, 0) > 0 for p in starters)
    forced = sum(min(history.start_counts.get(p, 0) for p in t) > 0 for t in tables)
    print(f"   start players who started before: {again} (tables where everyone had: {forced})")


def bench_small(seeds: int) -> None:
    print("== Small events against exhaustive search (repeated pairs per round)")
    for count, rounds in ((8, 5), (12, 4), (16, 5)):
        worse = checked = zero = 0
        for seed in range(seeds):
            rng = random.Random(seed)
            skill = {p: rng.random() for p in range(1, count + 1)}
            history = SeatingHistory()
            results: list[TableResult] = []
            ranks = {p: 0 for p in skill}
            for round_number in range(1, rounds + 1):
                players = [SeatingPlayer(p, ranks[p]) for p in skill]
                tables = propose_seating(players, round_number, 4, seed, history)
                ours = len(repeated_pairs(tables, history))
                best = fewest_repeats_possible(players, [len(t) for t in tables], history, ours)
                checked += 1
                worse += ours > best
                zero += ours == 0
                for table in tables:
                    history.add_table(table)
                results += play(tables, round_number, skill, rng, len(results) + 1)
                ranks = ranks_from_standings(list(skill), results)
        print(f"   {count} players, {rounds} rounds x {seeds} events: {checked} rounds checked, "
              f"{worse} with more repeats than the optimum, {zero} repeat-free")


def bench_standings(count: int, rounds: int, repeat: int) -> None:
    print(f"== Standings for {count} players after {rounds} rounds")
    _, _, results, _ = simulate_event(count, rounds, 7)
    ids = list(range(1, count + 1))
    rows, wall, cpu = timed(lambda: compute_standings(ids, results), repeat)
    assert isinstance(rows, list)
    shared = len(rows) - len({r.rank for r in rows})
    print(f"   {len(results)} table results: median {wall * 1000:.0f} ms wall, "
          f"{cpu * 1000:.0f} ms CPU over {repeat} runs; {shared} rows share a rank")


OrderStrategy = Callable[[Sequence[Sequence[int]], SeatingHistory, random.Random], list[list[int]]]


def plain_rotation(round_number: int) -> OrderStrategy:
    """The players of a table in id order, turned one seat further each round."""
    def order(groups: Sequence[Sequence[int]], history: SeatingHistory, rng: random.Random) -> list[list[int]]:
        tables = []
        for group in groups:
            members = sorted(group)
            shift = round_number % len(members)
            tables.append(members[shift:] + members[:shift])
        return tables
    return order


def previous_order(groups: Sequence[Sequence[int]], history: SeatingHistory, rng: random.Random) -> list[list[int]]:
    """A simpler seat order to compare with: fewest starts first, then the fewest times in that seat
    number (counted from seat 1, whatever the table's size), one table at a time."""
    absolute: dict[int, Counter[int]] = previous_order.seats  # type: ignore[attr-defined]
    tables = []
    for group in groups:
        members = sorted(group)
        rng.shuffle(members)

        def cost(order: Sequence[int]) -> tuple[int, int]:
            return (history.start_counts.get(order[0], 0),
                    sum(absolute.get(p, Counter())[i] for i, p in enumerate(order)))

        best = list(min(itertools.permutations(members), key=cost))
        for index, player in enumerate(best):
            absolute.setdefault(player, Counter())[index] += 1
        tables.append(best)
    return tables


def seat_event(count: int, rounds: int, seed: int, preferred: int, strategy: str,
               results: bool = True) -> tuple[list[int], SeatingHistory, float, int]:
    """Seat (and play) an event with one seat order strategy: repeated seats per round, the
    history after the last round, CPU seconds of the last round's seating, and the rank spread
    summed over rounds 2 onwards (round 1 is a shuffle)."""
    rng = random.Random(seed)
    ids = list(range(1, count + 1))
    skill = {p: rng.random() for p in ids}
    history = SeatingHistory()
    played: list[TableResult] = []
    ranks = {p: 0 for p in ids}
    repeats, cpu, spread_sum = [], 0.0, 0
    previous_order.seats = {}  # type: ignore[attr-defined]
    original, original_positions = seating.order_tables, seating._new_positions
    if strategy != "seat_order":
        # A grouping blind to seats: every position new to everyone.
        seating._new_positions = lambda counts: ALL_POSITIONS  # type: ignore[assignment]
    try:
        for round_number in range(1, rounds + 1):
            if strategy == "rotation":
                seating.order_tables = plain_rotation(round_number)
            elif strategy == "previous":
                seating.order_tables = previous_order
            players = [SeatingPlayer(p, ranks[p]) for p in ids]
            start = time.process_time()
            tables = propose_seating(players, round_number, preferred, seed, history)
            cpu = time.process_time() - start
            repeats.append(len(repeated_seats(tables, history)))
            if round_number > 1:
                spread_sum += rank_spread(tables, ranks)
            for table in tables:
                history.add_table(table)
            if results:
                played += play(tables, round_number, skill, rng, len(played) + 1)
                ranks = ranks_from_standings(ids, played)
    finally:
        seating.order_tables, seating._new_positions = original, original_positions
    return repeats, history, cpu, spread_sum


def spread(history: SeatingHistory, position: int, players: int) -> str:
    counts = Counter(c[position] for c in history.seat_counts.values())
    counts[0] += players - len(history.seat_counts)
    return ", ".join(f"{n}x: {counts[n]}" for n in sorted(counts))


STRATEGIES = (
    ("seat_order", "grouping counting seats"),
    ("blind", "grouping blind to seats"),
    ("rotation", "plain rotation"),
    ("previous", "previous order"),
)


def bench_seat_positions(count: int, rounds: int, seed: int, events: int) -> None:
    print(f"== Seat positions: {count} players at 4-player tables, {rounds} rounds (seed {seed})")
    for strategy, label in STRATEGIES:
        repeats, history, cpu, spread_sum = seat_event(count, rounds, seed, 4, strategy)
        print(f"   {label}: repeated seats per round {repeats}; rank spread of rounds 2-{rounds} "
              f"{spread_sum}; round {rounds} seated in {cpu:.2f} s CPU")
        print(f"      starts per player  {spread(history, START, count)}")
        print(f"      deals per player   {spread(history, DEALER, count)}")
    print(f"== Seat positions: 32 players at 4-player tables, 3 rounds, {events} events "
          "(average players in a seat they had, per event; 0 is possible)")
    for strategy, label in STRATEGIES:
        runs = [seat_event(32, 3, s, 4, strategy) for s in range(events)]
        totals = [sum(r[0]) for r in runs]
        print(f"   {label}: {statistics.mean(totals):.2f} (worst {max(totals)}, none in "
              f"{totals.count(0)} of {events} events); rank spread of rounds 2-3 "
              f"{statistics.mean(r[3] for r in runs):.1f}")
    for players, rounds_played in ((32, 5), (30, 5), (17, 5)):
        sizes = table_sizes(players, 4)
        print(f"== Seat positions: {players} players (tables of {'/'.join(map(str, sorted(set(sizes))))}), "
              f"{rounds_played} rounds, {events} events (average repeated seats per event; "
              "largest start count minus smallest at the end)")
        for strategy, label in STRATEGIES:
            runs = [seat_event(players, rounds_played, s, 4, strategy) for s in range(events)]
            totals = [sum(r[0]) for r in runs]
            ranges = [max(c[START] for c in r[1].seat_counts.values())
                      - min(c[START] for c in r[1].seat_counts.values()) for r in runs]
            print(f"   {label}: {statistics.mean(totals):.2f} (worst {max(totals)}); "
                  f"start range {statistics.mean(ranges):.2f} (worst {max(ranges)}); "
                  f"rank spread of rounds 2-{rounds_played} {statistics.mean(r[3] for r in runs):.1f}")


def fewest_seat_repeats(tables: Sequence[Sequence[int]], history: SeatingHistory,
                        cache: dict[tuple[int, ...], int]) -> int:
    total = 0
    for table in tables:
        key = tuple(sorted(table))
        if key not in cache:
            cache[key] = min(len(repeated_seats([o], history)) for o in itertools.permutations(key))
        total += cache[key]
    return total


def bench_seats_across_groupings(seeds: int) -> None:
    """Does any grouping with as few repeated opponents (and any spread) repeat fewer seats?"""
    print("== Repeated seats against every grouping with as few repeated opponents")
    for count, preferred, rounds in ((8, 4, 5), (10, 4, 4), (12, 4, 4), (12, 3, 4)):
        same = checked = 0
        gaps: list[int] = []
        for seed in range(seeds):
            rng = random.Random(seed)
            skill = {p: rng.random() for p in range(1, count + 1)}
            history = SeatingHistory()
            played: list[TableResult] = []
            ranks = {p: 0 for p in skill}
            for round_number in range(1, rounds + 1):
                players = [SeatingPlayer(p, ranks[p]) for p in skill]
                tables = propose_seating(players, round_number, preferred, seed, history)
                if round_number > 1:
                    ours = len(repeated_seats(tables, history))
                    pairs = len(repeated_pairs(tables, history))
                    cache: dict[tuple[int, ...], int] = {}
                    best = min(fewest_seat_repeats(g, history, cache)
                               for g in groupings(list(skill), [len(t) for t in tables])
                               if len(repeated_pairs(g, history)) == pairs)
                    checked += 1
                    same += ours == best
                    if ours != best:
                        gaps.append(ours - best)
                for table in tables:
                    history.add_table(table)
                played += play(tables, round_number, skill, rng, len(played) + 1)
                ranks = ranks_from_standings(list(skill), played)
        print(f"   {count} players at {preferred}-tables, rounds 2-{rounds} x {seeds} events: fewest possible "
              f"in {same} of {checked} rounds" + (f"; otherwise more by {Counter(gaps)}" if gaps else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a smoke test")
    parser.add_argument("--seats", action="store_true", help="only the seat position figures")
    args = parser.parse_args()
    if args.seats:
        bench_seat_positions(1000, 6, 11, 20)
        bench_seats_across_groupings(6)
    elif args.quick:
        bench_large(200, 5, 11, 1)
        bench_small(2)
        bench_spread(5)
        bench_seat_positions(200, 6, 11, 3)
        bench_seats_across_groupings(1)
        bench_standings(100, 8, 1)
    else:
        bench_large(1000, 5, 11, 5)
        bench_small(10)
        bench_spread(40)
        bench_seat_positions(1000, 6, 11, 20)
        bench_seats_across_groupings(6)
        bench_standings(500, 8, 5)


if __name__ == "__main__":
    main()
