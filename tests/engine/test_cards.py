import random

import pytest

from engine.cards import Card, Edition, choose_species, edition_species, make_deck, species_colour, species_count
from engine.errors import CardError


def test_card_text_round_trips() -> None:
    for card in make_deck(edition_species(Edition.E2018)):
        assert Card.parse(str(card)) == card
    assert str(Card("Royal Poinciana", 8)) == "Royal Poinciana 8"


@pytest.mark.parametrize("text", ["Oak 0", "Oak 9", "Oak", "3", "Oak three", "", "Oak  3x"])
def test_bad_card_text_is_refused_by_name(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value) or "1..8" in str(info.value)


def test_editions_have_ten_species_in_scorepad_order() -> None:
    assert edition_species(Edition.E2018) == (
        "Blue Spruce", "Cassia", "Cherry Blossom", "Dogwood", "Jacaranda",
        "Maple", "Oak", "Royal Poinciana", "Tulip Poplar", "Willow",
    )
    assert edition_species(Edition.E2010) == (
        "Cassia", "Crabapple", "Dogwood", "Jacaranda", "Lilac",
        "Magnolia", "Myrtle", "Poinciana", "Poplar", "Willow",
    )
    assert species_colour("Crabapple")[0] == "white"
    assert species_colour("Oak")[0] == "brown"
    assert species_colour("Lilac")[0] == "blue"


@pytest.mark.parametrize(
    ("mode", "players", "count"),
    [("standard", 2, 6), ("standard", 3, 8), ("standard", 4, 10), ("draft", 2, 7), ("draft", 3, 10),
     ("draft", 4, 9), ("solo", 1, 6)],
)
def test_species_counts(mode: str, players: int, count: int) -> None:
    assert species_count(mode, players) == count
    assert len(make_deck(edition_species(Edition.E2018)[:count])) == 8 * count


def test_species_count_refuses_bad_player_count() -> None:
    with pytest.raises(CardError, match="5 players"):
        species_count("standard", 5)


def test_species_left_out_drawn_from_seed_or_named() -> None:
    a = choose_species(Edition.E2018, 6, random.Random(7))
    assert a == choose_species(Edition.E2018, 6, random.Random(7))
    assert len(a) == 6 and list(a) == sorted(a, key=edition_species(Edition.E2018).index)
    named = choose_species(Edition.E2018, 8, left_out=["Oak", "Maple"])
    assert "Oak" not in named and "Maple" not in named and len(named) == 8
    with pytest.raises(CardError, match="Lilac"):
        choose_species(Edition.E2018, 8, left_out=["Lilac", "Oak"])
    with pytest.raises(CardError, match="leave out"):
        choose_species(Edition.E2018, 8, left_out=["Oak"])


def test_species_codes_tell_every_edition_apart_without_colour() -> None:
    """A colour-blind player reads the code, not the colour: two letters, unique per edition."""
    from engine.cards import SPECIES_CODES, species_code

    for edition in Edition:
        codes = [species_code(name) for name in edition_species(edition)]
        assert len(set(codes)) == len(codes) == 10
        assert all(len(code) == 2 and code[0].isupper() for code in codes)
    assert set(SPECIES_CODES) == {name for edition in Edition for name in edition_species(edition)}
    with pytest.raises(CardError, match="Larch"):
        species_code("Larch")
