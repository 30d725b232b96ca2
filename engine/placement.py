"""A card just planted, described as data: the cards it lies next to and the best paths that run
through it. Screens say it in their reader's words ("next to Oak 4, raising Q's Oak path to 3
cards") instead of grid coordinates, which no screen shows."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .arboretum import Arboretum, Cell, neighbours
from .cards import Card
from .paths import EIGHT_BONUS_STANDARD, PathFinder


@dataclass(frozen=True)
class PathThrough:
    """A species' best path that runs through the card: its length and points."""

    species: str
    cards: int
    points: int


@dataclass(frozen=True)
class PlacedCard:
    """Where a card lies in its arboretum, as the cards around it and the paths through it."""

    card: Card
    cell: Cell
    #: the orthogonally adjacent cards, in reading order (the row above, then left, right, below)
    neighbours: tuple[Card, ...]
    #: the species whose best path includes the card, in the order asked (or by name)
    paths: tuple[PathThrough, ...]


def describe_placement(arboretum: Arboretum, cell: Cell, species: Iterable[str] | None = None,
                       eight_bonus: int = EIGHT_BONUS_STANDARD) -> PlacedCard:
    """The card at ``cell`` of ``arboretum`` (already planted) described by what lies around it.

    ``species``: the species whose best paths to look at (every species in the arboretum when
    None); a species is listed only when its best path runs through ``cell``."""
    card = arboretum[cell]
    around = sorted((n for n in neighbours(cell) if n in arboretum), key=lambda c: (c[1], c[0]))
    finder = PathFinder(arboretum)
    asked = sorted(arboretum.species_present()) if species is None else list(species)
    paths = []
    for name in asked:
        path = finder.best_path(name, eight_bonus)
        if path is not None and cell in path.cells:
            paths.append(PathThrough(name, len(path), path.points))
    return PlacedCard(card, cell, tuple(arboretum[n] for n in around), tuple(paths))
