"""Tournament points and standings with tie-breaks, as plain functions over dataclasses.

All arithmetic is exact, in integers (tournament points in units of ``UNIT``, twelfths: a
3-player table hands out thirds), so two players are tied only when their figures are really
equal; the rows carry floats for display.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from organizer.scoring.schemes import (
    DEFAULT_SCHEME,
    SCHEMES,
    UNIT,
    Scheme,
    SeatResult,
    StandingsError,
    TableResult,
    beats,
    tournament_points,
)

TIEBREAKS: dict[str, str] = {
    "game_points": "total game points",
    "opponents_average": "average tournament points of the opponents met, per meeting",
    "species_count": "total species in the player's arboretums",
    "head_to_head": "tournament points earned against the other tied players where they met",
}
DEFAULT_TIEBREAKS: tuple[str, ...] = (
    "game_points",
    "opponents_average",
    "species_count",
    "head_to_head",
)


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings. `rank` starts at 1 and is shared by fully tied players
    (1, 2, 2, 4). `head_to_head` is only meaningful inside the group it separated; it is 0
    for a player who was never tied down to that tie-break."""

    rank: int
    player_id: int
    tournament_points: float
    game_points: int
    opponents_average: float
    species_count: int
    games: int
    head_to_head: float


@dataclass
class _Tally:
    #: in units of 1/UNIT (integers: see standings_schemes.UNIT)
    tournament_points: int = 0
    game_points: int = 0
    species_count: int = 0
    games: int = 0
    #: the tournament points of every opponent met, per meeting (units), and the meetings
    opponents_points: int = 0
    meetings: int = 0


