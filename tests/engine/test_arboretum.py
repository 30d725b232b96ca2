import pytest

from engine.arboretum import Arboretum
from engine.cards import Card
from engine.errors import ArboretumShapeError, DuplicateCardError, PlacementError


def test_first_card_anywhere_then_adjacent_only() -> None:
    arb = Arboretum()
    arb.place(Card("Oak", 3), (5, -2))
    assert arb.legal_cells() == sorted([(4, -2), (6, -2), (5, -3), (5, -1)])
    with pytest.raises(PlacementError, match=r"\(7, -2\) is not next to"):
        arb.place(Card("Oak", 4), (7, -2))
    with pytest.raises(PlacementError, match="already holds Oak 3"):
        arb.place(Card("Oak", 4), (5, -2))
    with pytest.raises(PlacementError, match="diagonal|not next"):
        arb.place(Card("Oak", 4), (6, -1))
    assert len(arb) == 1  # refused placements changed nothing


def test_from_cells_refuses_overlap_duplicates_and_gaps() -> None:
    with pytest.raises(ArboretumShapeError, match="connected"):
        Arboretum.from_cells({(0, 0): Card("Oak", 1), (2, 0): Card("Oak", 2)})
    with pytest.raises(ArboretumShapeError):
        Arboretum.from_cells({(0, 0): Card("Oak", 1), (1, 1): Card("Oak", 2)})  # diagonal only
    with pytest.raises(PlacementError, match=r"two cards in cell \(0, 0\)"):
        Arboretum.from_cells([((0, 0), Card("Oak", 1)), ((0, 0), Card("Oak", 2))])
    with pytest.raises(DuplicateCardError, match="Oak 1 appears twice"):
        Arboretum.from_cells([((0, 0), Card("Oak", 1)), ((1, 0), Card("Oak", 1))])
