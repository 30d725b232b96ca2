"""Properties of scoring on random finished tables of every rule set."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arboretum import Arboretum
from engine.cards import Card, Edition, edition_species
from engine.paths import is_path
from engine.scoring import Seat, score_table
from tests.fixtures.examples import examples


def random_table(seed: int, rules: str, players: int) -> tuple[list[Seat], tuple[str, ...]]:
    rng = random.Random(seed)
    edition = Edition.E2010 if rules == "standard-2010" else Edition.E2018
    species = tuple(rng.sample(edition_species(edition), 6 if rules == "solo" else 10 if players == 4 else 8))
    deck = [Card(s, v) for s in species for v in range(1, 9)]
    rng.shuffle(deck)
    seats = []
    for i in range(players):
        hand_size = 0 if rules == "draft" else 7 if rules.startswith("standard") or i == 0 else rng.randint(0, 10)
        hand, deck = deck[:hand_size], deck[hand_size:]
        size = rng.randint(0, 14)
        planted, deck = deck[:size], deck[size:]
        arb = Arboretum()
        for card in planted:
            arb.place(card, rng.choice(arb.legal_cells()))
        seats.append(Seat(f"P{i}", arb, tuple(hand)))
    return seats, species


@settings(max_examples=examples(150), deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(["standard-2018", "standard-2010", "draft", "solo"]),
       players=st.integers(2, 4))
def test_scores_add_up_and_explain_themselves(seed: int, rules: str, players: int) -> None:
    if rules == "solo":
        players = 2
    seats, species = random_table(seed, rules, players)
    result = score_table(rules, seats, species)
    for seat, player in zip(seats, result.players, strict=True):
        assert player.total == sum(s.points for s in player.species.values()) + player.bonus
        for name, s in player.species.items():
            assert 0 <= s.points <= 19
            if s.path is not None:
                assert is_path(seat.arboretum, name, s.path.cells)
                if not s.flat:
                    assert s.points == max(0, s.path.points) == max(0, sum(v for _, v in s.path.explain()))
            if rules != "draft" and not s.right:
                assert s.points == 0
    for name in species:
        rights = [p.species[name].right for p in result.players]
        if rules != "solo":
            assert any(rights)  # somebody always holds the highest sum
    assert result.winners and all(0 <= w < players for w in result.winners)
    if rules != "solo":
        best = max(p.total for p in result.players)
        assert all(result.players[w].total == best for w in result.winners)
