"""Fast "what would this placement add?" for the heuristic bot.

:class:`engine.paths.PathFinder` answers "what is the best path now?"; a bot asks that question
for every card of its hand at every legal cell, a few hundred times a turn. Rebuilding a
PathFinder per candidate costs ~100 µs; this module instead runs the same longest-path dynamic
programme once per arboretum and species in both directions (walks *into* each card from a card
of the species, walks *out of* each card to a card of the species) and then scores any new card
at any empty cell from its four neighbours alone, because a new card can only improve a species
through paths that pass through it. The answer is exact (cross-checked against PathFinder in
``tests/engine/test_bots.py``)."""

from __future__ import annotations

from ..arboretum import Arboretum, Cell

NONE = -(10**6)

#: (value, species) per occupied cell
Cells = dict[Cell, tuple[int, str]]


def cells_of(arboretum: Arboretum) -> Cells:
    return {cell: (card.value, card.species) for cell, card in arboretum.items()}


class SpeciesTable:
    """Best walks into and out of every card for one species, and the best path now."""

    __slots__ = ("species", "eight", "mixed_in", "pure_in", "mixed_out", "pure_out", "best", "cards", "near")

    def __init__(self, cells: Cells, order: list[Cell], species: str, eight: int) -> None:
        self.species = species
        self.eight = eight
        # mixed_in[c]: best (cards + 1-bonus) of a walk from a card of `species` rising to c
        # pure_in[c]: (2 * cards + 1-bonus, cards) of a walk of `species` cards only ending at c
        # mixed_out[c]: best (cards + 8-bonus) of a walk from c rising to a card of `species`
        # pure_out[c]: (2 * cards + 8-bonus, cards) of a walk of `species` cards only from c
        mixed_in: dict[Cell, int] = {}
        pure_in: dict[Cell, tuple[int, int]] = {}
        mixed_out: dict[Cell, int] = {}
        pure_out: dict[Cell, tuple[int, int]] = {}
        best = NONE
        count = 0
        get = cells.get
        for cell in order:  # rising values
            value, name = cells[cell]
            x, y = cell
            top = NONE
            top_pure = (NONE, 0)
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                other = get(n)
                if other is None or other[0] >= value:
                    continue
                m = mixed_in.get(n, NONE)
                if m > top:
                    top = m
                if name == species and other[1] == species:
                    p = pure_in[n]
                    if p > top_pure:
                        top_pure = p
            if name == species:
                count += 1
                one = 1 if value == 1 else 0
                end = eight if value == 8 else 0
                if top > NONE:
                    best = max(best, top + 1 + end)
                if top_pure[1] >= 3:
                    best = max(best, top_pure[0] + 2 + end)
                mixed_in[cell] = max(top + 1, 1 + one)
                pure_in[cell] = (top_pure[0] + 2, top_pure[1] + 1) if top_pure[1] else (2 + one, 1)
            elif top > NONE:
                mixed_in[cell] = top + 1
        for cell in reversed(order):  # falling values
            value, name = cells[cell]
            x, y = cell
            top = NONE
            top_pure = (NONE, 0)
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                other = get(n)
                if other is None or other[0] <= value:
                    continue
                m = mixed_out.get(n, NONE)
                if m > top:
                    top = m
                if name == species and other[1] == species:
                    p = pure_out[n]
                    if p > top_pure:
                        top_pure = p
            if name == species:
                end = eight if value == 8 else 0
                mixed_out[cell] = max(top + 1, 1 + end)
                pure_out[cell] = (top_pure[0] + 2, top_pure[1] + 1) if top_pure[1] else (2 + end, 1)
            elif top > NONE:
                mixed_out[cell] = top + 1
        self.mixed_in, self.pure_in, self.mixed_out, self.pure_out = mixed_in, pure_in, mixed_out, pure_out
        self.best = best
        self.cards = count
        # only a cell next to a card some walk of the species reaches can carry a new path
        near: set[Cell] = set()
        for x, y in set(mixed_in) | set(mixed_out):
            near.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
        self.near = near

    def through(self, cells: Cells, cell: Cell, value: int, name: str) -> int:
        """The best path of this species passing through a new card (value, name) at ``cell``;
        NONE when the new card makes no path of it."""
        x, y = cell
        species = self.species
        mixed_in, mixed_out = self.mixed_in, self.mixed_out
        below = above = NONE
        pure_below = pure_above = (NONE, 0)
        own = name == species
        get = cells.get
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            other = get(n)
            if other is None:
                continue
            v = other[0]
            if v < value:
                m = mixed_in.get(n, NONE)
                if m > below:
                    below = m
                if own and other[1] == species:
                    p = self.pure_in[n]
                    if p > pure_below:
                        pure_below = p
            elif v > value:
                m = mixed_out.get(n, NONE)
                if m > above:
                    above = m
                if own and other[1] == species:
                    p = self.pure_out[n]
                    if p > pure_above:
                        pure_above = p
        best = NONE
        if below > NONE and above > NONE:
            best = below + above + 1
        if own:
            one = 1 if value == 1 else 0
            end = self.eight if value == 8 else 0
            if above > NONE:
                best = max(best, above + 1 + one)
            if below > NONE:
                best = max(best, below + 1 + end)
            # pure: the walks in and out of the new card, each at least the card itself
            p_in = (pure_below[0] + 2, pure_below[1] + 1) if pure_below[1] else (2 + one, 1)
            p_out = (pure_above[0] + 2, pure_above[1] + 1) if pure_above[1] else (2 + end, 1)
            if p_in[1] + p_out[1] - 1 >= 4:
                best = max(best, p_in[0] + p_out[0] - 2)
        return best


