"""The local search behind Swiss seating (used by `organizer.rounds.seating`).

Players are plain indices here. A seating is scored per table by `TableCost`, compared
lexicographically: repeated opponent pairs first, then the table's unavoidable repeated seats
(players who must sit in a position they already had, whatever the table's seat order), then the
rank range, then start players who have started before, then the rank variance. Tables keep fixed
sizes, so every move is a swap of two players at different tables; fixed ("pinned") players
never move.

Why this shape: a rank-sorted deal into tables is already optimal for the spread, and the
repeats it creates are local (top players meet top players again), so swaps with players of
nearby rank repair almost all of them cheaply. What is left gets a full-width search, then
seeded random kicks (iterated local search) with a budget counted in moves, never in seconds,
so the result depends only on the inputs.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable

TableCost = tuple[int, int, int, int, int]
ZERO: TableCost = (0, 0, 0, 0, 0)

ALL_POSITIONS = 0b1111
"""A player with no seat history: every position (start, second, third, dealer) is new."""

OPEN_POSITIONS = {4: 0b1111, 3: 0b1011, 2: 0b1001}
"""The positions a table of each size has (bits as in `seat_order`): a table of 3 has no third
seat, a table of 2 only start and dealer."""

NEIGHBOUR_WINDOW = 10
"""Players within this many places in the rank order are tried first as swap partners."""

REPEAT_PATIENCE = 300
"""While repeats remain, stop after this many kicks (or 5 per player) without a better seating."""

SEAT_BUDGET = 400
SEAT_PATIENCE = 100
"""Kicks (at most), and kicks without a better seating, spent on repeated seats once repeated
opponents are settled."""

POLISH_PATIENCE = 40
"""Once repeats are gone, stop polishing after this many kicks without a better seating."""


class SeatingSearch:
    def __init__(
        self,
        ranks: list[int],
        met: list[set[int]],
        start_counts: list[int],
        sizes: list[int],
        pinned: list[int | None],
        rng: random.Random,
        new_positions: list[int] | None = None,
    ) -> None:
        """`new_positions[i]`: the positions player i never had, as bits (`ALL_POSITIONS` for
        someone without a seat history; the default is everyone)."""
        self.ranks = ranks
        self.met = met
        self.start_counts = start_counts
        self.new_positions = new_positions or [ALL_POSITIONS] * len(ranks)
        self._seat_repeats: dict[int, int] = {}
        self.sizes = sizes
        self.pinned = pinned
        self.rng = rng
        count = len(ranks)
        tiebreak = list(range(count))
        rng.shuffle(tiebreak)
        self.order = sorted(range(count), key=lambda i: (ranks[i], tiebreak[i]))
        self.position = [0] * count
        for place, player in enumerate(self.order):
            self.position[player] = place
        self.free = [i for i in self.order if pinned[i] is None]
        self.tables: list[list[int]] = []
        self.where: list[int] = [0] * count
        self.costs: list[TableCost] = []
        self.total = [0, 0, 0, 0, 0]
        self._neighbours: dict[int, list[int]] = {}
        self._undo: list[tuple[int, int]] | None = None
        # How many leading parts of the cost the descent looks at: all of them, except during
        # a kick's walk while repeats (1) or avoidable-looking seat repeats (2) remain.
        self._level = len(ZERO)
        # Nobody can avoid a repeated seat who has had every position already.
        self._fewest_seat_repeats = sum(1 for bits in self.new_positions if not bits)

    # --- cost bookkeeping -------------------------------------------------------------

    def table_cost(self, members: list[int]) -> TableCost:
        # Unrolled by table size: this is the search's inner loop.
        met, ranks, starts, new = self.met, self.ranks, self.start_counts, self.new_positions
        if len(members) == 4:
            a, b, c, d = members
            key = new[a] | new[b] << 4 | new[c] << 8 | new[d] << 12
            met_a, met_b, met_c = met[a], met[b], met[c]
            repeats = (b in met_a) + (c in met_a) + (d in met_a) + (c in met_b) + (d in met_b)
            repeats += d in met_c
            ra, rb, rc, rd = ranks[a], ranks[b], ranks[c], ranks[d]
            total = ra + rb + rc + rd
            # 12 * size * variance: an integer for tables of 2, 3 and 4, so comparisons stay exact.
            dispersion = 12 * (ra * ra + rb * rb + rc * rc + rd * rd) - 3 * total * total
            spread = max(ra, rb, rc, rd) - min(ra, rb, rc, rd)
            fresh = min(starts[a], starts[b], starts[c], starts[d])
        elif len(members) == 3:
            a, b, c = members
            key = 1 << 16 | new[a] | new[b] << 4 | new[c] << 8
            met_a = met[a]
            repeats = (b in met_a) + (c in met_a) + (c in met[b])
            ra, rb, rc = ranks[a], ranks[b], ranks[c]
            total = ra + rb + rc
            dispersion = 12 * (ra * ra + rb * rb + rc * rc) - 4 * total * total
            spread = max(ra, rb, rc) - min(ra, rb, rc)
            fresh = min(starts[a], starts[b], starts[c])
        else:
            a, b = members
            key = 2 << 16 | new[a] | new[b] << 4
            repeats = int(b in met[a])
            ra, rb = ranks[a], ranks[b]
            dispersion = 6 * (ra - rb) * (ra - rb)
            spread = abs(ra - rb)
            fresh = min(starts[a], starts[b])
        seats = self._seat_repeats.get(key)
        if seats is None:
            seats = self._seat_repeats[key] = unavoidable_seat_repeats(
                [new[p] for p in members], OPEN_POSITIONS[len(members)]
            )
        return repeats, seats, spread, fresh, dispersion

    def cost(self) -> TableCost:
        a, b, c, d, e = self.total
        return a, b, c, d, e

    def _set_tables(self, tables: list[list[int]]) -> None:
        self.tables = tables
        self.costs = [self.table_cost(t) for t in tables]
        self.total = [sum(c[k] for c in self.costs) for k in range(5)]
        for number, table in enumerate(tables):
            for player in table:
                self.where[player] = number

    def _swap_gain(self, i: int, j: int) -> tuple[TableCost, TableCost, TableCost]:
        """New costs of both tables and the change in total if i and j trade places."""
        a, b = self.where[i], self.where[j]
        new_a = self.table_cost([j if m == i else m for m in self.tables[a]])
        new_b = self.table_cost([i if m == j else m for m in self.tables[b]])
        old_a, old_b = self.costs[a], self.costs[b]
        change = (
            new_a[0] + new_b[0] - old_a[0] - old_b[0],
            new_a[1] + new_b[1] - old_a[1] - old_b[1],
            new_a[2] + new_b[2] - old_a[2] - old_b[2],
            new_a[3] + new_b[3] - old_a[3] - old_b[3],
            new_a[4] + new_b[4] - old_a[4] - old_b[4],
        )
        return new_a, new_b, change

    def _repeats_change(self, i: int, j: int) -> int:
        """How many more repeated pairs there would be if i and j traded places."""
        met_i, met_j = self.met[i], self.met[j]
        change = 0
        for m in self.tables[self.where[i]]:
            if m != i:
                change += (m in met_j) - (m in met_i)
        for m in self.tables[self.where[j]]:
            if m != j:
                change += (m in met_i) - (m in met_j)
        return change

    def _apply_swap(self, i: int, j: int, new_a: TableCost, new_b: TableCost) -> None:
        a, b = self.where[i], self.where[j]
        table_a, table_b = self.tables[a], self.tables[b]
        table_a[table_a.index(i)] = j
        table_b[table_b.index(j)] = i
        self.where[i], self.where[j] = b, a
        for k in range(5):
            self.total[k] += new_a[k] + new_b[k] - self.costs[a][k] - self.costs[b][k]
        self.costs[a], self.costs[b] = new_a, new_b
        if self._undo is not None:
            self._undo.append((i, j))

    def _swap(self, i: int, j: int) -> None:
        new_a, new_b, _ = self._swap_gain(i, j)
        self._apply_swap(i, j, new_a, new_b)

    # --- the search --------------------------------------------------------------------

    def run(self) -> list[list[int]]:
        self._set_tables(self._rank_sorted_deal())
        # Swaps between two tables the deal filled cleanly cannot narrow them (at most they move
        # start players around among equal ranks, which the kicks still try), so the descent
        # starts from the tables with repeated opponents or seats, or fixed players, and spreads
        # from there.
        self._descend(
            number
            for number, table in enumerate(self.tables)
            if self.costs[number][0]
            or self.costs[number][1]
            or any(self.pinned[p] is not None for p in table)
        )
        if self.total[0] > 0:
            self._repair_wide()
        self._kicks()
        return [list(t) for t in self.tables]

    def _rank_sorted_deal(self) -> list[list[int]]:
        """Fixed tables take the free players nearest their fixed players' rank; the other
        free players are dealt in rank order, table 1 first."""
        tables: list[list[int]] = [[] for _ in self.sizes]
        for player in self.order:
            if self.pinned[player] is not None:
                tables[self.pinned[player]].append(player)  # type: ignore[index]
        taken = [self.pinned[i] is not None for i in range(len(self.ranks))]
        for number, table in enumerate(tables):
            if not table:
                continue
            places = sorted(self.position[p] for p in table)
            centre = places[len(places) // 2]
            for place in _outward(centre, len(self.order)):
                if len(table) >= self.sizes[number]:
                    break
                player = self.order[place]
                if not taken[player]:
                    table.append(player)
                    taken[player] = True
        # A greedy deal that skips players already met looked tempting but ends with wider
        # tables after the repairs than this plain deal does (bench/bench_seating.py).
        rest = iter(p for p in self.order if not taken[p])
        for number, table in enumerate(tables):
            while len(table) < self.sizes[number]:
                table.append(next(rest))
        return tables

    def _neighbours_of(self, player: int) -> list[int]:
        found = self._neighbours.get(player)
        if found is None:
            place = self.position[player]
            window = self.order[max(0, place - NEIGHBOUR_WINDOW) : place + NEIGHBOUR_WINDOW + 1]
            found = [p for p in window if p != player and self.pinned[p] is None]
            self._neighbours[player] = found
        return found

    def _seats(self, members: list[int]) -> int:
        """The table's unavoidable repeated seats (`table_cost`'s second part) alone."""
        new = self.new_positions
        if len(members) == 4:
            a, b, c, d = members
            key = new[a] | new[b] << 4 | new[c] << 8 | new[d] << 12
        elif len(members) == 3:
            a, b, c = members
            key = 1 << 16 | new[a] | new[b] << 4 | new[c] << 8
        else:
            a, b = members
            key = 2 << 16 | new[a] | new[b] << 4
        seats = self._seat_repeats.get(key)
        if seats is None:
            seats = self._seat_repeats[key] = unavoidable_seat_repeats(
                [new[p] for p in members], OPEN_POSITIONS[len(members)]
            )
        return seats

    def _best_swap(self, i: int, candidates: Iterable[int]) -> bool:
        """Make the best strictly improving swap of i with one of the candidates, if any."""
        best: tuple[TableCost, int, TableCost, TableCost] | None = None
        here = self.where[i]
        where, tables, costs, level = self.where, self.tables, self.costs, self._level
        table_a, old_a = tables[here], costs[here]
        for j in candidates:
            there = where[j]
            if there == here:
                continue
            # Repeats come first, so most candidates are ruled out by this cheap count alone.
            repeats_change = self._repeats_change(i, j)
            if repeats_change > 0 or (level == 1 and repeats_change == 0):
                continue
            members_a = [j if m == i else m for m in table_a]
            members_b = [i if m == j else m for m in tables[there]]
            if repeats_change == 0:
                # Then the seats come next: a swap adding unavoidable repeated seats is neither an
                # improvement nor better than the best so far (most candidates of a big round).
                seats_change = self._seats(members_a) + self._seats(members_b) - old_a[1] - costs[there][1]
                if seats_change > 0 or (best is not None and (0, seats_change) > best[0][:2]):
                    continue
            new_a, new_b = self.table_cost(members_a), self.table_cost(members_b)
            old_b = costs[there]
            change = (
                new_a[0] + new_b[0] - old_a[0] - old_b[0],
                new_a[1] + new_b[1] - old_a[1] - old_b[1],
                new_a[2] + new_b[2] - old_a[2] - old_b[2],
                new_a[3] + new_b[3] - old_a[3] - old_b[3],
                new_a[4] + new_b[4] - old_a[4] - old_b[4],
            )
            better = change[:level] < ZERO[:level]
            if better and (best is None or change < best[0]):
                best = (change, j, new_a, new_b)
        if best is None:
            return False
        self._apply_swap(i, best[1], best[2], best[3])
        return True

    def _descend(self, table_numbers: Iterable[int]) -> None:
        """Swap with rank neighbours until no such swap improves any table in the queue."""
        queue = deque(table_numbers)
        queued = [False] * len(self.tables)
        for number in queue:
            queued[number] = True
        while queue:
            number = queue.popleft()
            queued[number] = False
            for player in list(self.tables[number]):
                if self.pinned[player] is not None or self.where[player] != number:
                    continue
                if self._best_swap(player, self._neighbours_of(player)):
                    for touched in (number, self.where[player]):
                        if not queued[touched]:
                            queued[touched] = True
                            queue.append(touched)
                    break

    def _players_in_repeats(self) -> list[int]:
        found = []
        for number, table in enumerate(self.tables):
            if self.costs[number][0] == 0:
                continue
            for player in table:
                if self.pinned[player] is None and any(o in self.met[player] for o in table):
                    found.append(player)
        return found

    def _repair_wide(self) -> None:
        """Let every player still in a repeat try a swap with anyone at all."""
        improved = True
        while improved and self.total[0] > 0:
            improved = False
            for player in self._players_in_repeats():
                if self._best_swap(player, self.free):
                    self._descend({self.where[player]})
                    improved = True

    def _players_in_seat_repeats(self) -> list[int]:
        """The movable players at tables where some seat must repeat."""
        return [
            player
            for number, table in enumerate(self.tables)
            if self.costs[number][1]
            for player in table
            if self.pinned[player] is None
        ]

    def _cannot_improve(self) -> bool:
        """No repeats of either kind and, with all ranks distinct, every table as tight as ranks
        allow."""
        if self.total[0] or self.total[1] or len(set(self.ranks)) != len(self.ranks):
            return False
        return self.total[2] == sum(size - 1 for size in self.sizes) and self.total[3] == 0

    def _kicks(self) -> None:
        """Iterated local search: a random swap, then a descent, in three walks. While repeated
        opponents remain, the descent and the acceptance look at those only, so the walk is free
        to leave a spread-tight corner (a full descent would simply swap the kick back). Then,
        with no more repeated opponents, the same for repeated seats while more seats repeat
        than the players who have had every position. Then a short polish accepts only seatings
        that are no worse in every respect. Each walk keeps the best seating seen aside,
        restores it at its end and tightens it again."""
        if len(self.free) < 2 or len(self.tables) < 2 or self._cannot_improve():
            return
        players = len(self.ranks)
        if self.total[0]:
            self._walk(1, min(3000, 30 * players), max(REPEAT_PATIENCE, 5 * players))
        if self.total[1] > self._fewest_seat_repeats:
            self._walk(2, min(SEAT_BUDGET, 30 * players), max(SEAT_PATIENCE, 5 * players))
        self._walk(len(ZERO), min(200, 4 * players), POLISH_PATIENCE)

    def _walk(self, level: int, budget: int, patience: int) -> None:
        """Kicks judged by the first `level` parts of the cost (see `_kicks`)."""
        best_cost, best_tables = self.cost(), [list(t) for t in self.tables]
        since_best = 0
        while budget > 0 and since_best < patience:
            if (level == 1 and not self.total[0]) or (
                level == 2 and self.total[1] == self._fewest_seat_repeats
            ):
                break
            budget -= 1
            since_best += 1
            # Half the kicks move someone in a repeat (of opponents, or of seats); the others
            # move anyone, because clearing a repeat can take room made elsewhere first.
            if level == 1:
                in_repeats = self._players_in_repeats()
            elif level == 2:
                in_repeats = self._players_in_seat_repeats()
            else:
                in_repeats = []
            if in_repeats and self.rng.random() < 0.5:
                first = self.rng.choice(in_repeats)
            else:
                first = self.rng.choice(self.free)
            # Far swaps set off long chains of repairs that are nearly always undone; small
            # seatings are all "near" anyway (see NEIGHBOUR_WINDOW).
            second = self.rng.choice(self._neighbours_of(first) or self.free)
            if self.where[first] == self.where[second]:
                continue
            before = self.cost()
            self._undo = []
            self._level = 1 if level == 1 else len(ZERO)
            self._swap(first, second)
            self._descend({self.where[first], self.where[second]})
            self._level = len(ZERO)
            log, self._undo = self._undo, None
            after = self.cost()
            if after < best_cost:
                best_cost, best_tables = after, [list(t) for t in self.tables]
                since_best = 0
            if (after[0] > before[0]) if level == 1 else (after > before):
                for i, j in reversed(log):
                    self._swap(i, j)
        if self.cost() != best_cost:
            self._set_tables(best_tables)
            self._descend(range(len(self.tables)))


def unavoidable_seat_repeats(new_positions: list[int], open_positions: int) -> int:
    """How many of a table's players sit in a position they already had in its best seat order:
    the table's size minus the largest matching of players to positions new to them. By Hall's
    theorem that is the largest shortfall, over groups of players, of the new positions the group
    has between them against its size (at most 15 groups at a table of 4)."""
    worst = 0
    count = len(new_positions)
    for group in range(1, 1 << count):
        union = size = 0
        for k in range(count):
            if group >> k & 1:
                union |= new_positions[k]
                size += 1
        worst = max(worst, size - (union & open_positions).bit_count())
    return worst


def _outward(centre: int, length: int) -> Iterable[int]:
    """centre, centre-1, centre+1, centre-2, ... within 0..length-1."""
    yield centre
    for step in range(1, length):
        if centre - step >= 0:
            yield centre - step
        if centre + step < length:
            yield centre + step
