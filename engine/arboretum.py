"""A player's arboretum: cards on a grid of cells, and the placement rule (RULES.md §2)."""

from __future__ import annotations

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
    every later one into an empty cell next to a card already planted. The set of legal cells is
    kept up to date as cards are planted, so asking for it costs nothing during a game."""

    __slots__ = ("_cells", "_frontier")

    def __init__(self) -> None:
        self._cells: dict[Cell, Card] = {}
        self._frontier: set[Cell] | None = set()

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
        if not self._cells:
            return [(0, 0)]
        return sorted(self._empty_neighbours())

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
        self._cells[cell] = card
        frontier = self._empty_neighbours()
        frontier.discard(cell)
        for n in neighbours(cell):
            if n not in self._cells:
                frontier.add(n)

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
