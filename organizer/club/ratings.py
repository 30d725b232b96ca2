"""Club ratings: openskill's Plackett-Luce model over every confirmed table of every
event, in time order (events by date then id, rounds, tables by number).

Ratings are derived: :func:`recompute` replays all of them from the results and replaces the
stored points, so a corrected result changes everything after it, and the same results always
give the same ratings. A table's ranks are its places (points, then the species tie-break where
the edition and format have one); equal places share a rank. Seats without a registry entry (a
bot, a player waiting for review) are left out; a table left with fewer than two is skipped.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from sqlalchemy import delete, insert
from sqlmodel import Session, col, func, select

from organizer.core.models import PLAYED_STATUSES, ClubPlayer, Event, GameTable, Player, RatingPoint, Result, ResultStatus, Round
from organizer.core.translate import _, format_rating
from organizer.scoring.rules import species_tiebreak
from organizer.scoring.skill import ordinal as ordinal


@dataclass(frozen=True)
class RatedTable:
    """One confirmed table as the ratings see it: registry ids and their places (1 = first)."""

    event_id: int
    club_player_ids: tuple[int, ...]
    ranks: tuple[int, ...]


def places(seats: Sequence[tuple[int, int]], species_breaks_ties: bool) -> list[int]:
    """Each seat's place from (points, species): 1 plus the seats that finished strictly ahead
    (the standings' ``beats``), so a tie shares its place."""
    def ahead(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a[0] > b[0] or (a[0] == b[0] and species_breaks_ties and a[1] > b[1])
    return [1 + sum(ahead(other, seat) for other in seats) for seat in seats]


def rated_tables(session: Session) -> list[RatedTable]:
    links = dict(session.exec(select(Player.id, Player.club_player_id)
                              .where(col(Player.club_player_id).is_not(None))).all())
    rows = session.exec(
        select(Result.seats, Event.id, Event.edition, Round.format)
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .join(Event, col(Event.id) == Round.event_id)
        .where(Result.status == ResultStatus.CONFIRMED, col(Round.status).in_(PLAYED_STATUSES))
        .order_by(col(Event.date), col(Event.id), col(Round.number), col(GameTable.number))
    ).all()
    tiebreaks: dict[tuple[str, str], bool] = {}
    tables = []
    for seats, event_id, edition, round_format in rows:
        if (edition, round_format) not in tiebreaks:
            tiebreaks[(edition, round_format)] = species_tiebreak(edition, round_format)
        scored = [(links.get(s.get("player_id")), (int(s["points"]), int(s["species_count"]))) for s in seats]
        ranks = places([figures for _, figures in scored], tiebreaks[(edition, round_format)])
        kept = [(cp, rank) for (cp, _), rank in zip(scored, ranks, strict=True) if cp is not None]
        if len(kept) >= 2 and len({cp for cp, _ in kept}) == len(kept):
            assert event_id is not None  # a stored round belongs to an event
            tables.append(RatedTable(event_id, tuple(cp for cp, _ in kept), tuple(r for _, r in kept)))
    return tables


@dataclass(frozen=True)
class Point:
    """A player's rating after one event."""

    club_player_id: int
    event_id: int
    sequence: int
    mu: float
    sigma: float
    tables: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def compute(tables: Iterable[RatedTable]) -> list[Point]:
    """Every player's rating after each event they played, from ``tables`` in time order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[int, Any] = {}
    played: dict[int, int] = {}
    points: list[Point] = []
    event_players: dict[int, None] = {}  # the event's players in order of first table
    sequence = 0
    event_id: int | None = None

    def close_event() -> None:
        nonlocal sequence
        if event_id is None:
            return
        sequence += 1
        points.extend(Point(cp, event_id, sequence, current[cp].mu, current[cp].sigma, played[cp])
                      for cp in event_players)

    for table in tables:
        if table.event_id != event_id:
            close_event()
            event_id, event_players = table.event_id, {}
        teams = []
        for cp in table.club_player_ids:
            if cp not in current:
                current[cp] = model.rating()
            event_players.setdefault(cp)
            played[cp] = played.get(cp, 0) + 1
            teams.append([current[cp]])
        rated = model.rate(teams, ranks=list(table.ranks))
        for cp, (rating,) in zip(table.club_player_ids, rated, strict=True):
            current[cp] = rating
    close_event()
    return points


@dataclass(frozen=True)
class Recomputed:
    tables: int
    players: int
    points: int


def recompute(session: Session) -> Recomputed:
    """Replace every stored rating point by a replay of all confirmed results; the leagues'
    stored figures of events whose results changed since are stored again with them."""
    from organizer.club import leagues

    tables = rated_tables(session)
    points = compute(tables)
    store(session, points)
    session.commit()
    leagues.store_tallies(session)
    return Recomputed(len(tables), len({p.club_player_id for p in points}), len(points))


def store(session: Session, points: Sequence[Point]) -> None:
    """Replace the stored rating points by ``points`` (the caller commits)."""
    session.execute(delete(RatingPoint))
    if points:
        session.execute(insert(RatingPoint), params=[
            {"club_player_id": p.club_player_id, "event_id": p.event_id, "sequence": p.sequence, "mu": p.mu,
             "sigma": p.sigma, "tables": p.tables} for p in points])


#: rated tables after which a player's rating is shown as its ordinal and ranked: before, the
#: ordinal mostly measures the starting uncertainty (mu - 3 sigma starts at 0 and a first loss
#: takes it below), and reads as a penalty for being new
RATED_AFTER = 5


@dataclass(frozen=True)
class RatingRow:
    rank: int | None  # None: new, not ranked yet
    entry: ClubPlayer
    mu: float
    sigma: float
    tables: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def new(self) -> bool:
        return self.tables < RATED_AFTER


def current_ratings(session: Session, limit: int = 500) -> list[RatingRow]:
    """Each rated player's latest rating: the established ones ranked, best ordinal first, then
    the new ones (fewer than :data:`RATED_AFTER` rated tables), unranked, by their mu."""
    latest = (select(RatingPoint.club_player_id, func.max(RatingPoint.sequence).label("seq"))
              .group_by(col(RatingPoint.club_player_id)).subquery())
    new = col(RatingPoint.tables) < RATED_AFTER
    rows = session.exec(
        select(RatingPoint, ClubPlayer)
        .join(latest, (col(RatingPoint.club_player_id) == latest.c.club_player_id)
              & (col(RatingPoint.sequence) == latest.c.seq))
        .join(ClubPlayer, col(ClubPlayer.id) == RatingPoint.club_player_id)
        .order_by(new, (col(RatingPoint.mu) - 3 * col(RatingPoint.sigma)).desc(), col(RatingPoint.mu).desc(),
                  col(ClubPlayer.name_key))
        .limit(limit)).all()
    return [RatingRow(None if point.tables < RATED_AFTER else i + 1, entry, point.mu, point.sigma, point.tables)
            for i, (point, entry) in enumerate(rows)]


def rating_text(mu: float, sigma: float, tables: int) -> str:
    """A rating as a person reads it: the ordinal once established, else "new" with the estimate
    and its uncertainty, never a negative figure for a newcomer."""
    if tables < RATED_AFTER:
        return _("new: %(mu)s ± %(sigma)s", mu=format_rating(mu), sigma=format_rating(sigma))
    return format_rating(ordinal(mu, sigma))


@dataclass(frozen=True)
class HistoryPoint:
    event_name: str
    event_date: Date
    mu: float
    sigma: float
    tables: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def new(self) -> bool:
        return self.tables < RATED_AFTER

    @property
    def text(self) -> str:
        return rating_text(self.mu, self.sigma, self.tables)

    @property
    def rated_after(self) -> int:
        return RATED_AFTER


def history(session: Session, club_player_id: int) -> list[HistoryPoint]:
    rows = session.exec(select(RatingPoint, col(Event.name), col(Event.date)).join(Event, col(Event.id) == RatingPoint.event_id)
                        .where(RatingPoint.club_player_id == club_player_id)
                        .order_by(col(RatingPoint.sequence))).all()
    return [HistoryPoint(name, day, p.mu, p.sigma, p.tables) for p, name, day in rows]


def chart_svg(points: Sequence[HistoryPoint], width: int = 480, height: int = 160) -> str:
    """A small line chart of the skill estimate mu after each event in its band mu ± sigma, each
    point titled with the rating as shown (the ordinal, or "new"): plain SVG made on the server
    (no script, no external service); event names only in escaped titles. The ordinal is not
    drawn: a newcomer's starts at 0 and dips below it, which reads as a penalty."""
    if not points:
        return ""
    pad = 24
    low, high = min(p.mu - p.sigma for p in points), max(p.mu + p.sigma for p in points)
    span = (high - low) or 1.0
    step = (width - 2 * pad) / max(1, len(points) - 1)

    def x(i: int) -> float:
        return pad + i * step if len(points) > 1 else width / 2

    def y(value: float) -> float:
        return height - pad - (value - low) / span * (height - 2 * pad)

    band = " ".join(f"{x(i):.1f},{y(p.mu + p.sigma):.1f}" for i, p in enumerate(points))
    band += " " + " ".join(f"{x(i):.1f},{y(p.mu - p.sigma):.1f}" for i, p in reversed(list(enumerate(points))))
    line = " ".join(f"{x(i):.1f},{y(p.mu):.1f}" for i, p in enumerate(points))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(p.mu):.1f}" r="3"><title>{html.escape(p.event_name)} '
        f'({p.event_date.isoformat()}): {html.escape(p.text)}</title></circle>' for i, p in enumerate(points))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{html.escape(_("Estimated skill (mu ± σ) after each event"))}">'
            f'<polygon points="{band}" fill="#cde" stroke="none"/>'
            f'<polyline points="{line}" fill="none" stroke="#246" stroke-width="2"/>'
            f'<g fill="#246">{dots}</g>'
            f'<text x="2" y="{y(high) + 10:.1f}" font-size="10">{_axis(high)}</text>'
            f'<text x="2" y="{y(low):.1f}" font-size="10">{_axis(low)}</text></svg>')


def _axis(value: float) -> str:
    """An axis label: a whole number, never "-0" (a bound just below zero is zero)."""
    return str(round(value) + 0)
