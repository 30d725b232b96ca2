"""Tournament points and standings against examples worked out by hand (no database, no Flask)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from organizer.scoring.standings import (
    DEFAULT_TIEBREAKS,
    SCHEMES,
    SeatResult,
    StandingRow,
    StandingsError,
    TableResult,
    compute_standings,
    tournament_points,
)
from tests.fixtures.examples import examples


def table(table_id: int, round_number: int, *seats: tuple[int, int, int], species_tiebreak: bool = True) -> TableResult:
    return TableResult(
        table_id, round_number, [SeatResult(p, pts, sp) for p, pts, sp in seats], species_tiebreak
    )


def by_player(rows: list[StandingRow]) -> dict[int, StandingRow]:
    return {row.player_id: row for row in rows}


# --- tournament points -------------------------------------------------------------------


def test_a_win_is_worth_one_at_two_and_at_four_players() -> None:
    duel = table(1, 1, (1, 30, 5), (2, 20, 5))
    four = table(2, 1, (3, 40, 5), (4, 30, 5), (5, 20, 5), (6, 10, 5))
    assert tournament_points(duel) == {1: 1.0, 2: 0.0}
    # 3 beats three opponents (3/3), 4 beats two (2/3), 5 beats one (1/3), 6 none.
    assert tournament_points(four) == pytest.approx({3: 1.0, 4: 2 / 3, 5: 1 / 3, 6: 0.0})


def test_2018_equal_points_go_to_more_species() -> None:
    duel = table(1, 1, (1, 25, 6), (2, 25, 7), species_tiebreak=True)
    assert tournament_points(duel) == {1: 0.0, 2: 1.0}


def test_2018_equal_points_and_species_is_a_shared_result() -> None:
    duel = table(1, 1, (1, 25, 6), (2, 25, 6), species_tiebreak=True)
    assert tournament_points(duel) == {1: 0.5, 2: 0.5}


def test_2010_equal_points_are_shared_whatever_the_species() -> None:
    three = table(1, 1, (1, 30, 3), (2, 30, 8), (3, 20, 9), species_tiebreak=False)
    # 1 and 2: beat 3 (1) and tie each other (1/2) -> 1.5 of 2 opponents = 0.75.
    assert tournament_points(three) == {1: 0.75, 2: 0.75, 3: 0.0}


def test_placement_scheme_gives_places_with_ties_sharing() -> None:
    four = table(1, 1, (1, 40, 5), (2, 30, 5), (3, 30, 5), (4, 10, 5), species_tiebreak=False)
    # Places 3/2/1/0; players 2 and 3 share places 2 and 3: (2 + 1) / 2 each.
    assert tournament_points(four, "placement") == {1: 3.0, 2: 1.5, 3: 1.5, 4: 0.0}
    assert tournament_points(table(2, 1, (5, 9, 1), (6, 8, 1)), "placement") == {5: 1.0, 6: 0.0}


def test_win_scheme_splits_a_shared_win() -> None:
    three = table(1, 1, (1, 30, 5), (2, 30, 5), (3, 29, 5), species_tiebreak=False)
    assert tournament_points(three, "win") == {1: 0.5, 2: 0.5, 3: 0.0}
    settled = table(2, 1, (1, 30, 5), (2, 30, 6), (3, 29, 9), species_tiebreak=True)
    assert tournament_points(settled, "win") == {1: 0.0, 2: 1.0, 3: 0.0}


def test_every_scheme_is_documented_and_unknown_schemes_are_refused() -> None:
    assert set(SCHEMES) >= {"beaten", "placement", "win"}
    assert all(s.description for s in SCHEMES.values())
    with pytest.raises(StandingsError, match="unknown tournament-point scheme 'swiss'"):
        tournament_points(table(1, 1, (1, 1, 1), (2, 0, 1)), "swiss")


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ([SeatResult(1, 10, 3)], "table 7 has 1 results; a table seats 2 to 4"),
        ([SeatResult(i, 10, 3) for i in range(5)], "table 7 has 5 results"),
        ([SeatResult(1, 10, 3), SeatResult(1, 9, 3)], "table 7 lists a player twice"),
    ],
)
def test_impossible_tables_are_refused(seats: list[SeatResult], message: str) -> None:
    with pytest.raises(StandingsError, match=message):
        TableResult(7, 1, seats, True)


def test_impossible_seat_figures_are_refused() -> None:
    with pytest.raises(StandingsError, match="player 3 has -1 points"):
        SeatResult(3, -1, 2)
    with pytest.raises(StandingsError, match="player 3 has 11 species"):
        SeatResult(3, 20, 11)


# --- standings and tie-breaks --------------------------------------------------------------


def test_ranked_by_tournament_points_with_totals() -> None:
    results = [
        table(1, 1, (1, 40, 6), (2, 30, 5), (3, 20, 4), (4, 10, 3)),
        table(2, 2, (4, 50, 7), (3, 45, 6)),
        table(3, 2, (2, 35, 5), (1, 30, 8)),
    ]
    rows = compute_standings([1, 2, 3, 4], results)
    # TP: 1 = 1 + 0 = 1; 2 = 2/3 + 1 = 5/3; 3 = 1/3 + 0; 4 = 0 + 1 = 1.
    # 1 and 4 tie on 1 TP; game points 70 vs 60 put player 1 ahead.
    assert [r.player_id for r in rows] == [2, 1, 4, 3]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    two = by_player(rows)[2]
    assert two.tournament_points == pytest.approx(5 / 3)
    assert (two.game_points, two.species_count, two.games) == (65, 10, 2)


def test_players_without_results_appear_with_zeros_and_share_the_last_rank() -> None:
    rows = compute_standings([1, 2, 8, 9], [table(1, 1, (1, 30, 5), (2, 20, 5))])
    assert [r.player_id for r in rows] == [1, 2, 8, 9]
    assert [r.rank for r in rows] == [1, 2, 3, 3]
    assert rows[2] == StandingRow(3, 8, 0.0, 0, 0.0, 0, 0, 0.0)


def test_fully_tied_players_share_a_rank_and_the_next_rank_is_skipped() -> None:
    # Two mirror duels: 1 and 3 win with the same figures, 2 and 4 lose with the same figures.
    results = [
        table(1, 1, (1, 30, 5), (2, 20, 5)),
        table(2, 1, (3, 30, 5), (4, 20, 5)),
    ]
    rows = compute_standings([1, 2, 3, 4], results)
    assert [(r.rank, r.player_id) for r in rows] == [(1, 1), (1, 3), (3, 2), (3, 4)]


def build_tiebreak_event() -> list[TableResult]:
    """Four players, two rounds of duels, 2010 rules (no species tie-break in games).

    R1: 1 beats 2 (40-30), 3 beats 4 (45-30).  R2: 4 beats 1 (41-30), 2 beats 3 (40-20).
    Everyone has 1 TP. Game points: 1 = 70, 2 = 70, 3 = 65, 4 = 71.
    """
    return [
        table(1, 1, (1, 40, 5), (2, 30, 5), species_tiebreak=False),
        table(2, 1, (3, 45, 5), (4, 30, 5), species_tiebreak=False),
        table(3, 2, (4, 41, 5), (1, 30, 5), species_tiebreak=False),
        table(4, 2, (2, 40, 5), (3, 20, 5), species_tiebreak=False),
    ]


def test_game_points_then_head_to_head_decide() -> None:
    rows = compute_standings([1, 2, 3, 4], build_tiebreak_event())
    # 4 (71) ahead of 1 and 2 (70) ahead of 3 (65). 1 and 2 are also level on opponents'
    # average (1.0 each) and species (10 each); 1 beat 2 in round 1, so head-to-head 1 vs 0.
    assert [(r.rank, r.player_id) for r in rows] == [(1, 4), (2, 1), (3, 2), (4, 3)]
    table_of = by_player(rows)
    assert (table_of[1].head_to_head, table_of[2].head_to_head) == (1.0, 0.0)
    assert table_of[4].head_to_head == 0.0  # never tied down to head-to-head
    assert table_of[1].opponents_average == table_of[2].opponents_average == 1.0


def test_without_head_to_head_the_pair_shares_the_rank() -> None:
    rows = compute_standings([1, 2, 3, 4], build_tiebreak_event(), DEFAULT_TIEBREAKS[:3])
    assert [(r.rank, r.player_id) for r in rows] == [(1, 4), (2, 1), (2, 2), (4, 3)]


def test_species_count_decides_before_head_to_head() -> None:
    results = build_tiebreak_event()
    # Player 2 had one more species in round 2: still a 40-20 win, now 11 species in total.
    results[3] = table(4, 2, (2, 40, 6), (3, 20, 5), species_tiebreak=False)
    rows = compute_standings([1, 2, 3, 4], results)
    assert [r.player_id for r in rows] == [4, 2, 1, 3]
    assert by_player(rows)[2].species_count == 11


def test_opponents_average_decides_between_equal_points() -> None:
    # R1: 1 beats 2, 3 beats 4. R2: 1 beats 5, 3 beats 2. R3: 4 beats 5.
    results = [
        table(1, 1, (1, 30, 5), (2, 10, 5)),
        table(2, 1, (3, 30, 5), (4, 10, 5)),
        table(3, 2, (1, 30, 5), (5, 10, 5)),
        table(4, 2, (3, 30, 5), (2, 10, 5)),
        table(5, 3, (4, 30, 5), (5, 10, 5)),
    ]
    # TP: 1 = 2, 3 = 2, 4 = 1, 2 = 0, 5 = 0. Game points: 1 = 60, 3 = 60 (level).
    # Opponents: 1 met 2 (0) and 5 (0) -> 0.0; 3 met 4 (1) and 2 (0) -> 0.5. So 3 leads.
    rows = compute_standings([1, 2, 3, 4, 5], results)
    assert [r.player_id for r in rows][:2] == [3, 1]
    table_of = by_player(rows)
    assert table_of[3].opponents_average == 0.5
    assert table_of[1].opponents_average == 0.0
    # 2 and 5 both have 0 TP and 20 game points; 2's opponents (1 and 3, 2 TP each) average 2,
    # 5's (1 with 2 TP, 4 with 1 TP) average 1.5.
    assert [r.player_id for r in rows][3:] == [2, 5]


def test_opponents_average_counts_every_meeting_and_dropped_players() -> None:
    # 9 dropped after round 1 but beat 1 there; 1 then met 2 twice.
    results = [
        table(1, 1, (9, 40, 5), (1, 30, 5), (2, 20, 5)),
        table(2, 2, (1, 30, 5), (2, 20, 5)),
        table(3, 3, (2, 30, 5), (1, 20, 5)),
    ]
    rows = compute_standings([1, 2], results)
    assert [r.player_id for r in rows] == [1, 2]
    # TP: 9 = 1; 1 = 1/2 + 1 + 0 = 3/2; 2 = 0 + 0 + 1 = 1.
    # 1 met 9 once and 2 three times (R1, R2, R3): (1 + 1 + 1 + 1) / 4 = 1.
    # 2 met 9 once and 1 three times: (1 + 3/2 * 3) / 4 = 11/8.
    assert by_player(rows)[1].opponents_average == 1.0
    assert by_player(rows)[2].opponents_average == 11 / 8
    assert by_player(rows)[1].tournament_points == 1.5


def test_head_to_head_only_counts_games_among_the_tied_group() -> None:
    # R1 (4 players): 1 40, 2 30, 3 30, 4 0 -> 1 beats everyone; 2 and 3 tie (2010).
    # R2: 2 beats 1 40-30 and 3 beats 4 40-30, so 2 and 3 stay level on points.
    results = [
        table(1, 1, (1, 40, 5), (2, 30, 5), (3, 30, 5), (4, 0, 5), species_tiebreak=False),
        table(2, 2, (2, 40, 5), (1, 30, 5), species_tiebreak=False),
        table(3, 2, (3, 40, 5), (4, 30, 5), species_tiebreak=False),
    ]
    # TP: 1 = 1 + 0 = 1; 2 = (1 + 1/2)/3 + 1 = 3/2; 3 = 1/2 + 1 = 3/2; 4 = 0.
    # 2 and 3: game points 70 each; opponents: 2 met 1, 3, 4, 1 -> (1 + 3/2 + 0 + 1)/4 = 7/8;
    # 3 met 1, 2, 4, 4 -> (1 + 3/2 + 0 + 0)/4 = 5/8. Opponents' average puts 2 first.
    rows = compute_standings([1, 2, 3, 4], results)
    assert [r.player_id for r in rows] == [2, 3, 1, 4]
    # With head-to-head straight after points, 2 and 3 only tied each other in round 1.
    rows = compute_standings([1, 2, 3, 4], results, ("head_to_head", "game_points"))
    table_of = by_player(rows)
    assert table_of[2].head_to_head == table_of[3].head_to_head == pytest.approx(1 / 6)
    # Still tied after head-to-head; game points (70 each) cannot split them either.
    assert [(r.rank, r.player_id) for r in rows][:2] == [(1, 2), (1, 3)]


def test_head_to_head_in_a_group_of_three() -> None:
    # 5, 6 and 7 end on 1.5 TP each; 8 and 9 are outsiders (2010 rules, ties shared).
    results = [
        table(1, 1, (5, 30, 5), (6, 20, 5), species_tiebreak=False),  # 5 beats 6
        table(2, 2, (6, 30, 5), (7, 20, 5), species_tiebreak=False),  # 6 beats 7
        table(3, 3, (5, 25, 5), (7, 25, 9), species_tiebreak=False),  # 5 and 7 tie
        table(4, 4, (8, 30, 5), (6, 20, 5), (9, 10, 5), species_tiebreak=False),  # 6 second
        table(5, 5, (7, 30, 5), (9, 20, 5), species_tiebreak=False),  # 7 beats 9
    ]
    # TP: 5 = 1 + 1/2; 6 = 0 + 1 + 1/2; 7 = 0 + 1/2 + 1; 8 = 1; 9 = 0.
    # Head-to-head inside {5, 6, 7}: 5 = 1 + 1/2, 6 = 0 + 1, 7 = 0 + 1/2.
    rows = compute_standings([5, 6, 7, 8, 9], results, ("head_to_head",))
    assert [r.player_id for r in rows] == [5, 6, 7, 8, 9]
    assert [r.tournament_points for r in rows] == [1.5, 1.5, 1.5, 1.0, 0.0]
    assert [r.head_to_head for r in rows] == [1.5, 1.0, 0.5, 0.0, 0.0]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]


def test_other_schemes_rank_differently() -> None:
    results = [
        table(1, 1, (1, 30, 5), (2, 20, 5)),
        table(2, 1, (3, 40, 5), (4, 30, 5), (5, 20, 5), (6, 10, 5)),
    ]
    beaten = compute_standings([1, 3, 4], results)
    placement = compute_standings([1, 3, 4], results, scheme="placement")
    # beaten: 1 and 3 both won (1.0); 1 has fewer game points. placement: 3 gets 3, 4 gets 2.
    assert [r.player_id for r in beaten] == [3, 1, 4]
    assert [(r.player_id, r.tournament_points) for r in placement] == [(3, 3.0), (4, 2.0), (1, 1.0)]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tiebreak_order": ("coin_toss",)}, "unknown tie-break 'coin_toss'"),
        ({"tiebreak_order": ("game_points", "game_points")}, "listed twice"),
        ({"scheme": "elo"}, "unknown tournament-point scheme 'elo'"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(StandingsError, match=message):
        compute_standings([1, 2], [table(1, 1, (1, 3, 1), (2, 2, 1))], **kwargs)  # type: ignore[arg-type]


def test_inconsistent_results_are_refused() -> None:
    duel = table(1, 1, (1, 30, 5), (2, 20, 5))
    with pytest.raises(StandingsError, match="table 1 of round 1 has two results"):
        compute_standings([1, 2], [duel, duel])
    with pytest.raises(StandingsError, match="player 1 has two results in round 1"):
        compute_standings([1, 2, 3], [duel, table(2, 1, (1, 30, 5), (3, 20, 5))])
    with pytest.raises(StandingsError, match="listed twice"):
        compute_standings([1, 1], [duel])


# --- properties ------------------------------------------------------------------------------


@st.composite
def events(draw: st.DrawFn) -> tuple[list[int], list[TableResult]]:
    players = list(range(1, draw(st.integers(2, 16)) + 1))
    results: list[TableResult] = []
    for round_number in range(1, draw(st.integers(0, 5)) + 1):
        order = draw(st.permutations(players))
        position = 0
        while len(order) - position >= 2:
            size = min(draw(st.integers(2, 4)), len(order) - position)
            seats = [
                SeatResult(p, draw(st.integers(0, 6)), draw(st.integers(0, 3)))
                for p in order[position : position + size]
            ]
            results.append(TableResult(len(results) + 1, round_number, seats, draw(st.booleans())))
            position += size
    return players, results


@settings(max_examples=examples(150), deadline=None)
@given(events(), st.sampled_from(sorted(SCHEMES)))
def test_standings_properties(event: tuple[list[int], list[TableResult]], scheme: str) -> None:
    players, results = event
    rows = compute_standings(players, results, scheme=scheme)
    assert sorted(r.player_id for r in rows) == players
    assert [r.tournament_points for r in rows] == sorted(
        (r.tournament_points for r in rows), reverse=True
    )
    for place, row in enumerate(rows):
        assert row.rank == place + 1 or (place > 0 and row.rank == rows[place - 1].rank)
    for table in results:
        # Every pair at a table shares one result: worth 1/(N-1) in "beaten", 1 in "placement".
        size = len(table.seats)
        handed_out = {"beaten": size / 2, "placement": size * (size - 1) / 2, "win": 1.0}[scheme]
        assert sum(tournament_points(table, scheme).values()) == pytest.approx(handed_out)
    assert sum(r.games for r in rows) == sum(len(t.seats) for t in results)


@settings(max_examples=examples(100), deadline=None)
@given(events())
def test_shared_ranks_only_for_players_level_on_every_tiebreak(
    event: tuple[list[int], list[TableResult]],
) -> None:
    players, results = event
    rows = compute_standings(players, results, DEFAULT_TIEBREAKS[:3])

    def figures(row: StandingRow) -> tuple[float, int, float, int]:
        return row.tournament_points, row.game_points, row.opponents_average, row.species_count

    for before, after in zip(rows, rows[1:], strict=False):
        assert figures(before) >= figures(after)
        assert (before.rank == after.rank) == (figures(before) == figures(after))
