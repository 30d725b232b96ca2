"""A player's arboretum: cards on a grid of cells, and the placement rule (RULES.md §2).

For simulations and search, :meth:`Arboretum.place_trusted` plants a card at a cell already
known to be legal (one of :meth:`Arboretum.legal_cells`) without checking it, and
:meth:`Arboretum.legal_cells_view` gives the sorted legal cells without copying them."""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator, Mapping

from .cards import Card
from .errors import ArboretumShapeError, DuplicateCardError, PlacementError

Cell = tuple[int, int]

NEIGHBOUR_STEPS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def neighbours(cell: Cell) -> Iterator[Cell]:
    x, y = cell
    for dx, dy in NEIGHBOUR_STEPS:
        yield (x + dx, y + dy)


class Arboretum:
    """Cards by cell; ``x`` grows to the right and ``y`` downwards.

    Placement keeps the arboretum one orthogonally connected group: the first card goes anywhere,
    every later one into an empty cell next to a card already planted. The set of legal cells,
    and once asked for its sorted list, are kept up to date as cards are planted, so asking for
    them costs little during a game."""

    __slots__ = ("_cells", "_frontier", "_sorted")

    def __init__(self) -> None:
        self._cells: dict[Cell, Card] = {}
        self._frontier: set[Cell] | None = set()
        #: the frontier sorted (the legal cells' order), kept once it has been asked for: a
        #: game asks for it every turn and a card changes it by a cell or four
        self._sorted: list[Cell] | None = None

    @classmethod
    def from_cells(cls, cells: Mapping[Cell, Card] | Iterable[tuple[Cell, Card]], owner: str = "arboretum") -> Arboretum:
        """Build a finished arboretum, refusing overlaps, repeated cards and broken shapes."""
        items = list(cells.items()) if isinstance(cells, Mapping) else list(cells)
        by_cell = dict(items)
        # checked at once; card by card only to name the fault
        if len(by_cell) != len(items) or len({(card.species, card.value) for _, card in items}) != len(items):
            _refuse_repeats(items, owner)
        if by_cell and not _connected(by_cell):
            raise ArboretumShapeError(f"{owner}: the cards are not one orthogonally connected group")
        arboretum = cls()
        arboretum._cells = by_cell
        arboretum._frontier = None  # worked out when a card is next placed: scoring never needs it
        return arboretum

    def copy(self) -> Arboretum:
        clone = Arboretum()
        clone._cells = dict(self._cells)
        clone._frontier = None if self._frontier is None else set(self._frontier)
        clone._sorted = None if self._sorted is None else list(self._sorted)
        return clone

    def _empty_neighbours(self) -> set[Cell]:
        """The cells next to a card and empty (where the next card may go)."""
        if self._frontier is None:
            cells = self._cells
            self._frontier = {n for c in cells for n in neighbours(c) if n not in cells}
        return self._frontier

    # -- reading -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cells

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells)

    def __getitem__(self, cell: Cell) -> Card:
        return self._cells[cell]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Arboretum) and self._cells == other._cells

    def __repr__(self) -> str:
        inside = ", ".join(f"({x}, {y}): {card}" for (x, y), card in sorted(self._cells.items()))
        return f"Arboretum({{{inside}}})"

    def get(self, cell: Cell) -> Card | None:
        return self._cells.get(cell)

    def items(self) -> Iterable[tuple[Cell, Card]]:
        return self._cells.items()

    def cards(self) -> Iterable[Card]:
        return self._cells.values()

    def legal_cells(self) -> list[Cell]:
        """Cells where the next card may go, sorted; any cell (offered as (0, 0)) when empty."""
        return list(self.legal_cells_view())

    def legal_cells_view(self) -> list[Cell]:
        """:meth:`legal_cells` itself, not a copy: the caller must not change it, and it changes
        when a card is next placed (the simulations' hot path)."""
        ordered = self._sorted
        if ordered is None:
            if not self._cells:
                return [(0, 0)]
            ordered = self._sorted = sorted(self._empty_neighbours())
        return ordered

    def is_legal_cell(self, cell: Cell) -> bool:
        return not self._cells or cell in self._empty_neighbours()

    def species_present(self) -> set[str]:
        return {card.species for card in self._cells.values()}

    def species_sum(self, species: str) -> int:
        return sum(card.value for card in self._cells.values() if card.species == species)

    # -- changing ------------------------------------------------------------------------
    def check_placement(self, card: Card, cell: Cell, owner: str = "arboretum") -> None:
        x, y = cell
        if cell in self._cells:
            raise PlacementError(f"{owner}: cell ({x}, {y}) already holds {self._cells[cell]}")
        if self._cells and cell not in self._empty_neighbours():
            raise PlacementError(f"{owner}: cell ({x}, {y}) is not next to a card already planted")

    def place(self, card: Card, cell: Cell, owner: str = "arboretum") -> None:
        self.check_placement(card, cell, owner)
        self.place_trusted(card, cell)

    def place_trusted(self, card: Card, cell: Cell) -> None:
        """:meth:`place` for a cell known to be legal (one of :meth:`legal_cells`), unchecked."""
        cells = self._cells
        cells[cell] = card
        frontier = self._frontier
        if frontier is None:
            frontier = self._empty_neighbours()  # already without the new cell
            self._sorted = None
            return
        ordered = self._sorted
        frontier.discard(cell)
        if ordered is not None:
            at = bisect_left(ordered, cell)
            if at < len(ordered) and ordered[at] == cell:
                del ordered[at]
        x, y = cell
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n not in cells and n not in frontier:
                frontier.add(n)
                if ordered is not None:
                    insort(ordered, n)

    # -- JSON ----------------------------------------------------------------------------
    def to_json(self) -> list[dict[str, object]]:
        return [
            {"x": x, "y": y, "species": card.species, "value": card.value}
            for (x, y), card in sorted(self._cells.items(), key=lambda item: (item[0][1], item[0][0]))
        ]


def _refuse_repeats(items: list[tuple[Cell, Card]], owner: str) -> None:
    """Raise for the first cell holding two cards or card appearing twice."""
    seen_cells: dict[Cell, Card] = {}
    seen_cards: dict[Card, Cell] = {}
    for cell, card in items:
        if cell in seen_cells:
            raise PlacementError(f"{owner}: two cards in cell ({cell[0]}, {cell[1]}): {seen_cells[cell]} and {card}")
        if card in seen_cards:
            other = seen_cards[card]
            raise DuplicateCardError(
                f"{owner}: {card} appears twice, at ({other[0]}, {other[1]}) and ({cell[0]}, {cell[1]})"
            )
        seen_cells[cell] = card
        seen_cards[card] = cell


def _connected(cells: Mapping[Cell, Card]) -> bool:
    # grown a ring at a time, the set operations doing the looking up
    start = next(iter(cells))
    remaining = set(cells)
    remaining.discard(start)
    ring = {start}
    while ring and remaining:
        around: set[Cell] = set()
        for x, y in ring:
            around.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
        ring = around & remaining
        remaining -= ring
    return not remaining
