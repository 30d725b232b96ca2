"""A player's arboretum: cards on a grid of cells, and the placement rule (RULES.md §2)."""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping

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
        self._frontier: set[Cell] = set()

    @classmethod
    def from_cells(cls, cells: Mapping[Cell, Card] | Iterable[tuple[Cell, Card]], owner: str = "arboretum") -> "Arboretum":
        """Build a finished arboretum, refusing overlaps, repeated cards and broken shapes."""
        items = list(cells.items()) if isinstance(cells, Mapping) else list(cells)
        seen_cells: dict[Cell, Card] = {}
        seen_cards: dict[Card, Cell] = {}
        for cell, card in items:
            if cell in seen_cells:
                raise PlacementError(
                    f"{owner}: two cards in cell ({cell[0]}, {cell[1]}): {seen_cells[cell]} and {card}"
                )
            if card in seen_cards:
                other = seen_cards[card]
                raise DuplicateCardError(
                    f"{owner}: {card} appears twice, at ({other[0]}, {other[1]}) and ({cell[0]}, {cell[1]})"
                )
            seen_cells[cell] = card
            seen_cards[card] = cell
        if seen_cells and not _connected(seen_cells):
            raise ArboretumShapeError(f"{owner}: the cards are not one orthogonally connected group")
        arboretum = cls()
        arboretum._cells = seen_cells
        arboretum._frontier = {n for c in seen_cells for n in neighbours(c) if n not in seen_cells}
        return arboretum

    def copy(self) -> "Arboretum":
        clone = Arboretum()
        clone._cells = dict(self._cells)
        clone._frontier = set(self._frontier)
        return clone

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
        return sorted(self._frontier)

    def is_legal_cell(self, cell: Cell) -> bool:
        return not self._cells or cell in self._frontier

    def species_present(self) -> set[str]:
        return {card.species for card in self._cells.values()}

    def species_sum(self, species: str) -> int:
        return sum(card.value for card in self._cells.values() if card.species == species)

    # -- changing ------------------------------------------------------------------------
    def check_placement(self, card: Card, cell: Cell, owner: str = "arboretum") -> None:
        x, y = cell
        if cell in self._cells:
            raise PlacementError(f"{owner}: cell ({x}, {y}) already holds {self._cells[cell]}")
        if self._cells and cell not in self._frontier:
            raise PlacementError(f"{owner}: cell ({x}, {y}) is not next to a card already planted")

    def place(self, card: Card, cell: Cell, owner: str = "arboretum") -> None:
        self.check_placement(card, cell, owner)
        self._cells[cell] = card
        self._frontier.discard(cell)
        for n in neighbours(cell):
            if n not in self._cells:
                self._frontier.add(n)

    # -- JSON ----------------------------------------------------------------------------
    def to_json(self) -> list[dict[str, object]]:
        return [
            {"x": x, "y": y, "species": card.species, "value": card.value}
            for (x, y), card in sorted(self._cells.items(), key=lambda item: (item[0][1], item[0][0]))
        ]


def _connected(cells: Mapping[Cell, Card]) -> bool:
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        for n in neighbours(stack.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)
