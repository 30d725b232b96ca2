"""The heuristic bot's picks in the draft ("Wonders of the Arboretum", RULES.md §3).

A seat sees the hand in front of it and every arboretum; the other seats' pending picks stay
hidden (they are in the state's log, which this module never reads). The bot always plants (every
planted pick keeps the 3-point bonus alive, and a planted card can only add to a path and to the
arboretum sum that decides the right), and chooses the card and cell that most raise

    sum over species s of  P(right) * max(0, best path)  +  (1 - P(right)) * 2 if it has a path
                           + a little for cards of s to build on,

where ``P(right)`` compares its arboretum sum of ``s`` with the highest other arboretum's, and
best paths use the draft's 8 penalty (so it avoids ending a path on an 8). It also counts a
little for taking a card the seat it passes to would plant well."""

from __future__ import annotations

import random
from typing import cast

from ..actions import Action, Pick
from ..arboretum import Cell
from ..cards import Card
from ..draft import DraftState
from .knowledge import logistic
from .paths import PathTable

EIGHT = -2
#: How much a card the next seat would use is worth keeping from it.
DENIAL_WEIGHT = 0.25


#: path tables by (seat, cards in its arboretum), valid within one game line
TableCache = dict[tuple[int, int], PathTable]


class DraftPlanner:
    def __init__(self, state: DraftState, seat: int, cache: TableCache | None = None) -> None:
        self.state = state
        self.seat = seat
        self.species: tuple[str, ...] = tuple(state.species)
        self.hand: list[Card] = list(state.hands[seat])
        self._cache = cache
        self.mine = self._path_table(seat)
        sums: list[dict[str, int]] = []
        for arboretum in state.arboretums:
            totals: dict[str, int] = {}
            for card in arboretum.cards():
                totals[card.species] = totals.get(card.species, 0) + card.value
            sums.append(totals)
        self.my_sums = sums[seat]
        self.their_best = {
            name: max((sums[o].get(name, 0) for o in range(state.seats) if o != seat), default=0)
            for name in self.species
        }
        self.sums = sums
        self.picks_left: int = 7 - state.pick + 7 * (state.rounds - state.round - 1)
        self._receiver: PathTable | None = None

    def right(self, name: str, total: int) -> float:
        # the others still plant as many cards as this seat: a lead counts for less early on
        spread = 2.0 + 0.15 * self.picks_left
        return logistic((total - self.their_best[name] + 0.5) / spread)

    def species_value(self, name: str, best: int, has_path: bool, count: int, total: int) -> float:
        p = self.right(name, total)
        value = p * max(0, best) if has_path else 0.0
        if has_path:
            value += (1 - p) * 2
        # cards to build on: worth more while there are picks left to build with
        value += p * 0.5 * min(count, 4) * min(1.0, self.picks_left / 7)
        return value

    def pick_value(self, card: Card, cell: Cell) -> float:
        table = self.mine
        name = card.species
        gains = dict(table.gains(cell, card.value, name))
        total = 0.0
        for species in set(gains) | {name}:
            count = table.count(species)
            best = table.best(species)
            has = table.has_path(species)
            old_total = self.my_sums.get(species, 0)
            before = self.species_value(species, best, has, count, old_total)
            if species == name:
                count += 1
                new_total = old_total + card.value
            else:
                new_total = old_total
            after_best = best + gains.get(species, 0)
            after = self.species_value(species, after_best, has or species in gains, count, new_total)
            total += after - before
        return total + _shape(table, card, cell)

    def denial(self, card: Card) -> float:
        """What the seat this hand passes to would gain on ``card``'s own species by planting it."""
        state = self.state
        direction = -1 if state.round % 2 == 1 else 1
        receiver = (self.seat + direction) % state.seats
        if receiver == self.seat:
            return 0.0
        table = self._receiver_table(receiver)
        return float(table.own_gain(state.arboretums[receiver].legal_cells(), card.value, card.species))

    def _receiver_table(self, receiver: int) -> PathTable:
        if self._receiver is None:
            self._receiver = self._path_table(receiver)
        return self._receiver

    def _path_table(self, seat: int) -> PathTable:
        arboretum = self.state.arboretums[seat]
        if self._cache is None:
            return PathTable(arboretum, EIGHT)
        key = (seat, len(arboretum))
        table = self._cache.get(key)
        if table is None:
            table = self._cache[key] = PathTable(arboretum, EIGHT)
        return table

    def choose(self, actions: list[Action]) -> Action:
        scores = self.score(actions)
        best = 0
        for index, score in enumerate(scores):
            if score > scores[best]:
                best = index
        return actions[best]

    def score(self, actions: list[Action]) -> list[float]:
        """The value of each pick (higher is better); a discarded pick is never worth it."""
        scores: list[float] = []
        last_pick = self.picks_left == 1 and len(self.hand) == 2
        denials: dict[int, float] = {}
        plain: dict[int, float] = {}
        near = self.mine.near()
        for action in actions:
            card, cell = cast(Pick, action).card, cast(Pick, action).cell
            if cell is None:
                scores.append(-1e9)  # a discarded pick forfeits the planted-every-pick bonus for nothing
                continue
            if id(card) not in denials:
                denials[id(card)] = 0.0 if last_pick else DENIAL_WEIGHT * self.denial(card)
            if cell in near:
                value = self.pick_value(card, cell)
            else:
                # away from every walk the card raises no path: only its own species' sum and
                # card count change, the same at every such cell (pick_value's answer, cheaper)
                own = plain.get(id(card))
                if own is None:
                    own = plain[id(card)] = self._own_value(card)
                value = own + _shape(self.mine, card, cell)
            scores.append(value + denials[id(card)])
        return scores

    def _own_value(self, card: Card) -> float:
        """:meth:`pick_value` without the cell's shape, at a cell where no path gains."""
        table = self.mine
        name = card.species
        count = table.count(name)
        best = table.best(name)
        has = table.has_path(name)
        old_total = self.my_sums.get(name, 0)
        before = self.species_value(name, best, has, count, old_total)
        after = self.species_value(name, best, has, count + 1, old_total + card.value)
        return after - before


def _shape(table: PathTable, card: Card, cell: Cell) -> float:
    """Small preferences between otherwise equal cells: room around the new card, next to its
    own species, low cards early so paths can climb."""
    x, y = cell
    free = 0
    same = 0
    for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        other = table.cells.get(n)
        if other is None:
            free += 1
        elif other[1] == card.species and other[0] != card.value:
            same += 1
    return 0.05 * free + 0.15 * same - (0.3 if card.value == 8 and free == 0 else 0.0)


def score_picks(state: DraftState, seat: int) -> tuple[list[Action], list[float]]:
    """Every pick open to ``seat`` with the heuristic's value of it (higher is better)."""
    actions = state.legal_actions(seat)
    return actions, DraftPlanner(state, seat).score(actions)


def choose_pick(state: DraftState, seat: int, rng: random.Random, cache: TableCache | None = None) -> Action:
    """The heuristic's pick; ``cache``: path tables to share along one line of play."""
    actions = state.legal_actions(seat)
    return DraftPlanner(state, seat, cache).choose(actions)


__all__ = ["DraftPlanner", "choose_pick", "score_picks"]
