"""The heuristic bot's play in the turn-based games: the standard game and the solo game.

Each decision is one step of lookahead scored by a value that guesses the final score:

    value = sum over species s of  P(right to s) * W(s)

``P`` compares the seat's hand sum (with the 8-versus-1 rule) to what the other hands can hold:
the cards it has seen them take from a discard pile plus their share of the cards it cannot see.
``W`` is the best path of ``s`` in its arboretum now plus a little for the cards of ``s`` that
could still extend it. Candidate placements are scored exactly and cheaply with
:class:`engine.bots.paths.PathTable` (the change in best-path points through the new card).

Solo: Q's arboretum is where the player's gift goes; the bot places each gift where it adds the
least to Q's paths (Q scores only a species with two cards in its arboretum, so spreading Q's
species and never putting Q's same-species cards on a rising walk keeps Q at zero)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import cast

from ..actions import DECK, SHARED_DISCARD, Action, Give
from ..arboretum import Arboretum, Cell
from ..cards import Card
from ..errors import NotYourTurnError
from ..standard import StandardState
from ..views import Phase
from .knowledge import TurnKnowledge, logistic, turn_knowledge
from .paths import PathTable

EIGHT = 2



class TableCache:
    """Path tables shared by every playout of one search decision. A table is kept by its
    arboretum's line: the seat's arboretum at the decision (the same in every deal: the deals
    change only hidden cards) and the cards planted into it since, in order (the order of
    planting is the order of the table's species, so two lines planting the same cards in
    another order get tables of their own). The playout tells it each card planted
    (:meth:`planted`); tables, and the answers they have worked out, are then shared by every
    deal and candidate that reaches the same arboretum."""

    __slots__ = ("tables", "line", "_ids", "_roots")

    def __init__(self, seats: int) -> None:
        self.tables: dict[int, PathTable] = {}
        self._roots = list(range(seats))
        #: the line of each seat's arboretum in the playout now
        self.line = list(self._roots)
        self._ids: dict[tuple[int, str, int, Cell], int] = {}

    def restart(self) -> None:
        """A new playout from the decision's arboretums."""
        self.line = list(self._roots)

    def planted(self, seat: int, card: Card, cell: Cell) -> None:
        key = (self.line[seat], card.species, card.value, cell)
        ident = self._ids.get(key)
        if ident is None:
            ident = self._ids[key] = len(self._ids) + len(self._roots)
        self.line[seat] = ident

    def table(self, seat: int, arboretum: Arboretum) -> PathTable:
        key = self.line[seat]
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = PathTable(arboretum, EIGHT)
        elif len(table.cells) != len(arboretum):
            raise AssertionError(f"seat {seat}: a playout planted a card without telling its table cache")
        return table

#: What an unseen card from the draw pile is worth, in the same units as a discard's value.
DECK_DRAW_VALUE = 1.0


