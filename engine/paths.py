"""Scoring paths (RULES.md §2, with the draft's 8 penalty of §3).

A path is a walk of orthogonally adjacent cards with strictly rising values whose first and last
cards are of the species scored. Because values rise strictly, the "next card" relation is a
directed acyclic graph, and the best path of a species is a longest-path problem on it, solved in
one pass over the cells in rising value order instead of enumerating every walk."""

from __future__ import annotations

from dataclasses import dataclass

from .arboretum import Arboretum, Cell, neighbours
from .cards import Card

#: The bonus for a path ending on an 8: +2 in the standard and solo games, -2 in the draft.
EIGHT_BONUS_STANDARD = 2
EIGHT_BONUS_DRAFT = -2


@dataclass(frozen=True, slots=True)
class Path:
    """One path with its points explained, first cell to last."""

    species: str
    cells: tuple[Cell, ...]
    cards: tuple[Card, ...]
    card_points: int
    same_species_bonus: int
    one_bonus: int
    eight_bonus: int

    @property
    def points(self) -> int:
        return self.card_points + self.same_species_bonus + self.one_bonus + self.eight_bonus

    def __len__(self) -> int:
        return len(self.cells)

    def explain(self) -> list[tuple[str, int]]:
        """The lines of the points breakdown, as a score sheet prints them."""
        lines = [(f"{len(self.cells)} cards", self.card_points)]
        if self.same_species_bonus:
            lines.append((f"{len(self.cells)}+ cards all {self.species}", self.same_species_bonus))
        if self.one_bonus:
            lines.append(("starts with a 1", self.one_bonus))
        if self.eight_bonus > 0:
            lines.append(("ends with an 8", self.eight_bonus))
        elif self.eight_bonus < 0:
            lines.append(("ends with an 8 (draft penalty)", self.eight_bonus))
        return lines


def make_path(species: str, cells: tuple[Cell, ...], cards: tuple[Card, ...], eight_bonus: int) -> Path:
    """Score a walk already known to be a path of ``species``."""
    length = len(cells)
    pure = length >= 4 and all(card.species == species for card in cards)
    return Path(
        species=species,
        cells=cells,
        cards=cards,
        card_points=length,
        same_species_bonus=length if pure else 0,
        one_bonus=1 if cards[0].value == 1 else 0,
        eight_bonus=eight_bonus if cards[-1].value == 8 else 0,
    )


def is_path(arboretum: Arboretum, species: str, cells: tuple[Cell, ...]) -> bool:
    """Whether ``cells`` is a path of ``species`` in ``arboretum`` (for checking, not searching)."""
    if len(cells) < 2 or len(set(cells)) != len(cells) or any(c not in arboretum for c in cells):
        return False
    if arboretum[cells[0]].species != species or arboretum[cells[-1]].species != species:
        return False
    for a, b in zip(cells, cells[1:]):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 or arboretum[a].value >= arboretum[b].value:
            return False
    return True


class PathFinder:
    """Best paths of every species in one arboretum.

    The cell order and adjacency are worked out once and shared by every species searched."""

    __slots__ = ("_arboretum", "_order", "_preds")

    def __init__(self, arboretum: Arboretum) -> None:
        self._arboretum = arboretum
        self._order: list[tuple[Cell, Card]] = sorted(arboretum.items(), key=lambda item: (item[1].value, item[0]))
        preds: dict[Cell, list[Cell]] = {}
        for cell, card in self._order:
            preds[cell] = [
                n for n in neighbours(cell) if (other := arboretum.get(n)) is not None and other.value < card.value
            ]
        self._preds = preds

    def best_path(self, species: str, eight_bonus: int = EIGHT_BONUS_STANDARD) -> Path | None:
        """The highest-scoring path of ``species``, or None when there is none.

        Among equally scoring paths the longer one wins, then the one found first in rising
        value order (so the answer is the same every time)."""
        arboretum = self._arboretum
        preds = self._preds
        # mixed[c]: best (cards + 1-bonus) over walks from a card of `species` ending at c.
        # pure[c]: best (2 * cards + 1-bonus) over walks using only `species`, ending at c.
        mixed: dict[Cell, int] = {}
        mixed_from: dict[Cell, Cell | None] = {}
        pure: dict[Cell, int] = {}
        pure_from: dict[Cell, Cell | None] = {}
        best_key: tuple[int, int] | None = None
        best_end: tuple[Cell, Cell, bool] | None = None  # (end, previous cell, pure?)

        for cell, card in self._order:
            own = card.species == species
            one = 1 if card.value == 1 else 0
            end_bonus = eight_bonus if card.value == 8 else 0
            best_pred: Cell | None = None
            best_pred_value = -1
            best_pure_pred: Cell | None = None
            best_pure_value = -1
            for p in preds[cell]:
                m = mixed.get(p, -1)
                if m > best_pred_value:
                    best_pred_value, best_pred = m, p
                if own:
                    q = pure.get(p, -1)
                    if q > best_pure_value:
                        best_pure_value, best_pure_pred = q, p
            if own:
                if best_pred is not None:
                    points = best_pred_value + 1 + end_bonus
                    key = (points, _walk_length(mixed_from, best_pred) + 1)
                    if best_key is None or key > best_key:
                        best_key, best_end = key, (cell, best_pred, False)
                if best_pure_pred is not None:
                    length = (best_pure_value + 2) // 2
                    if length >= 4:
                        key = (best_pure_value + 2 + end_bonus, length)
                        if best_key is None or key > best_key:
                            best_key, best_end = key, (cell, best_pure_pred, True)
                # as a start, or continuing the best walk that reaches here
                if best_pred_value + 1 > 1 + one:
                    mixed[cell], mixed_from[cell] = best_pred_value + 1, best_pred
                else:
                    mixed[cell], mixed_from[cell] = 1 + one, None
                if best_pure_value + 2 > 2 + one:
                    pure[cell], pure_from[cell] = best_pure_value + 2, best_pure_pred
                else:
                    pure[cell], pure_from[cell] = 2 + one, None
            elif best_pred is not None:
                mixed[cell], mixed_from[cell] = best_pred_value + 1, best_pred

        if best_end is None:
            return None
        end, previous, is_pure = best_end
        back = pure_from if is_pure else mixed_from
        walk = [end]
        step: Cell | None = previous
        while step is not None:
            walk.append(step)
            step = back[step]
        walk.reverse()
        cells = tuple(walk)
        return make_path(species, cells, tuple(arboretum[c] for c in cells), eight_bonus)

    def has_path(self, species: str) -> bool:
        return self.best_path(species) is not None


def _walk_length(back: dict[Cell, Cell | None], last: Cell) -> int:
    """Cards in the best walk ending at ``last`` (only to prefer longer paths on equal points)."""
    length = 1
    step = back[last]
    while step is not None:
        length += 1
        step = back[step]
    return length


def best_path(arboretum: Arboretum, species: str, eight_bonus: int = EIGHT_BONUS_STANDARD) -> Path | None:
    """The highest-scoring path of ``species`` in ``arboretum`` (see :class:`PathFinder`)."""
    return PathFinder(arboretum).best_path(species, eight_bonus)
