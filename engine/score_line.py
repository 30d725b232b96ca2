"""The ``score`` command's fast path: a parsed score case of the standard game straight to its
result line.

``arboretum score`` spends its time on thousands of ordinary tables. For those, this module checks
and scores the parsed JSON on plain ints (a card is ``8 * species + value - 1``, a cell
``y * 2**16 + x``) and writes the line :meth:`TableScore.to_json_text` would, without building the
typed records. Anything unusual (another rule set, cards written another way, a fault of any
kind) returns None, and the command takes the full path of :mod:`engine.case`, which names faults
and is the one definition of the rules; ``tests/engine/test_score_line.py`` holds the two to the
same bytes. The path search is :meth:`engine.paths.PathFinder.best_path`'s, step for step, so that
equal paths are chosen the same way."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, islice, repeat
from json.encoder import encode_basestring as _json_text
from operator import add, getitem, itemgetter, lt, mul

from .cards import Edition, edition_species
from .paths import EIGHT_BONUS_STANDARD

_CASE_KEYS = frozenset({"rules", "species", "rounds", "players"})
_PLAYER_KEYS = frozenset({"name", "arboretum", "hand"})
#: the standard rule sets: their edition, and whether a tie on points goes to more species
_STANDARD = {"standard-2018": (Edition.E2018, True), "standard-2010": (Edition.E2010, False)}
_X, _Y, _SPECIES, _VALUE = itemgetter("x"), itemgetter("y"), itemgetter("species"), itemgetter("value")
_INT_ONLY = frozenset({int})
#: cells are ints y * _ROW + x; coordinates this large or larger take the full path
_ROW = 1 << 16
_REACH = 1 << 14
#: the steps to a cell's neighbours, in the order PathFinder tries them, for map(add, cells, step)
_RIGHT, _LEFT, _DOWN, _UP = repeat(1), repeat(-1), repeat(_ROW), repeat(-_ROW)
_EIGHTS = frozenset(8 * k + 7 for k in range(10))
#: far beyond any card value: the value of "no neighbour" in a search
_NO_CARD = 99


class _InPlay:
    """Look-ups for one list of species in play (shared by every case listing the same)."""

    __slots__ = ("names", "planted", "texts", "claims", "unscored")

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.planted = {(name, value): 8 * k + value - 1 for k, name in enumerate(names) for value in range(1, 9)}
        self.texts = {f"{name} {value}": 8 * k + value - 1 for k, name in enumerate(names) for value in range(1, 9)}
        #: a card's part of a hand's claims, byte k of an int holding the sum of species k (at
        #: most 36): a hand's claims are then one sum() and one to_bytes(), both in C
        self.claims = [value << 8 * k for k in range(len(names)) for value in range(1, 9)]
        #: a species' entry when it scores nothing, without and with the right
        self.unscored = [
            tuple(f'{_json_text(name)}: {{"right": {right}, "points": 0, "path": []}}' for right in ("false", "true"))
            for name in names
        ]


_IN_PLAY: dict[tuple[Edition, tuple[str, ...]], _InPlay] = {}


def _in_play(edition: Edition, listed: object) -> _InPlay | None:
    """The look-ups for the species listed (every species of the edition when None), or None when
    the list is not a plain list of distinct species of the edition."""
    if listed is None:
        names: tuple[str, ...] = edition_species(edition)
    elif type(listed) is list and all(type(name) is str for name in listed):
        names = tuple(listed)
    else:
        return None
    key = (edition, names)
    found = _IN_PLAY.get(key)
    if found is None:
        known = edition_species(edition)
        if len(set(names)) != len(names) or not all(name in known for name in names):
            return None
        found = _InPlay(names)
        if len(_IN_PLAY) < 256:  # lists come from the caller: keep the cache bounded
            _IN_PLAY[key] = found
    return found


class _Planted:
    """One arboretum as ints, in the case's order: cards, coordinates, and each card's neighbour
    to the right, left, below and above (``len(cards)`` for none)."""

    __slots__ = ("cards", "xs", "ys", "right", "left", "down", "up")

    def __init__(
        self, cards: list[int], xs: list[int], ys: list[int], around: tuple[list[int], list[int], list[int], list[int]]
    ) -> None:
        self.cards, self.xs, self.ys = cards, xs, ys
        self.right, self.left, self.down, self.up = around


def score_line(data: object) -> str | None:
    """The result line of an ordinary standard-game case, or None to take the full path."""
    if type(data) is not dict or not data.keys() <= _CASE_KEYS:
        return None
    rules = data.get("rules")
    if type(rules) is not str or rules not in _STANDARD or data.get("rounds") is not None:
        return None
    edition, species_tiebreak = _STANDARD[rules]
    players = data.get("players")
    listed = data.get("species")
    if type(players) is not list or not 2 <= len(players) <= 4:
        return None
    in_play = _in_play(edition, listed)
    if in_play is None:
        return None
    planted, texts = in_play.planted, in_play.texts
    names: list[str] = []
    arboretums: list[_Planted] = []
    hands: list[list[int]] = []
    every_card: list[int] = []
    try:
        for entry in players:
            if type(entry) is not dict or not entry.keys() <= _PLAYER_KEYS:
                return None
            name = entry.get("name")
            if type(name) is not str or not name.strip() or name in names:
                return None
            names.append(name)
            planted_cards = entry.get("arboretum")
            hand = entry.get("hand")
            if planted_cards is None:
                planted_cards = []
            if type(planted_cards) is not list or type(hand) is not list or len(hand) != 7:
                return None
            hand_cards = list(map(texts.__getitem__, hand))
            xs, ys = list(map(_X, planted_cards)), list(map(_Y, planted_cards))
            values = list(map(_VALUE, planted_cards))
            cards = list(map(planted.__getitem__, zip(map(_SPECIES, planted_cards), values, strict=True)))
            # exactly the four keys (a "card" key is read another way), whole numbers (JSON's
            # true and 1.0 would find the card of value 1)
            if sum(map(len, planted_cards)) != 4 * len(planted_cards) or not set(map(type, xs + ys + values)) <= _INT_ONLY:
                return None
            n = len(cards)
            if n and (max(xs) >= _REACH or min(xs) <= -_REACH or max(ys) >= _REACH or min(ys) <= -_REACH):
                return None
            cells = list(map(add, map(mul, ys, repeat(_ROW)), xs))
            index = dict(zip(cells, range(n), strict=True))
            if len(index) != n:  # two cards in one cell
                return None
            # each card's neighbours, found by C-level maps, not a loop over the cards
            get, none = index.get, repeat(n)
            around = (
                list(map(get, map(add, cells, _RIGHT), none)),
                list(map(get, map(add, cells, _LEFT), none)),
                list(map(get, map(add, cells, _DOWN), none)),
                list(map(get, map(add, cells, _UP), none)),
            )
            # one group: so it is when every card has a neighbour listed before it (an
            # arboretum listed in the order it grew); otherwise grown from the first card
            if n > 1 and not all(map(lt, islice(map(min, *around), 1, None), range(1, n))) and not _connected(cells):
                return None
            arboretums.append(_Planted(cards, xs, ys, around))
            hands.append(hand_cards)
            every_card += cards
            every_card += hand_cards
    except (KeyError, TypeError):  # a card not of a species in play, not an object, without x...
        return None
    if len(set(every_card)) != len(every_card):
        return None
    return _score(in_play, listed is None, species_tiebreak, names, arboretums, hands, every_card)

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
    arboretums: list[_Planted],
    hands: list[list[int]],
    every_card: list[int],
) -> str:
    count = len(in_play.names)
    # claims: the hand's sum, where an 8 counts 0 if another player holds that species' 1
    part = in_play.claims.__getitem__
    sums = [sum(map(part, hand)) for hand in hands]
    held = set().union(*hands)
    for eight in held & _EIGHTS:
        if eight - 7 in held:
            for p, hand in enumerate(hands):
                if eight in hand and eight - 7 not in hand:
                    sums[p] -= 8 << 8 * (eight >> 3)
    claims = [total.to_bytes(count, "little") for total in sums]
    best = list(map(max, *claims))
    species_of = [[card >> 3 for card in arboretum.cards] for arboretum in arboretums]
    unscored, species_names = in_play.unscored, in_play.names
    players = []
    keys = []
    for name, claim, arboretum, kinds in zip(names, claims, arboretums, species_of, strict=True):
        rights = list(map(int.__eq__, claim, best))
        entries = list(map(getitem, unscored, rights))
        total = 0
        finder = None
        for k in compress(range(count), rights):
            if kinds.count(k) >= 2:
                if finder is None:
                    finder = _Finder(arboretum, kinds)
                found = finder.best_path(k)
                if found is not None:
                    points, path = found
                    total += points
                    entries[k] = f'{_json_text(species_names[k])}: {{"right": true, "points": {points}, "path": [{path}]}}'
        if unlisted:  # the species in play are those that appear, in the edition's order
            entries = [entries[k] for k in sorted({card >> 3 for card in every_card})]
        players.append(
            f'{{"name": {_json_text(name)}, "total": {total}, "species": {{{", ".join(entries)}}}, "bonus": 0}}'
        )
        keys.append((total, len(set(kinds)) if species_tiebreak else 0))
    top = max(keys)
    winners = ", ".join([_json_text(name) for name, key in zip(names, keys, strict=True) if key == top])
    return f'{{"players": [{", ".join(players)}], "winners": [{winners}]}}'


class _Finder:
    """:meth:`engine.paths.PathFinder.best_path` on ints, step for step, so the same choices:
    cards visited in rising value order (the case's order among equal values), the cards a path
    may come from tried in neighbour order."""

    __slots__ = ("arboretum", "species", "values", "order", "sorted_species", "preds")

    def __init__(self, arboretum: _Planted, species: list[int]) -> None:
        self.arboretum = arboretum
        cards = arboretum.cards
        n = len(cards)
        self.species = species
        #: by position in the case, with the value of "no neighbour" last
        self.values = values = [(card & 7) + 1 for card in cards]
        values.append(_NO_CARD)
        self.order = order = sorted(range(n), key=values.__getitem__)
        self.sorted_species = [species[i] for i in order]
        #: the cards a path may come from into each card, worked out when a search first needs them
        self.preds: list[list[int] | None] = [None] * n

    def best_path(self, species: int) -> tuple[int, str] | None:
        """(points, the path's cells as JSON) of the best path of ``species``, or None."""
        names, values, all_preds, order = self.species, self.values, self.preds, self.order
        in_order = self.sorted_species
        first = in_order.index(species)
        last = len(in_order) - in_order[::-1].index(species)
        n = len(names)
        eight_bonus = EIGHT_BONUS_STANDARD
        mixed_score = [-1] * n
        mixed_len = [0] * n
        mixed_from = [-1] * n
        pure = [-1] * n
        pure_from = [-1] * n
        best_score, best_len = -(10**9), 0
        best_end = best_prev = -1
        best_is_pure = False
        around = self.arboretum
        for i in order[first:last]:
            preds = all_preds[i]
            if preds is None:
                value = values[i]
                four = (around.right[i], around.left[i], around.down[i], around.up[i])
                preds = all_preds[i] = [j for j in four if values[j] < value]
            top, top_len, top_at = -1, 0, -1
            for p in preds:
                score = mixed_score[p]
                if score > top or (score == top and mixed_len[p] > top_len):
                    top, top_len, top_at = score, mixed_len[p], p
            if names[i] != species:
                if top >= 0:
                    mixed_score[i], mixed_len[i], mixed_from[i] = top + 1, top_len + 1, top_at
                continue
            end_bonus = eight_bonus if values[i] == 8 else 0
            if top >= 0:
                score, length = top + 1 + end_bonus, top_len + 1
                if score > best_score or (score == best_score and length > best_len):
                    best_score, best_len, best_end, best_prev, best_is_pure = score, length, i, top_at, False
            top_pure = -1
            top_pure_at = -1
            for p in preds:
                if pure[p] > top_pure:
                    top_pure, top_pure_at = pure[p], p
            if top_pure >= 6:
                score, length = top_pure + 2 + end_bonus, (top_pure + 2) // 2
                if score > best_score or (score == best_score and length > best_len):
                    best_score, best_len, best_end, best_prev, best_is_pure = score, length, i, top_pure_at, True
            one = 1 if values[i] == 1 else 0
            if top + 1 > 1 + one or (top + 1 == 1 + one and top_len + 1 > 1):
                mixed_score[i], mixed_len[i], mixed_from[i] = top + 1, top_len + 1, top_at
            else:
                mixed_score[i], mixed_len[i], mixed_from[i] = 1 + one, 1, -1
            if top_pure >= 0:
                pure[i], pure_from[i] = top_pure + 2, top_pure_at
            else:
                pure[i], pure_from[i] = 2 + one, -1
        if best_end < 0:
            return None
        back = pure_from if best_is_pure else mixed_from
        walk = [best_end]
        step = best_prev
        while step >= 0:
            walk.append(step)
            step = back[step]
        walk.reverse()
        # points as make_path counts them, from the walk itself
        length = len(walk)
        points = length
        if length >= 4 and all(names[i] == species for i in walk):
            points += length
        if values[walk[0]] == 1:
            points += 1
        if values[walk[-1]] == 8:
            points += eight_bonus
        xs, ys = self.arboretum.xs, self.arboretum.ys
        path = ", ".join([f'{{"x": {xs[i]}, "y": {ys[i]}}}' for i in walk])
        return max(0, points), path
