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
from json.encoder import encode_basestring as _json_text
from operator import itemgetter

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
_EIGHTS = frozenset(8 * k + 7 for k in range(10))


class _InPlay:
    """Look-ups for one list of species in play (shared by every case listing the same)."""

    __slots__ = ("names", "planted", "texts", "unscored")

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.planted = {(name, value): 8 * k + value - 1 for k, name in enumerate(names) for value in range(1, 9)}
        self.texts = {f"{name} {value}": 8 * k + value - 1 for k, name in enumerate(names) for value in range(1, 9)}
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
    arboretums: list[tuple[list[int], list[int], list[int], list[int]]] = []
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
            if cards and (max(xs) >= _REACH or min(xs) <= -_REACH or max(ys) >= _REACH or min(ys) <= -_REACH):
                return None
            cells = [y * _ROW + x for x, y in zip(xs, ys, strict=True)]
            if len(set(cells)) != len(cells) or cells and not _connected(cells):
                return None
            arboretums.append((cards, cells, xs, ys))
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
    arboretums: list[tuple[list[int], list[int], list[int], list[int]]],
    hands: list[list[int]],
    every_card: list[int],
) -> str:
    count = len(in_play.names)
    # claims: the hand's sum, where an 8 counts 0 if another player holds that species' 1
    claims = []
    for hand in hands:
        sums = [0] * count
        for card in hand:
            sums[card >> 3] += (card & 7) + 1
        claims.append(sums)
    held = set().union(*hands)
    for eight in held & _EIGHTS:
        if eight - 7 in held:
            for hand, sums in zip(hands, claims, strict=True):
                if eight in hand and eight - 7 not in hand:
                    sums[eight >> 3] -= 8
    if unlisted:  # the species in play are those that appear, in the edition's order
        scored: Sequence[int] = sorted({card >> 3 for card in every_card})
    else:
        scored = range(count)
    species_of = [[card >> 3 for card in cards] for cards, _, _, _ in arboretums]
    finders: list[_Finder | None] = [None] * len(names)
    entries: list[list[str]] = [[] for _ in names]
    totals = [0] * len(names)
    unscored, species_names = in_play.unscored, in_play.names
    for k in scored:
        column = [sums[k] for sums in claims]
        best = max(column)
        for p, claim in enumerate(column):
            if claim == best and species_of[p].count(k) >= 2:
                finder = finders[p]
                if finder is None:
                    finder = finders[p] = _Finder(*arboretums[p])
                found = finder.best_path(k)
                if found is not None:
                    points, path = found
                    totals[p] += points
                    entries[p].append(
                        f'{_json_text(species_names[k])}: {{"right": true, "points": {points}, "path": [{path}]}}'
                    )
                    continue
            entries[p].append(unscored[k][claim == best])
    if species_tiebreak:
        keys: list[tuple[int, int]] = [(total, len(set(kinds))) for total, kinds in zip(totals, species_of, strict=True)]
    else:
        keys = [(total, 0) for total in totals]
    top = max(keys)
    players = [
        f'{{"name": {_json_text(name)}, "total": {total}, "species": {{{", ".join(species)}}}, "bonus": 0}}'
        for name, total, species in zip(names, totals, entries, strict=True)
    ]
    winners = ", ".join([_json_text(name) for name, key in zip(names, keys, strict=True) if key == top])
    return f'{{"players": [{", ".join(players)}], "winners": [{winners}]}}'


class _Finder:
    """:class:`engine.paths.PathFinder` on ints: the same walk order, so the same choices."""

    __slots__ = ("species", "values", "xs", "ys", "order", "preds")

    def __init__(self, cards: list[int], cells: list[int], xs: list[int], ys: list[int]) -> None:
        # positions in rising value order, the arboretum's own order among equal values
        order = sorted(range(len(cards)), key=[card & 7 for card in cards].__getitem__)
        self.order = order
        self.species = [cards[i] >> 3 for i in order]
        self.values = values = [(cards[i] & 7) + 1 for i in order]
        self.xs, self.ys = xs, ys
        cells = [cells[i] for i in order]
        index = {cell: i for i, cell in enumerate(cells)}.get
        row = _ROW
        self.preds = [
            [j for n in (c + 1, c - 1, c + row, c - row) if (j := index(n)) is not None and values[j] < value]
            for c, value in zip(cells, values, strict=True)
        ]

    def best_path(self, species: int) -> tuple[int, str] | None:
        """(points, the path's cells as JSON) of the best path of ``species``, or None."""
        names, values, all_preds = self.species, self.values, self.preds
        first = names.index(species)
        last = len(names) - 1 - names[::-1].index(species)
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
        for i in range(first, last + 1):
            preds = all_preds[i]
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
        order, xs, ys = self.order, self.xs, self.ys
        path = ", ".join([f'{{"x": {xs[order[i]]}, "y": {ys[order[i]]}}}' for i in walk])
        return max(0, points), path
