"""The draft seat's memory of the hands it has held (engine.bots.knowledge.draft_memory): what a
person at the table knows, never more, and the strong bot's deals keep it."""

from __future__ import annotations

import random
from collections import Counter

from engine.bots import HeuristicBot, RandomBot
from engine.bots.knowledge import draft_memory
from engine.bots.search import determinize
from engine.draft import DraftState
from engine.games import Game

from .helpers import shuffle_hidden


def _cards(cards: list) -> Counter[str]:  # type: ignore[type-arg]
    return Counter(map(str, cards))


def _positions(players: int, seed: int, discarder: int | None = None) -> list[tuple[DraftState, int]]:
    state = Game("draft", players, seed=seed).new_initial_state()
    assert isinstance(state, DraftState)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        for seat in state.awaited_seats():
            out.append((state.clone(), seat))  # type: ignore[arg-type]
            bot = RandomBot() if seat == discarder else HeuristicBot()
            state.apply_action(bot.choose(state, seat, rng), seat)
    return out


def test_the_memory_holds_only_cards_that_are_there() -> None:
    for players, discarder in ((2, None), (3, None), (3, 1), (4, 2)):
        for state, seat in _positions(players, seed=7, discarder=discarder):
            memory = draft_memory(state, seat)
            assert _cards(memory.known[seat]) == _cards(state.hands[seat])
            for other in range(players):
                known, hand = memory.known[other], state.hands[other]
                # a hand that lost a card to a face-down discard may list one too many
                assert len(known) > len(hand) or not _cards(known) - _cards(hand)
            assert not _cards(memory.out) - _cards(state.out)


def test_three_players_know_every_hand_after_three_picks() -> None:
    for state, seat in _positions(3, seed=4):
        memory = draft_memory(state, seat)
        if state.pick >= 3:
            for other in range(3):
                assert _cards(memory.known[other]) == _cards(state.hands[other])
        if state.round > 0 and state.pick == 0:
            assert len(memory.out) == 3 * state.round  # every eighth card of the earlier rounds


def test_the_memory_and_the_deals_ignore_cards_the_seat_never_saw() -> None:
    shuffler = random.Random(3)
    for state, seat in _positions(3, seed=11)[::5]:
        memory = draft_memory(state, seat)
        det = determinize(state, seat, random.Random(2))
        assert isinstance(det, DraftState)
        for other in range(3):
            assert not _cards(memory.known[other]) - _cards(det.hands[other])
        again = shuffle_hidden(state, seat, shuffler)
        assert draft_memory(again, seat) == memory  # type: ignore[arg-type]
        assert determinize(again, seat, random.Random(2)).zones() == det.zones()
