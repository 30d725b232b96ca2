"""The plain data every printed document is made from.

The web views (or anything else) fill these from the database; the renderers only read them.
Nothing here knows about Flask or SQL, and nothing here is checked on construction: every
renderer checks what it is given and raises :class:`~organizer.printing.errors.PrintingError`
with a clear message before drawing anything."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

#: "a4" or "letter" (US Letter); anything else is refused.
Paper = Literal["a4", "letter"]

#: A number of tournament points: kept exact by the organizer (a third of a win is common).
Number = int | float | Fraction

#: A card placed in an arboretum: (x to the right, y downwards, species, value 1..8).
PlacedCard = tuple[int, int, str, int]

#: One line of a points explanation: a label and its points (as ``engine.Path.explain()`` gives),
#: or a plain sentence (e.g. why the right went elsewhere).
ExplanationLine = tuple[str, int] | str

#: The default tie-break order, in words as printed under standings.
DEFAULT_TIE_BREAKS: tuple[str, ...] = (
    "total game points",
    "opponents' average tournament points",
    "species count",
    "results between the tied players",
)


# -- round pack ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    """One seat at a table, in play order (seat 1 plays first unless ``is_start`` says otherwise)."""

    seat: int
    player: str
    is_start: bool = False
    is_dealer: bool = False
    #: The seat's private link on a digital table (its hand on the player's phone); else None.
    private_url: str | None = None
    club: str | None = None


@dataclass(frozen=True)
class TableInfo:
    """A table of a published round."""

    number: int
    seats: tuple[SeatInfo, ...]
    #: The species in play at this table (any order: printed in scorepad order).
    species: tuple[str, ...]
    #: Where the table's result is entered (printed as a QR code on its scorepad).
    result_url: str
    #: Played on the players' devices: each seat gets a slip with its private link.
    digital: bool = False


@dataclass(frozen=True)
class RoundPackData:
    event: str
    round_number: int
    edition: str
    tables: tuple[TableInfo, ...]
    #: "standard" or "draft" (the draft scorepad has the 3-point planting bonus row).
    game_format: str = "standard"
    paper: Paper = "a4"
    #: Free text under the title, e.g. the date and venue.
    subtitle: str | None = None
    #: The event's public page, printed as a QR code on the first page so players
    #: scan it to find their table; None when the organizer switched the page off.
    public_url: str | None = None
    #: "swiss", or the finals' "semi_final" or "final": a round of the finals is printed by its
    #: stage's name rather than its number
    stage: str = "swiss"


# -- score sheet ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetSpecies:
    """How one player did in one species in play."""

    species: str
    right: bool
    points: int
    #: The cells of the path scored, first card to last; empty when nothing was scored by a path.
    path: tuple[tuple[int, int], ...] = ()
    explanation: tuple[ExplanationLine, ...] = ()
    #: The value of the player's hand in that species as counted for the right (standard game).
    hand_sum: int | None = None


@dataclass(frozen=True)
class PlayerSheet:
    name: str
    arboretum: tuple[PlacedCard, ...]
    species: tuple[SheetSpecies, ...]
    total: int
    rank: int
    #: Cards left in hand at the end, as (species, value) (standard game; empty for the draft).
    hand: tuple[tuple[str, int], ...] = ()
    #: Points outside the species (the draft's 3-point planting bonus), with a label each.
    bonuses: tuple[tuple[str, int], ...] = ()
    #: Distinct species in the arboretum, printed when a 2018 tie is broken by it.
    species_in_arboretum: int | None = None


@dataclass(frozen=True)
class ScoreSheetData:
    edition: str
    species_in_play: tuple[str, ...]
    players: tuple[PlayerSheet, ...]
    #: "standard", "draft" or "solo" (only changes the wording of the rules reminder).
    game_format: str = "standard"
    event: str | None = None
    round_number: int | None = None
    table: int | None = None
    #: Where the result came from, e.g. "digital game" or "scoring assistant".
    source: str | None = None
    #: the round's stage ("swiss", "semi_final", "final"), which names a round of the finals
    stage: str = "swiss"
    #: How a tie at the top was settled, when there was one (printed under the ranking).
    tie_note: str | None = None
    paper: Paper = "a4"


# -- standings and the event report ----------------------------------------------------------


@dataclass(frozen=True)
class StandingsLine:
    rank: int
    player: str
    tournament_points: Number
    game_points: int
    opponents_average: Number
    species_count: int
    games: int
    club: str | None = None
    dropped: bool = False


@dataclass(frozen=True)
class FinalsPlace:
    """A place decided by the finals (or the Swiss standings after them), and why in words."""

    place: int
    player: str
    decided_by: str


@dataclass(frozen=True)
class StandingsData:
    event: str
    #: The last round counted (0 before any round is played).
    after_round: int
    rows: tuple[StandingsLine, ...]
    #: The event's tie-break order in words, printed under the table.
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    paper: Paper = "a4"
    #: Free text in the header, e.g. the date and time the standings were taken.
    subtitle: str | None = None
    #: The finals' places, printed before the Swiss standings (none without finals).
    finals: tuple[FinalsPlace, ...] = ()


@dataclass(frozen=True)
class ResultSeat:
    seat: int
    player: str
    points: int
    tournament_points: Number
    #: Place at the table after tie-breaks (1 = winner; equal places for a shared tie).
    place: int
    species_count: int | None = None


@dataclass(frozen=True)
class ReportTable:
    number: int
    #: The seats with their result; None while the table has no confirmed result.
    seats: tuple[ResultSeat, ...] | None
    #: How the result was entered (totals, scorepad, scoring assistant, digital game).
    entry_mode: str | None = None


@dataclass(frozen=True)
class ReportRound:
    number: int
    tables: tuple[ReportTable, ...]
    game_format: str = "standard"
    #: "swiss", "semi_final" or "final": the report prints the finals first, by their names
    stage: str = "swiss"


@dataclass(frozen=True)
class EventReportData:
    event: str
    edition: str
    rounds: tuple[ReportRound, ...]
    final_standings: tuple[StandingsLine, ...]
    date: str | None = None
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    paper: Paper = "a4"
    #: The finals' places, printed before the Swiss standings (none without finals).
    finals: tuple[FinalsPlace, ...] = ()
