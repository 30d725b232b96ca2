"""Cards, species and editions (RULES.md §1)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from .card_data import EDITION_SPECIES, SPECIES_ROWS
from .card_data import SPECIES_CODES as SPECIES_CODES  # re-exported: the data lives there
from .errors import CardError


class Edition(str, Enum):  # noqa: UP042 - StrEnum would change str(Edition.E2018), which saved games and messages use
    E2018 = "2018"
    E2010 = "2010"

    @classmethod
    def parse(cls, text: str | int | Edition) -> Edition:
        if isinstance(text, Edition):
            return text
        for edition in cls:
            if str(text) == edition.value:
                return edition
        raise CardError(f"unknown edition {text!r}: expected 2018 or 2010")


#: Species of each edition in scorepad order, with the colour named by the rulebooks and a
#: hex value the screens and PDFs use for that colour.
SPECIES_COLOURS: dict[Edition, tuple[tuple[str, str, str], ...]] = {
    Edition(edition): rows for edition, rows in SPECIES_ROWS.items()
}

VALUES = range(1, 9)


def species_code(species: str) -> str:
    """The species' two-letter code, e.g. ``"RP"`` for Royal Poinciana."""
    try:
        return SPECIES_CODES[species]
    except KeyError:
        raise CardError(f"unknown species {species!r}") from None


def edition_species(edition: Edition) -> tuple[str, ...]:
    """The edition's ten species in scorepad order."""
    return _EDITION_SPECIES[edition]


_EDITION_SPECIES = {Edition(edition): names for edition, names in EDITION_SPECIES.items()}
_EDITION_SPECIES_SETS = {edition: frozenset(names) for edition, names in _EDITION_SPECIES.items()}


def species_colour(species: str) -> tuple[str, str]:
    """(colour name, hex) for a species of either edition."""
    for rows in SPECIES_COLOURS.values():
        for name, colour, hex_value in rows:
            if name == species:
                return colour, hex_value
    raise CardError(f"unknown species {species!r}")


def editions_of(species: Iterable[str]) -> list[Edition]:
    """The editions whose species set holds every one of ``species``."""
    wanted = set(species)
    return [e for e in Edition if wanted <= _EDITION_SPECIES_SETS[e]]


_CARD_TEXT = re.compile(r"^(?P<species>[A-Za-z][A-Za-z ]*[A-Za-z]) (?P<value>-?\d+)$")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One tree card. Its text form is ``"Oak 3"`` and round-trips through :meth:`parse`."""

    species: str
    value: int

    def __post_init__(self) -> None:
        if not isinstance(self.value, int) or isinstance(self.value, bool) or not 1 <= self.value <= 8:
            raise CardError(f"card {self.species} {self.value!r}: value must be 1..8")
        if not isinstance(self.species, str) or not self.species.strip():
            raise CardError(f"card with value {self.value}: species must be a non-empty name")

    def __str__(self) -> str:
        return f"{self.species} {self.value}"

    @classmethod
    def parse(cls, text: str) -> Card:
        if not isinstance(text, str):
            raise CardError(f"card {text!r}: expected text like 'Oak 3'")
        match = _CARD_TEXT.match(text.strip())
        if not match:
            raise CardError(f"card {text!r}: expected a species name, one space and a value, like 'Oak 3'")
        return cls(match["species"], int(match["value"]))


def species_count(mode: str, players: int) -> int:
    """How many species a game uses (RULES.md §2–§4)."""
    table = {
        "standard": {2: 6, 3: 8, 4: 10},
        "draft": {2: 7, 3: 10, 4: 9},
        "solo": {1: 6},
    }
    if mode not in table:
        raise CardError(f"unknown mode {mode!r}: expected standard, draft or solo")
    if players not in table[mode]:
        allowed = ", ".join(str(n) for n in table[mode])
        raise CardError(f"{mode} game for {players} players: allowed player counts are {allowed}")
    return table[mode][players]


def choose_species(
    edition: Edition,
    count: int,
    rng: random.Random | None = None,
    left_out: Sequence[str] | None = None,
    in_play: Sequence[str] | None = None,
) -> tuple[str, ...]:
    """The species in play, in scorepad order.

    The caller may name the species in play or the ones left out; otherwise the species left out
    are drawn with ``rng`` (RULES.md §1 decision)."""
    all_species = edition_species(edition)
    for name in list(left_out or ()) + list(in_play or ()):
        if name not in all_species:
            raise CardError(f"species {name!r} is not in the {edition.value} edition")
    if in_play is not None:
        chosen = set(in_play)
        if len(chosen) != count or len(in_play) != count:
            raise CardError(f"{len(in_play)} species named to play, the game needs {count} distinct ones")
    elif left_out is not None:
        if len(set(left_out)) != len(all_species) - count or len(left_out) != len(set(left_out)):
            raise CardError(
                f"{len(left_out)} species named to leave out, the game leaves out {len(all_species) - count}"
            )
        chosen = set(all_species) - set(left_out)
    else:
        rng = rng or random.Random()
        chosen = set(rng.sample(all_species, count))
    return tuple(name for name in all_species if name in chosen)


def make_deck(species: Iterable[str]) -> list[Card]:
    """Every card of the given species, in a fixed order (shuffle with the game's seed)."""
    return [Card(name, value) for name in species for value in VALUES]