def _by_species(cards: Iterable[Card]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for card in cards:
        out.setdefault(card.species, []).append(card.value)
    return out


class TurnPlanner:
    """One decision of one seat in a standard or solo game."""

    def __init__(self, state: StandardState, seat: int, cache: TableCache | None = None) -> None:
        self.state = state
        self.seat = seat
        self.solo = state.mode == "solo"
        self.know: TurnKnowledge = turn_knowledge(state, seat)
        #: path tables shared by the playouts of one search
        self._cache = cache
        self._tables: dict[int, PathTable] = {}
        self.mine = self._table(seat)
        self.species = self.know.species
        #: by card object (a decision's cards are the state's own)
        self._danger: dict[int, float] = {}
        #: the other seats' path tables and legal cells (for :meth:`danger`)
        self._others: list[tuple[PathTable, list[Cell]]] | None = None
        self._setup_claims()

    # -- rights ---------------------------------------------------------------------------
    def _setup_claims(self) -> None:
        know = self.know
        unseen = know.unseen_values
        self.unseen_count = max(1, len(know.unseen))
        others = [o for o in range(know.seats) if o != self.seat]
        if self.solo:
            # Q's hand at the end: what it holds now plus about one card per 3 of the draw pile
            slots = {1: know.hand_sizes[1] + know.deck_size / 3}
        else:
            slots = {o: max(0, 7 - len(know.known[o])) for o in others}
        #: the share of the unseen cards each other seat will hold
        shares = {o: min(1.0, slots[o] / self.unseen_count) for o in others}
        top_share = max(shares.values())
        known = {o: _by_species(know.known[o]) for o in others if know.known[o]}
        held_by_others = {name for cards in known.values() for name in cards}
        ones_known = {card.species for cards in know.known for card in cards if card.value == 1}
        planted = know.planted
        spread = len(others) - 1

        def pool_claim(pool: int, values: list[int]) -> float:
            best = pool * top_share
            if values:
                best += 1.0 + 0.1 * pool * spread
            return best

        #: per species: (their best claim if I hold the 1, if I do not)
        self.their_claim: dict[str, tuple[float, float]] = {}
        #: per species: whether my 8 is safe (I hold the 1 or it is dead in an arboretum)
        self.one_state: dict[str, str] = {}
        #: per species: :meth:`right` holding none of it
        self._right_none: dict[str, float] = {}
        for name in self.species:
            if planted[name] & 2:
                self.one_state[name] = "dead"
            elif name in ones_known:
                self.one_state[name] = "theirs"
            else:
                self.one_state[name] = "open"
            values = unseen.get(name, [])
            total = sum(values)
            if name in held_by_others:
                estimates = []
                for hold_one in (True, False):
                    pool = total - (8 if hold_one and 8 in values else 0)
                    best = 0.0
                    for o in others:
                        held = known[o].get(name, []) if o in known else []
                        mine = sum(held) - (8 if hold_one and 8 in held else 0)
                        expected = mine + pool * shares[o]
                        best = max(best, expected)
                    if values:
                        best += 1.0 + 0.1 * pool * spread
                    estimates.append(best)
                claim = (estimates[0], estimates[1])
            else:
                # no other seat holds a known card of it: each seat's claim is its share of the
                # pool, and the largest share's is the best (a product with the same pool rounds
                # in the order of the shares, so this is the loop's maximum; never below 0)
                without = pool_claim(total, values)
                claim = (pool_claim(total - 8, values) if values and values[-1] == 8 else without, without)
            self.their_claim[name] = claim
            self._right_none[name] = logistic((0.0 - claim[1] + 0.5) / 2.0)

    def right(self, name: str, values: list[int]) -> float:
        """Chance of the right to ``name`` holding ``values`` of it at the end."""
        if not values:
            return self._right_none[name]
        hold_one = 1 in values
        claim = float(sum(values))
        if 8 in values and not hold_one and not self.solo:
            state = self.one_state[name]
            if state == "theirs":
                claim -= 8
            elif state == "open":
                claim -= 3
        theirs = self.their_claim[name][0 if hold_one else 1]
        return logistic((claim - theirs + 0.5) / 2.0)

    def worth(self, name: str, table: PathTable, in_hand: int) -> float:
        best = table.best(name)
        count = table.count(name)
        base = best + 0.6 * min(in_hand, 3)
        if best == 0 and count:
            base += 1.0
        if self.solo and (best or in_hand):
            base += 2.0  # solo: each species scored counts toward the species race with Q
        return base

    # -- the decisions --------------------------------------------------------------------
    def hand_values(self, hand: list[Card]) -> dict[str, list[int]]:
        return _by_species(hand)

    def place_gain(self, table: PathTable, card: Card, cell: Cell, rights: dict[str, float]) -> float:
        """Right-weighted gain in best-path points from planting ``card`` at ``cell``."""
        gain = 0.0
        for species, points in table.gains(cell, card.value, card.species):
            gain += rights[species] * points
        return gain

    def choose_play(self, actions: list[Action]) -> Action:
        return _best(actions, self.score_plays(actions))

    def score_plays(self, actions: list[Action]) -> list[float]:
        """The value of each play (higher is better; ``actions``: legal plays)."""
        hand = self.know.hand
        values = self.hand_values(hand)
        rights = {name: self.right(name, values.get(name, [])) for name in self.species}
        worths = {name: self.worth(name, self.mine, len(values.get(name, []))) for name in self.species}
        mine = self.mine
        legal = self.state.arboretums[self.seat].legal_cells_view()
        # the value: the right-weighted gain in path points (:meth:`place_gain`), less what
        # playing the card costs its species' right, plus a little for planting where cards of
        # the same species still in hand can follow; what depends on the card alone is worked
        # out once a card
        per_card: dict[int, tuple[float, dict[str, float], float, float, float, str,
                                  dict[Cell, list[tuple[str, int]]]]] = {}
        for card in hand:
            name = card.species
            rest = list(values[name])
            rest.remove(card.value)
            after = self.right(name, rest)
            cost = (rights[name] - after) * worths[name]
            weights = rights
            if after != rights[name]:
                weights = dict(rights)
                weights[name] = after
            partners = sum(1 for other in hand if other.species == name and other is not card)
            low = 0.15 * (5 - card.value) / 4  # low cards first leave room to climb
            per_card[id(card)] = (cost, weights, weights[name], 0.35 * min(partners, 2), low, name,
                                  mine.gains_at(legal, card.value, name))
        scores: list[float] = []
        around = mine.around
        for action in actions:
            cell: Cell = action.cell  # type: ignore[union-attr,assignment]
            cost, weights, right, partnered, low, name, gains_at = per_card[id(action.card)]  # type: ignore[union-attr]
            gains = gains_at.get(cell)
            gain = 0.0
            if gains is not None:
                for species, points in gains:
                    gain += weights[species] * points
            free, neighbours = around(cell)
            if not free:
                setup = -0.2
            else:
                setup = right * (partnered + 0.25 * neighbours.get(name, 0) + low) + 0.05 * free
            scores.append(gain - cost + setup)
        return scores

    def keep_value(self, card: Card, hand: list[Card], values: dict[str, list[int]], rights: dict[str, float]) -> float:
        """What ``card`` is worth to this seat if it stays in hand (``values``: the hand's by
        species, ``rights``: :meth:`right` of each)."""
        name = card.species
        rest = list(values.get(name, []))
        if card.value in rest:
            rest.remove(card.value)
        claim = (rights[name] - self.right(name, rest)) * self.worth(name, self.mine, len(rest) + 1)
        # place_gain at every legal cell, as sums in the same order (the cells where nothing
        # gains add 0 and are left out)
        play = 0.0
        for gains in self.mine.gains_at(self.state.arboretums[self.seat].legal_cells_view(), card.value, name).values():
            gain = 0.0
            for species, points in gains:
                gain += rights[species] * points
            if gain > play:
                play = gain
        return claim + 0.6 * play + 0.1 * rights[name] * card.value / 8

    def danger(self, card: Card) -> float:
        """How much ``card`` would add to its own species' path for the best-placed other seat
        that takes it (a right is not certain: counted at half)."""
        cached = self._danger.get(id(card))
        if cached is not None:
            return cached
        if self._others is None:
            self._others = [(self._table(other), self.state.arboretums[other].legal_cells_view())
                            for other in range(self.know.seats) if other != self.seat and not (self.solo and other == 1)]
        worst = 0
        value, name = card.value, card.species
        for table, legal in self._others:
            gain = table.own_gain_legal(legal, value, name)
            worst = max(worst, gain)
        self._danger[id(card)] = worst * 0.5
        return worst * 0.5

    def _table(self, seat: int) -> PathTable:
        table = self._tables.get(seat)
        if table is None:
            arboretum = self.state.arboretums[seat]
            if self._cache is None:
                table = PathTable(arboretum, EIGHT)
            else:
                table = self._cache.table(seat, arboretum)
            self._tables[seat] = table
        return table

    def choose_discard(self, actions: list[Action]) -> Action:
        return _best(actions, self.score_discards(actions))

    def score_discards(self, actions: list[Action]) -> list[float]:
        """The value of each discard (higher is better: the card the seat misses least)."""
        hand = self.know.hand
        values = self.hand_values(hand)
        rights = {name: self.right(name, values.get(name, [])) for name in self.species}
        scores: list[float] = []
        for action in actions:
            card = action.card  # type: ignore[union-attr]
            their_right = 1 - rights[card.species]
            score = self.keep_value(card, hand, values, rights) + 0.5 * self.danger(card) + 0.05 * their_right * card.value
            scores.append(-score)
        return scores

    def choose_draw(self, actions: list[Action]) -> Action:
        return _best(actions, self.score_draws(actions))

    def score_draws(self, actions: list[Action]) -> list[float]:
        """The value of each draw (higher is better)."""
        hand = self.know.hand
        scores: list[float] = []
        base: dict[str, float] | None = None
        for action in actions:
            source = action.source  # type: ignore[union-attr]
            if source == DECK:
                score = DECK_DRAW_VALUE
            else:
                pile = self.know.piles[0 if source == SHARED_DISCARD else cast(int, source)]
                card = pile[-1]
                with_card = hand + [card]
                values = self.hand_values(with_card)
                # the drawn card changes its own species' right only
                if base is None:
                    held = self.hand_values(hand)
                    base = {name: self.right(name, held.get(name, [])) for name in self.species}
                rights = dict(base)
                rights[card.species] = self.right(card.species, values[card.species])
                score = self.keep_value(card, with_card, values, rights)
                if not self.solo and source != self.seat:
                    score += 0.3 * self.danger(card)
            scores.append(score)
        return scores

    # -- solo: the gift to Q ------------------------------------------------------------------
    def choose_give(self, actions: list[Action]) -> Action:
        return _best(actions, self.score_gives(actions))

    def score_gives(self, actions: list[Action]) -> list[float]:
        """The value of each gift to Q (higher is better: what the seat and Q's paths miss least)."""
        hand = self.know.hand
        values = self.hand_values(hand)
        rights = {name: self.right(name, values.get(name, [])) for name in self.species}
        q_table = self._table(1)
        q_rights = {name: 1.0 - 0.7 * rights[name] for name in self.species}
        keep = {id(card): self.keep_value(card, hand, values, rights) for card in hand}
        scores: list[float] = []
        for action in actions:
            give = cast(Give, action)
            card, cell = give.card, give.cell
            assert cell is not None  # legal gives name their cell (the rule's, when Q places them)
            name = card.species
            gain = self.place_gain(q_table, card, cell, q_rights)
            spread = 1.5 * q_rights[name] if q_table.count(name) else 0.0
            score = keep[id(card)] + 2.0 * gain + spread + 0.1 * _rising_edges(q_table, card, cell)
            scores.append(-score)
        return scores


def _best(actions: list[Action], scores: list[float]) -> Action:
    """The first action of the highest score."""
    best = 0
    for index, score in enumerate(scores):
        if score > scores[best]:
            best = index
    return actions[best]




def _rising_edges(table: PathTable, card: Card, cell: Cell) -> int:
    """Neighbours a new card makes a rising step with: the links a future path of Q could use."""
    x, y = cell
    count = 0
    for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        other = table.cells.get(n)
        if other is not None and other[0] != card.value:
            count += 1
    return count


def score_turn_actions(state: StandardState, seat: int,
                       cache: TableCache | None = None) -> tuple[list[Action], list[float]]:
    """Every legal action of ``seat`` with the heuristic's value of it (higher is better).
    ``cache``: path tables to share along one line of play (the strong bot's playouts)."""
    actions = state.legal_actions(seat)
    if not actions:
        raise NotYourTurnError(f"seat {seat}: it is seat {state.current_player()}'s turn")
    if len(actions) == 1:
        return actions, [0.0]
    planner = TurnPlanner(state, seat, cache)
    phase = state.phase
    if phase is Phase.PLAY:
        return actions, planner.score_plays(actions)
    if phase is Phase.DISCARD:
        return actions, planner.score_discards(actions)
    if phase is Phase.GIVE:
        return actions, planner.score_gives(actions)
    return actions, planner.score_draws(actions)


def choose_turn_action(state: StandardState, seat: int, rng: random.Random,
                       cache: TableCache | None = None) -> Action:
    """The heuristic's action for ``seat`` in a standard or solo game."""
    actions, scores = score_turn_actions(state, seat, cache)
    return _best(actions, scores)
