"""The standard game (RULES.md §2) as a state machine."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.actions import DECK, Discard, Draw, Give, Pick, Play
from engine.cards import Card, Edition, edition_species
from engine.errors import GameOverError, IllegalActionError, NotYourTurnError, PlacementError, StaleActionError
from engine.game import TERMINAL
from engine.games import Game
from engine.standard import StandardState
from engine.views import Drawn, Pile


def new(players: int = 2, seed: int = 1, edition: str = "2018") -> StandardState:
    state = Game("standard", players, seed=seed, edition=edition).new_initial_state()
    assert isinstance(state, StandardState)
    return state


def snapshot(state: StandardState) -> tuple[Any, ...]:
    return (state.to_json(), [state.view(seat) for seat in (None, *range(state.seats))], state.legal_actions())


def refused(state: StandardState, error: type[Exception], apply: Callable[[], None], *words: str) -> None:
    """The action raises ``error`` naming ``words`` and leaves the state exactly as it was."""
    before = snapshot(state)
    with pytest.raises(error) as caught:
        apply()
    for word in words:
        assert word in str(caught.value)
    assert snapshot(state) == before


def turn(state: StandardState, first: Draw, second: Draw, play_cell: tuple[int, int] | None = None) -> None:
    """One whole turn: two draws, the first hand card played at the first legal cell, discard the first."""
    state.apply_action(first)
    state.apply_action(second)
    hand = state.hands[state.seat]
    state.apply_action(Play(hand[0], play_cell or state.legal_cells()[0]))
    if not state.terminal and state.phase == "discard":
        state.apply_action(Discard(state.hands[state.seat][0]))


@pytest.mark.parametrize("players, cards", [(2, 48), (3, 64), (4, 80)])
def test_setup_2018_deals_seven_each_and_the_rest_is_the_draw_pile(players: int, cards: int) -> None:
    state = new(players)
    assert [len(hand) for hand in state.hands] == [7] * players
    assert state.piles == [[] for _ in range(players)]
    assert len(state.deck) == cards - 7 * players
    assert state.current_player() == 0 and state.phase == "draw1"
    assert state.legal_actions() == [Draw(DECK)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_2010_puts_a_card_on_every_discard_pile_but_the_start_players(players: int) -> None:
    state = new(players, edition="2010")
    assert [len(pile) for pile in state.piles] == [0] + [1] * (players - 1)
    assert len(state.deck) == 8 * {2: 6, 3: 8, 4: 10}[players] - 8 * players + 1
    assert set(state.species) <= set(edition_species(Edition.E2010))
    assert state.legal_actions() == [Draw(DECK), *[Draw(seat) for seat in range(1, players)]]
    turns = state.view(0).turns
    assert turns is not None and turns.piles[1] == Pile(1, (state.piles[1][0],))


def test_draws_come_from_the_deck_or_any_discard_pile_including_ones_own() -> None:
    state = new(3, seed=4)
    turn(state, Draw(DECK), Draw(DECK))  # seat 0 discards onto its own pile
    taken = state.piles[0][-1]
    turn(state, Draw(0), Draw(DECK))  # seat 1 takes seat 0's discard, then discards
    assert taken in state.hands[1] and not state.piles[0]
    turn(state, Draw(DECK), Draw(DECK))
    turn(state, Draw(DECK), Draw(DECK))
    turn(state, Draw(DECK), Draw(DECK))
    turn(state, Draw(DECK), Draw(DECK))
    own_top = state.piles[0][-1]
    assert state.seat == 0 and state.legal_actions() == [Draw(DECK), Draw(0), Draw(1), Draw(2)]
    state.apply_action(Draw(0))  # one's own pile
    assert own_top in state.hands[0]
    refused(state, IllegalActionError, lambda: state.apply_action(Draw(0)),
            "seat 0", "the discard pile of seat 0 (Player 1) is empty")
    refused(state, IllegalActionError, lambda: state.apply_action(Draw(7)), "draw discard 7", "no such discard pile")


def test_a_deck_card_is_seen_by_its_drawer_before_the_second_draw() -> None:
    state = new(2, seed=8)
    top = state.deck[-1]
    state.apply_action(Draw(DECK))
    assert state.phase == "draw2"
    mine, theirs = state.view(0), state.view(1)
    assert mine.hand is not None and top in mine.hand and theirs.hand is not None and top not in theirs.hand
    assert mine.turns is not None and mine.turns.drawn == (Drawn(DECK, "deck", top),)
    assert theirs.turns is not None and theirs.turns.drawn == (Drawn(DECK, "deck", None),)
    assert str(top) not in str(theirs.to_json())
    assert [info.hand_size for info in theirs.seats] == [8, 7] and theirs.turns.turn_log == ("draw deck",)


def test_play_first_card_anywhere_then_adjacent_only() -> None:
    state = new(2, seed=2)
    state.apply_action(Draw(DECK))
    state.apply_action(Draw(DECK))
    assert state.legal_cells() == [(0, 0)]
    first, second = state.hands[0][0], state.hands[0][1]
    assert {a for a in state.legal_actions() if a.card == first} == {Play(first, (0, 0))}  # type: ignore[union-attr]
    state.apply_action(Play(first, (5, -3)))  # any cell is accepted for the first card
    assert state.arboretums[0][(5, -3)] == first
    state.apply_action(Discard(second))
    turn(state, Draw(DECK), Draw(DECK))
    state.apply_action(Draw(DECK))
    state.apply_action(Draw(1))
    card = state.hands[0][0]
    assert set(state.legal_cells()) == {(4, -3), (6, -3), (5, -4), (5, -2)}
    refused(state, PlacementError, lambda: state.apply_action(Play(card, (7, -3))), "seat 0", str(card), "7,-3", "not next to")
    refused(state, PlacementError, lambda: state.apply_action(Play(card, (5, -3))), str(card), "5,-3", f"already holds {first}")
    state.apply_action(Play(card, (5, -2)))
    assert len(state.arboretums[0]) == 2


def test_discard_any_hand_card_including_one_just_drawn() -> None:
    state = new(2, seed=6)
    state.apply_action(Draw(DECK))
    drawn = state.hands[0][-1]
    state.apply_action(Draw(DECK))
    state.apply_action(Play(state.hands[0][0], (0, 0)))
    assert state.legal_actions() == [Discard(card) for card in state.hands[0]]
    state.apply_action(Discard(drawn))
    assert state.piles[0] == [drawn] and len(state.hands[0]) == 7
    assert state.current_player() == 1 and state.phase == "draw1" and state.turn == 2
    assert state.legal_actions() == [Draw(DECK), Draw(0)]


def test_the_game_ends_after_the_turn_that_drew_the_last_card() -> None:
    state = new(2, seed=9)
    rng = random.Random(1)
    while not (len(state.deck) == 1 and state.phase == "draw1"):
        action = state.random_action(rng)
        if state.phase == "draw1" and len(state.deck) == 2 and action == Draw(DECK):
            action = state.legal_actions()[-1]  # keep one card for a draw1 from the deck
        state.apply_action(action)
    drawer = state.seat
    state.apply_action(Draw(DECK))
    assert not state.deck and not state.is_terminal()
    # the draw pile is empty: the second draw must come from a discard pile
    assert all(action.source != DECK for action in state.legal_actions())  # type: ignore[union-attr]
    refused(state, IllegalActionError, lambda: state.apply_action(Draw(DECK)), "draw pile is empty")
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == drawer and state.phase == "discard"  # the turn is finished normally
    state.apply_action(Discard(state.hands[drawer][0]))
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.rules == "standard-2018"
    assert [len(hand) for hand in state.hands] == [7, 7]
    assert state.view(0).outcome == outcome
    hands = state.view(1).hands_at_end  # hands are shown at the end
    assert hands is not None and [str(c) for c in hands[0]] == [str(c) for c in sorted(state.hands[0])]
    refused(state, GameOverError, lambda: state.apply_action(Draw(0)), "game is over")


def test_a_draw_with_nothing_to_take_is_skipped_and_the_hand_stays_at_seven() -> None:
    state = new(2, seed=3)
    state.deck = state.deck[-1:]  # one card left and every discard pile empty
    state.apply_action(Draw(DECK))
    assert state.phase == "play" and state.skipped_draws == 1
    assert len(state.hands[0]) == 8
    state.apply_action(Play(state.hands[0][0], (0, 0)))
    # the skipped draw already brought the hand back to 7: no discard, the game is over
    assert state.is_terminal() and len(state.hands[0]) == 7
    assert state.outcome() is not None


def test_outcome_uses_the_2010_rules_for_the_2010_edition() -> None:
    state = new(2, seed=3, edition="2010")
    rng = random.Random(2)
    while not state.is_terminal():
        assert state.outcome() is None
        state.apply_action(state.random_action(rng))
    outcome = state.outcome()
    assert outcome is not None and outcome.rules == "standard-2010"


def test_out_of_turn_and_wrong_kind_of_action_change_nothing() -> None:
    state = new(3, seed=5)
    card = state.hands[0][0]
    refused(state, NotYourTurnError, lambda: state.apply_action(Draw(DECK), seat=1),
            "seat 1 (Player 2)", "seat 0 (Player 1)'s turn")
    refused(state, NotYourTurnError, lambda: state.apply_action(Draw(DECK), seat=3), "seat 3")
    refused(state, IllegalActionError, lambda: state.apply_action(Play(card, (0, 0))), "seat 0", str(card), "to draw")
    refused(state, IllegalActionError, lambda: state.apply_action(Pick(card, None)), "pick")
    refused(state, IllegalActionError, lambda: state.apply_action(Draw("discard")), "no such discard pile")
    state.apply_action(Draw(DECK), seat=0)
    state.apply_action(Draw(DECK))
    refused(state, IllegalActionError, lambda: state.apply_action(Discard(card)), "to play")
    refused(state, IllegalActionError, lambda: state.apply_action(Give(card, (0, 0))), "to play")
    stranger = state.deck[-1]
    refused(state, IllegalActionError, lambda: state.apply_action(Play(stranger, (0, 0))), str(stranger), "not in their hand")
    outsider = next(Card(s, 1) for s in edition_species(Edition.E2018) if s not in state.species)
    refused(state, IllegalActionError, lambda: state.apply_action(Play(outsider, (0, 0))), "not a species in this game")
    state.apply_action(Play(card, (0, 0)))
    refused(state, IllegalActionError, lambda: state.apply_action(Discard(card)), str(card), "not in their hand")
    refused(state, IllegalActionError, lambda: state.apply_action(Draw(DECK)), "to discard")


def test_legal_actions_only_for_the_seat_to_act_and_random_action_matches_choice() -> None:
    state = new(4, seed=12)
    rng = random.Random(5)
    for _ in range(120):
        assert state.legal_actions(seat=(state.seat + 1) % 4) == []
        assert state.legal_actions(seat=state.seat) == state.legal_actions()
        twin = random.Random()
        twin.setstate(rng.getstate())
        expected = twin.choice(state.legal_actions())
        action = state.random_action(rng)
        assert action == expected and rng.getstate() == twin.getstate()
        state.apply_action(action)


def test_version_counts_applied_actions_only() -> None:
    state = new(2)
    assert state.version == 0
    state.apply_action(Draw(DECK))
    with pytest.raises(IllegalActionError):
        state.apply_action(Draw(1))
    assert state.version == 1 == len(state.history)
    assert state.history == [(0, Draw(DECK))]


def test_a_double_tap_is_refused_by_its_stamp() -> None:
    state = new(2, seed=4)
    stamp = state.view(0).stamp
    state.apply_stamped(Draw(DECK), 0, stamp)
    refused(state, StaleActionError, lambda: state.apply_stamped(Draw(DECK), 0, stamp), "seat 0", "moved on", "nothing was done")
    state.apply_stamped(Draw(DECK), 0, state.stamp(0))
    assert state.version == 2 and state.phase == "play"
