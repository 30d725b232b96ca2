"""What a finished table's figures can be under each rule set (RULES.md §2, §3): the scores a
species line can take, the fewest species in a finished arboretum, the most a number of species
can score, and how far the players' planted cards can differ. A result entered by hand is
checked against these; anything outside them cannot come from a finished game.

Every function takes the engine's rule set name (``standard-2018``, ``standard-2010``,
``draft``; see :data:`engine.scoring.RULE_SETS`)."""

from __future__ import annotations

from functools import cache

from .arboretum import Arboretum
from .cards import VALUES, Card, Edition, edition_species
from .errors import CaseError
from .paths import best_path
from .scoring import RULE_SETS, DraftScoring, ScoringRules, default_draft_rounds

#: the draft's bonus for a player who planted every pick (RULES.md §3)
DRAFT_BONUS = 3
#: the fewest cards a path has (RULES.md §2)
SHORTEST_PATH = 2


def _rule_set(rules: str) -> type[ScoringRules]:
    if rules not in RULE_SETS or rules == "solo":
        raise CaseError(f"unknown rules {rules!r}: expected one of standard-2018, standard-2010, draft")
    return RULE_SETS[rules]


def _eight_bonus(rules: str) -> int:
    return _rule_set(rules).eight_bonus


@cache
def most_species_points(rules: str) -> int:
    """The best a single species can score: the engine's score of the longest possible path, all
    of one species from 1 to 8 (19 in a standard game, 15 in a draft, where an 8 costs 2)."""
    species = edition_species(Edition.E2018)[0]
    line = Arboretum.from_cells(((value, 0), Card(species, value)) for value in VALUES)
    path = best_path(line, species, _eight_bonus(rules))
    assert path is not None
    return path.points


@cache
def species_scores(rules: str) -> frozenset[int]:
    """Every score a species line can show: 0, and each score from the least a path can be worth
    up to :func:`most_species_points`. A standard path of 2 cards is worth at least 2, so a
    species never scores 1 there; in a draft a path 1 to 8 is worth 2 + 1 - 2 = 1 and a player
    without the right scores 2 flat, so every score from 0 up can happen."""
    eight = _eight_bonus(rules)
    # the shortest path's points: its cards, plus 1 when it starts on a 1, plus the 8's bonus
    shortest = {max(0, SHORTEST_PATH + one + end) for one in (0, 1) for end in (0, eight)}
    if _rule_set(rules).scores_without_right:
        shortest.add(2)  # the draft's flat 2
    lowest = min(points for points in shortest if points > 0)
    return frozenset({0, *range(lowest, most_species_points(rules) + 1)})


def bonus_points(rules: str) -> int:
    """The bonus a player can earn beside the species (the draft's 3 for planting every pick)."""
    return DRAFT_BONUS if issubclass(_rule_set(rules), DraftScoring) else 0


def total_possible(rules: str, total: int) -> bool:
    """Whether a player's total can be ``total`` at all: a sum of species scores plus the bonus
    or not. In a standard game 1 is the one total that cannot happen."""
    if total < 0:
        return False
    lowest = min(points for points in species_scores(rules) if points > 0)
    bonus = bonus_points(rules)
    return total == 0 or total >= lowest or total == bonus


def most_points(rules: str, species_in_arboretum: int) -> int:
    """The most a player can score with ``species_in_arboretum`` distinct species planted: a
    species scores only with a path whose first and last cards are of it, so only species in the
    arboretum score, each at most :func:`most_species_points`; plus the bonus."""
    if species_in_arboretum <= 0:
        return 0
    return species_in_arboretum * most_species_points(rules) + bonus_points(rules)


def fewest_species_in_arboretum(rules: str) -> int:
    """The fewest distinct species a finished arboretum holds: 1 in a standard game, where every
    player plants a card on every turn and has at least one turn; 0 in a draft, where every pick
    may be discarded instead of planted."""
    return 0 if issubclass(_rule_set(rules), DraftScoring) else 1


def planted_spread(rules: str) -> int | None:
    """How far the players' numbers of planted cards can differ at a finished table: 1 in a
    standard game (one card a turn; the game ends after some player's turn, so the players had
    the same number of turns, give or take one); None in a draft, where each pick is planted or
    discarded as the player likes."""
    return None if issubclass(_rule_set(rules), DraftScoring) else 1


def most_planted(rules: str, players: int) -> int | None:
    """The most cards one player can plant: every pick of every round in a draft (21; 14 in the
    two-round draft of 4 players); None in a standard game, whose length depends on the draws."""
    if issubclass(_rule_set(rules), DraftScoring):
        return DraftScoring(default_draft_rounds(players)).picks
    return None
