"""What one seat may know, gathered for the heuristic bot.

The heuristic bot reads a game state only through :func:`turn_knowledge` (standard and solo),
``state.arboretums``, ``state.phase`` and ``state.legal_actions(seat)``; the draft planner reads
``state.hands[seat]``, the arboretums and the round and pick counters. All of it is what the seat
may see (RULES.md §2–§4): its own hand, every arboretum, the face-up discard piles, the size of
the draw pile and of the other hands, the species in play, and the public log of a standard or
solo game (draws name their source, plays and discards name their card). Nothing reads another
seat's hand, the draw pile's order, Q's hand, or the draft's log (it holds the hidden picks).
``tests/engine/test_bots.py`` checks that the bot's choice does not change when those hidden
cards are dealt anew."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from .actions import Discard, Draw, Play
from .cards import Card
from .standard import StandardState

#: Stand-in for a card the log cannot name: a 2010 starting discard (dealt face up, but not part
#: of the log) that someone took before the replay could see it.
UNSEEN = None


def logistic(x: float) -> float:
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@dataclass
class TurnKnowledge:
    """A standard or solo game from one seat's chair."""

    seat: int
    seats: int
    species: tuple[str, ...]
    hand: list[Card]
    #: the face-up discard piles by seat (solo: the one shared pile), bottom first
    piles: list[list[Card]]
    deck_size: int
    #: hand sizes of every seat (public)
    hand_sizes: list[int]
    #: cards each other seat is known to hold (taken from a face-up discard pile, not yet played)
    known: list[list[Card]]
    #: cards this seat cannot see anywhere: in the draw pile or in other hands, not known
    unseen: list[Card]
    arboretum_cards: set[Card] = field(default_factory=set)


def turn_knowledge(state: StandardState, seat: int) -> TurnKnowledge:
    """Gather what ``seat`` knows in a standard or solo game (see the module docstring)."""
    seats = state.seats
    hand = list(state.hands[seat])
    piles = [list(pile) for pile in state.piles]
    known = _known_from_log(state, seat)
    seen: set[Card] = set(hand)
    arboretum_cards: set[Card] = set()
    for arboretum in state.arboretums:
        arboretum_cards.update(arboretum.cards())
    seen |= arboretum_cards
    for pile in piles:
        seen.update(pile)
    for cards in known:
        seen.update(cards)
    unseen = [card for card in _all_cards(tuple(state.species)) if card not in seen]
    return TurnKnowledge(
        seat=seat,
        seats=seats,
        species=tuple(state.species),
        hand=hand,
        piles=piles,
        deck_size=len(state.deck),
        hand_sizes=[len(h) for h in state.hands],
        known=known,
        unseen=unseen,
        arboretum_cards=arboretum_cards,
    )


def _known_from_log(state: StandardState, seat: int) -> list[list[Card]]:
    """Replay the public log over the discard piles: a card taken from a face-up pile is known
    to be in the taker's hand until they play or discard it. (Solo: only the player draws, and
    the player's hand is known directly.)"""
    if state.mode == "solo":
        return [[] for _ in range(state.seats)]
    # Starting piles (2010: one face-up card on every pile but the start player's) are not
    # named by the log; their count is what the log cannot account for, and a draw that takes
    # one teaches nothing.
    discarded_to = [0] * len(state.piles)
    drawn_from = [0] * len(state.piles)
    for actor, action in state.history:
        if isinstance(action, Discard):
            discarded_to[actor] += 1
        elif isinstance(action, Draw) and type(action.source) is int:
            drawn_from[action.source] += 1
    piles: list[list[Card | None]] = [
        [UNSEEN] * max(0, len(pile) + drawn_from[index] - discarded_to[index])
        for index, pile in enumerate(state.piles)
    ]
    hands: list[list[Card]] = [[] for _ in range(state.seats)]
    for actor, action in state.history:
        if isinstance(action, Discard):
            piles[actor].append(action.card)
            _remove(hands[actor], action.card)
        elif isinstance(action, Play):
            _remove(hands[actor], action.card)
        elif isinstance(action, Draw) and type(action.source) is int:
            pile = piles[action.source]
            card = pile.pop() if pile else UNSEEN
            if card is not UNSEEN and actor != seat:
                hands[actor].append(card)
    hands[seat] = []
    return hands


@functools.lru_cache(maxsize=64)
def _all_cards(species: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(Card(name, value) for name in species for value in range(1, 9))


def _remove(cards: list[Card], card: Card) -> None:
    try:
        cards.remove(card)
    except ValueError:
        pass
