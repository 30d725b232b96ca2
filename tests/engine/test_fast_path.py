"""The fast path of simulations and search (``State.apply_trusted``, ``State.playout``,
``State.clone``, ``Arboretum.place_trusted``) leaves exactly what the validating path leaves:
the same states, logs, legal actions in the same order, random numbers used and scores."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arboretum import Arboretum
from engine.cards import Card, Edition, choose_species, make_deck, species_count
from engine.errors import PlacementError
from engine.game import SIMULTANEOUS, State
from engine.games import Game, replay
from tests.fixtures.examples import examples

GAMES = [
    ("standard", 2, "2018"), ("standard", 3, "2018"), ("standard", 4, "2018"),
    ("standard", 2, "2010"), ("standard", 3, "2010"), ("standard", 4, "2010"),
    ("draft", 2, "2018"), ("draft", 3, "2018"), ("draft", 4, "2018"),
    ("solo", 1, "2018"),
]

games = st.tuples(st.sampled_from(GAMES), st.integers(0, 2**32))


def snapshot(state: State) -> dict[str, Any]:
    """Everything a state holds, its arboretums as their cells and sorted legal cells (solo's
    memo of the rule's answers is a cache, not state)."""
    out = {key: value for key, value in vars(state).items() if key not in ("arboretums", "_outcome", "_rule_memo")}
    out["arboretums"] = [(dict(arb.items()), arb.legal_cells()) for arb in state.arboretums]
    return out


def new_state(mode: str, players: int, edition: str, seed: int) -> State:
    return Game(mode, players, seed=seed, edition=edition).new_initial_state()


def validated_random_play(state: State, rng: random.Random, actions: int | None = None) -> None:
    """``rng.choice(legal_actions(seat))`` through ``apply_action``, every awaited seat in turn,
    to the end (or for ``actions`` actions)."""
    done = 0
    while not state.terminal and (actions is None or done < actions):
        for seat in state.awaited_seats():
            if actions is not None and done >= actions:
                break
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
            done += 1


@settings(max_examples=examples(40), deadline=None)
@given(games, st.floats(0, 1))
def test_playout_is_random_play_through_the_validating_path(params: tuple[tuple[str, int, str], int], start: float) -> None:
    (mode, players, edition), seed = params
    rng = random.Random(seed)
    fast = new_state(mode, players, edition, seed)
    # some moves first, so the playout may begin in the middle of a turn or a draft's pick
    validated_random_play(fast, rng, int(start * 60))
    slow = replay(fast.to_json())
    slow_rng = random.Random()
    slow_rng.setstate(rng.getstate())
    fast.playout(rng)
    validated_random_play(slow, slow_rng)
    assert fast.terminal and slow.terminal
    assert snapshot(fast) == snapshot(slow)
    assert rng.getstate() == slow_rng.getstate()
    assert fast.to_json() == slow.to_json()
    assert fast.outcome() == slow.outcome()
    assert fast.view(None) == slow.view(None)


@settings(max_examples=examples(25), deadline=None)
@given(games)
def test_apply_trusted_agrees_with_apply_action_step_by_step(params: tuple[tuple[str, int, str], int]) -> None:
    (mode, players, edition), seed = params
    checked = new_state(mode, players, edition, seed)
    trusted = new_state(mode, players, edition, seed)
    rng = random.Random(seed)
    while not checked.terminal:
        player = checked.current_player()
        seat = rng.randrange(checked.seats) if player == SIMULTANEOUS else player
        legal = checked.legal_actions(seat)
        assert trusted.legal_actions(seat) == legal
        action = rng.choice(legal)
        checked.apply_action(action, seat)
        trusted.apply_trusted(action, seat)
        assert snapshot(trusted) == snapshot(checked)
    assert trusted.terminal
    assert trusted.outcome() == checked.outcome()


@settings(max_examples=examples(20), deadline=None)
@given(games, st.floats(0, 1))
def test_a_clone_plays_on_alone(params: tuple[tuple[str, int, str], int], start: float) -> None:
    (mode, players, edition), seed = params
    state = new_state(mode, players, edition, seed)
    validated_random_play(state, random.Random(seed), int(start * 80))
    before = snapshot(state)
    saved = state.to_json()
    clone = state.clone()
    assert snapshot(clone) == before
    clone.playout(random.Random(seed + 1))
    assert snapshot(state) == before  # the original did not move
    replayed = replay(saved)
    replayed.playout(random.Random(seed + 1))
    assert snapshot(clone) == snapshot(replayed)
    assert clone.outcome() == replayed.outcome()


class SubclassedRandom(random.Random):
    """A generator whose draws come from ``random()``: the playout must not assume getrandbits."""

    def random(self) -> float:
        return super().random()


def test_playout_with_another_generator_makes_the_same_choices_as_random_action() -> None:
    for mode, players, edition in GAMES:
        fast = new_state(mode, players, edition, 5)
        slow = new_state(mode, players, edition, 5)
        fast_rng, slow_rng = SubclassedRandom(9), SubclassedRandom(9)
        fast.playout(fast_rng)
        while not slow.terminal:
            for seat in slow.awaited_seats():
                slow.apply_action(slow.random_action(slow_rng, seat), seat)
        assert snapshot(fast) == snapshot(slow)
        assert fast_rng.getstate() == slow_rng.getstate()


def test_a_finished_game_plays_out_to_itself() -> None:
    state = new_state("standard", 3, "2018", 2)
    state.playout(random.Random(2))
    before = snapshot(state)
    state.playout(random.Random(3))
    assert snapshot(state) == before


def test_legal_cells_stay_sorted_as_cards_are_planted() -> None:
    rng = random.Random(4)
    arboretum = Arboretum()
    assert arboretum.legal_cells_view() == [(0, 0)]
    for value in range(1, 9):
        for species in ("Oak", "Willow"):
            cells = arboretum.legal_cells()
            arboretum.place_trusted(Card(species, value), rng.choice(cells))
            rebuilt = Arboretum.from_cells(dict(arboretum.items()))
            assert arboretum.legal_cells_view() == rebuilt.legal_cells() == sorted(
                {(x + dx, y + dy) for x, y in arboretum for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
                - set(arboretum)
            )


def test_legal_cells_is_a_copy_and_place_still_checks() -> None:
    arboretum = Arboretum()
    arboretum.place(Card("Oak", 1), (0, 0))
    cells = arboretum.legal_cells()
    cells.clear()
    assert arboretum.legal_cells() == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    with pytest.raises(PlacementError, match="not next to a card"):
        arboretum.place(Card("Oak", 2), (5, 5))
    with pytest.raises(PlacementError, match="already holds"):
        arboretum.place(Card("Oak", 2), (0, 0))
    # a copy keeps its own sorted cells
    twin = arboretum.copy()
    twin.place(Card("Oak", 2), (1, 0))
    assert arboretum.legal_cells() == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert twin.legal_cells() == [(-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (2, 0)]


@pytest.mark.parametrize(("mode", "players"), [("standard", 2), ("standard", 4), ("draft", 3), ("draft", 4), ("solo", 1)])
def test_the_deal_is_random_shuffle_of_the_seed(mode: str, players: int) -> None:
    for seed in [*range(300), 2**40 + 3, -7]:
        game = Game(mode, players, seed=seed)
        expected = list(make_deck(game.species or ()))
        random.Random(seed).shuffle(expected)
        assert game.shuffled_deck() == expected
        # every species in play or some drawn: as choose_species draws them from the seed
        count = species_count(mode, players)
        assert game.species == choose_species(Edition.E2018, count, random.Random(seed))
