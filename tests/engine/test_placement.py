"""A planted card described by what lies around it: its neighbours in reading order and the best
paths that run through it (their length in cards and points), never its coordinates."""

from __future__ import annotations

from engine import Arboretum, Card
from engine.placement import PathThrough, describe_placement


def _arboretum(*cells: tuple[int, int, str]) -> Arboretum:
    return Arboretum.from_cells({(x, y): Card.parse(text) for x, y, text in cells})


def test_neighbours_in_reading_order_and_the_path_through_the_card() -> None:
    # Oak 2 - Oak 4 - Oak 6 in a row, Maple 1 above Oak 4 and Maple 5 below it
    arboretum = _arboretum((0, 0, "Oak 2"), (1, 0, "Oak 4"), (2, 0, "Oak 6"), (1, -1, "Maple 1"), (1, 1, "Maple 5"))
    placed = describe_placement(arboretum, (1, 0))
    assert placed.card == Card.parse("Oak 4")
    assert [str(card) for card in placed.neighbours] == ["Maple 1", "Oak 2", "Oak 6", "Maple 5"]
    # Oak's best path: 2-4-6, 3 cards (3 points); Maple's: 1-4-5, 3 cards starting on a 1 (3 + 1)
    assert placed.paths == (PathThrough("Maple", 3, 4), PathThrough("Oak", 3, 3))


def test_only_the_species_asked_for_and_only_paths_through_the_card() -> None:
    arboretum = _arboretum((0, 0, "Oak 2"), (1, 0, "Oak 4"), (0, 1, "Maple 3"), (1, 1, "Maple 7"))
    # Maple's best path (3-7) does not pass Oak 4's cell; Oak's (2-4) does
    assert describe_placement(arboretum, (1, 0)).paths == (PathThrough("Oak", 2, 2),)
    assert describe_placement(arboretum, (1, 0), species=["Maple"]).paths == ()
    assert describe_placement(arboretum, (1, 1), species=["Maple"]).paths == (PathThrough("Maple", 2, 2),)


def test_a_lone_first_card_has_no_neighbour_and_no_path() -> None:
    placed = describe_placement(_arboretum((0, 0, "Willow 5")), (0, 0))
    assert placed.neighbours == () and placed.paths == ()
