"""Small builders that keep the rules tests readable."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Pick
from engine.arboretum import Arboretum
from engine.cards import Card
from engine.game import State
from engine.scoring import Seat


def grid(*rows: str) -> Arboretum:
    """An arboretum drawn as rows of cells separated by '|'; '.' is an empty cell.

    ``grid("Oak 1 | Oak 2", ". | Willow 3")`` puts Oak 1 at (0, 0), Oak 2 at (1, 0), Willow 3 at (1, 1)."""
    cells = {}
    for y, row in enumerate(rows):
        for x, text in enumerate(part.strip() for part in row.split("|")):
            if text != ".":
                cells[(x, y)] = Card.parse(text)
    return Arboretum.from_cells(cells)


def hand(*texts: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


def seat(name: str, arboretum: Arboretum, *hand_texts: str) -> Seat:
    return Seat(name, arboretum, hand(*hand_texts))


def filler(species: str, values: range | list[int]) -> list[str]:
    return [f"{species} {v}" for v in values]


def seen_face_up(state: Any) -> set[str]:
    """Card texts that lay face up on a discard pile at some moment of the game (dealt there,
    discarded, or turned up by solo's refill): everyone at the table saw them, so where they go
    next is no secret. Found by replaying the game's own history, not from its records."""
    replay = state.game.new_initial_state()
    if not hasattr(replay, "piles"):
        return set()  # the draft has no discard piles
    seen = {str(card) for pile in replay.piles for card in pile}
    for seat, action in state.history:
        replay.apply_action(action, seat)
        seen.update(str(card) for pile in replay.piles for card in pile)
    return seen


def shuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` with every card ``seat`` cannot see dealt anew: the draw pile and the
    other hands (Q's hand in the solo game); in the draft also the other seats' hidden picks."""
    other = state.clone()
    hands = other.hands  # type: ignore[attr-defined]
    others = [s for s in range(len(hands)) if s != seat]
    pool = list(other.deck)  # type: ignore[attr-defined]
    for s in others:
        pool += hands[s]
    rng.shuffle(pool)
    for s in others:
        size = len(hands[s])
        hands[s][:] = pool[:size]
        pool = pool[size:]
    other.deck[:] = pool  # type: ignore[attr-defined]
    if other.mode == "draft":
        pending = other.pending  # type: ignore[attr-defined]
        for s in others:
            if pending[s] is not None and hands[s]:
                pending[s] = Pick(rng.choice(hands[s]), None)
    return other
