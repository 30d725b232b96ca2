"""The draft, "Wonders of the Arboretum" (RULES.md §3), as a state machine."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.actions import DECK, Draw, Pick, Play
from engine.cards import Card
from engine.draft import DraftState
from engine.errors import GameOverError, IllegalActionError, NotYourTurnError, PlacementError, StaleActionError
from engine.game import SIMULTANEOUS, TERMINAL
from engine.games import Game
from engine.views import DraftView, Phase, Reveal


def new(players: int, seed: int = 1) -> DraftState:
    state = Game("draft", players, seed=seed).new_initial_state()
    assert isinstance(state, DraftState)
    return state


def snapshot(state: DraftState) -> tuple[Any, ...]:
    views = [state.view(seat) for seat in (None, *range(state.seats))]
    return (state.to_json(), views, [state.legal_actions(seat) for seat in range(state.seats)] if not state.terminal else [])


def refused(state: DraftState, error: type[Exception], apply: Callable[[], None], *words: str) -> None:
    before = snapshot(state)
    with pytest.raises(error) as caught:
        apply()
    for word in words:
        assert word in str(caught.value)
    assert snapshot(state) == before


def draft_of(state: DraftState) -> DraftView:
    draft = state.view(0).draft
    assert draft is not None
    return draft


def plant_first(state: DraftState, seat: int) -> Pick:
    """The first card of the seat's hand at the first legal cell."""
    return Pick(state.hands[seat][0], state.arboretums[seat].legal_cells()[0])


def everyone_plants(state: DraftState) -> None:
    for seat in range(state.seats):
        state.apply_action(plant_first(state, seat), seat)


@pytest.mark.parametrize("players, species, rounds", [(2, 7, 3), (3, 10, 3), (4, 9, 2)])
def test_setup_deals_eight_each_from_one_deck(players: int, species: int, rounds: int) -> None:
    state = new(players)
    assert len(state.species) == species and state.rounds == rounds
    assert [len(hand) for hand in state.hands] == [8] * players
    assert len(state.deck) == 8 * species - 8 * players
    assert state.current_player() == SIMULTANEOUS
    assert state.awaited_seats() == list(range(players))
    draft = state.view(0).draft
    assert draft is not None
    assert (draft.round, draft.pick, draft.direction, draft.chosen) == (1, 1, "next", (False,) * players)


def test_legal_picks_are_every_card_at_every_legal_cell_or_discarded() -> None:
    state = new(2)
    hand = state.hands[0]
    assert state.legal_actions(0) == [Pick(card, cell) for card in hand for cell in [(0, 0), None]]
    with pytest.raises(IllegalActionError, match="simultaneous"):
        state.legal_actions()
    with pytest.raises(NotYourTurnError, match="seat 2"):
        state.legal_actions(2)


def test_a_pick_is_hidden_until_every_seat_has_chosen() -> None:
    state = new(3, seed=2)
    pick = plant_first(state, 0)
    state.apply_action(pick, 0)
    assert state.awaited_seats() == [1, 2]
    assert len(state.arboretums[0]) == 0  # nothing is carried out yet
    mine, other = state.view(0), state.view(1)
    assert mine.draft is not None and mine.draft.pending == pick
    assert mine.to_json()["pending"] == {"card": str(pick.card), "cell": [0, 0], "text": str(pick)}
    assert other.draft is not None and other.draft.pending is None and other.draft.chosen == (True, False, False)
    assert str(pick.card) not in str(other.to_json()) and str(pick.card) not in str(state.view(None).to_json())


