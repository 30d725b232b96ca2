"""What one seat may know, gathered for the heuristic bot.

The heuristic bot reads a game state only through :func:`turn_knowledge` (standard and solo),
``state.arboretums``, ``state.phase`` and ``state.legal_actions(seat)``; the draft planner reads
``state.hands[seat]``, the arboretums and the round and pick counters. All of it is what the seat
may see (RULES.md §2–§4): its own hand, every arboretum, the face-up discard piles, the size of
the draw pile and of the other hands, the species in play, and the public log of a standard or
solo game (draws name their source, plays and discards name their card). Nothing reads another
seat's hand, the draw pile's order, Q's hand, or the draft's log (it holds the hidden picks);
the strong bot's :func:`draft_memory` replays that log only to recover what the seat itself saw
(the hands it held this round and the picks planted in public), as a person remembers them.
``tests/engine/test_bots.py`` checks that the bot's choice does not change when those hidden
cards are dealt anew."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import cast

from ..actions import Discard, Draw, Pick, Play
from ..cards import Card
from ..draft import DraftState
from ..errors import ArboretumError
from ..standard import StandardState

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
    #: the values of :attr:`unseen` by species, rising (species with none left out)
    unseen_values: dict[str, list[int]] = field(default_factory=dict)
    #: the values planted in the arboretums by species, one bit per value (``1 << value``)
    planted: dict[str, int] = field(default_factory=dict)


#: the values 1..8 missing from a set of values kept one bit per value (``1 << value``)
_MISSING = tuple(tuple(v for v in range(1, 9) if not mask >> v & 1) for mask in range(512))


def turn_knowledge(state: StandardState, seat: int) -> TurnKnowledge:
    """Gather what ``seat`` knows in a standard or solo game (see the module docstring)."""
    species = tuple(state.species)
    hand = list(state.hands[seat])
    piles = [list(pile) for pile in state.piles]
    known = _known_from_log(state, seat)
    # cards are told apart by (species, value), one bit per value: cheaper than sets of cards
    # on the strong bot's hottest path (every move of every playout)
    planted = dict.fromkeys(species, 0)
    for arboretum in state.arboretums:
        for card in arboretum.cards():
            planted[card.species] |= 1 << card.value
    seen = dict(planted)
    for card in hand:
        seen[card.species] |= 1 << card.value
    for pile in piles:
        for card in pile:
            seen[card.species] |= 1 << card.value
    for cards in known:
        for card in cards:
            seen[card.species] |= 1 << card.value
    every = _all_cards(species)
    unseen: list[Card] = []
    unseen_values: dict[str, list[int]] = {}
    for index, name in enumerate(species):
        missing = _MISSING[seen[name]]
        if missing:
            unseen_values[name] = list(missing)
            base = 8 * index - 1
            unseen.extend([every[base + value] for value in missing])
    return TurnKnowledge(
        seat=seat,
        seats=state.seats,
        species=species,
        hand=hand,
        piles=piles,
        deck_size=len(state.deck),
        hand_sizes=[len(h) for h in state.hands],
        known=known,
        unseen=unseen,
        unseen_values=unseen_values,
        planted=planted,
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
    history = state.history
    discarded_to = [0] * len(state.piles)
    drawn_from = [0] * len(state.piles)
    for actor, action in history:
        kind = type(action)
        if kind is Discard:
            discarded_to[actor] += 1
        elif kind is Draw and type(action.source) is int:  # type: ignore[union-attr]
            drawn_from[action.source] += 1  # type: ignore[union-attr]
    piles: list[list[Card | None]] = [
        [UNSEEN] * max(0, len(pile) + drawn_from[index] - discarded_to[index])
        for index, pile in enumerate(state.piles)
    ]
    hands: list[list[Card]] = [[] for _ in range(state.seats)]
    for actor, action in history:
        kind = type(action)
        if kind is Discard:
            card = action.card  # type: ignore[union-attr]
            piles[actor].append(card)
            if hands[actor]:
                _remove(hands[actor], card)
        elif kind is Play:
            if hands[actor]:
                _remove(hands[actor], action.card)  # type: ignore[union-attr]
        elif kind is Draw and type(action.source) is int:  # type: ignore[union-attr]
            pile = piles[action.source]  # type: ignore[union-attr]
            taken = pile.pop() if pile else UNSEEN
            if taken is not UNSEEN and actor != seat:
                hands[actor].append(taken)
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


@dataclass
class DraftMemory:
    """What a draft seat remembers of this round: every hand it has held, less the picks it has
    seen planted from it since, is still in front of the seat it was passed to. In three players
    a seat has seen all three hands after three picks."""

    #: cards each seat is known to hold now (the seat's own: its hand); a hand that lost a card
    #: to an unseen discard may list one card too many (which one left is not known)
    known: list[list[Card]]
    #: cards known to be out of the game: the eighth cards of earlier rounds the seat had seen
    out: list[Card]


def draft_memory(state: DraftState, seat: int) -> DraftMemory:
    """The hands ``seat`` has seen in front of it, followed around the table.

    A person remembers the hands they were passed; the state keeps only the present one, so the
    log is replayed from the deal and, at every reveal, only what the seat saw is kept: the hand
    it received, its own pick and the picks planted in public. Nothing of another seat's hand
    that the seat never held is read. A log that does not replay to the seat's hand (it always
    should) gives an empty memory."""
    empty = DraftMemory([[] for _ in range(state.seats)], [])
    if state.terminal:
        return empty
    replay = cast(DraftState, state.game.new_initial_state())
    seats = state.seats
    known: list[list[Card]] = [[] for _ in range(seats)]
    known[seat] = list(replay.hands[seat])
    out: list[Card] = []
    for actor, action in state.history:
        before = replay.reveals
        mine = list(replay.hands[seat])
        my_pick = action if actor == seat else replay.pending[seat]
        direction = replay.direction
        try:
            replay.apply_action(action, actor)
        except ArboretumError:
            return empty
        if replay.reveals == before:
            continue
        left: list[list[Card]] = [[] for _ in range(seats)]
        for reveal in replay.last_reveal:
            if reveal.seat == seat:
                rest = list(mine)
                _remove(rest, cast(Pick, my_pick).card)
                left[seat] = rest
                continue
            rest = known[reveal.seat]
            if reveal.card is not None:
                _remove(rest, reveal.card)
            left[reveal.seat] = rest
        known = [[] for _ in range(seats)]
        if replay.pick == 0:
            # the round is over: the eighth cards leave; the ones the seat is sure of are out
            out.extend(card for cards in left if len(cards) == 1 for card in cards)
        else:
            for s in range(seats):
                known[(s + direction) % seats] = left[s]
        if not replay.terminal:
            known[seat] = list(replay.hands[seat])
    if sorted(map(str, known[seat])) != sorted(map(str, state.hands[seat])):
        return empty
    return DraftMemory(known, out)