class PathTable:
    """Every species' :class:`SpeciesTable` for one arboretum, built lazily."""

    __slots__ = ("cells", "order", "eight", "counts", "_tables", "_near", "_multi", "_own", "_hot", "_around")

    def __init__(self, arboretum: Arboretum | Cells, eight: int) -> None:
        self.cells: Cells = cells_of(arboretum) if isinstance(arboretum, Arboretum) else arboretum
        self.order = sorted(self.cells, key=lambda c: self.cells[c][0])
        self.eight = eight
        self.counts: dict[str, int] = {}
        for _, name in self.cells.values():
            self.counts[name] = self.counts.get(name, 0) + 1
        self._tables: dict[str, SpeciesTable] = {}
        self._near: set[Cell] | None = None
        self._multi: list[tuple[str, SpeciesTable]] = []
        # answers already worked out: a table is asked the same questions many times (every
        # decision of a turn, and in a search every playout that reaches the same arboretum)
        self._own: dict[tuple[int, str], int] = {}
        self._hot: dict[tuple[int, str], dict[Cell, list[tuple[str, int]]]] = {}
        self._around: dict[Cell, tuple[int, dict[str, int]]] = {}

    def near(self) -> set[Cell]:
        """Cells where a new card can improve some species' best path (see :meth:`gains`)."""
        if self._near is None:
            near: set[Cell] = set()
            for species in self.counts:
                near |= self.table(species).near
            self._near = near
            self._multi = [(s, self.table(s)) for s, count in self.counts.items() if count >= 2]
        return self._near

    def table(self, species: str) -> SpeciesTable:
        table = self._tables.get(species)
        if table is None:
            table = self._tables[species] = SpeciesTable(self.cells, self.order, species, self.eight)
        return table

    def best(self, species: str) -> int:
        """Points of the best path of ``species`` now (0 when there is none)."""
        if not self.counts.get(species):
            return 0
        best = self.table(species).best
        return best if best > NONE else 0

    def has_path(self, species: str) -> bool:
        return self.counts.get(species, 0) >= 2 and self.table(species).best > NONE

    def best_after(self, species: str, cell: Cell, value: int, name: str) -> int:
        """Points of the best path of ``species`` once (value, name) is planted at ``cell``
        (0 when there is still none)."""
        if not self.counts.get(species):
            return 0
        table = self.table(species)
        best = max(table.best, table.through(self.cells, cell, value, name))
        return best if best > NONE else 0

    def count(self, species: str) -> int:
        return self.counts.get(species, 0)

    def gains(self, cell: Cell, value: int, name: str) -> list[tuple[str, int]]:
        """(species, points gained) for every species whose best path a new card (value, name)
        at ``cell`` improves. A species gains only through a path with a card of it at each end,
        so it needs one card already planted if it is the new card's, two otherwise."""
        out: list[tuple[str, int]] = []
        if cell not in self.near():
            return out
        cells = self.cells
        for species, table in self._multi:
            if species != name and cell in table.near:
                through = table.through(cells, cell, value, name)
                if through > table.best:
                    out.append((species, through - (table.best if table.best > NONE else 0)))
        if self.counts.get(name):
            table = self._tables[name]
            if cell in table.near:
                through = table.through(cells, cell, value, name)
                if through > table.best:
                    out.append((name, through - (table.best if table.best > NONE else 0)))
        return out

    def own_gain(self, cells: list[Cell], value: int, name: str) -> int:
        """The most a new card (value, name) adds to its own species' best path at any of
        ``cells``."""
        if not self.counts.get(name):
            return 0
        table = self.table(name)
        near = table.near
        before = table.best if table.best > NONE else 0
        gain = 0
        for cell in cells:
            if cell in near:
                through = table.through(self.cells, cell, value, name)
                if through - before > gain:
                    gain = through - before
        return gain

    def own_gain_legal(self, legal: list[Cell], value: int, name: str) -> int:
        """:meth:`own_gain` at ``legal``, which must be the legal cells of this table's own
        arboretum (then the answer depends on the card alone and is kept)."""
        key = (value, name)
        gain = self._own.get(key)
        if gain is None:
            gain = self._own[key] = self.own_gain(legal, value, name)
        return gain

    def gains_at(self, legal: list[Cell], value: int, name: str) -> dict[Cell, list[tuple[str, int]]]:
        """The non-empty :meth:`gains` of a new card (value, name) by cell of ``legal`` (the
        legal cells of this table's own arboretum, whose order the dict keeps). Kept, and
        shared with later calls: the caller must not change it."""
        key = (value, name)
        out = self._hot.get(key)
        if out is None:
            near = self.near()
            out = self._hot[key] = {}
            for cell in legal:
                if cell in near:
                    gains = self.gains(cell, value, name)
                    if gains:
                        out[cell] = gains
        return out

    def around(self, cell: Cell) -> tuple[int, dict[str, int]]:
        """The empty neighbours of ``cell`` and the species of the planted ones (counts); kept."""
        out = self._around.get(cell)
        if out is None:
            x, y = cell
            free = 0
            species: dict[str, int] = {}
            get = self.cells.get
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                other = get(n)
                if other is None:
                    free += 1
                else:
                    species[other[1]] = species.get(other[1], 0) + 1
            out = self._around[cell] = (free, species)
        return out
