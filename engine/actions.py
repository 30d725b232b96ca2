"""The actions of every game mode as small frozen values with a text form.

Each action's ``str()`` is its text form (``"play Oak 3 at 0,1"``) and :func:`parse_action`
reads it back, so a game's log is a list of short strings and a web form can post one line.
Bad text raises :class:`~engine.errors.ActionParseError` naming the text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .arboretum import Cell
from .cards import Card
from .errors import ActionParseError, CardError

#: Draw source: the top of the draw pile.
DECK = "deck"
#: Draw source in the solo game: the top of the one shared discard pile.
SHARED_DISCARD = "discard"


def _check_cell(cell: object, action: str) -> Cell:
    if type(cell) in (tuple, list):
        items = list(cell)  # type: ignore[call-overload]
        if len(items) == 2 and type(items[0]) is int and type(items[1]) is int:
            return (items[0], items[1])
    raise ActionParseError(f"{action}: cell {cell!r} must be two whole numbers (x, y)")


def _check_card(card: object, action: str) -> None:
    if not isinstance(card, Card):
        raise ActionParseError(f"{action}: {card!r} is not a card (expected a Card like Card('Oak', 3))")


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card: ``source`` is :data:`DECK`, the seat whose discard pile is drawn from, or
    :data:`SHARED_DISCARD` for the solo game's single discard pile."""

    source: int | str

    def __post_init__(self) -> None:
        source = self.source
        if source == DECK or source == SHARED_DISCARD:
            return
        if type(source) is not int or source < 0:
            raise ActionParseError(
                f"draw from {source!r}: the source is 'deck', 'discard' or a seat number (0, 1, ...)"
            )

    def __str__(self) -> str:
        if self.source == DECK:
            return "draw deck"
        if self.source == SHARED_DISCARD:
            return "draw discard"
        return f"draw discard {self.source}"


@dataclass(frozen=True, slots=True)
class Play:
    """Plant ``card`` from one's hand at ``cell`` of one's own arboretum."""

    card: Card
    cell: Cell

    def __post_init__(self) -> None:
        _check_card(self.card, "play")
        if type(self.cell) is not tuple:
            object.__setattr__(self, "cell", _check_cell(self.cell, f"play {self.card}"))
        else:
            _check_cell(self.cell, f"play {self.card}")

    def __str__(self) -> str:
        return f"play {self.card} at {self.cell[0]},{self.cell[1]}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``card`` from one's hand onto one's own discard pile (standard game)."""

    card: Card

    def __post_init__(self) -> None:
        _check_card(self.card, "discard")

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Give:
    """Solo: put ``card`` from the player's hand face up into Q's arboretum at ``cell``. Where
    Q places its cards by the rule (``Game.q_places == "rule"``) the player names only the card
    (``cell`` None, ``give Oak 3``) and the game works the cell out; the log keeps the cell."""

    card: Card
    cell: Cell | None = None

    def __post_init__(self) -> None:
        _check_card(self.card, "give")
        if self.cell is None:
            return
        if type(self.cell) is not tuple:
            object.__setattr__(self, "cell", _check_cell(self.cell, f"give {self.card}"))
        else:
            _check_cell(self.cell, f"give {self.card}")

    def __str__(self) -> str:
        if self.cell is None:
            return f"give {self.card}"
        return f"give {self.card} at {self.cell[0]},{self.cell[1]}"


@dataclass(frozen=True, slots=True)
class Pick:
    """Draft: choose ``card`` of the hand in front of you and plant it at ``cell`` of your own
    arboretum, or discard it (``cell`` is None)."""

    card: Card
    cell: Cell | None = None

    def __post_init__(self) -> None:
        _check_card(self.card, "pick")
        if self.cell is not None:
            if type(self.cell) is not tuple:
                object.__setattr__(self, "cell", _check_cell(self.cell, f"pick {self.card}"))
            else:
                _check_cell(self.cell, f"pick {self.card}")

    @property
    def discards(self) -> bool:
        return self.cell is None

    def __str__(self) -> str:
        if self.cell is None:
            return f"pick {self.card} discard"
        return f"pick {self.card} at {self.cell[0]},{self.cell[1]}"


