"""Table results and the named tournament-point schemes an event can choose from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from organizer.core.translate import N_

MAX_SPECIES = 10


class StandingsError(ValueError):
    """Results or settings the standings cannot be computed from; the message names the problem."""


@dataclass(frozen=True)
class SeatResult:
    """One seat's final figures: game points and distinct species in their arboretum."""

    player_id: int
    points: int
    species_count: int

    def __post_init__(self) -> None:
        if self.points < 0:
            raise StandingsError(f"player {self.player_id} has {self.points} points; never below 0")
        if not 0 <= self.species_count <= MAX_SPECIES:
            raise StandingsError(
                f"player {self.player_id} has {self.species_count} species; "
                f"an arboretum holds 0 to {MAX_SPECIES}"
            )


@dataclass(frozen=True)
class TableResult:
    """A finished table. `species_tiebreak` is True for 2018 and draft games (equal points go
    to the player with more species) and False for 2010 (equal points are a shared result)."""

    table_id: int
    round_number: int
    seats: list[SeatResult]
    species_tiebreak: bool

    def __post_init__(self) -> None:
        if not 2 <= len(self.seats) <= 4:
            raise StandingsError(
                f"table {self.table_id} has {len(self.seats)} results; a table seats 2 to 4"
            )
        ids = [s.player_id for s in self.seats]
        if len(set(ids)) != len(ids):
            raise StandingsError(f"table {self.table_id} lists a player twice")


def beats(table: TableResult, seat: SeatResult, other: SeatResult) -> bool:
    """Did `seat` finish strictly ahead of `other` by the game's own winner rule?"""
    if seat.points != other.points:
        return seat.points > other.points
    return table.species_tiebreak and seat.species_count > other.species_count


#: tournament points are counted in whole units of 1/UNIT: at a table of 2 to 4 every scheme hands
#: out halves over 1, 2 or 3 opponents, or a win split up to 4 ways, all whole twelfths, so
#: standings add and compare integers (exactly, and far faster than fractions)
UNIT = 12


def _halves(table: TableResult, seat: SeatResult, other: SeatResult) -> int:
    """2 for finishing ahead of `other`, 1 for a tie, 0 for finishing behind."""
    if beats(table, seat, other):
        return 2
    return 0 if beats(table, other, seat) else 1


def _opponents_beaten_halves(table: TableResult) -> dict[int, int]:
    # the order `beats` decides by, as one comparable key per seat (the hot loop of big events)
    keys = [(s.points, s.species_count if table.species_tiebreak else 0) for s in table.seats]
    return {seat.player_id: sum(2 if key > other else 1 if key == other else 0 for other in keys) - 1
            for seat, key in zip(table.seats, keys, strict=True)}


def beaten_units(table: TableResult) -> dict[int, int]:
    """Opponents beaten / opponents at the table, a tie counting half: a win is worth 1 at
    every table size, so 2-, 3- and 4-player tables weigh the same."""
    per_half = UNIT // 2 // (len(table.seats) - 1)
    return {p: v * per_half for p, v in _opponents_beaten_halves(table).items()}


def placement_units(table: TableResult) -> dict[int, int]:
    """N-1 for first place down to 0 for last; tied players share the average of the places
    they cover. Equals the number of opponents beaten (ties half), so bigger tables give more."""
    return {p: v * (UNIT // 2) for p, v in _opponents_beaten_halves(table).items()}


def win_units(table: TableResult) -> dict[int, int]:
    """1 to the winner; a shared win splits the point equally between the tied winners."""
    winners = [
        s.player_id
        for s in table.seats
        if not any(beats(table, other, s) for other in table.seats if other is not s)
    ]
    return {s.player_id: UNIT // len(winners) if s.player_id in winners else 0 for s in table.seats}


def _pairwise_units(table: TableResult, seat: SeatResult, other: SeatResult) -> int:
    """1 for finishing ahead of `other`, 1/2 for a tie, 0 for finishing behind."""
    return _halves(table, seat, other) * (UNIT // 2)


def _share_per_opponent_units(table: TableResult, seat: SeatResult, other: SeatResult) -> int:
    return _halves(table, seat, other) * (UNIT // 2 // (len(table.seats) - 1))


@dataclass(frozen=True)
class Scheme:
    """A tournament-point scheme: points per table, and points earned against one opponent
    (used by the head-to-head tie-break), in units of 1/UNIT and as fractions."""

    name: str
    description: str  # English, marked for translation: shown with _(description)
    table_units: Callable[[TableResult], dict[int, int]]
    against_units: Callable[[TableResult, SeatResult, SeatResult], int]

    def table_points(self, table: TableResult) -> dict[int, Fraction]:
        return {p: Fraction(v, UNIT) for p, v in self.table_units(table).items()}

    def against(self, table: TableResult, seat: SeatResult, other: SeatResult) -> Fraction:
        return Fraction(self.against_units(table, seat, other), UNIT)


SCHEMES: dict[str, Scheme] = {
    "beaten": Scheme(
        "beaten",
        N_("Opponents beaten divided by opponents at the table, a tie counting half "
           "(a win is worth 1 at a table of any size)."),
        beaten_units,
        _share_per_opponent_units,
    ),
    "placement": Scheme(
        "placement",
        N_("Places: N-1 points for first down to 0 for last at a table of N; tied players "
           "share the places they cover (3/2/1/0 at four players, 1/0 at two)."),
        placement_units,
        _pairwise_units,
    ),
    "win": Scheme(
        "win",
        N_("1 point for winning the table; a shared win splits the point between the winners."),
        win_units,
        _share_per_opponent_units,
    ),
}
DEFAULT_SCHEME = "beaten"


def tournament_points(table: TableResult, scheme: str = DEFAULT_SCHEME) -> dict[int, float]:
    """Tournament points each player at `table` earns under `scheme` (default: "beaten")."""
    if scheme not in SCHEMES:
        raise StandingsError(
            f"unknown tournament-point scheme {scheme!r}; choose from {', '.join(sorted(SCHEMES))}"
        )
    return {p: v / UNIT for p, v in SCHEMES[scheme].table_units(table).items()}
