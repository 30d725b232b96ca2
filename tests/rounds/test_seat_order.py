"""Seat order: positions balanced over an event, checked against exhaustive search.

Pure functions, no database. "Repeated seat": a player in a position they already had, with
positions relative to the table's size (seat 1 starts and the last seat deals at every table).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from organizer.rounds import seating
from organizer.rounds.seat_order import DEALER, SECOND, START, THIRD, order_cost, position_of, repeated_seats, seat_label
from organizer.rounds.seating import SeatingHistory, SeatingPlayer, propose_seating, repeated_pairs, table_sizes
from organizer.rounds.seating_search import unavoidable_seat_repeats
from tests.fixtures.examples import examples


def test_positions_are_relative_to_the_table_size() -> None:
    assert [position_of(i, 4) for i in range(4)] == [START, SECOND, THIRD, DEALER]
    assert [position_of(i, 3) for i in range(3)] == [START, SECOND, DEALER]
    assert [position_of(i, 2) for i in range(2)] == [START, DEALER]
    assert [seat_label(i, 4) for i in range(4)] == ["1 (start)", "2", "3", "4 (dealer)"]
    assert [seat_label(i, 3) for i in range(3)] == ["1 (start)", "2", "3 (dealer)"]
    with pytest.raises(ValueError, match="seat 5 is not at a table of 4"):
        position_of(4, 4)


def test_a_dealer_at_a_table_of_three_does_not_deal_again_at_a_table_of_four() -> None:
    # 3 dealt at a table of 3 (its last seat); 1, 2 and 4 sat at a table of 2 and one of 3.
    history = SeatingHistory.from_tables([[1, 2, 3], [4, 5]])
    players = [SeatingPlayer(p, 0) for p in (1, 2, 3, 4)]
    for seed in range(6):
        (table,) = propose_seating(players, 2, 4, seed, history)
        assert table[-1] != 3
        assert repeated_seats([table], history) == []


# --- the event-wide measure, computed without the per-table cost ------------------------------


def event_measure(tables: Sequence[Sequence[int]], history: SeatingHistory) -> tuple[int, int, int, int]:
    """What a round's seat order does to the whole event, from the counts after the round:
    repeated seats this round; the sums over players of the squared differences between their
    starts (deals) and fair share, in twelfths; pairs of times anyone sat in the same position."""
    repeated = 0
    counts = {p: list(c) for p, c in history.seat_counts.items()}
    shares = dict(history.shares)
    for table in tables:
        for index, player in enumerate(table):
            mine = counts.setdefault(player, [0, 0, 0, 0])
            position = position_of(index, len(table))
            repeated += mine[position] > 0
            mine[position] += 1
            shares[player] = shares.get(player, 0) + 12 // len(table)
    starts = sum((12 * c[START] - shares[p]) ** 2 for p, c in counts.items())
    deals = sum((12 * c[DEALER] - shares[p]) ** 2 for p, c in counts.items())
    depth = sum(n * (n - 1) // 2 for c in counts.values() for n in c)
    return repeated, starts, deals, depth


def best_of_all_orders(tables: Sequence[Sequence[int]], history: SeatingHistory) -> tuple[int, int, int, int]:
    """Every order of every table, all tables together."""
    choices = [list(itertools.permutations(t)) for t in tables]
    return min(event_measure(combo, history) for combo in itertools.product(*choices))


def play_event(count: int, preferred: int, rounds: int, seed: int) -> list[tuple[list[list[int]], SeatingHistory]]:
    """Seat `rounds` rounds, reranking by random wins; each round with the history it was seated on."""
    rng = random.Random(seed)
    wins = dict.fromkeys(range(count), 0)
    history = SeatingHistory()
    seated = []
    for round_number in range(1, rounds + 1):
        order = sorted(wins, key=lambda p: (-wins[p], p))
        players = [SeatingPlayer(p, order.index(p)) for p in wins]
        tables = propose_seating(players, round_number, preferred, seed, history)
        before = SeatingHistory(
            opponents={p: set(o) for p, o in history.opponents.items()},
            seat_counts={p: list(c) for p, c in history.seat_counts.items()},
            shares=dict(history.shares),
        )
        seated.append((tables, before))
        for table in tables:
            wins[rng.choice(table)] += 1
            history.add_table(table)
    return seated


@pytest.mark.parametrize(
    ("count", "preferred", "rounds", "seed"),
    [
        (8, 4, 5, 0), (8, 4, 5, 1), (8, 3, 4, 2), (9, 3, 5, 3), (9, 4, 4, 4),
        (10, 4, 5, 5), (10, 3, 4, 6), (11, 4, 4, 7), (12, 3, 4, 8), (12, 4, 3, 9),
    ],
)
def test_no_order_of_the_tables_together_balances_seats_better(
    count: int, preferred: int, rounds: int, seed: int
) -> None:
    # Fewest repeated seats for the grouping (which has the fewest repeated opponents possible,
    # tests/rounds/test_seating.py), then the most even starts and deals event-wide.
    for tables, history in play_event(count, preferred, rounds, seed):
        assert event_measure(tables, history) == best_of_all_orders(tables, history)


# --- the grouping: fewest repeated seats without more repeated opponents ----------------------


def groupings(items: Sequence[int], sizes: Sequence[int]) -> Iterator[list[list[int]]]:
    """Every split of `items` into tables of the given sizes (a multiset: each split once)."""
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


def fewest_repeated_seats(
    tables: Sequence[Sequence[int]], history: SeatingHistory, cache: dict[tuple[int, ...], int]
) -> int:
    """The repeated seats of a grouping in its best seat order, trying every order of each table."""
    total = 0
    for table in tables:
        key = tuple(sorted(table))
        if key not in cache:
            cache[key] = min(len(repeated_seats([o], history)) for o in itertools.permutations(key))
        total += cache[key]
    return total


@pytest.mark.parametrize(
    ("count", "preferred", "rounds", "seed"),
    [
        (8, 4, 5, 0), (8, 4, 5, 1), (8, 4, 5, 2), (8, 3, 4, 3), (9, 3, 5, 4), (9, 4, 4, 5),
        (10, 4, 4, 6), (10, 3, 3, 7), (11, 4, 4, 8), (12, 4, 4, 9), (12, 4, 3, 10), (12, 3, 3, 11),
    ],
)
def test_no_grouping_without_more_repeated_opponents_repeats_fewer_seats(
    count: int, preferred: int, rounds: int, seed: int
) -> None:
    # Exhaustive: every way to split the players into this round's tables (up to 15,400 for
    # 12 players at tables of 3), each table in its best order.
    for tables, history in play_event(count, preferred, rounds, seed)[1:]:
        pairs = len(repeated_pairs(tables, history))
        cache: dict[tuple[int, ...], int] = {}
        fewest = min(
            fewest_repeated_seats(grouping, history, cache)
            for grouping in groupings(sorted(history.opponents), [len(t) for t in tables])
            if len(repeated_pairs(grouping, history)) <= pairs
        )
        assert len(repeated_seats(tables, history)) == fewest


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=15), min_size=2, max_size=4))
def test_unavoidable_seat_repeats_are_those_of_the_best_order(new_positions: list[int]) -> None:
    # Players given by the positions new to them; a table of their number has these positions.
    size = len(new_positions)
    positions = [position_of(index, size) for index in range(size)]
    best = min(
        sum(not new_positions[player] >> position & 1 for player, position in enumerate(order))
        for order in itertools.permutations(positions)
    )
    open_positions = sum(1 << position for position in positions)
    assert unavoidable_seat_repeats(new_positions, open_positions) == best


# --- properties on random histories -----------------------------------------------------------


@st.composite
def random_histories(draw: st.DrawFn) -> tuple[list[SeatingPlayer], int, int, SeatingHistory]:
    """Players with a history of random tables (mixed sizes, some absent in some rounds)."""
    count = draw(st.integers(min_value=4, max_value=24))
    preferred = draw(st.sampled_from([2, 3, 4]))
    past = draw(st.integers(min_value=1, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    rng = random.Random(seed)
    ids = list(range(1, count + 1))
    history = SeatingHistory()
    for _ in range(past):
        present = [p for p in ids if rng.random() < 0.9] if count > 4 else list(ids)
        rng.shuffle(present)
        start = 0
        for size in table_sizes(len(present), rng.choice([2, 3, 4])) if len(present) >= 2 else []:
            history.add_table(present[start : start + size])
            start += size
    players = [SeatingPlayer(p, rng.randrange(count)) for p in ids]
    return players, preferred, seed, history


def orders(table: Sequence[int]) -> list[tuple[int, ...]]:
    return list(itertools.permutations(table))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_histories())
def test_nobody_repeats_a_seat_where_the_table_could_avoid_it(
    request: tuple[list[SeatingPlayer], int, int, SeatingHistory],
) -> None:
    players, preferred, seed, history = request
    tables = propose_seating(players, 7, preferred, seed, history)
    for table in tables:
        fewest = min(len(repeated_seats([o], history)) for o in orders(table))
        assert len(repeated_seats([table], history)) == fewest
        # In particular: when an order exists where everyone has a seat new to them, it is used.
        if fewest == 0:
            assert repeated_seats([table], history) == []


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_histories())
def test_the_start_goes_to_whoever_is_most_behind_their_share_without_a_repeated_seat(
    request: tuple[list[SeatingPlayer], int, int, SeatingHistory],
) -> None:
    players, preferred, seed, history = request
    tables = propose_seating(players, 7, preferred, seed, history)
    for table in tables:
        behind = {p: 12 * history.start_counts.get(p, 0) - history.shares.get(p, 0) for p in table}
        repeats = len(repeated_seats([table], history))
        for other in table[1:]:
            if behind[other] < behind[table[0]]:
                # Every order that lets `other` start instead repeats more seats.
                assert all(
                    len(repeated_seats([o], history)) > repeats for o in orders(table) if o[0] == other
                )


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    layout=st.sampled_from([(8, 4), (12, 4), (16, 4), (9, 3), (12, 3), (10, 2)]),
    rounds=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_at_one_table_size_the_start_goes_to_one_with_the_fewest_starts_unless_a_seat_repeats(
    layout: tuple[int, int], rounds: int, seed: int
) -> None:
    count, size = layout
    for tables, history in play_event(count, size, rounds, seed):
        starts = history.start_counts
        for table in tables:
            fewest = min(starts.get(p, 0) for p in table)
            if fewest == 0:
                # Someone who never started takes seat 1 over anyone who did: seat 1 is new to
                # them, so no order starting a starter again repeats fewer seats.
                assert starts.get(table[0], 0) == 0
            elif starts.get(table[0], 0) > fewest:
                repeats = len(repeated_seats([table], history))
                for o in orders(table):
                    if starts.get(o[0], 0) == fewest:
                        assert len(repeated_seats([o], history)) > repeats


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_histories())
def test_the_seat_order_never_changes_who_sits_together(
    request: tuple[list[SeatingPlayer], int, int, SeatingHistory],
) -> None:
    players, preferred, seed, history = request
    tables = propose_seating(players, 7, preferred, seed, history)
    # The same proposal with the seat order step left out: the groups as the search made them.
    with mock.patch.object(seating, "order_tables", lambda groups, history, rng: [list(g) for g in groups]):
        grouped = propose_seating(players, 7, preferred, seed, history)
    assert [sorted(t) for t in tables] == [sorted(t) for t in grouped]
    assert repeated_pairs(tables, history) == repeated_pairs(grouped, history)


def test_order_cost_reads_as_documented() -> None:
    history = SeatingHistory.from_tables([[1, 2, 3, 4], [2, 1, 4, 3]])
    # Round 1 again: four repeated seats; 1 starts with one start against a share of 2/4
    # (6 twelfths), 4 deals with one deal against the same share.
    assert order_cost([1, 2, 3, 4], history) == (4, 12 * 1 - 6, 12 * 1 - 6, 4)
    # Everyone in a seat new to them; 3 and 2 are half a start (deal) behind their share.
    assert order_cost([3, 4, 1, 2], history) == (0, -6, -6, 0)
