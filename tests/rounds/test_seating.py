"""Seating: table sizes, Swiss grouping with repeat avoidance, fixed tables, seat rotation.

Pure functions, no database and no Flask. Optimality claims are checked against exhaustive
search on instances small enough to enumerate.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from organizer.rounds.seating import (
    SeatingError,
    SeatingHistory,
    SeatingPlayer,
    propose_seating,
    rank_spread,
    repeated_pairs,
    table_sizes,
)
from tests.fixtures.examples import examples

# --- table sizes ---------------------------------------------------------------------------


def all_compositions(n: int) -> Iterator[dict[int, int]]:
    for fours in range(n // 4 + 1):
        for threes in range((n - 4 * fours) // 3 + 1):
            rest = n - 4 * fours - 3 * threes
            if rest % 2 == 0:
                yield {4: fours, 3: threes, 2: rest // 2}


@pytest.mark.parametrize("preferred", [2, 3, 4])
def test_table_sizes_for_every_player_count(preferred: int) -> None:
    for n in range(2, 201):
        sizes = table_sizes(n, preferred)
        assert sum(sizes) == n
        assert all(2 <= s <= 4 for s in sizes)
        assert sizes == sorted(sizes, reverse=True)
        options = list(all_compositions(n))
        near = [c for c in options if all(c[s] == 0 for s in c if abs(s - preferred) > 1)]
        if near:
            # Nothing too small (or too big): every table within one of the preferred size.
            assert all(abs(s - preferred) <= 1 for s in sizes), (n, preferred, sizes)
        most_preferred = max(c[preferred] for c in (near or options))
        assert sizes.count(preferred) == most_preferred, (n, preferred, sizes)


@pytest.mark.parametrize(
    ("players", "preferred", "expected"),
    [
        (2, 4, [2]),
        (3, 4, [3]),
        (5, 4, [3, 2]),
        (6, 4, [3, 3]),
        (7, 4, [4, 3]),
        (9, 4, [3, 3, 3]),
        (13, 4, [4, 3, 3, 3]),
        (4, 3, [4]),
        (5, 3, [3, 2]),
        (7, 3, [4, 3]),
        (8, 3, [3, 3, 2]),
        (2, 2, [2]),
        (7, 2, [3, 2, 2]),
        (1000, 4, [4] * 250),
    ],
)
def test_table_sizes_examples(players: int, preferred: int, expected: list[int]) -> None:
    assert table_sizes(players, preferred) == expected


@pytest.mark.parametrize(
    ("players", "preferred", "message"),
    [
        (1, 4, "at least 2 players"),
        (0, 3, "at least 2 players"),
        (10, 5, "preferred table size must be 2, 3 or 4, not 5"),
        (10, 1, "preferred table size must be 2, 3 or 4, not 1"),
        (10, True, "whole number"),
    ],
)
def test_table_sizes_refuses_impossible_requests(players: int, preferred: int, message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        table_sizes(players, preferred)
    assert issubclass(SeatingError, ValueError)


# --- history -------------------------------------------------------------------------------


def test_history_from_past_tables() -> None:
    history = SeatingHistory.from_tables([[1, 2, 3], [4, 5], [2, 4, 1]])
    assert history.opponents[1] == {2, 3, 4}
    assert history.opponents[5] == {4}
    assert history.start_counts == {1: 1, 4: 1, 2: 1}
    # Positions relative to the table: [start, second, third, dealer]; the last seat deals.
    assert history.seat_counts[1] == [1, 0, 0, 1]
    assert history.seat_counts[5] == [0, 0, 0, 1]
    assert history.seat_counts[4] == [1, 1, 0, 0]
    # Fair shares of starts in twelfths: 1/3 + 1/3 for player 1, 1/2 + 1/3 for player 4.
    assert (history.shares[1], history.shares[4]) == (8, 10)
    draft = SeatingHistory()
    draft.add_table([1, 2, 3], positions=False)  # a draft table: who met, but no start or deal
    assert draft.have_met(1, 3) and draft.seat_counts == {} and draft.start_counts == {}
    assert history.have_met(3, 1) and not history.have_met(3, 5)
    with pytest.raises(SeatingError, match="lists a player twice"):
        SeatingHistory.from_tables([[1, 1]])


# --- helpers for the seating tests ---------------------------------------------------------


def players_ranked(count: int, fixed: dict[int, int] | None = None) -> list[SeatingPlayer]:
    fixed = fixed or {}
    return [SeatingPlayer(id=100 + i, rank=i, fixed_table=fixed.get(100 + i)) for i in range(count)]


def seated_ids(tables: list[list[int]]) -> list[int]:
    return [p for t in tables for p in t]


def random_history(ids: Sequence[int], rounds: int, size: int, rng: random.Random) -> SeatingHistory:
    history = SeatingHistory()
    for _ in range(rounds):
        shuffled = list(ids)
        rng.shuffle(shuffled)
        position = 0
        for table_size in table_sizes(len(shuffled), size):
            history.add_table(shuffled[position : position + table_size])
            position += table_size
    return history


def fewest_repeats_possible(
    players: Sequence[SeatingPlayer], sizes: list[int], history: SeatingHistory, known: int = 10**9
) -> int:
    """Exhaustive search over every grouping into tables of `sizes` (fixed players pinned),
    pruned by `known`, the repeats of a seating already in hand."""
    best = [known]
    slots = [[p.id for p in players if p.fixed_table == t + 1] for t in range(len(sizes))]
    free = [p.id for p in players if p.fixed_table is None]

    def repeats_with(table: list[int], newcomer: int) -> int:
        return sum(history.have_met(newcomer, other) for other in table)

    def place(index: int, so_far: int) -> None:
        if so_far >= best[0]:
            return
        if index == len(free):
            best[0] = so_far
            return
        player = free[index]
        tried_empty_size: set[int] = set()
        for number, table in enumerate(slots):
            if len(table) >= sizes[number]:
                continue
            if not table:
                # Empty tables of one size are interchangeable: try only one of them.
                if sizes[number] in tried_empty_size:
                    continue
                tried_empty_size.add(sizes[number])
            table.append(player)
            place(index + 1, so_far + repeats_with(table[:-1], player))
            table.pop()

    base = sum(
        history.have_met(a, b) for table in slots for a, b in itertools.combinations(table, 2)
    )
    place(0, base)
    return best[0]


# --- properties ------------------------------------------------------------------------------


@st.composite
def seating_requests(draw: st.DrawFn) -> tuple[list[SeatingPlayer], int, int, int, SeatingHistory]:
    count = draw(st.integers(min_value=2, max_value=40))
    preferred = draw(st.sampled_from([2, 3, 4]))
    round_number = draw(st.integers(min_value=1, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    sizes = table_sizes(count, preferred)
    ids = draw(st.lists(st.integers(1, 10_000), min_size=count, max_size=count, unique=True))
    ranks = draw(st.lists(st.integers(0, count), min_size=count, max_size=count))
    fixed: dict[int, int] = {}
    room = list(sizes)
    for player_id in draw(st.lists(st.sampled_from(ids), max_size=3, unique=True)):
        table = draw(st.integers(1, len(sizes)))
        if room[table - 1] > 0:
            room[table - 1] -= 1
            fixed[player_id] = table
    players = [SeatingPlayer(i, r, fixed.get(i)) for i, r in zip(ids, ranks, strict=True)]
    history = random_history(ids, round_number - 1, preferred, random.Random(seed))
    return players, round_number, preferred, seed, history


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seating_requests())
def test_everyone_seated_once_at_legal_tables_with_fixed_tables_kept(
    request: tuple[list[SeatingPlayer], int, int, int, SeatingHistory],
) -> None:
    players, round_number, preferred, seed, history = request
    tables = propose_seating(players, round_number, preferred, seed, history)
    assert sorted(seated_ids(tables)) == sorted(p.id for p in players)
    assert Counter(len(t) for t in tables) == Counter(table_sizes(len(players), preferred))
    for p in players:
        if p.fixed_table is not None:
            assert p.id in tables[p.fixed_table - 1]
    # Same inputs, same tables, whatever order the players come in.
    assert propose_seating(list(reversed(players)), round_number, preferred, seed, history) == tables


@settings(max_examples=examples(100), deadline=None)
@given(
    count=st.integers(min_value=10, max_value=80),
    preferred=st.sampled_from([2, 3, 4]),
    seeds=st.lists(st.integers(0, 2**32), min_size=2, max_size=2, unique=True),
)
def test_different_seeds_give_different_first_rounds(count: int, preferred: int, seeds: list[int]) -> None:
    players = [SeatingPlayer(i, 0) for i in range(count)]
    first, second = (propose_seating(players, 1, preferred, s, SeatingHistory()) for s in seeds)
    assert first != second


def test_string_seeds_are_reproducible() -> None:
    players = players_ranked(20)
    assert propose_seating(players, 1, 4, "club-night", None) == propose_seating(
        players, 1, 4, "club-night", None
    )


@settings(max_examples=examples(40), deadline=None)
@given(
    layout=st.sampled_from([(8, 4), (12, 4), (13, 4), (14, 4), (9, 3), (10, 3), (11, 4), (10, 2), (7, 3)]),
    past_rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(0, 2**32),
    with_fixed=st.booleans(),
)
def test_repeats_equal_the_exhaustive_optimum_on_small_events(
    layout: tuple[int, int], past_rounds: int, seed: int, with_fixed: bool
) -> None:
    count, preferred = layout
    rng = random.Random(seed)
    ranks = list(range(count))
    rng.shuffle(ranks)
    fixed = {100 + rng.randrange(count): 1} if with_fixed else {}
    players = [SeatingPlayer(100 + i, ranks[i], fixed.get(100 + i)) for i in range(count)]
    history = random_history([p.id for p in players], past_rounds, preferred, rng)
    tables = propose_seating(players, past_rounds + 1, preferred, seed, history)
    optimum = fewest_repeats_possible(players, [len(t) for t in tables], history)
    assert len(repeated_pairs(tables, history)) == optimum


def simulate_rounds(
    count: int, rounds: int, preferred: int, seed: int
) -> tuple[list[list[list[int]]], SeatingHistory]:
    """Play `rounds` rounds with random results, reranking players by wins after each round."""
    rng = random.Random(seed)
    wins = {i: 0.0 for i in range(count)}
    history = SeatingHistory()
    played = []
    for round_number in range(1, rounds + 1):
        order = sorted(wins, key=lambda p: (-wins[p], p))
        players = [SeatingPlayer(p, order.index(p)) for p in wins]
        tables = propose_seating(players, round_number, preferred, seed, history)
        played.append(tables)
        for table in tables:
            wins[rng.choice(table)] += 1
            history.add_table(table)
    return played, history


@pytest.mark.parametrize("seed", range(4))
def test_sixteen_players_four_rounds_repeat_only_when_every_seating_would(seed: int) -> None:
    history = SeatingHistory()
    players = [SeatingPlayer(i, 0) for i in range(16)]
    for round_number in range(1, 5):
        tables = propose_seating(players, round_number, 4, seed, history)
        repeats = len(repeated_pairs(tables, history))
        assert repeats == fewest_repeats_possible(players, [4, 4, 4, 4], history, repeats)
        if round_number <= 3:
            assert repeats == 0  # a repeat-free round always exists this early
        for table in tables:
            history.add_table(table)


def test_repeats_are_only_where_no_seating_avoids_them() -> None:
    # Eight players at 4-tables: after three rounds a repeat-free fourth round may not exist.
    for seed in range(6):
        history = SeatingHistory()
        for round_number in range(1, 6):
            players = players_ranked(8)
            tables = propose_seating(players, round_number, 4, seed, history)
            optimum = fewest_repeats_possible(players, [4, 4], history)
            assert len(repeated_pairs(tables, history)) == optimum
            for table in tables:
                history.add_table(table)


def test_later_rounds_seat_neighbouring_ranks_together() -> None:
    players = players_ranked(16)
    tables = propose_seating(players, 2, 4, 7, SeatingHistory())
    rank_of = {p.id: p.rank for p in players}
    assert [sorted(rank_of[p] for p in t) for t in tables] == [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9, 10, 11],
        [12, 13, 14, 15],
    ]


def test_smaller_tables_go_to_the_bottom_of_the_standings() -> None:
    players = players_ranked(10)
    tables = propose_seating(players, 3, 4, 1, SeatingHistory())
    rank_of = {p.id: p.rank for p in players}
    assert [sorted(rank_of[p] for p in t) for t in tables] == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]


def test_repeat_avoidance_keeps_the_spread_small() -> None:
    # The top four met last round and so did the bottom four: every split repeats, and the
    # fewest repeats (two from each half at each table) must not scatter the ranks.
    players = players_ranked(8)
    history = SeatingHistory.from_tables([[100, 101, 102, 103], [104, 105, 106, 107]])
    tables = propose_seating(players, 2, 4, 3, history)
    assert repeated_pairs(tables, history) != []  # 8 players in two 4-tables cannot avoid it
    assert len(repeated_pairs(tables, history)) == 4  # 2 + 2 is the fewest possible
    ranks = {p.id: p.rank for p in players}
    # Among the groupings with four repeated pairs, the smallest total rank range is
    # {0,1,4,5} + {2,3,6,7}: ranges 5 + 5 = 10.
    assert rank_spread(tables, ranks) == 10


def test_fixed_player_gets_tablemates_of_similar_rank() -> None:
    players = players_ranked(16, fixed={115: 1})  # the lowest-ranked player is fixed to table 1
    tables = propose_seating(players, 2, 4, 5, SeatingHistory())
    rank_of = {p.id: p.rank for p in players}
    assert 115 in tables[0]
    assert sorted(rank_of[p] for p in tables[0]) == [12, 13, 14, 15]
    assert sorted(rank_of[p] for p in tables[1]) == [0, 1, 2, 3]


def test_fixed_players_get_a_big_enough_table() -> None:
    # 11 players at 4-tables make [4, 4, 3]; four players fixed to table 3 need its 4 seats.
    players = players_ranked(11, fixed={100: 3, 101: 3, 102: 3, 103: 3})
    tables = propose_seating(players, 2, 4, 0, SeatingHistory())
    assert sorted(tables[2]) == [100, 101, 102, 103]
    assert sorted(len(t) for t in tables) == [3, 4, 4]


@pytest.mark.parametrize(
    ("count", "fixed", "message"),
    [
        (8, {100: 3}, "player 100 is fixed to table 3, but this round has 2 tables"),
        (8, {100: 0}, "player 100 is fixed to table 0"),
        (9, {i: 1 for i in range(100, 104)}, "no table this round seats more than 3"),
        (10, {i: 2 if i < 104 else 3 for i in range(100, 108)}, "not enough tables of 4"),
    ],
)
def test_impossible_fixed_tables_are_refused(count: int, fixed: dict[int, int], message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        propose_seating(players_ranked(count, fixed), 2, 4, 0, SeatingHistory())


def test_bad_player_lists_are_refused() -> None:
    with pytest.raises(SeatingError, match=r"players listed more than once: \[1\]"):
        propose_seating([SeatingPlayer(1, 0), SeatingPlayer(1, 1)], 1, 4, 0, None)
    with pytest.raises(SeatingError, match="at least 2 players"):
        propose_seating([SeatingPlayer(1, 0)], 1, 4, 0, None)
    with pytest.raises(SeatingError, match="round number must be 1 or more"):
        propose_seating(players_ranked(4), 0, 4, 0, None)
    with pytest.raises(SeatingError, match="rank -1"):
        propose_seating([SeatingPlayer(1, -1), SeatingPlayer(2, 0)], 2, 4, 0, None)


# --- seat order --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_start_player_is_always_one_who_started_least_at_the_table(seed: int) -> None:
    played, _ = simulate_rounds(12, 3, 4, seed)
    starts: Counter[int] = Counter()
    for tables in played:
        for table in tables:
            assert starts[table[0]] == min(starts[p] for p in table)
        for table in tables:
            starts[table[0]] += 1


def groupings(items: list[int], size: int) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for others in itertools.combinations(rest, size - 1):
        remaining = [x for x in rest if x not in others]
        for tail in groupings(remaining, size):
            yield [[first, *others], *tail]


def repeats_and_restarts(tables: list[list[int]], history: SeatingHistory) -> tuple[int, int]:
    """Repeated pairs, and start players forced to start again (nobody fresh at the table)."""
    restarts = sum(min(history.start_counts.get(p, 0) for p in t) for t in tables)
    return len(repeated_pairs(tables, history)), restarts


@pytest.mark.parametrize("seed", range(4))
def test_over_three_rounds_of_twelve_nobody_starts_twice_where_avoidable(seed: int) -> None:
    # Everyone level in the standings. Twelve players at three 4-tables cannot even play two
    # rounds without repeats, and repeats come first, so compare with every possible grouping.
    history = SeatingHistory()
    players = [SeatingPlayer(i, 0) for i in range(12)]
    for round_number in (1, 2, 3):
        tables = propose_seating(players, round_number, 4, seed, history)
        if round_number > 1:
            best = min(repeats_and_restarts(g, history) for g in groupings(list(range(12)), 4))
            assert repeats_and_restarts(tables, history) == best
        for table in tables:
            assert history.start_counts.get(table[0], 0) == min(
                history.start_counts.get(p, 0) for p in table
            )
            history.add_table(table)


@pytest.mark.parametrize("seed", range(6))
def test_over_three_rounds_of_sixteen_nobody_starts_twice(seed: int) -> None:
    history = SeatingHistory()
    players = [SeatingPlayer(i, 0) for i in range(16)]
    for round_number in (1, 2, 3):
        for table in propose_seating(players, round_number, 4, seed, history):
            history.add_table(table)
    assert sorted(history.start_counts.values()) == [1] * 12


def test_seat_positions_rotate_when_the_start_player_is_settled() -> None:
    # 1 has started twice and 2 only dealt, so 2 starts.
    history = SeatingHistory.from_tables([[1, 2], [1, 2]])
    assert propose_seating([SeatingPlayer(1, 0), SeatingPlayer(2, 1)], 3, 2, 0, history) == [[2, 1]]
    three = [SeatingPlayer(1, 0), SeatingPlayer(2, 1), SeatingPlayer(3, 2)]
    # Each has one seat not yet had: 1 never dealt, 2 never started, 3 was never second.
    history = SeatingHistory.from_tables([[1, 2, 3], [3, 1, 2]])
    for seed in range(5):
        assert propose_seating(three, 3, 3, seed, history) == [[2, 3, 1]]


def test_a_refusal_names_the_fixed_players_by_name() -> None:
    players = [SeatingPlayer(100 + i, i, 1 if i < 4 else None, name) for i, name in
               enumerate(["Zoë", "ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"])]
    with pytest.raises(SeatingError) as refused:
        propose_seating(players, 2, 3, 0, SeatingHistory())
    assert str(refused.value).startswith("players ada, Ben, Cy, and Zoë are all fixed to table 1")
    with pytest.raises(SeatingError, match="^player Dee is fixed to table 5, but this round has 3 tables$"):
        propose_seating([*players[:4], SeatingPlayer(104, 4, 5, "Dee"), *players[5:]], 2, 4, 0, SeatingHistory())
