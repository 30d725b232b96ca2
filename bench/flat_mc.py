"""A plain flat Monte-Carlo bot for the benchmark panel, written apart from engine/bots.

It is an opponent the strong bot's search does not model: it imports nothing of ``engine.bots``
and shares none of its ideas. For one decision it takes a handful of candidate actions (all of
them when few, else a sample weighted by a crude prior), and for each plays ``playouts`` games
to the end from a fresh deal of every card its seat cannot see (the other hands, the draw pile,
the draft's face-down cards, pooled and shuffled: no memory of what was passed or taken from a
pile), every seat moving by a quick greedy-random policy of its own (below). The candidate with
the best mean result (a win 1, a shared win 1/k, plus 0.02 a point of margin over the best other
seat) is played. Deterministic from the ``rng`` it is given.

The playout policy: draw from the deck, or take a discard pile's top card of a species the
mover has planted; plant the card and cell that touch the most cards of the card's species
(ties broken at random; higher values preferred a little in the draft, where the arboretum wins
the right, lower ones in the standard game, where the hand does); discard the lowest card; in the
draft pick the same way and never discard a pick."""

from __future__ import annotations

import random
from typing import cast

from engine import DraftState, Draw, Phase, Pick, Play, StandardState, State
from engine.actions import DECK, Action, Discard
from engine.arboretum import Arboretum, neighbours
from engine.cards import Card
from engine.game import SIMULTANEOUS


def _touching(arboretum: Arboretum, card: Card, cell: tuple[int, int]) -> float:
    """Neighbours of the same species count 1, any other neighbour a path could step through a
    quarter."""
    value = 0.0
    for n in neighbours(cell):
        other = arboretum.get(n)
        if other is not None and other.value != card.value:
            value += 1.0 if other.species == card.species else 0.25
    return value


def _greedy_place(arboretum: Arboretum, hand: list[Card], rng: random.Random, keep_high: bool = False
                  ) -> tuple[Card, tuple[int, int]]:
    """The card and cell touching the most; higher values first in the draft (they win the right
    there), lower ones in the standard game (the hand's high cards win it)."""
    cells = arboretum.legal_cells()
    best: tuple[float, Card, tuple[int, int]] | None = None
    for card in hand:
        for cell in cells:
            value = 2.0 * _touching(arboretum, card, cell) + (-0.2 if keep_high else 0.1) * card.value + rng.random()
            if best is None or value > best[0]:
                best = (value, card, cell)
    assert best is not None
    return best[1], best[2]


def _policy(state: State, seat: int, rng: random.Random) -> Action:
    """The playouts' quick move for ``seat``."""
    if isinstance(state, DraftState):
        card, cell = _greedy_place(state.arboretums[seat], state.hands[seat], rng)
        return Pick(card, cell)
    standard = cast(StandardState, state)
    phase = standard.phase
    hand = standard.hands[seat]
    if phase is Phase.DRAW1 or phase is Phase.DRAW2:
        planted = {card.species for card in standard.arboretums[seat].cards()}
        options: list[Action] = []
        for action in standard.legal_actions(seat):
            source = cast(Draw, action).source
            if source == DECK:
                continue
            pile = standard.piles[source] if type(source) is int else standard.piles[0]
            if pile and pile[-1].species in planted and rng.random() < 0.5:
                options.append(action)
        if options:
            return rng.choice(options)
        return standard.legal_actions(seat)[0] if not standard.deck else Draw(DECK)
    if phase is Phase.PLAY:
        card, cell = _greedy_place(standard.arboretums[seat], hand, rng, keep_high=True)
        return Play(card, cell)
    if phase is Phase.DISCARD:
        return Discard(min(hand, key=lambda c: (c.value, rng.random())))
    return rng.choice(standard.legal_actions(seat))  # the solo game's gifts: not part of the panel


def _deal(state: State, seat: int, rng: random.Random) -> State:
    """A copy with every card ``seat`` cannot see shuffled among the places it could be."""
    det = state.clone()
    if isinstance(det, DraftState):
        others = [s for s in range(det.seats) if s != seat]
        pool = list(det.deck) + list(det.out) + [c for s in others for c in det.hands[s]]
        # the seat's own face-down cards are known to it: keep them out of the pool
        rng.shuffle(pool)
        for s in others:
            size = len(det.hands[s])
            det.hands[s], pool = pool[:size], pool[size:]
            det.pending[s] = None
        size = len(det.deck)
        det.deck, det.out = pool[:size], pool[size:]
        return det
    standard = cast(StandardState, det)
    others = [s for s in range(standard.seats) if s != seat]
    pool = list(standard.deck) + [c for s in others for c in standard.hands[s]]
    rng.shuffle(pool)
    for s in others:
        size = len(standard.hands[s])
        standard.hands[s], pool = pool[:size], pool[size:]
    standard.deck = pool
    return standard


def _play_out(state: State, rng: random.Random) -> None:
    while not state.is_terminal():
        player = state.current_player()
        if player == SIMULTANEOUS:
            for s in state.awaited_seats():
                state.apply_action(_policy(state, s, rng), s)
        else:
            state.apply_action(_policy(state, player, rng), player)


def _result(state: State, seat: int) -> float:
    outcome = state.outcome()
    assert outcome is not None
    totals = [p.total for p in outcome.players]
    win = 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    return win + 0.02 * (totals[seat] - max(t for s, t in enumerate(totals) if s != seat))


class FlatMonteCarloBot:
    """Flat Monte Carlo: ``playouts`` playouts a decision shared among at most ``width``
    candidates."""

    name = "flatmc"

    def __init__(self, playouts: int = 40, width: int = 8) -> None:
        self.playouts = playouts
        self.width = width

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        actions = state.legal_actions(seat)
        if isinstance(state, DraftState):
            actions = [a for a in actions if cast(Pick, a).cell is not None]  # never waste a pick
        if len(actions) == 1:
            return actions[0]
        candidates = self._candidates(state, seat, actions, rng)
        per = max(1, self.playouts // len(candidates))
        totals = [0.0] * len(candidates)
        for _ in range(per):
            deal = _deal(state, seat, rng)
            seed = rng.getrandbits(32)
            for index, action in enumerate(candidates):
                trial = deal.clone()
                trial.apply_action(action, seat)
                _play_out(trial, random.Random(seed))
                totals[index] += _result(trial, seat)
        best = max(range(len(candidates)), key=lambda i: totals[i])
        return candidates[best]

    def _candidates(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> list[Action]:
        if len(actions) <= self.width:
            return actions
        arboretum = state.arboretums[seat]
        weight = 0.1 if isinstance(state, DraftState) else -0.2

        def prior(action: Action) -> float:
            if isinstance(action, (Pick, Play)) and action.cell is not None:
                return 2.0 * _touching(arboretum, action.card, action.cell) + weight * action.card.value + rng.random()
            if isinstance(action, Discard):
                return 8 - action.card.value + rng.random()
            return rng.random()

        return sorted(actions, key=prior, reverse=True)[:self.width]