def compute_standings(
    player_ids: Sequence[int],
    results: Iterable[TableResult],
    tiebreak_order: Sequence[str] = DEFAULT_TIEBREAKS,
    scheme: str = DEFAULT_SCHEME,
) -> list[StandingRow]:
    """Rank `player_ids` by tournament points, then by each tie-break in `tiebreak_order`.

    Results may include players outside `player_ids` (e.g. dropped players): their games count
    for their opponents' figures, but they get no row. Players without results get a row of 0s.
    Fully tied players keep the order they were given in.
    """
    if len(set(player_ids)) != len(player_ids):
        raise StandingsError("a player is listed twice in the standings")
    for name in tiebreak_order:
        if name not in TIEBREAKS:
            raise StandingsError(
                f"unknown tie-break {name!r}; choose from {', '.join(sorted(TIEBREAKS))}"
            )
    if len(set(tiebreak_order)) != len(tiebreak_order):
        raise StandingsError("a tie-break is listed twice in the tie-break order")
    if scheme not in SCHEMES:
        raise StandingsError(
            f"unknown tournament-point scheme {scheme!r}; choose from {', '.join(sorted(SCHEMES))}"
        )
    tables = _checked(results)
    score_table = SCHEMES[scheme].table_units
    against = SCHEMES[scheme].against_units

    tallies: dict[int, _Tally] = {p: _Tally() for p in player_ids}
    for table in tables:
        points = score_table(table)
        for seat in table.seats:
            tally = tallies.get(seat.player_id)
            if tally is None:
                tally = tallies[seat.player_id] = _Tally()
            tally.tournament_points += points[seat.player_id]
            tally.game_points += seat.points
            tally.species_count += seat.species_count
            tally.games += 1
    # the opponents' figures once every table is counted: a table's total less one's own
    for table in tables:
        seated = [tallies[seat.player_id] for seat in table.seats]
        total = sum(t.tournament_points for t in seated)
        for tally in seated:
            tally.opponents_points += total - tally.tournament_points
            tally.meetings += len(seated) - 1

    # averages compared exactly as integers over the least common number of meetings
    common = math.lcm(*{tallies[p].meetings for p in player_ids if tallies[p].meetings} or {1})
    opponents_average = {
        p: t.opponents_points * (common // t.meetings) if t.meetings else 0
        for p in player_ids
        for t in (tallies[p],)
    }
    simple_keys: dict[str, Callable[[int], int]] = {
        "game_points": lambda p: tallies[p].game_points,
        "opponents_average": lambda p: opponents_average[p],
        "species_count": lambda p: tallies[p].species_count,
    }
    head_to_head: dict[int, int] = {}
    # each player's tables, so a tied group looks only at its own (not at every table per group)
    tables_of: dict[int, list[int]] = {}
    if "head_to_head" in tiebreak_order:
        for index, table in enumerate(tables):
            for seat in table.seats:
                tables_of.setdefault(seat.player_id, []).append(index)
    groups: list[list[int]] = [list(player_ids)]
    for criterion in ("tournament_points", *tiebreak_order):
        if criterion == "tournament_points":
            groups = [g2 for g in groups for g2 in _split(g, {p: tallies[p].tournament_points for p in g})]
        elif criterion == "head_to_head":
            split: list[list[int]] = []
            for group in groups:
                if len(group) == 1:
                    split.append(group)
                    continue
                shared = sorted({i for p in group for i in tables_of.get(p, ())})
                earned = _head_to_head(group, [tables[i] for i in shared], against)
                head_to_head.update(earned)
                split.extend(_split(group, earned))
            groups = split
        else:
            key = simple_keys[criterion]
            groups = [g2 for g in groups for g2 in _split(g, {p: key(p) for p in g})]

    rows: list[StandingRow] = []
    for group in groups:
        rank = len(rows) + 1
        for player in group:
            tally = tallies[player]
            # int / int is correctly rounded: the same float as the exact fraction's
            rows.append(
                StandingRow(
                    rank=rank,
                    player_id=player,
                    tournament_points=tally.tournament_points / UNIT,
                    game_points=tally.game_points,
                    opponents_average=(
                        tally.opponents_points / (UNIT * tally.meetings) if tally.meetings else 0.0
                    ),
                    species_count=tally.species_count,
                    games=tally.games,
                    head_to_head=head_to_head.get(player, 0) / UNIT,
                )
            )
    return rows


def _split(group: list[int], values: dict[int, int]) -> list[list[int]]:
    """Split a tied group by a value, highest first, keeping the given order within ties."""
    if len(group) == 1:
        return [group]
    by_value: dict[int, list[int]] = {}
    for player in group:
        by_value.setdefault(values[player], []).append(player)
    return [by_value[v] for v in sorted(by_value, reverse=True)]


def _head_to_head(
    group: list[int],
    tables: list[TableResult],
    against: Callable[[TableResult, SeatResult, SeatResult], int],
) -> dict[int, int]:
    """Tournament points (units) each player of `group` earned against the others in it
    (`tables`: at least every table where two of them met)."""
    members = set(group)
    earned = {p: 0 for p in group}
    for table in tables:
        seated = [s for s in table.seats if s.player_id in members]
        if len(seated) < 2:
            continue
        for seat in seated:
            for other in seated:
                if other is not seat:
                    earned[seat.player_id] += against(table, seat, other)
    return earned


def _checked(results: Iterable[TableResult]) -> list[TableResult]:
    tables = list(results)
    seen_tables: set[tuple[int, int]] = set()
    seated: dict[int, set[int]] = {}  # round -> its players (a set per round: no tuple per seat)
    for table in tables:
        if (table.round_number, table.table_id) in seen_tables:
            raise StandingsError(
                f"table {table.table_id} of round {table.round_number} has two results"
            )
        seen_tables.add((table.round_number, table.table_id))
        in_round = seated.get(table.round_number)
        if in_round is None:
            in_round = seated[table.round_number] = set()
        for seat in table.seats:
            if seat.player_id in in_round:
                raise StandingsError(
                    f"player {seat.player_id} has two results in round {table.round_number}"
                )
            in_round.add(seat.player_id)
    return tables


__all__ = [
    "DEFAULT_SCHEME",
    "DEFAULT_TIEBREAKS",
    "SCHEMES",
    "Scheme",
    "SeatResult",
    "StandingRow",
    "StandingsError",
    "TIEBREAKS",
    "TableResult",
    "beats",
    "compute_standings",
    "tournament_points",
]