Action = Draw | Play | Discard | Give | Pick

# Legal actions are built by the hundred per turn from cards and cells a game state already
# trusts. These builders skip the constructors' checks and set the slots directly (the slot
# descriptors bypass the frozen __setattr__), which keeps the bots' hot path cheap.
_new = object.__new__
_set_play = (Play.__dict__["card"].__set__, Play.__dict__["cell"].__set__)
_set_give = (Give.__dict__["card"].__set__, Give.__dict__["cell"].__set__)
_set_pick = (Pick.__dict__["card"].__set__, Pick.__dict__["cell"].__set__)
_set_discard = Discard.__dict__["card"].__set__


def trusted_play(card: Card, cell: Cell) -> Play:
    action: Play = _new(Play)
    _set_play[0](action, card)
    _set_play[1](action, cell)
    return action


def trusted_give(card: Card, cell: Cell | None) -> Give:
    action: Give = _new(Give)
    _set_give[0](action, card)
    _set_give[1](action, cell)
    return action


def trusted_pick(card: Card, cell: Cell | None) -> Pick:
    action: Pick = _new(Pick)
    _set_pick[0](action, card)
    _set_pick[1](action, cell)
    return action


def trusted_discard(card: Card) -> Discard:
    action: Discard = _new(Discard)
    _set_discard(action, card)
    return action
ACTION_TYPES: tuple[type, ...] = (Draw, Play, Discard, Give, Pick)

_CELL = r"(?P<x>-?\d+) ?, ?(?P<y>-?\d+)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("draw", re.compile(r"^draw (?:(?P<deck>deck)|discard(?: (?P<seat>\d+))?)$", re.IGNORECASE)),
    ("play", re.compile(rf"^play (?P<card>.+?) at {_CELL}$", re.IGNORECASE)),
    ("give", re.compile(rf"^give (?P<card>.+?)(?: at {_CELL})?$", re.IGNORECASE)),
    ("pick", re.compile(rf"^pick (?P<card>.+?) (?:at {_CELL}|(?P<discard>discard))$", re.IGNORECASE)),
    ("discard", re.compile(r"^discard (?P<card>.+)$", re.IGNORECASE)),
)

_EXAMPLES = (
    "'draw deck', 'draw discard 2', 'play Oak 3 at 0,1', 'discard Oak 3', 'give Oak 3', 'give Oak 3 at 2,0', 'pick Oak 3 at 0,1',"
    " 'pick Oak 3 discard'"
)


def parse_action(text: str) -> Action:
    """Read an action from its text form; raises :class:`ActionParseError` naming the text."""
    if not isinstance(text, str):
        raise ActionParseError(f"action {text!r}: expected text such as {_EXAMPLES}")
    line = " ".join(text.split())
    for kind, pattern in _PATTERNS:
        match = pattern.match(line)
        if match is None:
            continue
        if kind == "draw":
            if match["deck"]:
                return Draw(DECK)
            return Draw(int(match["seat"])) if match["seat"] is not None else Draw(SHARED_DISCARD)
        try:
            card = Card.parse(match["card"])
        except CardError as exc:
            raise ActionParseError(f"action {text!r}: {exc}") from None
        groups = match.groupdict()
        cell = (int(groups["x"]), int(groups["y"])) if groups.get("x") is not None else None
        if kind == "play":
            return Play(card, cell)  # type: ignore[arg-type]
        if kind == "give":
            return Give(card, cell)
        if kind == "pick":
            return Pick(card, cell)
        return Discard(card)
    raise ActionParseError(f"action {text!r}: not an action; expected text such as {_EXAMPLES}")
