"""Scoring paths (RULES.md §2, with the draft's 8 penalty of §3).

A path is a walk of orthogonally adjacent cards with strictly rising values whose first and last
cards are of the species scored. Because values rise strictly, the "next card" relation is a
directed acyclic graph, and the best path of a species is a longest-path problem on it, solved in
one pass over the cells in rising value order instead of enumerating every walk."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from operator import attrgetter

from .arboretum import Arboretum, Cell
from .cards import Card

_SPECIES = attrgetter("species")


def _VALUE_OF_ITEM(item: tuple[Cell, Card]) -> int:
    return item[1].value


#: a walk's (score, length) as one int, score * _LEN + length (see PathFinder.best_path)
_LEN = 64
#: one card more: a point more and a card longer
_STEP = _LEN + 1
#: a walk of one card, begun on a 1 or not: (2, 1) and (1, 1)
_FRESH_ONE, _FRESH = 2 * _LEN + 1, _LEN + 1

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
    for a, b in zip(cells, cells[1:], strict=False):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 or arboretum[a].value >= arboretum[b].value:
            return False
    return True


class PathFinder:
    """Best paths of every species in one arboretum.

    Build one per arboretum and ask it for every species: the cell order and adjacency are worked
    out once, on the first species that has two cards or more (a species with fewer has no path,
    and a table often asks for nothing else), and shared by every species searched after it. The
    search runs on plain lists indexed by position in rising value order."""

    __slots__ = ("_arboretum", "counts", "_cells", "_cards", "_species", "_values", "_index", "_preds", "_spans")
    _cells: list[Cell]
    _cards: list[Card]
    _species: list[str]
    _values: list[int]
    _index: dict[Cell, int]
    #: positions of the cards a path may come from into each card, worked out when first needed
    _preds: list[list[int] | None]

    def __init__(self, arboretum: Arboretum) -> None:
        self._arboretum = arboretum
        #: cards of each species: one with fewer than two has no path, searched or not
        self.counts = Counter(map(_SPECIES, arboretum.cards()))
        self._spans: dict[str, tuple[int, int]] | None = None

    @property
    def species_count(self) -> int:
        """How many species the arboretum holds."""
        return len(self.counts)

    def _build(self) -> dict[str, tuple[int, int]]:
        # values rise strictly along a path, so only the order of values matters (a species has
        # one card of each value, and predecessors are tried in neighbour order): sort by value
        items = sorted(self._arboretum.items(), key=_VALUE_OF_ITEM)
        self._cells = cells = [cell for cell, _ in items]
        self._cards = cards = [card for _, card in items]
        self._species = names = [card.species for card in cards]
        self._values = [card.value for card in cards]
        self._index = {cell: i for i, cell in enumerate(cells)}
        self._preds = [None] * len(cells)
        # (first, last) positions of each species: a path of it lies between them
        spans: dict[str, tuple[int, int]] = {}
        for i, name in enumerate(names):
            spans[name] = (spans[name][0], i) if name in spans else (i, i)
        self._spans = spans
        return spans

    def best_path(self, species: str, eight_bonus: int = EIGHT_BONUS_STANDARD) -> Path | None:
        """The highest-scoring path of ``species``, or None when there is none.

        Among equally scoring paths the longer one wins, then the one found first in rising
        value order (so the answer is the same every time)."""
        count = self.counts.get(species, 0)
        if count < 2:
            return None
        spans = self._spans if self._spans is not None else self._build()
        first, last = spans[species]
        n = len(self._cells)
        names, values, all_preds = self._species, self._values, self._preds
        # A walk from a card of `species` ending at i is worth (score, length), compared as a pair
        # so that equal scores go to the longer walk (docs/rules.md), kept as one int
        # score * _LEN + length, which orders as the pair does (a walk climbs in value: at most 8
        # cards). mixed[i]: the best such walk, score = cards + 1-bonus (-1: none); pure[i]: the
        # best walk of `species` cards only, 2 * cards + 1-bonus (-1: none; its length is
        # (pure + 1) // 2 - a pure walk's score fixes its length). A pure path scores double from
        # 4 cards on, so with fewer cards of the species pure walks are not followed.
        pure_too = count >= 4
        mixed = [-1] * n
        mixed_from = [-1] * n
        pure = [-1] * n
        pure_from = [-1] * n
        best = -1
        best_end = best_prev = -1
        best_is_pure = False
        bonus = eight_bonus * _LEN
        cells, get = self._cells, self._index.get
        for i in range(first, last + 1):
            preds = all_preds[i]
            if preds is None:
                # the cards a walk may come from into i, in neighbour order (which decides ties)
                (x, y), value = cells[i], values[i]
                preds = all_preds[i] = [
                    j for j in (get((x + 1, y)), get((x - 1, y)), get((x, y + 1)), get((x, y - 1)))
                    if j is not None and values[j] < value
                ]
            top, top_at = -1, -1
            for p in preds:
                if mixed[p] > top:
                    top, top_at = mixed[p], p
            if names[i] != species:
                if top >= 0:
                    mixed[i], mixed_from[i] = top + _STEP, top_at
                continue
            value = values[i]
            end_bonus = bonus if value == 8 else 0
            if top >= 0 and top + _STEP + end_bonus > best:
                best, best_end, best_prev, best_is_pure = top + _STEP + end_bonus, i, top_at, False
            # a walk may also start here (a card of value 1 has no card below it to come from)
            fresh = _FRESH_ONE if value == 1 else _FRESH
            if top + _STEP > fresh:
                mixed[i], mixed_from[i] = top + _STEP, top_at
            else:
                mixed[i] = fresh
            if pure_too:
                top_pure = -1
                top_pure_at = -1
                for p in preds:
                    if pure[p] > top_pure:
                        top_pure, top_pure_at = pure[p], p
                if top_pure >= 6:  # at least 3 cards before this one: a pure path of 4 or more
                    score = (top_pure + 2) * _LEN + end_bonus + (top_pure + 2) // 2
                    if score > best:
                        best, best_end, best_prev, best_is_pure = score, i, top_pure_at, True
                if top_pure >= 0:
                    pure[i], pure_from[i] = top_pure + 2, top_pure_at
                else:
                    pure[i] = 3 if value == 1 else 2

        if best_end < 0:
            return None
        back = pure_from if best_is_pure else mixed_from
        walk = [best_end]
        step = best_prev
        while step >= 0:
            walk.append(step)
            step = back[step]
        walk.reverse()
        return make_path(
            species, tuple(self._cells[i] for i in walk), tuple(self._cards[i] for i in walk), eight_bonus
        )


def best_path(arboretum: Arboretum, species: str, eight_bonus: int = EIGHT_BONUS_STANDARD) -> Path | None:
    """The highest-scoring path of ``species`` in ``arboretum`` (see :class:`PathFinder`)."""
    return PathFinder(arboretum).best_path(species, eight_bonus)
