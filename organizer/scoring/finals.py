"""Finals after the Swiss rounds, as plain functions: the cut to the top N, the final tables'
seeds and seats, and the places the finals decide, each with its reason.

The rules (docs/finals.md):

- **Cut.** The Swiss standings decide, with the event's tie-breaks. Players still fully tied
  across the cut (the same rank) are ordered by their tournament points in the last Swiss round
  (the better result there goes first), then by lot drawn with the event's seeded random
  generator, so the same event and seed always draw the same lot.
- **Decliners.** A player who declines is skipped; the next in line by the same order takes the
  place, and every seed below moves up.
- **Tables.** A cut of 4 plays one final table. A cut of 8, 12 or 16 plays 2, 3 or 4
  semi-final tables of four, seeded in a snake (table A gets seeds 1, 4, 5, 8 of a cut of 8), and
  their winners meet at the final table. A shared win at a semi-final goes to the better seed.
- **Places.** The final table's result decides the first places; then the semi-final tables'
  results (every second place, then every third, ...; the better seed first among equal
  places); then the Swiss standings for everyone else. A shared place at a table goes to the
  better seed.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from organizer.scoring.schemes import StandingsError, TableResult, beats
from organizer.scoring.standings import StandingRow

#: the cuts an organizer may pick, and how many semi-final tables each plays
CUT_SIZES: dict[int, int] = {4: 0, 8: 2, 12: 3, 16: 4}

#: why a player is where they are: a code, shown translated by the page (docs/finals.md)
REASON_RANK = "rank"  # the Swiss standings alone
REASON_LAST_ROUND = "last_round"  # tied at the cut, better last Swiss round
REASON_LOT = "lot"  # tied at the cut and in the last round, lot drawn
REASON_REPLACES = "replaces"  # the next in line for a player who declined


@dataclass(frozen=True)
class Seed:
    """A qualified player. ``seed`` counts from 1; ``rank`` is their Swiss rank; ``reason`` is
    one of the REASON_* codes; ``replaces`` names the decliner whose place they took."""

    seed: int
    player_id: int
    rank: int
    reason: str
    replaces: int | None = None


@dataclass(frozen=True)
class Cut:
    seeds: list[Seed]
    #: the players who declined, in the order they would have come
    declined: list[int]
    #: the players tied at the cut who were ordered by the last round or by lot
    tied_at_cut: list[int]


def line_order(
    rows: Sequence[StandingRow], cut_size: int, last_round_points: Mapping[int, float], seed: int,
) -> tuple[list[tuple[StandingRow, str]], list[int]]:
    """Every player in the order they come for the finals, with why, and the players tied
    across the boundary between place ``cut_size`` and the next. Only a tie that the cut splits
    needs the extra rules; other ties keep the standings' order (it does not matter who of two
    qualified players is seed 2 rather than 3 beyond the tie-breaks)."""
    ordered = sorted(rows, key=lambda r: r.rank)
    if len(ordered) <= cut_size:
        return [(r, REASON_RANK) for r in ordered], []
    boundary_rank = ordered[cut_size - 1].rank
    group = [r for r in ordered if r.rank == boundary_rank]
    if ordered[cut_size].rank != boundary_rank:
        return [(r, REASON_RANK) for r in ordered], []
    lot = random.Random(f"finals-cut:{seed}")
    draw = {r.player_id: lot.random() for r in sorted(group, key=lambda r: r.player_id)}
    by_last = sorted(group, key=lambda r: (-last_round_points.get(r.player_id, 0.0), draw[r.player_id]))
    reasons: dict[int, str] = {}
    for row in by_last:
        same_last = [o for o in group if o is not row
                     and last_round_points.get(o.player_id, 0.0) == last_round_points.get(row.player_id, 0.0)]
        reasons[row.player_id] = REASON_LOT if same_last else REASON_LAST_ROUND
    start = ordered.index(group[0])
    line = [(r, REASON_RANK) for r in ordered[:start]]
    line += [(r, reasons[r.player_id]) for r in by_last]
    line += [(r, REASON_RANK) for r in ordered[start + len(group):]]
    return line, [r.player_id for r in group]


def cut(
    rows: Sequence[StandingRow],
    cut_size: int,
    *,
    declined: Collection[int] = (),
    last_round_points: Mapping[int, float] | None = None,
    seed: int = 0,
) -> Cut:
    """The top ``cut_size`` players of the Swiss standings ``rows``, without those who
    ``declined`` (the next in line takes each freed place)."""
    if cut_size not in CUT_SIZES:
        raise StandingsError(f"a cut is one of {', '.join(map(str, CUT_SIZES))} players, not {cut_size}")
    last = last_round_points or {}
    # who would have come without anyone declining: the decliners among them free their places
    everyone, _tied = line_order(rows, cut_size, last, seed)
    top_declined = [r.player_id for r, _why in everyone[:cut_size] if r.player_id in declined]
    declined_in_line = [r.player_id for r, _why in everyone if r.player_id in declined]
    plain_top = {r.player_id for r, _why in everyone[:cut_size]}
    # the tie at the cut is decided among those who play: a decliner moves the boundary
    line, tied = line_order([r for r in rows if r.player_id not in declined], cut_size, last, seed)
    if len(line) < cut_size:
        raise StandingsError(f"only {len(line)} players can play a cut of {cut_size}")
    seeds: list[Seed] = []
    for number, (row, why) in enumerate(line[:cut_size], start=1):
        replaces = top_declined.pop(0) if row.player_id not in plain_top and top_declined else None
        seeds.append(Seed(number, row.player_id, row.rank,
                          REASON_REPLACES if replaces is not None else why, replaces))
    tied_at_cut = tied if any(s.reason in (REASON_LAST_ROUND, REASON_LOT) for s in seeds) else []
    return Cut(seeds, declined_in_line, tied_at_cut)


def semi_final_tables(cut_size: int) -> list[list[int]]:
    """The seeds at each semi-final table, a snake over the tables so each table's seeds add up
    alike (8: [1, 4, 5, 8] and [2, 3, 6, 7]); a cut of 4 has none."""
    count = CUT_SIZES[cut_size]
    tables: list[list[int]] = [[] for _ in range(count)]
    for number in range(1, cut_size + 1):
        lap, step = divmod(number - 1, count) if count else (0, 0)
        index = step if lap % 2 == 0 else count - 1 - step
        if count:
            tables[index].append(number)
    return tables


def seat_order(seeds: Sequence[int], top_seat: int | None = None) -> list[int]:
    """The seeds in seat order (seat 1 first): by seed, or the top seed at the seat they chose
    (``top_seat``, 1-based) and the others by seed in the remaining seats."""
    ordered = sorted(seeds)
    if top_seat is None or top_seat == 1:
        return ordered
    if not 1 <= top_seat <= len(ordered):
        raise StandingsError(f"seat {top_seat} is not at a table of {len(ordered)}")
    rest = ordered[1:]
    return rest[:top_seat - 1] + [ordered[0]] + rest[top_seat - 1:]


def table_order(table: TableResult, seed_of: Mapping[int, int]) -> list[tuple[int, bool]]:
    """The players of a finished final table from first to last, each with whether the seed
    decided their place against someone with an equal result."""
    def place(player: int) -> int:
        seat = next(s for s in table.seats if s.player_id == player)
        return sum(1 for other in table.seats if other is not seat and beats(table, other, seat))

    players = sorted((s.player_id for s in table.seats), key=lambda p: (place(p), seed_of[p]))
    return [(p, any(place(o) == place(p) for o in players if o != p)) for p in players]


@dataclass(frozen=True)
class Place:
    """A final place (from 1) and why: ``stage`` is "final", "semi_final" or "swiss";
    ``at_table`` is the place at that stage's table (None for the Swiss standings);
    ``by_seed`` tells that an equal result there was decided by the better seed."""

    place: int
    player_id: int
    stage: str
    at_table: int | None
    by_seed: bool = False
    swiss_rank: int | None = None


def places(
    rows: Sequence[StandingRow],
    the_cut: Cut,
    final: TableResult | None,
    semi_finals: Sequence[TableResult] = (),
) -> list[Place]:
    """Every player's final place: the final table first, then the semi-finals, then the Swiss
    standings. Without the final table's result, the finals decide nothing yet and the Swiss
    standings stand (the page shows the finals under way)."""
    seed_of = {s.player_id: s.seed for s in the_cut.seeds}
    rank_of = {r.player_id: r.rank for r in rows}
    result: list[Place] = []
    placed: set[int] = set()
    if final is not None:
        for at, (player, by_seed) in enumerate(table_order(final, seed_of), start=1):
            result.append(Place(len(result) + 1, player, "final", at, by_seed, rank_of.get(player)))
            placed.add(player)
        semi_rows = [(at, seed_of[p], p, by_seed)
                     for table in semi_finals
                     for at, (p, by_seed) in enumerate(table_order(table, seed_of), start=1)
                     if p not in placed]
        for at, _seed, player, by_seed in sorted(semi_rows):
            result.append(Place(len(result) + 1, player, "semi_final", at, by_seed, rank_of.get(player)))
            placed.add(player)
    for row in sorted(rows, key=lambda r: r.rank):
        if row.player_id not in placed:
            result.append(Place(len(result) + 1, row.player_id, "swiss", None, False, row.rank))
    return result


def semi_final_winners(semi_finals: Sequence[TableResult], seed_of: Mapping[int, int]) -> list[int]:
    """The winner of each semi-final table (a shared win goes to the better seed), by seed: the
    players of the final table."""
    return sorted((table_order(t, seed_of)[0][0] for t in semi_finals), key=lambda p: seed_of[p])
