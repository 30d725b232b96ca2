"""What the other seats of a draft are collecting, read from what they passed and what they took.

A seat that is handed a hand sees which cards the seat before it left in it; that seat's pick,
revealed a moment later, says which card it preferred to them. A seat that takes Oak and passes
on a good Maple is collecting Oak, not Maple (RULES.md §3: the right to a species goes to the
highest sum of it in one's arboretum, so a collector keeps the high cards of its species). Its
arboretum says the same in public. :func:`tastes` adds both up per seat and species.

The strong bot deals the cards it has not seen with it (:func:`weighted_hand`): a hand that has
passed through seats collecting Oak is unlikely still to hold a high Oak, since each of them
would have taken it. Everything here comes from the hands the seat itself held
(:func:`engine.bots.knowledge.draft_memory`'s replay of its own view) and the public picks."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import cast

from ..cards import Card
from ..draft import DraftState
from ..errors import ArboretumError

#: a planted card's weight in a seat's taste for its species, and a good card passed on's
TAKEN = 1.0
PASSED = 0.5
#: a card passed on counts from this value on (a low card says little: anyone passes a 1)
GOOD = 5
#: how strongly a collector is assumed to take the high cards of its species (0: not at all)
STRENGTH = 0.6
#: a taste from which a seat is said to collect a species
COLLECTS = 2.0


@dataclass(frozen=True)
class Tastes:
    """Per seat, per species: how much the seat seems to collect it (positive) or to leave it
    (negative). The reading seat's own row is empty."""

    by_seat: tuple[dict[str, float], ...]

    def collecting(self, seat: int, most: int = 2) -> tuple[str, ...]:
        """The species ``seat`` most clearly collects, at most ``most``, best first."""
        row = self.by_seat[seat]
        liked = sorted((name for name, value in row.items() if value >= COLLECTS), key=lambda n: (-row[n], n))
        return tuple(liked[:most])


def tastes(state: DraftState, seat: int) -> Tastes:
    """Every other seat's taste as ``seat`` may know it: the cards in its arboretum, and at each
    reveal, for the seat that handed ``seat`` its new hand, the card it took and the good cards
    it passed on instead."""
    seats = state.seats
    rows: list[dict[str, float]] = [{} for _ in range(seats)]
    for other in range(seats):
        if other == seat:
            continue
        for card in state.arboretums[other].cards():
            rows[other][card.species] = rows[other].get(card.species, 0.0) + TAKEN
    replay = cast(DraftState, state.game.new_initial_state())
    try:
        for actor, action in state.history:
            before = replay.reveals
            direction = replay.direction
            # the hand that will come to ``seat`` at this reveal lies in front of the seat before it
            giver = (seat - direction) % seats
            offered = list(replay.hands[giver]) if replay.pick < 6 else []
            replay.apply_action(action, actor)
            if replay.reveals == before or giver == seat or not offered:
                continue
            taken = next((r.card for r in replay.last_reveal if r.seat == giver), None)
            if taken is None:
                continue  # a face-down discard: which card left is not known
            row = rows[giver]
            for card in offered:
                if card != taken and card.value >= GOOD:
                    row[card.species] = row.get(card.species, 0.0) - PASSED * card.value / 8
    except ArboretumError:
        pass  # a log that does not replay teaches nothing more than the arboretums
    rows[seat] = {}
    return Tastes(tuple(rows))


def pickers(state: DraftState, holder: int) -> list[int]:
    """The seats that have picked from the hand now in front of ``holder`` this round (it was
    dealt to the first of them)."""
    direction = 1 if state.round % 2 == 0 else -1
    return [(holder - step * direction) % state.seats for step in range(state.pick, 0, -1)]


def weight(card: Card, by: list[dict[str, float]]) -> float:
    """How likely ``card`` is still in a hand the seats of ``by`` (their tastes) have picked from:
    less the more they collect its species and the higher it is."""
    total = sum(max(0.0, row.get(card.species, 0.0)) for row in by)
    return math.exp(-STRENGTH * total * card.value / 8)


def weighted_hand(pool: list[Card], count: int, by: list[dict[str, float]], rng: random.Random) -> list[Card]:
    """``count`` cards drawn from ``pool`` (removed from it) without replacement, each with
    :func:`weight` (Efraimidis and Spirakis' keys: ``u ** (1 / w)``, the largest kept)."""
    if count <= 0:
        return []
    if not any(by):
        taken = pool[:count]
        del pool[:count]
        return taken
    keyed = sorted(range(len(pool)), key=lambda i: -(rng.random() ** (1.0 / weight(pool[i], by))))
    chosen = set(keyed[:count])
    hand = [pool[i] for i in sorted(chosen)]
    pool[:] = [card for i, card in enumerate(pool) if i not in chosen]
    return hand


__all__ = ["Tastes", "pickers", "tastes", "weight", "weighted_hand"]
