"""What leaves a game state: typed, frozen, and only what its reader may see.

OpenSpiel's observer idea: :meth:`engine.game.State.view` gives one seat (or a spectator) a
:class:`SeatView`, built by the engine from the information that seat is allowed, so a screen
built from it cannot show another seat's hand or hidden pick. The other accessors of a state
return the small public records here too: :class:`Progress` for an overview,
:class:`PublicMove` for "what happened last", :class:`FaceUpHand` for the replay of a finished
game. ``SeatView.to_json()`` gives the view as JSON-able data (cards as text, cells as
[x, y])."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .actions import Pick
from .arboretum import Arboretum, Cell
from .cards import Card
from .scoring import TableScore


class Phase(StrEnum):
    """Where a game stands. Members are singletons, so ``phase is Phase.PLAY`` is a sound (and
    the hot path's fast) test; as ``str`` they compare equal to their text (``"draw1"``)."""

    DRAW1 = "draw1"
    DRAW2 = "draw2"
    PLAY = "play"
    DISCARD = "discard"
    #: solo: a hand card into Q's arboretum
    GIVE = "give"
    #: draft: every seat chooses a hidden pick
    PICK = "pick"
    OVER = "over"


@dataclass(frozen=True)
class Planted:
    """A card in an arboretum."""

    x: int
    y: int
    card: Card

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)

    def to_json(self) -> dict[str, object]:
        return {"x": self.x, "y": self.y, "species": self.card.species, "value": self.card.value}


def planted(arboretum: Arboretum) -> tuple[Planted, ...]:
    """An arboretum's cards, row by row (y, then x): the order of ``Arboretum.to_json``."""
    return tuple(
        Planted(x, y, card) for (x, y), card in sorted(arboretum.items(), key=lambda item: (item[0][1], item[0][0]))
    )


@dataclass(frozen=True)
class SeatInfo:
    """What everyone may see of one seat."""

    seat: int
    name: str
    arboretum: tuple[Planted, ...]
    hand_size: int


@dataclass(frozen=True)
class Pile:
    """A face-up discard pile, bottom first. ``owner`` is the seat whose pile it is, None for the
    solo game's one shared pile."""

    owner: int | None
    cards: tuple[Card, ...]

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None


@dataclass(frozen=True)
class Drawn:
    """A card drawn in the turn in progress. ``source`` is the draw action's source (``"deck"``,
    a seat number, or ``"discard"`` in the solo game); ``card`` is named only to the seat that
    drew it (a drawn card is now in a hand, and a view never names another seat's hand)."""

    source: int | str
    source_text: str
    card: Card | None


class QReason(StrEnum):
    """Why Q, placing by its rule (RULES.md §4), put a card where it did."""

    #: Q's first card: it goes to 0,0
    FIRST = "first"
    #: no cell adds to Q's paths: the first free cell (top row, then left)
    NO_GAIN = "no_gain"
    #: it raises Q's best paths of the species in ``QPlacement.raised``
    RAISES = "raises"


@dataclass(frozen=True)
class QPlacement:
    """Where Q put a card given to it by its rule, and why, as data: a screen says it in its
    reader's words; ``str()`` says it in English (the JSON view, the command line)."""

    card: Card
    cell: Cell
    reason: QReason
    #: RAISES: each species whose best path the card raises, with that path's new points
    raised: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        where = f"Q put {self.card} at {self.cell[0]},{self.cell[1]}"
        if self.reason is QReason.FIRST:
            return f"{where}: Q's first card"
        if self.reason is QReason.NO_GAIN:
            return f"{where}: no cell adds to Q's paths, so the first free cell (top row, then left)"
        paths = " and ".join(f"{species} path to {points}" for species, points in self.raised)
        return f"{where}: it raises Q's best {paths}"


@dataclass(frozen=True)
class TurnView:
    """The standard and solo games' turn: who acts, in which phase, and the public table."""

    #: the seat whose turn it is; None once the game is over
    actor: int | None
    turn: int
    draw_pile: int
    piles: tuple[Pile, ...]
    drawn: tuple[Drawn, ...]
    #: the actions of the turn in progress, as text (draws name only their source)
    turn_log: tuple[str, ...]
    #: solo: the seat whose arboretum the next card goes into (Q's while giving); else None
    place_into: int | None = None
    #: solo with Q placing by the rule: where Q put the last card given and why
    q_placement: QPlacement | None = None

    @property
    def q_note(self) -> str | None:
        """``q_placement`` in English words."""
        return None if self.q_placement is None else str(self.q_placement)


