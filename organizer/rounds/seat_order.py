"""Seat order: who takes which seat at a table already grouped, balancing positions over an event.

Positions are counted relative to the table's size: seat 1 starts and the last seat deals at
every table, so a table of 4 has start, second, third and dealer, a table of 3 start, second and
dealer, a table of 2 start and dealer. A player who dealt at a table of 3 has had the dealer's
seat when they next sit at a table of 4.

An order is scored, compared in this order (`OrderCost`):
1. repeated seats: players in a position they already had;
2. start excess: the start player's starts so far minus their fair share of starts (1/size for
   every table they played), so starts go to whoever is most behind their share;
3. dealer excess: the same for the dealer;
4. depth: how often, in all, the players already sat where they sit now (a seat had once
   rather than twice, when every seat repeats).

Every part is a sum over the table's players and every player sits at one table, so the round's
cost is the sum of its tables' costs and the best order of each table, found by trying all of
them (at most 24), is also the best choice for all tables together (docs/rounds.md,
"Seat positions over an event"; tests/rounds/test_seat_order.py checks it exhaustively).
Minimising parts 2 and 3 is minimising the sum of squared differences between each player's
starts (deals) and their fair share, event-wide.

The seat order never changes who sits together: the grouping is chosen first, with repeated
opponents first of all and then the seats a table must repeat whatever its order
(organizer.rounds.seating_search), so part 1 here reaches what the grouping counted.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from organizer.core.translate import _


class SeatingHistory(Protocol):
    """What the seat order reads of the earlier rounds (``seating.SeatingHistory``): each
    player's positions so far and their fair share of starts and deals."""

    @property
    def seat_counts(self) -> dict[int, list[int]]: ...

    @property
    def shares(self) -> dict[int, int]: ...


START, SECOND, THIRD, DEALER = 0, 1, 2, 3
POSITIONS = 4
POSITION_NAMES = ("start", "second", "third", "dealer")

SHARE_UNIT = 12
"""A fair share is counted in twelfths: 1/2, 1/3 and 1/4 of a start are then whole numbers."""

OrderCost = tuple[int, int, int, int]


def position_of(index: int, size: int) -> int:
    """The position of the seat at `index` (0-based) of a table of `size`, relative to its size."""
    if not 0 <= index < size:
        raise ValueError(f"seat {index + 1} is not at a table of {size}")
    if index == 0:
        return START
    if index == size - 1:
        return DEALER
    return index


def seat_label(index: int, size: int) -> str:
    """The seat as people say it: "1 (start)", "2", "4 (dealer)"."""
    position = position_of(index, size)
    if position == START:
        return _("%(seat)d (start)", seat=index + 1)
    if position == DEALER:
        return _("%(seat)d (dealer)", seat=index + 1)
    return str(index + 1)


def order_cost(order: Sequence[int], history: SeatingHistory) -> OrderCost:
    """The cost of seating a table in this order (player ids, seat 1 first); lower is better."""
    size = len(order)
    seat_counts, shares = history.seat_counts, history.shares
    repeated = depth = 0
    for index, player in enumerate(order):
        counts = seat_counts.get(player)
        had = counts[position_of(index, size)] if counts else 0
        repeated += had > 0
        depth += had
    starter, dealer = order[0], order[-1]
    start_excess = SHARE_UNIT * _count(seat_counts, starter, START) - shares.get(starter, 0)
    deal_excess = SHARE_UNIT * _count(seat_counts, dealer, DEALER) - shares.get(dealer, 0)
    return repeated, start_excess, deal_excess, depth


def round_cost(tables: Iterable[Sequence[int]], history: SeatingHistory) -> OrderCost:
    """The sum of the tables' costs: what the seat order of a whole round is judged by."""
    total = [0, 0, 0, 0]
    for table in tables:
        for part, value in enumerate(order_cost(table, history)):
            total[part] += value
    return total[0], total[1], total[2], total[3]


def order_table(members: Sequence[int], history: SeatingHistory, rng: random.Random) -> list[int]:
    """The best seat order of one table; equally good orders are told apart by `rng`."""
    shuffled = sorted(members)
    rng.shuffle(shuffled)  # min() keeps the first of equals: the seed picks among ties
    best: tuple[int, ...] = min(itertools.permutations(shuffled), key=lambda o: order_cost(o, history))
    return list(best)


def order_tables(
    groups: Sequence[Sequence[int]], history: SeatingHistory, rng: random.Random
) -> list[list[int]]:
    """The best seat order of every table of a round (best for the tables together, too)."""
    return [order_table(group, history, rng) for group in groups]


def repeated_seats(tables: Iterable[Sequence[int | None]], history: SeatingHistory) -> list[int]:
    """The players who sit in a position they already had, in seat order table by table
    (None: a seat without a player, a bot's)."""
    found = []
    for table in tables:
        for index, player in enumerate(table):
            if player is not None and _count(history.seat_counts, player, position_of(index, len(table))):
                found.append(player)
    return found


def _count(seat_counts: Mapping[int, Sequence[int]], player: int, position: int) -> int:
    counts = seat_counts.get(player)
    return counts[position] if counts else 0


__all__ = [
    "DEALER",
    "POSITIONS",
    "POSITION_NAMES",
    "SECOND",
    "SHARE_UNIT",
    "START",
    "THIRD",
    "OrderCost",
    "order_cost",
    "order_table",
    "order_tables",
    "position_of",
    "repeated_seats",
    "round_cost",
    "seat_label",
]
