"""Seating a round: table sizes, Swiss pairing with repeat avoidance, then the seat order.

Pure functions over plain dataclasses, so the organizer views, the benchmark and the tests all
call the same code without a database. The grouping search lives in `seating_search`, the
seat order in `seat_order`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from organizer.core.translate import _, format_list, ngettext
from organizer.rounds.seat_order import DEALER, POSITIONS, SHARE_UNIT, START, order_tables
from organizer.rounds.seating_search import ALL_POSITIONS, SeatingSearch, TableCost

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 4


class SeatingError(ValueError):
    """A seating request that cannot be met; the message names the problem."""


@dataclass(frozen=True)
class SeatingPlayer:
    """A checked-in player as the seating sees them.

    `rank` is 0 for the top of the current standings (shared ranks are fine);
    `fixed_table` is the 1-based table number the player must sit at (accessibility);
    `name` is how a refusal names them (their id when empty).
    """

    id: int
    rank: int
    fixed_table: int | None = None
    name: str = ""

    @property
    def called(self) -> str:
        return self.name or str(self.id)


@dataclass
class SeatingHistory:
    """What earlier rounds tell the seating: who met whom, who sat where.

    `seat_counts[player]` counts the positions they had, relative to table size
    (start, second, third, dealer: `seat_order.position_of`); `shares[player]` is their fair
    share of starts, and of deals, so far, in twelfths (12 / size for every table played).
    """

    opponents: dict[int, set[int]] = field(default_factory=dict)
    seat_counts: dict[int, list[int]] = field(default_factory=dict)
    shares: dict[int, int] = field(default_factory=dict)

    @classmethod
    def from_tables(cls, tables: Iterable[Sequence[int]]) -> SeatingHistory:
        """Build the history from past tables, each a list of player ids in seat order."""
        history = cls()
        for table in tables:
            history.add_table(table)
        return history

    @property
    def start_counts(self) -> dict[int, int]:
        """How often each player started (players who never did are left out)."""
        return {player: counts[START] for player, counts in self.seat_counts.items() if counts[START]}

    def add_table(self, table: Sequence[int | None], positions: bool = True) -> None:
        """Record one played table (player ids in seat order, seat 0 the start player; None for
        a seat without a player, a bot's). `positions=False` records only who met: a draft table
        has no start player or dealer."""
        players = [p for p in table if p is not None]
        if len(set(players)) != len(players):
            raise SeatingError(_("a past table lists a player twice: %(players)s", players=str(list(table))))
        # Written for speed (a 10,000-player event's history is 40,000 seats): the position is
        # `seat_order.position_of` inlined, the sets and lists made once per player.
        opponents, seat_counts, shares = self.opponents, self.seat_counts, self.shares
        size = len(table)
        last, share = size - 1, SHARE_UNIT // size
        for index, player in enumerate(table):
            if player is None:
                continue
            met = opponents.get(player)
            if met is None:
                met = opponents[player] = set()
            met.update(players)
            met.discard(player)
            if positions:
                counts = seat_counts.get(player)
                if counts is None:
                    counts = seat_counts[player] = [0] * POSITIONS
                counts[START if index == 0 else DEALER if index == last else index] += 1
                shares[player] = shares.get(player, 0) + share

    def have_met(self, a: int, b: int) -> bool:
        return b in self.opponents.get(a, ()) or a in self.opponents.get(b, ())


def table_sizes(n_players: int, preferred: int) -> list[int]:
    """Split `n_players` into tables of 2–4, largest first.

    The rule (see docs/rounds.md): every table within one of `preferred` when that is
    possible at all, then as many tables of the preferred size as possible, then as few
    other tables as possible, then the smallest total distance from the preferred size.
    A table of one never happens.
    """
    if isinstance(preferred, bool) or not isinstance(preferred, int):
        raise SeatingError(_("preferred table size must be a whole number, not %(size)s", size=repr(preferred)))
    if not MIN_TABLE_SIZE <= preferred <= MAX_TABLE_SIZE:
        raise SeatingError(
            _("preferred table size must be %(smallest)d, 3 or %(largest)d, not %(size)d",
              smallest=MIN_TABLE_SIZE, largest=MAX_TABLE_SIZE, size=preferred)
        )
    if isinstance(n_players, bool) or not isinstance(n_players, int):
        raise SeatingError(_("number of players must be a whole number, not %(count)s", count=repr(n_players)))
    if n_players < MIN_TABLE_SIZE:
        raise SeatingError(_("at least 2 players are needed to seat a round, not %(count)d", count=n_players))

    # More than three tables of one other size never helps: four 3s make three 4s, two 2s one 4,
    # three 4s four 3s, three 2s two 3s, two 3s three 2s, one 4 two 2s. So try 0..3 of each.
    others = [size for size in (4, 3, 2) if size != preferred]
    best_key: tuple[int, int, int, int] | None = None
    best: dict[int, int] = {}
    for first, second in itertools.product(range(4), repeat=2):
        rest = n_players - first * others[0] - second * others[1]
        if rest < 0 or rest % preferred:
            continue
        counts = {preferred: rest // preferred, others[0]: first, others[1]: second}
        key = (
            sum(c for size, c in counts.items() if abs(size - preferred) > 1),
            -counts[preferred],
            first + second,
            sum(c * abs(size - preferred) for size, c in counts.items()),
        )
        if best_key is None or key < best_key:
            best_key, best = key, counts
    return [size for size in (4, 3, 2) for _ in range(best[size])]


def propose_seating(
    players: Sequence[SeatingPlayer],
    round_number: int,
    preferred_size: int,
    seed: int | str,
    history: SeatingHistory | None = None,
    by_rating: bool = False,
) -> list[list[int]]:
    """Propose the tables of a round: table 1 first, each a list of player ids in seat order.

    Seat 0 is the start player, the last seat the dealer (on the start player's right); each
    table's order balances the positions over the event (`seat_order`).
    Round 1 is a shuffle reproducible from `seed`; with `by_rating`, the players' ranks are their
    ratings' order and round 1 deals them to the tables in snake order (`_spread_groups`), so
    every table gets a like mix of strong and weak players. Later rounds are Swiss: tables group players
    of neighbouring ranks while first minimising repeated opponent pairs, then the players whom
    every seat order of their table puts in a position they already had, then the sum over
    tables of the rank range, then start players who have started before, then the rank variance.
    The same inputs always give the same tables.
    """
    history = history or SeatingHistory()
    if round_number < 1:
        raise SeatingError(f"round number must be 1 or more, not {round_number}")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        raise SeatingError(f"players listed more than once: {duplicates}")
    for p in players:
        if p.rank < 0:
            raise SeatingError(f"player {p.id} has rank {p.rank}; ranks start at 0 for the top")
    sizes = table_sizes(len(players), preferred_size)
    sizes = _sizes_fitting_fixed_players(players, sizes)

    rng = random.Random(f"arboretum-seating:{seed}:{round_number}")
    if round_number == 1 and by_rating:
        groups = _spread_groups(players, sizes, rng)
    elif round_number == 1:
        groups = _random_groups(players, sizes, rng)
    else:
        groups = _swiss_groups(players, sizes, history, rng)
    # Who sits together is settled first (already counting the seats each table must repeat);
    # the seat order cannot add a repeated opponent.
    return order_tables([sorted(p.id for p in group) for group in groups], history, rng)


def repeated_pairs(tables: Sequence[Sequence[int]], history: SeatingHistory) -> list[tuple[int, int]]:
    """The pairs seated together who have met before (for the TO's review screen)."""
    pairs = []
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            if history.have_met(a, b):
                pairs.append((min(a, b), max(a, b)))
    return sorted(pairs)


def rank_spread(tables: Sequence[Sequence[int]], ranks: dict[int, int]) -> int:
    """Sum over tables of (worst rank - best rank) at the table."""
    return sum(max(ranks[p] for p in t) - min(ranks[p] for p in t) for t in tables if t)


def _sizes_fitting_fixed_players(players: Sequence[SeatingPlayer], sizes: list[int]) -> list[int]:
    """Give the table numbers sizes so every fixed table has room, refusing what cannot fit."""
    demand: dict[int, list[SeatingPlayer]] = {}
    for p in players:
        if p.fixed_table is None:
            continue
        if not 1 <= p.fixed_table <= len(sizes):
            raise SeatingError(
                ngettext("player %(player)s is fixed to table %(table)d, but this round has %(num)d table",
                         "player %(player)s is fixed to table %(table)d, but this round has %(num)d tables",
                         len(sizes), player=p.called, table=p.fixed_table)
            )
        demand.setdefault(p.fixed_table, []).append(p)
    if all(len(fixed) <= sizes[t - 1] for t, fixed in demand.items()):
        return sizes
    for table, fixed in demand.items():
        if len(fixed) > max(sizes):
            raise SeatingError(
                _("players %(players)s are all fixed to table %(table)d, but no table this round seats more "
                  "than %(size)d", players=_names(fixed), table=table, size=max(sizes))
            )
    # Hand the largest tables to the busiest fixed tables; the rest keep largest-first order.
    remaining = sorted(sizes, reverse=True)
    assigned: dict[int, int] = {}
    for table in sorted(demand, key=lambda t: (-len(demand[t]), t)):
        assigned[table] = remaining.pop(0)
        if len(demand[table]) > assigned[table]:
            raise SeatingError(
                _("players %(players)s are fixed to table %(table)d, but there are not enough tables of "
                  "%(size)d for every fixed table", players=_names(demand[table]), table=table,
                  size=len(demand[table]))
            )
    return [assigned[t] if t in assigned else remaining.pop(0) for t in range(1, len(sizes) + 1)]


def _names(players: Sequence[SeatingPlayer]) -> str:
    return format_list([p.called for p in sorted(players, key=lambda p: (p.called.casefold(), p.id))])


def _random_groups(
    players: Sequence[SeatingPlayer], sizes: list[int], rng: random.Random
) -> list[list[SeatingPlayer]]:
    groups: list[list[SeatingPlayer]] = [[] for _ in sizes]
    free = [p for p in players if p.fixed_table is None]
    for p in players:
        if p.fixed_table is not None:
            groups[p.fixed_table - 1].append(p)
    # Sort first so the shuffle depends on the set of players, not the order they were given in.
    free.sort(key=lambda p: p.id)
    rng.shuffle(free)
    slots = iter(free)
    for group, size in zip(groups, sizes, strict=True):
        while len(group) < size:
            group.append(next(slots))
    return groups


def _spread_groups(
    players: Sequence[SeatingPlayer], sizes: list[int], rng: random.Random
) -> list[list[SeatingPlayer]]:
    """Free players dealt best rank first in snake order (tables 1, 2, ..., n, then n, ..., 1,
    and again), each table's free seats filled once it is full: the best player sits at table 1,
    the second best at table 2, and the tables' strength comes out alike. Fixed players keep
    their tables; players of equal rank (the unrated) come in an order shuffled by the seed."""
    groups: list[list[SeatingPlayer]] = [[] for _ in sizes]
    for p in players:
        if p.fixed_table is not None:
            groups[p.fixed_table - 1].append(p)
    free = sorted((p for p in players if p.fixed_table is None), key=lambda p: p.id)
    tiebreak = list(range(len(free)))
    rng.shuffle(tiebreak)
    order = [p for _, p in sorted(zip(tiebreak, free, strict=True), key=lambda pair: (pair[1].rank, pair[0]))]
    lap = list(range(len(sizes)))
    players_left = iter(order)
    while any(len(group) < size for group, size in zip(groups, sizes, strict=True)):
        for number in lap:
            if len(groups[number]) < sizes[number]:
                groups[number].append(next(players_left))
        lap.reverse()
    return groups


def _swiss_groups(
    players: Sequence[SeatingPlayer],
    sizes: list[int],
    history: SeatingHistory,
    rng: random.Random,
) -> list[list[SeatingPlayer]]:
    ordered = sorted(players, key=lambda p: p.id)
    index = {p.id: i for i, p in enumerate(ordered)}
    met = [
        {index[o] for o in history.opponents.get(p.id, ()) if o in index}
        for p in ordered
    ]
    # History may be one-sided if built by hand; a meeting counts whoever recorded it.
    for i, others in enumerate(met):
        for j in others:
            met[j].add(i)
    starts = history.start_counts
    search = SeatingSearch(
        ranks=[p.rank for p in ordered],
        met=met,
        start_counts=[starts.get(p.id, 0) for p in ordered],
        sizes=sizes,
        pinned=[None if p.fixed_table is None else p.fixed_table - 1 for p in ordered],
        rng=rng,
        new_positions=[_new_positions(history.seat_counts.get(p.id)) for p in ordered],
    )
    tables = search.run()
    return [[ordered[i] for i in table] for table in _top_tables_first(tables, search)]


def _new_positions(counts: Sequence[int] | None) -> int:
    """The positions a player never had, as bits (position k is bit k)."""
    if counts is None:
        return ALL_POSITIONS
    return sum(1 << position for position, had in enumerate(counts) if not had)


def _top_tables_first(tables: list[list[int]], search: SeatingSearch) -> list[list[int]]:
    """Renumber tables without fixed players so better-ranked groups get lower numbers.

    Only tables of the same size trade numbers, so sizes and fixed tables stay where they were.
    """
    movable: dict[int, list[int]] = {}
    for number, table in enumerate(tables):
        if not any(search.pinned[i] is not None for i in table):
            movable.setdefault(len(table), []).append(number)
    result = list(tables)
    for numbers in movable.values():
        groups = sorted(
            (tables[n] for n in numbers),
            key=lambda t: (sum(search.ranks[i] for i in t) / len(t), min(search.ranks[i] for i in t)),
        )
        for number, group in zip(numbers, groups, strict=True):
            result[number] = group
    return result


__all__ = [
    "MAX_TABLE_SIZE",
    "MIN_TABLE_SIZE",
    "SeatingError",
    "SeatingHistory",
    "SeatingPlayer",
    "TableCost",
    "propose_seating",
    "rank_spread",
    "repeated_pairs",
    "table_sizes",
]
