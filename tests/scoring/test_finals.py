"""The finals after the Swiss rounds: the cut with ties, decliners, semi-finals to a final, and
the places with their reasons."""

from __future__ import annotations

import pytest

from organizer.scoring.finals import (
    REASON_LAST_ROUND,
    REASON_LOT,
    REASON_RANK,
    REASON_REPLACES,
    cut,
    places,
    seat_order,
    semi_final_tables,
    semi_final_winners,
)
from organizer.scoring.schemes import SeatResult, StandingsError, TableResult
from organizer.scoring.standings import StandingRow


def rows(*ranks: int) -> list[StandingRow]:
    """Players 1, 2, ... at the given Swiss ranks (equal ranks: fully tied)."""
    return [StandingRow(rank, player, 0.0, 0, 0.0, 0, 5, 0.0) for player, rank in enumerate(ranks, start=1)]


def table(table_id: int, *points: tuple[int, int]) -> TableResult:
    return TableResult(table_id, 99, [SeatResult(p, pts, 5) for p, pts in points], species_tiebreak=True)


def test_a_clean_cut_takes_the_top_four_by_rank():
    the_cut = cut(rows(1, 2, 3, 4, 5, 6), 4)
    assert [(s.seed, s.player_id, s.reason) for s in the_cut.seeds] == [
        (1, 1, REASON_RANK), (2, 2, REASON_RANK), (3, 3, REASON_RANK), (4, 4, REASON_RANK)]
    assert the_cut.tied_at_cut == []


def test_a_tie_across_the_cut_goes_to_the_better_last_round():
    # players 4, 5 and 6 share rank 4 after every tie-break; 6 won the last round
    the_cut = cut(rows(1, 2, 3, 4, 4, 4, 7), 4, last_round_points={4: 0.0, 5: 0.5, 6: 1.0})
    assert [s.player_id for s in the_cut.seeds] == [1, 2, 3, 6]
    assert the_cut.seeds[3].reason == REASON_LAST_ROUND
    assert sorted(the_cut.tied_at_cut) == [4, 5, 6]


def test_a_tie_in_the_last_round_too_is_a_lot_the_seed_repeats():
    standing = rows(1, 2, 3, 4, 4, 4, 4)
    drawn = {seed: cut(standing, 4, last_round_points={}, seed=seed).seeds[3].player_id for seed in range(20)}
    assert set(drawn.values()) > {drawn[0]}, "the lot picks different players for different seeds"
    assert all(cut(standing, 4, seed=seed).seeds[3].player_id == drawn[seed] for seed in range(20))
    assert cut(standing, 4, seed=3).seeds[3].reason == REASON_LOT


def test_ties_inside_the_cut_keep_the_standings_order():
    the_cut = cut(rows(1, 1, 3, 4, 5), 4)
    assert [s.player_id for s in the_cut.seeds] == [1, 2, 3, 4]
    assert all(s.reason == REASON_RANK for s in the_cut.seeds)


def test_a_decliner_is_replaced_by_the_next_in_line():
    the_cut = cut(rows(1, 2, 3, 4, 5, 6), 4, declined={2})
    assert [(s.seed, s.player_id) for s in the_cut.seeds] == [(1, 1), (2, 3), (3, 4), (4, 5)]
    assert the_cut.seeds[3].reason == REASON_REPLACES and the_cut.seeds[3].replaces == 2
    assert the_cut.declined == [2]


def test_two_decliners_are_replaced_in_order():
    the_cut = cut(rows(*range(1, 11)), 8, declined={3, 1})
    assert [s.player_id for s in the_cut.seeds] == [2, 4, 5, 6, 7, 8, 9, 10]
    assert [(s.player_id, s.replaces) for s in the_cut.seeds if s.replaces] == [(9, 1), (10, 3)]


def test_too_few_players_for_the_cut_is_refused():
    with pytest.raises(StandingsError, match="only 3 players"):
        cut(rows(1, 2, 3, 4, 5), 4, declined={5, 1})
    with pytest.raises(StandingsError, match="a cut is one of"):
        cut(rows(1, 2, 3, 4, 5, 6), 6)


def test_semi_final_tables_are_seeded_in_a_snake():
    assert semi_final_tables(4) == []
    assert semi_final_tables(8) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert semi_final_tables(12) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]
    assert [sum(t) for t in semi_final_tables(16)] == [34, 34, 34, 34]


def test_the_top_seed_gets_the_first_seat_or_the_one_chosen():
    assert seat_order([3, 1, 4, 2]) == [1, 2, 3, 4]
    assert seat_order([1, 2, 3, 4], top_seat=3) == [2, 3, 1, 4]
    with pytest.raises(StandingsError):
        seat_order([1, 2], top_seat=3)


def test_eight_players_play_semi_finals_then_a_final_and_get_places_with_reasons():
    standing = rows(*range(1, 11))
    the_cut = cut(standing, 8)
    seed_of = {s.player_id: s.seed for s in the_cut.seeds}
    a, b = semi_final_tables(8)
    assert a == [1, 4, 5, 8] and b == [2, 3, 6, 7]  # seeds equal player ids here
    semi_a = table(1, (1, 20), (4, 30), (5, 10), (8, 5))
    semi_b = table(2, (2, 25), (3, 25), (6, 40), (7, 0))
    assert semi_final_winners([semi_a, semi_b], seed_of) == [4, 6]
    final = table(3, (4, 12), (6, 18))
    result = places(standing, the_cut, final, [semi_a, semi_b])
    got = [(p.place, p.player_id, p.stage, p.at_table, p.by_seed) for p in result]
    assert got == [
        (1, 6, "final", 1, False),
        (2, 4, "final", 2, False),
        # second places of the semi-finals: 2 and 3 scored 25 each, species equal: the better seed
        (3, 1, "semi_final", 2, False),
        (4, 2, "semi_final", 2, True),
        (5, 3, "semi_final", 3, True),
        (6, 5, "semi_final", 3, False),
        (7, 7, "semi_final", 4, False),
        (8, 8, "semi_final", 4, False),
        (9, 9, "swiss", None, False),
        (10, 10, "swiss", None, False),
    ]


def test_without_the_final_result_the_swiss_standings_stand():
    standing = rows(1, 2, 3, 4, 5)
    result = places(standing, cut(standing, 4), None)
    assert [(p.place, p.player_id, p.stage) for p in result] == [(i, i, "swiss") for i in range(1, 6)]


def test_a_final_of_four_decides_places_one_to_four():
    standing = rows(1, 2, 3, 4, 5, 6)
    the_cut = cut(standing, 4, declined={3})
    final = table(1, (1, 5), (2, 9), (4, 9), (5, 30))
    result = places(standing, the_cut, final)
    assert [(p.place, p.player_id, p.stage, p.by_seed) for p in result[:4]] == [
        (1, 5, "final", False), (2, 2, "final", True), (3, 4, "final", True), (4, 1, "final", False)]
    assert [(p.place, p.player_id, p.stage) for p in result[4:]] == [(5, 3, "swiss"), (6, 6, "swiss")]
