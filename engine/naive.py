"""A deliberately naive path search: enumerate every ascending walk and keep the best.

It exists to check :mod:`engine.paths` (tests) and to measure it (``bench/``); nothing in play
uses it."""

from __future__ import annotations

from .arboretum import Arboretum, Cell, neighbours
from .paths import EIGHT_BONUS_STANDARD, make_path


def all_ascending_walks(arboretum: Arboretum) -> list[tuple[Cell, ...]]:
    """Every walk of two or more cards with strictly rising values."""
    walks: list[tuple[Cell, ...]] = []

    def extend(walk: list[Cell]) -> None:
        if len(walk) >= 2:
            walks.append(tuple(walk))
        last = walk[-1]
        for n in neighbours(last):
            if n in arboretum and n not in walk and arboretum[n].value > arboretum[last].value:
                walk.append(n)
                extend(walk)
                walk.pop()

    for cell in arboretum:
        extend([cell])
    return walks


def naive_best(arboretum: Arboretum, species: str, eight_bonus: int = EIGHT_BONUS_STANDARD) -> tuple[int, int] | None:
    """(points, length) of the best path of ``species`` found by brute force: the highest points,
    and among the paths scoring them the greatest length (docs/rules.md); None when it has no path."""
    best: tuple[int, int] | None = None
    for walk in all_ascending_walks(arboretum):
        first, last = arboretum[walk[0]], arboretum[walk[-1]]
        if first.species != species or last.species != species:
            continue
        key = (make_path(species, walk, tuple(arboretum[c] for c in walk), eight_bonus).points, len(walk))
        if best is None or key > best:
            best = key
    return best


def naive_best_points(arboretum: Arboretum, species: str, eight_bonus: int = EIGHT_BONUS_STANDARD) -> int | None:
    """The best path's points for ``species`` found by brute force, or None when it has no path."""
    best = naive_best(arboretum, species, eight_bonus)
    return None if best is None else best[0]
