"""RULES.md §2 paths, and the fast search checked against brute force."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arboretum import Arboretum
from engine.cards import Card
from engine.naive import naive_best, naive_best_points
from engine.paths import EIGHT_BONUS_DRAFT, EIGHT_BONUS_STANDARD, best_path, is_path
from tests.fixtures.examples import examples

from .helpers import grid


def test_two_cards_of_the_species_make_the_shortest_path() -> None:
    path = best_path(grid("Oak 2 | Oak 5"), "Oak")
    assert path is not None and path.cells == ((0, 0), (1, 0)) and path.points == 2


def test_single_card_is_no_path() -> None:
    assert best_path(grid("Oak 2 | Willow 5"), "Oak") is None
    assert best_path(grid("Oak 2 | Willow 5"), "Willow") is None


def test_values_must_rise_strictly_and_may_skip() -> None:
    assert best_path(grid("Oak 5 | Oak 3"), "Oak").cells == ((1, 0), (0, 0))  # read right to left
    path = best_path(grid("Oak 2 | Willow 3 | Maple 6 | Oak 7"), "Oak")
    assert path.cells == ((0, 0), (1, 0), (2, 0), (3, 0)) and path.points == 4  # mixed: no doubling


def test_same_species_bonus_needs_four_cards_all_of_the_species() -> None:
    three = best_path(grid("Oak 2 | Oak 3 | Oak 4"), "Oak")
    assert three.points == 3 and three.same_species_bonus == 0
    four = best_path(grid("Oak 2 | Oak 3 | Oak 4 | Oak 6"), "Oak")
    assert four.points == 8 and four.same_species_bonus == 4


def test_one_and_eight_bonuses() -> None:
    path = best_path(grid("Oak 1 | Willow 4 | Oak 8"), "Oak")
    assert path.points == 3 + 1 + 2
    assert [label for label, _ in path.explain()] == ["3 cards", "starts with a 1", "ends with an 8"]
    full = best_path(grid("Oak 1 | Oak 2 | Oak 3 | Oak 4 | Oak 5 | Oak 6 | Oak 7 | Oak 8"), "Oak")
    assert full.points == 8 + 8 + 1 + 2 == 19  # the most a species can score


def test_draft_penalty_for_ending_on_an_eight() -> None:
    arb = grid("Oak 1 | Willow 4 | Oak 8")
    assert best_path(arb, "Oak", EIGHT_BONUS_DRAFT).points == 3 + 1 - 2
    # in the draft a shorter path avoiding the 8 can be better
    arb = grid("Oak 3 | Oak 7 | Oak 8")
    assert best_path(arb, "Oak", EIGHT_BONUS_STANDARD).points == 5
    assert best_path(arb, "Oak", EIGHT_BONUS_DRAFT).points == 2


def test_best_path_is_highest_scoring_not_longest() -> None:
    # Oak 1-2-3-4 all oak (4+4+1 = 9) beats the mixed Oak 1 .. Oak 8 walk of 6 cards? 6+1+2 = 9: tie.
    arb = grid(
        "Oak 1 | Oak 2 | Oak 3 | Oak 4",
        ". | . | Willow 5 | Willow 6",
        ". | . | . | Oak 8",
    )
    path = best_path(arb, "Oak")
    assert path.points == 9 and is_path(arb, "Oak", path.cells)


def test_a_card_may_serve_several_species() -> None:
    arb = grid("Oak 1 | Willow 2 | Oak 3 | Willow 4")
    assert best_path(arb, "Oak").cells == ((0, 0), (1, 0), (2, 0))
    assert best_path(arb, "Willow").cells == ((1, 0), (2, 0), (3, 0))


def random_arboretum(seed: int, species: list[str], size: int) -> Arboretum:
    rng = random.Random(seed)
    deck = [Card(s, v) for s in species for v in range(1, 9)]
    rng.shuffle(deck)
    arb = Arboretum()
    for card in deck[:size]:
        arb.place(card, rng.choice(arb.legal_cells()))
    return arb


@settings(max_examples=examples(300), deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(1, 24), n_species=st.integers(1, 4))
def test_search_matches_naive_enumerator(seed: int, size: int, n_species: int) -> None:
    species = ["Oak", "Willow", "Maple", "Cassia"][:n_species]
    arb = random_arboretum(seed, species, min(size, 8 * n_species))
    for name in species:
        for bonus in (EIGHT_BONUS_STANDARD, EIGHT_BONUS_DRAFT):
            path = best_path(arb, name, bonus)
            expected = naive_best_points(arb, name, bonus)
            assert (path.points if path else None) == expected
            if path:
                assert is_path(arb, name, path.cells)
                assert path.cards == tuple(arb[c] for c in path.cells)


def test_equal_points_go_to_the_longer_path() -> None:
    # Into Oak 7 come Willow 3-Maple 5 from Oak 2 (3 cards so far, 3 points) and Oak 1-Willow 6
    # (2 cards and the 1 bonus, also 3): the drawn path must be the longer Oak 2 .. Oak 7.
    arb = grid(
        "Oak 2 | Willow 3 | .",
        ". | Maple 5 | Oak 7 | Willow 6 | Oak 1",
    )
    path = best_path(arb, "Oak")
    assert path is not None and path.points == 4 and len(path) == 4
    assert path.cells == ((0, 0), (1, 0), (1, 1), (2, 1))


@settings(max_examples=examples(400), deadline=None)
@given(seed=st.integers(0, 2**32), size=st.integers(2, 24), n_species=st.integers(1, 4))
def test_reported_path_is_the_longest_of_the_best_scoring(seed: int, size: int, n_species: int) -> None:
    species = ["Oak", "Willow", "Maple", "Cassia"][:n_species]
    arb = random_arboretum(seed, species, min(size, 8 * n_species))
    for name in species:
        for bonus in (EIGHT_BONUS_STANDARD, EIGHT_BONUS_DRAFT):
            path = best_path(arb, name, bonus)
            assert ((path.points, len(path)) if path else None) == naive_best(arb, name, bonus)
