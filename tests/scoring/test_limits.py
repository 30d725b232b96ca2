"""The engine's limits of a finished table's figures (engine/limits.py), in both rule families:
never tighter than the rules (a legal result is never refused), never looser than they make sure."""

from __future__ import annotations

import pytest

from engine import limits
from engine.errors import CaseError


def test_species_scores_standard_never_one() -> None:
    scores = limits.species_scores("standard-2018")
    assert 1 not in scores and {0, 2, 3, 19} <= scores and max(scores) == 19
    assert limits.species_scores("standard-2010") == scores


def test_species_scores_draft_every_score_from_zero() -> None:
    # a path 1 to 8 with the right scores 2 + 1 - 2 = 1; without the right a path scores 2 flat
    assert limits.species_scores("draft") == frozenset(range(16))


def test_totals() -> None:
    assert not limits.total_possible("standard-2018", 1)
    assert all(limits.total_possible("standard-2018", total) for total in (0, 2, 3, 57))
    assert limits.total_possible("draft", 1) and limits.total_possible("draft", 3)
    assert not limits.total_possible("draft", -1)


def test_most_points_by_species_in_the_arboretum() -> None:
    assert limits.most_points("standard-2018", 0) == 0
    assert limits.most_points("standard-2018", 1) == 19
    assert limits.most_points("draft", 0) == 0  # the bonus needs planted cards
    assert limits.most_points("draft", 2) == 2 * 15 + 3


def test_arboretums_of_a_finished_game() -> None:
    assert limits.fewest_species_in_arboretum("standard-2018") == 1
    assert limits.fewest_species_in_arboretum("draft") == 0  # every pick may be discarded
    assert limits.planted_spread("standard-2010") == 1
    assert limits.planted_spread("draft") is None
    assert limits.most_planted("draft", 4) == 14 and limits.most_planted("draft", 3) == 21
    assert limits.most_planted("standard-2018", 3) is None


def test_unknown_rules() -> None:
    with pytest.raises(CaseError):
        limits.species_scores("solo")
