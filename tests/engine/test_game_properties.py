"""Properties of seeded random games of every mode and player count.

Each game is played by choosing uniformly among ``legal_actions`` with a seeded generator (in
the draft any seat may act at any time, so picks are often changed). Every step checks that each
card is in exactly one place, the hand sizes, that ``random_action`` is the same choice, and that
no view names a card its seat may not see; finished and unfinished games replay from JSON."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import DECK, Draw, Pick
from engine.cards import Card, make_deck
from engine.case import parse_case
from engine.draft import DraftState
from engine.game import SIMULTANEOUS, State
from engine.games import GAME_MODES, MODES, Game, replay
from engine.solo import SoloState
from engine.standard import StandardState
from engine.views import Phase, SeatView
from tests.fixtures.examples import examples

from .helpers import seen_face_up

GAMES = [
    ("standard", 2, "2018"), ("standard", 3, "2018"), ("standard", 4, "2018"),
    ("standard", 2, "2010"), ("standard", 3, "2010"), ("standard", 4, "2010"),
    ("draft", 2, "2018"), ("draft", 3, "2018"), ("draft", 4, "2018"),
    ("solo", 1, "2018"),
]

games = st.tuples(st.sampled_from(GAMES), st.integers(0, 2**32))


def steps(mode: str, players: int, edition: str, seed: int) -> Iterator[State]:
    """Play a seeded random game, yielding the state before every action and once at the end."""
    state = Game(mode, players, seed=seed, edition=edition).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        yield state
        player = state.current_player()
        seat = rng.randrange(state.seats) if player == SIMULTANEOUS else player
        twin = random.Random()
        twin.setstate(rng.getstate())
        action = rng.choice(state.legal_actions(seat))
        assert state.random_action(twin, seat) == action and twin.getstate() == rng.getstate()
        state.apply_action(action, seat)
    yield state


def cards_named(view: SeatView, species: tuple[str, ...]) -> set[str]:
    """Every card a view holds, in the text form "Oak 3": the Card objects anywhere in the typed
    view, and every card its JSON form mentions, as text (also inside action texts) or as a
    planted card object ({"species": "Oak", "value": 3, ...})."""
    found = {str(card) for card in cards_in(view)}
    text = json.dumps(view.to_json())
    names = "|".join(re.escape(name) for name in species)
    found.update(re.findall(rf"(?<![A-Za-z])(?:{names}) [1-8]\b", text))
    found.update(f"{m[1]} {m[2]}" for m in re.finditer(r'"species": "([^"]+)", "value": (\d+)', text))
    return found


def cards_in(value: object) -> Iterator[Card]:
    """The Card objects anywhere inside a view: its dataclasses, tuples and actions."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from cards_in(getattr(value, field.name))
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from cards_in(item)


def hidden_from(state: State, seat: int | None) -> set[str]:
    """Cards ``seat`` may not see while the game runs (None: a spectator), as text."""
    zones = state.zones()
    hidden = zones["deck"] + zones.get("out", [])
    for other in range(state.seats):
        if other != seat:
            hidden += zones[f"hand {other}"]
    return {str(card) for card in hidden}


@settings(max_examples=examples(15), deadline=None)
@given(games)
def test_every_card_is_in_exactly_one_place_and_hands_keep_their_size(params: tuple[tuple[str, int, str], int]) -> None:
    (mode, players, edition), seed = params
    for state in steps(mode, players, edition, seed):
        everything = Counter(card for cards in state.zones().values() for card in cards)
        assert everything == Counter(make_deck(state.species))
        sizes = [len(hand) for hand in state.hands]  # type: ignore[attr-defined]
        if isinstance(state, DraftState):
            assert sizes == [0 if state.terminal else 8 - state.pick] * state.seats
            assert len(state.out) + len(state.deck) + sum(map(len, state.arboretums)) + sum(sizes) == len(everything)
        elif isinstance(state, SoloState):
            drawn = 0 if state.terminal else len(state.drawn)
            assert sizes[0] == 7 + drawn - (1 if state.phase == "give" and not state.terminal else 0)
            assert sizes[1] <= state.turn
        else:
            assert isinstance(state, StandardState)
            actor = state.seat
            for seat, size in enumerate(sizes):
                if seat != actor or state.terminal:
                    assert size == 7
                else:
                    assert size == 7 + len(state.drawn) - (1 if state.phase == "discard" else 0)
    assert state.is_terminal() and state.outcome() is not None


@settings(max_examples=examples(15), deadline=None)
@given(games, st.floats(0, 1))
def test_games_replay_from_json_to_the_same_state(params: tuple[tuple[str, int, str], int], stop_at: float) -> None:
    (mode, players, edition), seed = params
    states = list(s.clone() if not s.is_terminal() else s for s in steps(mode, players, edition, seed))
    for state in (states[int(stop_at * (len(states) - 1))], states[-1]):
        saved = json.loads(json.dumps(state.to_json()))
        again = replay(saved)
        assert again.to_json() == state.to_json()
        assert again.zones() == state.zones()
        for seat in [None, *range(state.seats)]:
            assert again.view(seat) == state.view(seat)
        assert again.outcome() == state.outcome()
        assert [seat for seat, _ in again.history] == [seat for seat, _ in state.history]


