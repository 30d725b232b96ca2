"""The solo game, "The Garden of Non-Forking Paths" (RULES.md §4), as a state machine."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.actions import DECK, SHARED_DISCARD, Discard, Draw, Give, Play, parse_action
from engine.arboretum import Arboretum
from engine.cards import Card, Edition, edition_species
from engine.errors import GameOverError, IllegalActionError, NotYourTurnError, PlacementError
from engine.game import TERMINAL
from engine.games import Game, replay
from engine.paths import best_path
from engine.solo import SoloState, rule_cell
from engine.views import Pile, QPlacement, QReason


def new(seed: int = 1, q_places: str = "player") -> SoloState:
    state = Game("solo", 1, seed=seed, q_places=q_places).new_initial_state()
    assert isinstance(state, SoloState)
    return state


def snapshot(state: SoloState) -> tuple[Any, ...]:
    return (state.to_json(), [state.view(seat) for seat in (None, 0, 1)], state.legal_actions())


def refused(state: SoloState, error: type[Exception], apply: Callable[[], None], *words: str) -> None:
    before = snapshot(state)
    with pytest.raises(error) as caught:
        apply()
    for word in words:
        assert word in str(caught.value)
    assert snapshot(state) == before


def draw_and_play(state: SoloState, first: Draw = Draw(DECK), second: Draw = Draw(DECK)) -> None:
    state.apply_action(first)
    state.apply_action(second)
    state.apply_action(Play(state.hands[0][0], state.legal_cells()[0]))


def test_setup_six_species_seven_cards_one_face_up_discard_and_an_empty_q() -> None:
    state = new()
    assert len(state.species) == 6 and set(state.species) <= set(edition_species(Edition.E2018))
    assert state.names == ("Player 1", "Q")
    assert len(state.hands[0]) == 7 and state.hands[1] == []
    assert len(state.piles) == 1 and len(state.piles[0]) == 1
    assert len(state.deck) == 48 - 8
    assert len(state.arboretums[1]) == 0
    assert state.current_player() == 0
    assert state.legal_actions() == [Draw(DECK), Draw(SHARED_DISCARD)]
    view = state.view(0)
    assert view.turns is not None and view.turns.piles == (Pile(None, (state.piles[0][0],)),)
    assert [info.hand_size for info in view.seats] == [7, 0]


def test_a_turn_gives_q_a_card_where_the_player_chooses_then_refills() -> None:
    state = new(2)
    shown = state.piles[0][-1]
    state.apply_action(Draw(SHARED_DISCARD))
    assert shown in state.hands[0] and not state.piles[0]
    assert state.legal_actions() == [Draw(DECK)]  # the shared pile is empty now
    refused(state, IllegalActionError, lambda: state.apply_action(Draw(SHARED_DISCARD)), "the discard pile is empty")
    state.apply_action(Draw(DECK))
    state.apply_action(Play(state.hands[0][0], (0, 0)))
    turns = state.view(0).turns
    assert state.phase == "give" and turns is not None and turns.place_into == 1
    assert state.legal_cells() == [(0, 0)]
    card = state.hands[0][0]
    assert state.legal_actions() == [Give(c, (0, 0)) for c in state.hands[0]]
    deck = list(state.deck)
    state.apply_action(Give(card, (3, 3)))  # Q's first card may go anywhere
    assert state.arboretums[1][(3, 3)] == card and card not in state.hands[0]
    # one card face up onto the discard pile, the next face down into Q's hand
    assert state.piles[0] == [deck[-1]] and state.hands[1] == [deck[-2]]
    assert state.deck == deck[:-2]
    assert len(state.hands[0]) == 7 and state.phase == "draw1" and state.current_player() == 0
    view = state.view(0)
    assert [info.hand_size for info in view.seats] == [7, 1] and str(deck[-2]) not in str(view.to_json())
    # later cards for Q follow the placement rule in Q's arboretum
    draw_and_play(state)
    card = state.hands[0][0]
    refused(state, PlacementError, lambda: state.apply_action(Give(card, (0, 0))), str(card), "0,0", "Q's arboretum")
    refused(state, PlacementError, lambda: state.apply_action(Give(card, (3, 3))), "already holds")
    state.apply_action(Give(card, (3, 4)))
    assert len(state.arboretums[1]) == 2


def test_the_last_deck_card_goes_to_the_discard_pile_and_the_game_ends() -> None:
    state = new(3)
    state.deck = state.deck[-3:]
    draw_and_play(state, Draw(DECK), Draw(DECK))
    state.apply_action(Give(state.hands[0][0], (0, 0)))
    last = state.piles[0][-1]
    assert state.is_terminal() and state.hands[1] == [] and len(state.piles[0]) == 2
    assert last not in state.hands[1]
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.rules == "solo" and len(outcome.winners) == 1
    hands = state.view(0).hands_at_end
    assert hands is not None and hands[1] == ()
    refused(state, GameOverError, lambda: state.apply_action(Draw(DECK)), "over")


def test_a_deck_emptied_by_the_draws_ends_the_game_after_that_turn() -> None:
    state = new(4)
    state.deck = state.deck[-1:]
    state.apply_action(Draw(DECK))
    assert state.legal_actions() == [Draw(SHARED_DISCARD)]  # the draw pile is empty
    state.apply_action(Draw(SHARED_DISCARD))
    state.apply_action(Play(state.hands[0][0], (0, 0)))
    assert not state.is_terminal()  # the turn is finished as far as it can be
    state.apply_action(Give(state.hands[0][0], (0, 0)))
    assert state.is_terminal() and state.piles[0] == [] and len(state.hands[0]) == 7


def test_q_never_acts_and_its_hand_is_hidden_until_the_end() -> None:
    state = new(5)
    rng = random.Random(5)
    refused(state, NotYourTurnError, lambda: state.apply_action(Draw(DECK), 1), "seat 1 (Q)", "never acts")
    assert state.legal_actions(1) == []
    while not state.is_terminal():
        hidden = {str(card) for card in state.hands[1]} | {str(card) for card in state.deck}
        for seat in (None, 0, 1):
            text = str(state.view(seat).to_json())
            assert not any(card in text for card in hidden)
        state.apply_action(state.random_action(rng))
    view = state.view(0)
    assert view.hands_at_end is not None and view.hands_at_end[1] == state.sorted_hand(state.hands[1])
    assert len(state.hands[1]) >= 10  # one a turn while the draw pile lasts
    assert view.outcome is not None and view.outcome.winner_names in (["Player 1"], ["Q"])


def test_wrong_actions_change_nothing() -> None:
    state = new(6)
    card = state.hands[0][0]
    refused(state, IllegalActionError, lambda: state.apply_action(Draw(0)), "no such discard pile")
    refused(state, IllegalActionError, lambda: state.apply_action(Give(card, (0, 0))), "seat 0", "to draw")
    draw_and_play(state)
    card = state.hands[0][0]
    refused(state, IllegalActionError, lambda: state.apply_action(Discard(card)), "to give Q a card", "give CARD at X,Y")
    refused(state, IllegalActionError, lambda: state.apply_action(Play(card, (1, 0))), "to give Q a card")
    stranger = state.deck[-1]
    refused(state, IllegalActionError, lambda: state.apply_action(Give(stranger, (0, 0))), str(stranger), "not in their hand")


def q_worth(arboretum: Arboretum, species: tuple[str, ...]) -> int:
    """RULES.md §4's measure: Q's best-path points summed over the species (§2's points)."""
    total = 0
    for name in species:
        path = best_path(arboretum, name)
        total += path.points if path is not None else 0
    return total


def test_q_places_each_gift_where_its_paths_are_worth_most_ties_to_the_smallest_y_then_x() -> None:
    """Checked against a plain search: every legal cell tried with the scorer's own best paths."""
    rng = random.Random(11)
    for seed in range(12):
        state = new(seed, "rule")
        while not state.is_terminal():
            if state.phase == "give":
                q = state.arboretums[1]
                for card in state.hands[0]:
                    cells = q.legal_cells()
                    worths = {}
                    for cell in cells:
                        trial = q.copy()
                        trial.place(card, cell)
                        worths[cell] = q_worth(trial, state.species)
                    top = max(worths.values())
                    expected = min((c for c in cells if worths[c] == top), key=lambda c: (c[1], c[0]))
                    assert rule_cell(q, card)[0] == expected
            state.apply_action(state.random_action(rng))


def test_under_the_rule_the_player_names_only_the_card_and_the_log_keeps_q_s_cell() -> None:
    state = new(2, "rule")
    draw_and_play(state)
    assert state.legal_cells() == [] and state.view(0).legal_cells == ()  # no cell of Q's to choose
    card = state.hands[0][0]
    assert [str(a) for a in state.legal_actions()] == [f"give {c} at 0,0" for c in state.hands[0]]
    state.apply_action(parse_action(f"give {card}"))
    assert state.arboretums[1][(0, 0)] == card
    assert state.to_json()["actions"][-1] == [0, f"give {card} at 0,0"]
    turns = state.view(None).turns
    assert turns is not None and turns.q_note == f"Q put {card} at 0,0: Q's first card"
    assert state.last_moves(1)[0].note == turns.q_note and state.last_moves(1)[0].cell == (0, 0)
    draw_and_play(state)
    card = state.hands[0][0]
    where, _ = rule_cell(state.arboretums[1], card)
    other = next(c for c in state.arboretums[1].legal_cells() if c != where)
    refused(state, IllegalActionError, lambda: state.apply_action(Give(card, other)), "by its rule",
            f"goes to {where[0]},{where[1]}")
    state.apply_action(Give(card, where))  # naming the rule's own cell is the same gift
    assert state.arboretums[1][where] == card
    # the gentler variant wants a cell
    player = new(2, "player")
    draw_and_play(player)
    refused(player, IllegalActionError, lambda: player.apply_action(Give(player.hands[0][0])), "choose Q's cell")


def test_the_note_says_which_path_q_s_card_raises() -> None:
    state = new(1, "rule")
    q = state.arboretums[1]
    q.place(Card(state.species[0], 2), (0, 0))
    q.place(Card(state.species[1], 5), (1, 0))
    gift = Card(state.species[0], 6)
    cell, raised = rule_cell(q, gift)
    # 2 -> 5 -> 6 is a path of 3 cards through the 5 at 1,0: next to it at 2,0, 1,-1 or 1,1;
    # the smallest y wins the tie
    assert cell == (1, -1) and raised == [(state.species[0], 3)]


def test_random_action_draws_as_rng_choice_of_the_legal_gifts() -> None:
    for seed in range(5):
        state, twin = new(seed, "rule"), new(seed, "rule")
        a, b = random.Random(seed), random.Random(seed)
        while not state.is_terminal():
            assert state.random_action(a) == b.choice(twin.legal_actions())
            action = state.legal_actions()[0] if state.phase == "give" else state.random_action(random.Random(0))
            state.apply_action(action)
            twin.apply_action(action)


def test_q_s_placements_are_data_the_screens_put_in_words() -> None:
    """Where Q put each card and why leaves the engine typed (the cell, the reason, the paths it
    raised with their points), as the rule found it; str() keeps the English the engine wrote,
    and a saved game replayed gives the same placements."""
    seen: set[QReason] = set()
    for seed in range(8):
        state = new(seed, "rule")
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase != "give":
                state.apply_action(state.random_action(rng))
                continue
            card = rng.choice(state.hands[0])
            first = not len(state.arboretums[1])
            cell, raised = rule_cell(state.arboretums[1], card)
            state.apply_action(parse_action(f"give {card}"))
            turns = state.view(0).turns
            assert turns is not None and turns.q_placement is not None
            placement = turns.q_placement
            assert placement == state.last_moves(1)[0].q_placement and (placement.card, placement.cell) == (card, cell)
            where = f"Q put {card} at {cell[0]},{cell[1]}"
            if first:
                assert placement == QPlacement(card, (0, 0), QReason.FIRST)
                assert str(placement) == f"{where}: Q's first card"
            elif not raised:
                assert placement.reason is QReason.NO_GAIN and placement.raised == ()
                assert str(placement) == f"{where}: no cell adds to Q's paths, so the first free cell (top row, then left)"
            else:
                assert placement.reason is QReason.RAISES and placement.raised == tuple(raised)
                assert all(species in state.species and points > 0 for species, points in placement.raised)
                paths = " and ".join(f"{species} path to {points}" for species, points in raised)
                assert str(placement) == f"{where}: it raises Q's best {paths}"
            assert turns.q_note == str(placement) and state.last_moves(1)[0].note == str(placement)
            seen.add(placement.reason)
        again = replay(state.to_json())
        assert isinstance(again, SoloState) and again.q_placements == state.q_placements
        assert again.view(None) == state.view(None)
    assert seen == set(QReason)
    gentle = new(3, "player")
    draw_and_play(gentle)
    gentle.apply_action(gentle.legal_actions()[0])
    assert gentle.view(0).turns is not None and gentle.view(0).turns.q_placement is None  # type: ignore[union-attr]
    assert gentle.last_moves(1)[0].q_placement is None and gentle.last_moves(1)[0].note == ""
