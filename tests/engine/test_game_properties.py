"""Properties of seeded random games of every mode and player count.

Each game is played by choosing uniformly among ``legal_actions`` with a seeded generator (in
the draft any seat may act at any time, so picks are often changed). Every step checks that each
card is in exactly one place, the hand sizes, that ``random_action`` is the same choice, and that
no view names a card its seat may not see; finished and unfinished games replay from JSON."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import make_deck
from engine.draft import DraftState
from engine.game import SIMULTANEOUS, Game, State
from engine.solo import SoloState
from engine.standard import StandardState

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


def cards_named(view: dict[str, Any], species: tuple[str, ...]) -> set[str]:
    """Every card a view mentions, as text ("Oak 3", also inside action texts) or as a planted
    card object ({"species": "Oak", "value": 3, ...}), in the text form "Oak 3"."""
    text = json.dumps(view)
    names = "|".join(re.escape(name) for name in species)
    found = set(re.findall(rf"(?<![A-Za-z])(?:{names}) [1-8]\b", text))
    found.update(f"{m[1]} {m[2]}" for m in re.finditer(r'"species": "([^"]+)", "value": (\d+)', text))
    return found


def hidden_from(state: State, seat: int | None) -> set[str]:
    """Cards ``seat`` may not see while the game runs (None: a spectator), as text."""
    zones = state.zones()
    hidden = zones["deck"] + zones.get("out", [])
    for other in range(state.seats):
        if other != seat:
            hidden += zones[f"hand {other}"]
    return {str(card) for card in hidden}


@settings(max_examples=15, deadline=None)
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


@settings(max_examples=15, deadline=None)
@given(games, st.floats(0, 1))
def test_games_replay_from_json_to_the_same_state(params: tuple[tuple[str, int, str], int], stop_at: float) -> None:
    (mode, players, edition), seed = params
    states = list(s.clone() if not s.is_terminal() else s for s in steps(mode, players, edition, seed))
    for state in (states[int(stop_at * (len(states) - 1))], states[-1]):
        saved = json.loads(json.dumps(state.to_json()))
        again = State.from_json(saved)
        assert again.to_json() == state.to_json()
        assert again.zones() == state.zones()
        for seat in [None, *range(state.seats)]:
            assert again.view(seat) == state.view(seat)
        assert again.outcome() == state.outcome()
        assert [seat for seat, _ in again.history] == [seat for seat, _ in state.history]


@settings(max_examples=12, deadline=None)
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
                assert view["pending"] == (None if own is None else {"card": str(own.card), "cell": own.cell and list(own.cell), "text": str(own)})


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
