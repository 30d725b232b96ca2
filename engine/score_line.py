"""The ``score`` command's fast path: a parsed score case of the standard game straight to its
result line.

``arboretum score`` spends its time on thousands of ordinary tables. For those, this module checks
and scores the parsed JSON on plain ints (a card is ``8 * species + value - 1``, a cell
``y * 2**11 + x + 2**23 * seat``, every player's cards in one list) and writes the line
:meth:`TableScore.to_json_text` would, without building the typed records. Anything unusual
(another rule set, cards written another way, a fault of any kind) returns None, and the command
takes the full path of :mod:`engine.case`, which names faults and is the one definition of the
rules; ``tests/engine/test_scoring_fast_path.py`` holds the two to the same bytes. The path search
makes :meth:`engine.paths.PathFinder.best_path`'s choices, so that equal paths are chosen the same
way."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import suppress
from itertools import compress, repeat
from json.encoder import encode_basestring as _json_text
from operator import add, attrgetter, eq, getitem, lt, mul, rshift
from typing import Annotated, Literal

# msgspec imports typing_extensions when it can, for forms of type hints these structs do not use,
# and inspect, ast and dis with it: 9 ms, a fifth of the score command's start. msgspec does not
# depend on it and reads these structs the same without it, so while msgspec is first imported the
# import is kept from finding it (None in sys.modules); whatever imports it later finds it as usual.
if "typing_extensions" not in sys.modules:
    sys.modules["typing_extensions"] = None  # type: ignore[assignment]
    # a msgspec that needs it after all fails here and is imported again below, finding it
    with suppress(ImportError):
        import msgspec
    del sys.modules["typing_extensions"]
import msgspec

# the plain data, not engine.cards and engine.paths: the command starts without dataclasses and enum
from .card_data import EDITION_SPECIES, EIGHT_BONUS_STANDARD

#: the standard rule sets: their edition, and whether a tie on points goes to more species
_STANDARD = {"standard-2018": ("2018", True), "standard-2010": ("2010", False)}
_X, _Y, _SPECIES, _VALUE = attrgetter("x"), attrgetter("y"), attrgetter("species"), attrgetter("value")
#: cells are ints y * _ROW + x (+ _PLAYER * the player's seat), all below 2**30 so that CPython
#: adds and hashes them as one-digit ints; coordinates this large or larger take the full path
_ROW = 1 << 11
_REACH = 1 << 10
_Coordinate = Annotated[int, msgspec.Meta(gt=-_REACH, lt=_REACH)]


# An ordinary case's shape, which msgspec checks in C as it reads the text: the types (an int is
# an int: JSON's true and 1.0 are not), the ranges and the keys. Anything else, even a case the
# format allows (cards written as text, another rule set), fails here and takes the full path,
# the format's one definition (engine/case.py). Structs without gc: they hold no cycles.
class _Card(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    x: _Coordinate
    y: _Coordinate
    species: str
    value: Annotated[int, msgspec.Meta(ge=1, le=8)]


class _Player(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    hand: Annotated[list[str], msgspec.Meta(min_length=7, max_length=7)]
    arboretum: list[_Card] | None = None


class _Case(msgspec.Struct, forbid_unknown_fields=True):
    rules: Literal["standard-2018", "standard-2010"]
    players: Annotated[list[_Player], msgspec.Meta(min_length=2, max_length=4)]
    species: list[str] | None = None
    rounds: None = None


_read_case = msgspec.json.Decoder(_Case).decode
#: for n cards, the steps to their neighbours to the right, left, below and above, in the order
#: PathFinder tries them (at most 80 cards in a game)
_STEPS: dict[int, list[int]] = {}
#: for n cards, each card's position, once for each direction
_RANKS: dict[int, list[int]] = {}
_EIGHTS = frozenset(8 * k + 7 for k in range(10))
#: far beyond any card value: the value of "no neighbour" in a search
_NO_CARD = 99


class _InPlay:
    """Look-ups for one list of species in play (shared by every case listing the same)."""

    __slots__ = ("names", "first", "texts", "claims", "ones", "unscored", "scored")

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        #: a planted card is its species' number here plus its value
        self.first = {name: 8 * k - 1 for k, name in enumerate(names)}
        self.texts = {f"{name} {value}": 8 * k + value - 1 for k, name in enumerate(names) for value in range(1, 9)}
        #: a card's part of a hand's claims, byte k of an int holding the sum of species k (at
        #: most 36): a hand's claims are then one sum() and one to_bytes(), both in C
        self.claims = [value << 8 * k for k in range(len(names)) for value in range(1, 9)]
        #: a card of species k in an arboretum's count of each species, likewise
        self.ones = [1 << 8 * k for k in range(len(names))]
        #: a species' entry when it scores nothing, without and with the right
        self.unscored = [
            tuple(f'{_json_text(name)}: {{"right": {right}, "points": 0, "path": []}}' for right in ("false", "true"))
            for name in names
        ]
        #: the start of a species' entry when it scores, up to its points
        self.scored = [f'{_json_text(name)}: {{"right": true, "points": ' for name in names]


_IN_PLAY: dict[tuple[str, tuple[str, ...]], _InPlay] = {}


def _in_play(edition: str, listed: list[str] | None) -> _InPlay | None:
    """The look-ups for the species listed (every species of the edition when None), or None when
    the list is not of distinct species of the edition."""
    names = EDITION_SPECIES[edition] if listed is None else tuple(listed)
    key = (edition, names)
    found = _IN_PLAY.get(key)
    if found is None:
        known = EDITION_SPECIES[edition]
        if len(set(names)) != len(names) or not all(name in known for name in names):
            return None
        found = _InPlay(names)
        if len(_IN_PLAY) < 256:  # lists come from the caller: keep the cache bounded
            _IN_PLAY[key] = found
    return found


#: players' cells lie this far apart, so one dict finds the cards of every arboretum of a table
_PLAYER = 1 << 23
#: a path's (points, length) as one int, points * _LEN + length, which orders as the pair does
#: (a path climbs in value, so it is at most 8 cards long)
_LEN = 64
#: one card more on a path: a point more and a card longer
_STEP = _LEN + 1
#: a path of one card, begun on a 1 or not: (2, 1) and (1, 1)
_FRESH_ONE, _FRESH = 2 * _LEN + 1, _LEN + 1
_EIGHT_BONUS = EIGHT_BONUS_STANDARD * _LEN
_THREE = repeat(3)


def score_line(case_json: bytes | str) -> str | None:
    """The result line of an ordinary standard-game case, given as its JSON text, or None to take
    the full path."""
    try:
        case = _read_case(case_json)
    except (msgspec.MsgspecError, ValueError, RecursionError):  # ValueError: the text is not UTF-8
        return None
    edition, species_tiebreak = _STANDARD[case.rules]
    listed = case.species
    in_play = _in_play(edition, listed)
    if in_play is None:
        return None
    # the players' cards one after another, so that each check below is one pass over the table
    names: list[str] = []
    planted: list[_Card] = []
    held: list[str] = []
    shift: list[int] = []  # each planted card's player as an offset of its cell
    ends: list[int] = []  # where each player's planted cards end
    for player in case.players:
        name = player.name
        if not name.strip() or name in names:
            return None
        arboretum = player.arboretum
        if arboretum:
            shift += repeat(len(names) * _PLAYER, len(arboretum))
            planted += arboretum
        names.append(name)
        held += player.hand
        ends.append(len(planted))
    try:
        hand_cards = list(map(in_play.texts.__getitem__, held))
        firsts = list(map(in_play.first.__getitem__, map(_SPECIES, planted)))
    except KeyError:  # a card not of a species in play
        return None
    xs, ys, values = list(map(_X, planted)), list(map(_Y, planted)), list(map(_VALUE, planted))
    n = len(planted)
    cards = list(map(add, firsts, values))
    every_card = cards + hand_cards
    if len(set(every_card)) != len(every_card):
        return None
    cells = list(map(add, map(add, map(mul, ys, repeat(_ROW)), xs), shift))
    index = dict(zip(cells, range(n), strict=True))
    if len(index) != n:  # two cards in one cell
        return None
    # each card's neighbours to the right, left, below and above (n for none), found by two
    # C-level maps over the four lists' cells one after another, not a loop over the cards
    steps = _STEPS.get(n)
    if steps is None:
        steps = _STEPS[n] = [1] * n + [-1] * n + [_ROW] * n + [-_ROW] * n
    near = list(map(index.get, map(add, cells * 4, steps), repeat(n)))
    around = (near[:n], near[n : 2 * n], near[2 * n : 3 * n], near[3 * n :])
    # one group each: so it is when every card but a player's first has a neighbour listed before
    # it (an arboretum listed in the order it grew; a first card has none, its neighbours are
    # listed after it); otherwise grown from the first card
    if n > 1:
        ranks = _RANKS.get(n)
        if ranks is None:
            ranks = _RANKS[n] = list(range(n)) * 4
        joined = set(compress(ranks, map(lt, near, ranks)))
        if len(joined) != n - len(set(ends)) + (0 in ends):
            start = 0
            for end in ends:
                if end - start > 1 and not _connected(cells[start:end]):
                    return None
                start = end
    values.append(_NO_CARD)  # the value of "no neighbour"
    table = _Table(list(map(rshift, cards, _THREE)), values, xs, ys, around)
    return _score(in_play, listed is None, species_tiebreak, names, ends, hand_cards, every_card, table)


def _connected(cells: list[int]) -> bool:
    # grown a ring at a time, the set operations doing the looking up
    remaining = set(cells)
    ring = {cells[0]}
    remaining -= ring
    row = _ROW
    while ring and remaining:
        around: set[int] = set()
        for c in ring:
            around.update((c + 1, c - 1, c + row, c - row))
        ring = around & remaining
        remaining -= ring
    return not remaining


def _score(
    in_play: _InPlay,
    unlisted: bool,
    species_tiebreak: bool,
    names: list[str],
    ends: list[int],
    hand_cards: list[int],
    every_card: list[int],
    table: _Table,
) -> str:
    count = len(in_play.names)
    # claims: the hand's sum, where an 8 counts 0 if another player holds that species' 1
    part = in_play.claims.__getitem__
    hands = [hand_cards[k : k + 7] for k in range(0, len(hand_cards), 7)]
    sums = [sum(map(part, hand)) for hand in hands]
    held = set(hand_cards)
    for eight in held & _EIGHTS:
        if eight - 7 in held:
            for p, hand in enumerate(hands):
                if eight in hand and eight - 7 not in hand:
                    sums[p] -= 8 << 8 * (eight >> 3)
    claims = [total.to_bytes(count, "little") for total in sums]
    best = list(map(max, *claims))
    unscored, scored, ones = in_play.unscored, in_play.scored, in_play.ones.__getitem__
    kinds, values = table.kinds, table.values
    shown = sorted({card >> 3 for card in every_card}) if unlisted else None
    players = []
    keys = []
    start = 0
    for name, claim, end in zip(names, claims, ends, strict=True):
        rights = list(map(eq, claim, best))
        entries: list[str] = list(map(getitem, unscored, rights))
        # how many cards of each species the arboretum holds, a byte each
        counts = sum(map(ones, kinds[start:end])).to_bytes(count, "little")
        total = 0
        order: list[int] = []
        in_order: list[int] = []
        for k in compress(range(count), rights):
            if counts[k] >= 2:
                if not order:
                    order = sorted(range(start, end), key=values.__getitem__)
                    in_order = list(map(kinds.__getitem__, order))
                found = table.best_path(order, in_order, k, counts[k] >= 4)
                if found is not None:
                    points, path = found
                    total += points
                    entries[k] = f'{scored[k]}{points}, "path": [{path}]}}'
        if shown is not None:  # the species in play are those that appear, in the edition's order
            entries = [entries[k] for k in shown]
        players.append(
            f'{{"name": {_json_text(name)}, "total": {total}, "species": {{{", ".join(entries)}}}, "bonus": 0}}'
        )
        keys.append((total, count - counts.count(0) if species_tiebreak else 0))
        start = end
    top = max(keys)
    winners = ", ".join([_json_text(name) for name, key in zip(names, keys, strict=True) if key == top])
    return f'{{"players": [{", ".join(players)}], "winners": [{winners}]}}'


class _Table:
    """The planted cards of a table's players as ints, indexed together: each card's species,
    value (with ``_NO_CARD`` at the end, "no neighbour"), coordinates and neighbours."""

    __slots__ = ("kinds", "values", "xs", "ys", "around", "preds")

    def __init__(
        self,
        kinds: list[int],
        values: list[int],
        xs: list[int],
        ys: list[int],
        around: tuple[list[int], list[int], list[int], list[int]],
    ) -> None:
        self.kinds, self.values, self.xs, self.ys, self.around = kinds, values, xs, ys, around
        #: the cards a path may come from into each card, worked out when a search first needs them
        self.preds: list[list[int] | None] = [None] * len(kinds)

    def best_path(self, order: list[int], in_order: list[int], species: int, pure_too: bool) -> tuple[int, str] | None:
        """(points, the path's cells as JSON) of the best path of ``species`` in one arboretum
        (``order``: its cards by rising value, the case's order among equal values; ``in_order``
        their species), or None.

        :meth:`engine.paths.PathFinder.best_path` on ints, so the same choices: the cards a path
        may come from are tried in neighbour order and the first best kept. A card's best path
        ending there (``mixed``; ``pure``: of ``species`` alone) is kept as one number, and the
        path is walked back at the end by making the same choices again. A path of one species
        scores double from 4 cards on, so ``pure_too`` is False when the arboretum holds fewer."""
        kinds, values, all_preds = self.kinds, self.values, self.preds
        first = in_order.index(species)
        last = len(in_order) - in_order[::-1].index(species)
        size = len(values)
        mixed = [-1] * size
        pure = [-1] * size
        best, best_end, best_is_pure = -1, -1, False
        right, left, down, up = self.around
        for i in order[first:last]:
            preds = all_preds[i]
            if preds is None:
                value = values[i]
                # a loop, not a comprehension: Python 3.11 calls a function for each comprehension
                preds = all_preds[i] = []
                for j in (right[i], left[i], down[i], up[i]):
                    if values[j] < value:
                        preds.append(j)
            top = -1
            for p in preds:
                if mixed[p] > top:
                    top = mixed[p]
            if kinds[i] != species:
                if top >= 0:
                    mixed[i] = top + _STEP
                continue
            end_bonus = _EIGHT_BONUS if values[i] == 8 else 0
            if top >= 0 and top + _STEP + end_bonus > best:
                best, best_end, best_is_pure = top + _STEP + end_bonus, i, False
            fresh = _FRESH_ONE if values[i] == 1 else _FRESH
            mixed[i] = top + _STEP if top + _STEP > fresh else fresh
            if pure_too:
                top_pure = -1
                for p in preds:
                    if pure[p] > top_pure:
                        top_pure = pure[p]
                if top_pure >= 6:
                    score = (top_pure + 2) * _LEN + end_bonus + (top_pure + 2) // 2
                    if score > best:
                        best, best_end, best_is_pure = score, i, True
                pure[i] = top_pure + 2 if top_pure >= 0 else 3 if values[i] == 1 else 2
        if best_end < 0:
            return None
        # back from the end, choosing as the search chose: the first best card to come from
        walk = [best_end]
        at = best_end
        reached = pure if best_is_pure else mixed
        while True:
            top, came = -1, -1
            preds = all_preds[at]
            assert preds is not None
            for p in preds:
                if reached[p] > top:
                    top, came = reached[p], p
            if top < 0:
                break
            walk.append(came)
            at = came
            # a path begun on this card here: it is where the search started it
            if not best_is_pure and kinds[at] == species and reached[at] == (_FRESH_ONE if values[at] == 1 else _FRESH):
                break
        walk.reverse()
        # points as make_path counts them, from the walk itself
        length = len(walk)
        points = length
        if length >= 4 and all(kinds[i] == species for i in walk):
            points += length
        if values[walk[0]] == 1:
            points += 1
        if values[walk[-1]] == 8:
            points += EIGHT_BONUS_STANDARD
        xs, ys = self.xs, self.ys
        path = ", ".join([f'{{"x": {xs[i]}, "y": {ys[i]}}}' for i in walk])
        return max(0, points), path
