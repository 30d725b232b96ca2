"""The game's rules as the organizer needs them, taken from the engine rather than copied: the
rule set a round plays, whether species break a tied game, the most a species can score."""

from __future__ import annotations

from functools import cache

from engine import Arboretum, Card, Edition, edition_species
from engine.cards import VALUES
from engine.paths import EIGHT_BONUS_DRAFT, EIGHT_BONUS_STANDARD, best_path
from engine.scoring import RULE_SETS
from organizer.core.models import RoundFormat

#: a draft player who planted every pick scores this bonus (RULES.md §3). The engine's
#: DraftScoring.bonus holds the same 3 without a public name yet.
DRAFT_BONUS = 3

#: the most species an arboretum can hold: every species of the larger edition
MOST_SPECIES = max(len(edition_species(edition)) for edition in Edition)


def rules_name(edition: str, round_format: str) -> str:
    """The engine's rule set of a round: the draft, or the standard game of the event's edition."""
    return "draft" if round_format == RoundFormat.DRAFT else f"standard-{edition}"


def rules_break_ties_by_species(rules: str) -> bool:
    """Whether under the engine's rule set ``rules`` a tie on points goes to the player with more
    species in the arboretum (2018 and the draft) or is shared (2010)."""
    return RULE_SETS[rules].species_tiebreak


def species_tiebreak(edition: str, round_format: str) -> bool:
    """The same for a round of an event."""
    return rules_break_ties_by_species(rules_name(edition, round_format))


@cache
def max_species_points(round_format: str) -> int:
    """The best a single species can score: the engine's score of the longest possible path, all
    of one species from 1 to 8 (19 in a standard game, 15 in a draft where an 8 costs 2)."""
    eight_bonus = EIGHT_BONUS_DRAFT if round_format == RoundFormat.DRAFT else EIGHT_BONUS_STANDARD
    species = edition_species(Edition.E2018)[0]
    line = Arboretum.from_cells(((value, 0), Card(species, value)) for value in VALUES)
    path = best_path(line, species, eight_bonus)
    assert path is not None
    return path.points
