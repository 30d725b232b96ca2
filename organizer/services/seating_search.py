"""The local search behind Swiss seating (used by `organizer.services.seating`).

Players are plain indices here. A seating is scored per table by `TableCost`, compared
lexicographically: repeated opponent pairs first, then the rank range, then start players who
have started before, then the rank variance. Tables keep fixed sizes, so every move is a swap of
two players at different tables; fixed ("pinned") players never move.

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

TableCost = tuple[int, int, int, int]

NEIGHBOUR_WINDOW = 10
"""Players within this many places in the rank order are tried first as swap partners."""

REPEAT_PATIENCE = 300
"""While repeats remain, stop after this many kicks (or 5 per player) without a better seating."""

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
    ) -> None:
        self.ranks = ranks
        self.met = met
        self.start_counts = start_counts
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
        self.total = [0, 0, 0, 0]
        self._neighbours: dict[int, list[int]] = {}
        self._undo: list[tuple[int, int]] | None = None
        self._repeats_only = False

    # --- cost bookkeeping -------------------------------------------------------------

    def table_cost(self, members: list[int]) -> TableCost:
        # Unrolled by table size: this is the search's inner loop.
        met, ranks, starts = self.met, self.ranks, self.start_counts
        if len(members) == 4:
            a, b, c, d = members
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
            met_a = met[a]
            repeats = (b in met_a) + (c in met_a) + (c in met[b])
            ra, rb, rc = ranks[a], ranks[b], ranks[c]
            total = ra + rb + rc
            dispersion = 12 * (ra * ra + rb * rb + rc * rc) - 4 * total * total
            spread = max(ra, rb, rc) - min(ra, rb, rc)
            fresh = min(starts[a], starts[b], starts[c])
        else:
            a, b = members
            repeats = int(b in met[a])
            ra, rb = ranks[a], ranks[b]
            dispersion = 6 * (ra - rb) * (ra - rb)
            spread = abs(ra - rb)
            fresh = min(starts[a], starts[b])
        return repeats, spread, fresh, dispersion

    def cost(self) -> TableCost:
        a, b, c, d = self.total
        return a, b, c, d

    def _set_tables(self, tables: list[list[int]]) -> None:
        self.tables = tables
        self.costs = [self.table_cost(t) for t in tables]
        self.total = [sum(c[k] for c in self.costs) for k in range(4)]
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
        for k in range(4):
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
        # starts from the tables with repeats or fixed players and spreads from there.
        self._descend(
            number
            for number, table in enumerate(self.tables)
            if self.costs[number][0] or any(self.pinned[p] is not None for p in table)
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

    def _best_swap(self, i: int, candidates: Iterable[int]) -> bool:
        """Make the best strictly improving swap of i with one of the candidates, if any."""
        best: tuple[TableCost, int, TableCost, TableCost] | None = None
        here = self.where[i]
        for j in candidates:
            if self.where[j] == here:
                continue
            # Repeats come first, so most candidates are ruled out by this cheap count alone.
            repeats_change = self._repeats_change(i, j)
            if repeats_change > 0 or (self._repeats_only and repeats_change == 0):
                continue
            new_a, new_b, change = self._swap_gain(i, j)
            better = change[0] < 0 if self._repeats_only else change < (0, 0, 0, 0)
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

    def _cannot_improve(self) -> bool:
        """No repeats and, with all ranks distinct, every table as tight as ranks allow."""
        if self.total[0] or len(set(self.ranks)) != len(self.ranks):
            return False
        return self.total[1] == sum(size - 1 for size in self.sizes) and self.total[2] == 0

    def _kicks(self) -> None:
        """Iterated local search: a random swap, then a descent. While repeats remain, the
        descent and the acceptance look at repeats only, so the walk is free to leave a
        spread-tight corner (a full descent would simply swap the kick back); the best seating
        seen is kept aside, restored at the end and tightened again. Once repeats are gone, a
        short polish accepts only seatings that are no worse in every respect."""
        if len(self.free) < 2 or len(self.tables) < 2 or self._cannot_improve():
            return
        players = len(self.ranks)
        polish = min(200, 4 * players)
        budget = min(3000, 30 * players) if self.total[0] > 0 else polish
        # Kicks without a new best before giving up: generous while repeats remain.
        patience = max(REPEAT_PATIENCE, 5 * players)
        best_cost, best_tables = self.cost(), [list(t) for t in self.tables]
        since_best = 0
        while budget > 0 and since_best < patience:
            if self.total[0] == 0:
                budget = min(budget, polish)
                patience = min(patience, POLISH_PATIENCE)
            budget -= 1
            since_best += 1
            # Half the kicks move someone in a repeat; the others move anyone, because clearing
            # a repeat can take room made elsewhere first.
            in_repeats = self._players_in_repeats() if self.total[0] else []
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
            self._repeats_only = before[0] > 0
            self._swap(first, second)
            self._descend({self.where[first], self.where[second]})
            self._repeats_only = False
            log, self._undo = self._undo, None
            after = self.cost()
            if after < best_cost:
                best_cost, best_tables = after, [list(t) for t in self.tables]
                since_best = 0
            if (after[0] > before[0]) if before[0] else (after > before):
                for i, j in reversed(log):
                    self._swap(i, j)
        if self.cost() != best_cost:
            self._set_tables(best_tables)
            self._descend(range(len(self.tables)))


def _outward(centre: int, length: int) -> Iterable[int]:
    """centre, centre-1, centre+1, centre-2, ... within 0..length-1."""
    yield centre
    for step in range(1, length):
        if centre - step >= 0:
            yield centre - step
        if centre + step < length:
            yield centre + step