@settings(max_examples=examples(12), deadline=None)
@given(games)
def test_no_view_ever_names_a_card_its_seat_may_not_see(params: tuple[tuple[str, int, str], int]) -> None:
    (mode, players, edition), seed = params
    for state in steps(mode, players, edition, seed):
        if state.is_terminal():
            break
        for seat in [None, *range(state.seats)]:
            view = state.view(seat)
            # another seat's hidden pick is a card of that seat's hand, so it is covered here
            leaked = cards_named(view, state.species) & hidden_from(state, seat)
            assert not leaked, f"{mode}: seat {seat} sees {sorted(leaked)}"
            if isinstance(state, DraftState) and seat is not None:
                own = state.pending[seat]
                assert view.draft is not None and view.draft.pending == own


def test_the_leak_check_sees_hand_cards_and_planted_cards() -> None:
    """The checker above would catch a leak: it finds a hand in its owner's view, and a planted
    card in every view."""
    state = Game("standard", 2, seed=1).new_initial_state()
    rng = random.Random(1)
    for _ in range(4):
        state.apply_action(state.random_action(rng))
    own = cards_named(state.view(0), state.species)
    assert {str(card) for card in state.hands[0]} <= own
    assert own & hidden_from(state, 1)
    planted = {str(card) for card in state.arboretums[0].cards()}
    assert planted and planted <= cards_named(state.view(1), state.species)


@settings(max_examples=examples(12), deadline=None)
@given(games)
def test_the_public_accessors_agree_with_the_state_and_hide_what_is_hidden(params: tuple[tuple[str, int, str], int]) -> None:
    """progress(), last_moves() and score_case() at every step of a seeded random game."""
    (mode, players, edition), seed = params
    for state in steps(mode, players, edition, seed):
        zones = state.zones()
        progress = state.progress()
        assert progress.mode == mode and progress.finished == state.is_terminal()
        assert progress.phase is state.view(None).phase and isinstance(progress.phase, Phase)
        assert list(progress.awaiting) == state.awaited_seats()
        assert progress.draw_pile == len(zones["deck"])
        assert progress.cards_in_hands == sum(len(zones[f"hand {seat}"]) for seat in range(state.seats))
        moves = state.last_moves(5)
        assert [move.index for move in moves] == list(range(max(0, len(state.history) - 5), len(state.history)))
        hidden = hidden_from(state, None) - {str(card) for arb in state.arboretums for card in arb.cards()}
        for move, (seat, action) in zip(moves, state.history[-5:] if moves else [], strict=True):
            assert move.seat == seat and move.name == state.names[seat]
            if isinstance(action, Draw):
                # a card from the deck went into a hand unseen; one from a discard pile lay face up there
                assert move.text == str(action) and (move.card is None) == (action.source == DECK)
                assert move.card is None or str(move.card) in seen_face_up(state)
            elif isinstance(action, Pick):
                # a pick names its card only once revealed and planted where it chose
                if move.card is not None:
                    assert move.cell is not None and state.arboretums[seat].get(move.cell) == move.card == action.card
                assert not any(card in move.text for card in hidden)
            else:
                assert move.card == action.card and move.text == str(action)
        case = state.score_case()
        if not state.is_terminal():
            assert case is None
    assert case is not None and case.score() == state.outcome()
    assert parse_case(json.loads(json.dumps(case.to_json()))).score() == state.outcome()


def test_last_moves_of_a_draft_hide_replaced_and_pending_picks() -> None:
    state = Game("draft", 2, seed=3).new_initial_state()
    assert isinstance(state, DraftState)
    first, second = state.hands[0][0], state.hands[0][1]
    state.apply_action(Pick(first, (0, 0)), 0)
    state.apply_action(Pick(second, (0, 0)), 0)  # replaces the first choice
    assert [m.text for m in state.last_moves(9)] == ["pick a card", "pick a card"]
    state.apply_action(Pick(state.hands[1][0], None), 1)  # discarded face down
    moves = state.last_moves(9)
    assert [(m.seat, m.card, m.cell) for m in moves] == [(0, None, None), (0, second, (0, 0)), (1, None, None)]
    assert moves[1].text == f"pick {second} at 0,0" and moves[2].text == "pick a card"
    assert state.last_moves(1) == moves[2:] and state.last_moves(0) == []


def test_progress_reads_as_the_overview_shows_it() -> None:
    state = Game("standard", 2, seed=1, names=("Ann", "Bo")).new_initial_state()
    assert isinstance(state, StandardState)
    progress = state.progress()
    assert (progress.summary, progress.cards_left) == (
        "turn 1, Ann draw (first card)", f"{len(state.deck)} cards in the draw pile")
    draft = Game("draft", 3, seed=1).new_initial_state()
    assert (draft.progress().summary, draft.progress().cards_left) == (
        "round 1 of 3, pick 1 of 7", f"24 cards in hands, {80 - 24} undealt")


def test_face_up_hands_show_every_hand_and_hidden_pick() -> None:
    solo = Game("solo", 1, seed=2).new_initial_state()
    rng = random.Random(2)
    while not solo.is_terminal() and len(solo.history) < 12:
        solo.apply_action(solo.random_action(rng))
    assert isinstance(solo, SoloState) and solo.hands[1]
    shown = solo.face_up_hands()
    assert [h.name for h in shown] == ["Player 1", "Q"] and shown[1].cards == solo.sorted_hand(solo.hands[1])
    assert solo.view(0).hand is not None and solo.view(1).hand is None  # Q's hand stays face down in the views
    draft = Game("draft", 2, seed=2).new_initial_state()
    assert isinstance(draft, DraftState)
    pick = Pick(draft.hands[1][0], None)
    draft.apply_action(pick, 1)
    assert [h.pending for h in draft.face_up_hands()] == [None, pick]


def test_the_registry_names_every_mode() -> None:
    assert GAME_MODES == {"standard": StandardState, "draft": DraftState, "solo": SoloState}
    assert set(GAME_MODES) == set(MODES)
