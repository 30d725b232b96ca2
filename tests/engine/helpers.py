"""Small builders that keep the rules tests readable."""

from __future__ import annotations

from typing import Any

from engine.arboretum import Arboretum
from engine.cards import Card
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
