"""The one figure a rating is shown and compared by, shared by the club's ratings and a round 1
seated by rating."""

from __future__ import annotations


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: openskill's ordinal, mu - 3 sigma (a cautious estimate: a new player
    starts at 0 and rises as the uncertainty shrinks)."""
    return mu - 3 * sigma