def test_a_pick_may_be_changed_until_the_last_seat_has_chosen() -> None:
    state = new(2, seed=3)
    first, second = state.hands[0][0], state.hands[0][1]
    state.apply_action(Pick(first, (0, 0)), 0)
    state.apply_action(Pick(second, None), 0)
    state.apply_action(Pick(first, (4, 4)), 0)
    state.apply_action(Pick(second, (1, 1)), 0)  # the last choice stands
    version = state.version
    state.apply_action(Pick(second, (1, 1)), 0)  # a resent form changes nothing
    assert state.version == version
    other = state.hands[1][0]
    state.apply_action(Pick(other, None), 1)
    assert state.arboretums[0][(1, 1)] == second and len(state.arboretums[0]) == 1
    assert first in state.hands[1]  # passed on with the rest of the hand
    assert len(state.arboretums[1]) == 0 and other in state.out
    draft = state.view(0).draft
    assert draft is not None and draft.last_reveal == (Reveal(0, second, (1, 1)), Reveal(1, None, None))
    assert state.view(0).to_json()["last_reveal"] == [
        {"seat": 0, "card": str(second), "cell": [1, 1]},
        {"seat": 1, "discarded": True},
    ]
    assert str(other) not in str(state.view(0).to_json())  # a discard leaves the game face down
    assert state.discarded == [0, 1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_pass_next_previous_next_and_the_eighth_card_is_discarded(players: int) -> None:
    state = new(players, seed=players)
    for round_index, step in enumerate([1, -1, 1][: state.rounds]):
        assert draft_of(state).direction == ("next" if step == 1 else "previous")
        for pick in range(7):
            before = [list(hand) for hand in state.hands]
            picks = [plant_first(state, seat) for seat in range(players)]
            for seat, chosen in enumerate(picks):
                state.apply_action(chosen, seat)
            if pick < 6:
                for seat in range(players):
                    rest = [card for card in before[seat] if card != picks[seat].card]
                    assert state.hands[(seat + step) % players] == rest
                assert draft_of(state).pick == pick + 2
        last_cards = {card for hand in before for card in hand} - {p.card for p in picks}
        assert last_cards <= set(state.out) and len(last_cards) == players
        if round_index + 1 < state.rounds:
            assert [len(hand) for hand in state.hands] == [8] * players
            assert draft_of(state).round == round_index + 2
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert [len(arb) for arb in state.arboretums] == [7 * state.rounds] * players
    assert len(state.deck) == 8  # never dealt, out of the game
    outcome = state.outcome()
    assert outcome is not None and outcome.rules == "draft"
    assert all(player.bonus == 3 for player in outcome.players)  # every pick planted


def test_fewer_planted_picks_lose_the_bonus() -> None:
    state = new(2, seed=5)
    state.apply_action(Pick(state.hands[0][0], None), 0)
    state.apply_action(plant_first(state, 1), 1)
    while not state.is_terminal():
        everyone_plants(state)
    outcome = state.outcome()
    assert outcome is not None and [p.bonus for p in outcome.players] == [0, 3]
    assert [len(arb) for arb in state.arboretums] == [20, 21]


def test_illegal_picks_change_nothing() -> None:
    state = new(3, seed=6)
    state.apply_action(plant_first(state, 0), 0)
    mine = state.hands[0][1]
    theirs = state.hands[1][0]
    refused(state, IllegalActionError, lambda: state.apply_action(Pick(theirs, (0, 0)), 0),
            "seat 0", str(theirs), "not in the hand")
    refused(state, IllegalActionError, lambda: state.apply_action(Pick(mine, None)), "name the seat")
    refused(state, NotYourTurnError, lambda: state.apply_action(Pick(mine, None), 3), "seat 3")
    refused(state, IllegalActionError, lambda: state.apply_action(Play(mine, (0, 0)), 0), "seat 0", "picks")
    refused(state, IllegalActionError, lambda: state.apply_action(Draw(DECK), 0), "picks")
    outsider = Card("Oak", 1) if "Oak" not in state.species else Card("Lilac", 1)
    refused(state, IllegalActionError, lambda: state.apply_action(Pick(outsider, None), 0), str(outsider))
    state.apply_action(plant_first(state, 1), 1)
    state.apply_action(plant_first(state, 2), 2)
    # after the reveal: a stale pick of the card just played, and cells that are not legal
    played = state.arboretums[0][(0, 0)]
    refused(state, IllegalActionError, lambda: state.apply_action(Pick(played, (1, 0)), 0), str(played), "round 1, pick 2")
    card = state.hands[0][0]
    refused(state, PlacementError, lambda: state.apply_action(Pick(card, (0, 0)), 0), "seat 0", str(card), "0,0", "already holds")
    refused(state, PlacementError, lambda: state.apply_action(Pick(card, (2, 0)), 0), "2,0", "not next to")


def test_after_the_last_round_nothing_more_is_taken() -> None:
    state = new(4, seed=7)
    while not state.is_terminal():
        everyone_plants(state)
    assert state.legal_actions(0) == [] and state.awaited_seats() == []
    refused(state, GameOverError, lambda: state.apply_action(Pick(Card("Oak", 1), None), 0), "over")
    assert state.view(2).phase is Phase.OVER and state.view(2).outcome == state.outcome()


def test_only_a_reveal_makes_a_pick_form_stale() -> None:
    state = new(2, seed=8)
    stamp = state.view(0).stamp
    state.apply_action(plant_first(state, 1), 1)  # another seat choosing does not
    state.apply_stamped(plant_first(state, 0), 0, stamp)
    assert state.reveals == 1 and state.view(0).stamp != stamp
    refused(state, StaleActionError, lambda: state.apply_stamped(plant_first(state, 0), 0, stamp), "seat 0", "moved on")
