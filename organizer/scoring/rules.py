"""The game's rules as the organizer needs them, taken from the engine rather than copied: the
rule set a round plays, whether species break a tied game, the most a species can score."""

from __future__ import annotations

from engine import Edition, edition_species, limits
from engine.scoring import RULE_SETS
from organizer.core.models import RoundFormat

#: a draft player who planted every pick scores this bonus (RULES.md §3)
DRAFT_BONUS = limits.DRAFT_BONUS

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


def limits_rules(round_format: str) -> str:
    """The rule set whose limits a round's figures obey: the draft, or the standard game (both
    editions score alike, so their limits are the same)."""
    return rules_name(Edition.E2018.value, round_format)


def max_species_points(round_format: str) -> int:
    """The best a single species can score (19 in a standard game, 15 in a draft)."""
    return limits.most_species_points(limits_rules(round_format))


def species_scores(round_format: str) -> frozenset[int]:
    """Every score a species line of the scorepad can show."""
    return limits.species_scores(limits_rules(round_format))


def total_possible(round_format: str, total: int) -> bool:
    return limits.total_possible(limits_rules(round_format), total)


def most_points(round_format: str, species_in_arboretum: int) -> int:
    return limits.most_points(limits_rules(round_format), species_in_arboretum)


def fewest_species(round_format: str) -> int:
    """The fewest species a finished arboretum holds (1 standard, 0 draft)."""
    return limits.fewest_species_in_arboretum(limits_rules(round_format))


def planted_spread(round_format: str) -> int | None:
    """How far the players' planted cards can differ at a finished table (None: any)."""
    return limits.planted_spread(limits_rules(round_format))
