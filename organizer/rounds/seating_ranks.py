"""Where each player stands before a round is seated: the event's standings from round 2 on,
the club's ratings for a round 1 seated by rating."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select as select_columns
from sqlmodel import Session, col, func

from organizer.core.models import Event, RatingPoint
from organizer.scoring.event_standings import standings_for
from organizer.scoring.skill import ordinal


@dataclass(frozen=True)
class Seatable:
    """A player the next round seats, as the seating reads them (columns, not 10,000 rows of
    the model): id, name, fixed table and their club player (for a seating by rating)."""

    id: int
    name: str
    fixed_table: int | None
    club_player_id: int | None


def current_ranks(session: Session, event: Event, players: Sequence[Seatable]) -> dict[int, int]:
    """0 for the top of the standings; players without results share the rank after the others."""
    rows = standings_for(session, event)
    ranks = {row.player_id: row.rank - 1 for row in rows}
    worst = max(ranks.values(), default=-1) + 1
    return {p.id: ranks.get(p.id, worst) for p in players}


@dataclass(frozen=True)
class RatingOrder:
    """Round 1 seated by rating: each player's rank (0 for the best rating; the unrated share
    the rank after the rated) and how many are rated."""

    ranks: dict[int, int]
    rated: int

    @property
    def unrated(self) -> int:
        return len(self.ranks) - self.rated


def rating_order(session: Session, players: Sequence[Seatable]) -> RatingOrder:
    """The players ranked by their club player's current rating, the ordinal of the latest
    rating point (``skill.ordinal``); equal ordinals share a rank, and the players without a
    club player or a rating share the rank after every rated one (the seating orders equals by
    the round's seed)."""
    club_ids = {p.club_player_id for p in players if p.club_player_id is not None}
    ordinals: dict[int, float] = {}
    for start in range(0, len(club_ids), 1000):
        chunk = sorted(club_ids)[start:start + 1000]
        latest = (select_columns(col(RatingPoint.club_player_id), func.max(col(RatingPoint.sequence)).label("seq"))
                  .where(col(RatingPoint.club_player_id).in_(chunk)).group_by(col(RatingPoint.club_player_id))
                  .subquery())
        for club_id, mu, sigma in session.execute(
                select_columns(col(RatingPoint.club_player_id), col(RatingPoint.mu), col(RatingPoint.sigma))
                .join(latest, (col(RatingPoint.club_player_id) == latest.c.club_player_id)
                      & (col(RatingPoint.sequence) == latest.c.seq))).all():
            ordinals[club_id] = ordinal(mu, sigma)
    rated = sorted({ordinals[p.club_player_id] for p in players
                    if p.club_player_id is not None and p.club_player_id in ordinals}, reverse=True)
    place = {value: rank for rank, value in enumerate(rated)}
    ranks = {p.id: place[ordinals[p.club_player_id]] if p.club_player_id in ordinals and p.club_player_id is not None
             else len(rated) for p in players}
    return RatingOrder(ranks, sum(1 for p in players if p.club_player_id in ordinals))