@dataclass(frozen=True)
class Reveal:
    """One seat's pick as carried out at the last reveal: ``card`` and ``cell`` are None for a
    pick discarded face down."""

    seat: int
    card: Card | None
    cell: Cell | None

    @property
    def discarded(self) -> bool:
        return self.cell is None

    def to_json(self) -> dict[str, Any]:
        if self.card is None or self.cell is None:
            return {"seat": self.seat, "discarded": True}
        return {"seat": self.seat, "card": str(self.card), "cell": list(self.cell)}


@dataclass(frozen=True)
class DraftView:
    """The draft's counters (1-based), who has chosen, and the last reveal."""

    round: int
    rounds: int
    pick: int
    picks_per_round: int
    reveals: int
    #: "next" or "previous": where the hands pass after this pick
    direction: str
    chosen: tuple[bool, ...]
    discarded: tuple[int, ...]
    out_of_game: int
    undealt: int
    last_reveal: tuple[Reveal, ...]
    #: the viewer's own hidden choice for this pick (None: not chosen yet, or a spectator)
    pending: Pick | None = None


@dataclass(frozen=True)
class SeatView:
    """Everything ``viewer`` may see (None: a spectator, public information only). Exactly one
    of ``turns`` (standard, solo) and ``draft`` is set."""

    mode: str
    edition: str
    species: tuple[str, ...]
    viewer: int | None
    version: int
    #: the value to send back with an action (see ``State.apply_stamped``)
    stamp: int
    terminal: bool
    phase: Phase
    awaiting: tuple[int, ...]
    seats: tuple[SeatInfo, ...]
    #: the viewer's own hand (the hand in front of them in the draft); None when they may not
    #: see it (a spectator, Q)
    hand: tuple[Card, ...] | None
    #: cells open to the viewer's next card now (empty when it is not their move)
    legal_cells: tuple[Cell, ...]
    turns: TurnView | None = None
    draft: DraftView | None = None
    #: every hand, face up, once a standard or solo game is over
    hands_at_end: tuple[tuple[Card, ...], ...] | None = None
    #: the scored table once the game is over (with ``ranks``)
    outcome: TableScore | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(info.name for info in self.seats)

    @property
    def arboretums(self) -> tuple[tuple[Planted, ...], ...]:
        return tuple(info.arboretum for info in self.seats)

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-able data (cards as text, cells as [x, y])."""
        out: dict[str, Any] = {
            "mode": self.mode,
            "edition": self.edition,
            "species": list(self.species),
            "names": list(self.names),
            "viewer": self.viewer,
            "version": self.version,
            "stamp": self.stamp,
            "terminal": self.terminal,
            "awaiting": list(self.awaiting),
            "arboretums": [[p.to_json() for p in info.arboretum] for info in self.seats],
            "phase": str(self.phase),
        }
        turns, draft = self.turns, self.draft
        if turns is not None:
            out.update(
                {
                    "turn": turns.actor,
                    "turn_number": turns.turn,
                    "draw_pile": turns.draw_pile,
                    "discard_piles": [[str(c) for c in pile.cards] for pile in turns.piles],
                    "hand_sizes": [info.hand_size for info in self.seats],
                    "drawn_this_turn": [
                        {"source": d.source_text, "card": None if d.card is None else str(d.card)}
                        for d in turns.drawn
                    ],
                    "turn_log": list(turns.turn_log),
                    "legal_cells": [list(c) for c in self.legal_cells],
                }
            )
            if self.hand is not None:
                out["hand"] = [str(c) for c in self.hand]
            if self.hands_at_end is not None:
                out["hands"] = [[str(c) for c in hand] for hand in self.hands_at_end]
            if turns.place_into is not None:
                out["place_into"] = turns.place_into
            if turns.q_note is not None:
                out["q_note"] = turns.q_note
        if draft is not None:
            out.update(
                {
                    "round": draft.round,
                    "rounds": draft.rounds,
                    "pick": draft.pick,
                    "picks_per_round": draft.picks_per_round,
                    "reveals": draft.reveals,
                    "direction": draft.direction,
                    "chosen": list(draft.chosen),
                    "hand_sizes": [info.hand_size for info in self.seats],
                    "discarded": list(draft.discarded),
                    "out_of_game": draft.out_of_game,
                    "undealt": draft.undealt,
                    "last_reveal": [r.to_json() for r in draft.last_reveal],
                }
            )
            if self.viewer is not None:
                own = draft.pending
                out["hand"] = [str(c) for c in self.hand or ()]
                out["pending"] = (
                    None
                    if own is None
                    else {"card": str(own.card), "cell": None if own.cell is None else list(own.cell), "text": str(own)}
                )
                out["legal_cells"] = [list(c) for c in self.legal_cells]
        if self.outcome is not None:
            out["outcome"] = outcome_json(self.outcome)
        return out


def outcome_json(outcome: TableScore) -> dict[str, Any]:
    """A scored table as the views show it: the score-case result plus the ranks."""
    result = dict(outcome.to_json())
    result["ranks"] = list(outcome.ranks)
    return result


@dataclass(frozen=True)
class Progress:
    """How far a game has come, for an overview of many tables. Public information only."""

    mode: str
    phase: Phase
    finished: bool
    #: seats whose action the game is waiting for
    awaiting: tuple[int, ...]
    #: standard and solo: the seat whose turn it is (None once over) and the turn number
    actor: int | None
    actor_name: str | None
    turn: int | None
    #: the draft: 1-based round and pick, and how many there are
    round: int | None
    rounds: int | None
    pick: int | None
    picks_per_round: int | None
    #: cards still in the draw pile (the draft: not dealt yet)
    draw_pile: int
    #: cards in all hands together
    cards_in_hands: int

    @property
    def phase_text(self) -> str:
        """The phase in words: "draw (first card)", "play", "pick", ..."""
        return str(self.phase).replace("1", " (first card)").replace("2", " (second card)")

    @property
    def summary(self) -> str:
        """One line: "turn 5, Ann draw (second card)", "round 2 of 3, pick 4 of 7", or
        "finished after 31 turns" / "finished after 3 rounds"."""
        if self.round is not None:
            if self.finished:
                return f"finished after {self.rounds} rounds"
            return f"round {self.round} of {self.rounds}, pick {self.pick} of {self.picks_per_round}"
        if self.finished:
            return f"finished after {self.turn} turns"
        return f"turn {self.turn}, {self.actor_name} {self.phase_text}"

    @property
    def cards_left(self) -> str:
        """Where the cards still to play are: "12 cards in the draw pile", "draw pile empty",
        "21 cards in hands, 40 undealt", "0 cards in hands"."""
        if self.round is not None:
            if self.finished:
                return "0 cards in hands"
            return f"{self.cards_in_hands} cards in hands, {self.draw_pile} undealt"
        if self.finished:
            return "draw pile empty"
        return f"{self.draw_pile} cards in the draw pile"


@dataclass(frozen=True)
class PublicMove:
    """One logged action as everyone may know it. ``card`` is set only when the card is public:
    a card played, discarded face up or given to Q, taken from the top of a discard pile (where
    everyone saw it), a draft pick once revealed and planted; never a card drawn from the deck
    nor a draft pick still hidden, replaced before the reveal, or discarded face down. ``text``
    says the same in words, hiding what is hidden."""

    index: int
    seat: int
    name: str
    #: "draw", "play", "discard", "give" or "pick"
    kind: str
    text: str
    card: Card | None = None
    cell: Cell | None = None
    #: draws: "deck", a seat number, or "discard" (solo)
    source: int | str | None = None
    #: solo, Q placing by the rule: where Q put the card and why
    q_placement: QPlacement | None = None

    @property
    def note(self) -> str:
        """``q_placement`` in English words ("Q put Oak 3 at 1,0: ..."), or ""."""
        return "" if self.q_placement is None else str(self.q_placement)


@dataclass(frozen=True)
class FaceUpHand:
    """A seat's hand and hidden draft pick with nothing hidden: for the replay of a finished
    game only (see ``State.face_up_hands``)."""

    seat: int
    name: str
    cards: tuple[Card, ...]
    pending: Pick | None = None


__all__ = [
    "DraftView", "Drawn", "FaceUpHand", "Phase", "Pile", "Planted", "Progress", "PublicMove", "Reveal", "SeatInfo",
    "SeatView", "TurnView", "outcome_json", "planted",
]
