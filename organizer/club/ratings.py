"""Club ratings: openskill's Plackett-Luce model over every settled table of every event (a
confirmed result in a closed round), in time order (events by date then id, rounds, tables by
number).

Ratings are derived: a replay of the results in time order. :func:`follow` replays them from
the earliest event whose results settled (a round closed, a settled result corrected, an event
imported), so they follow every settled result without anyone asking; :func:`recompute` replays
all of them, the repair tool. Either gives the same ratings from the same results. A table's ranks
are its places (points, then the species tie-break where the edition and format have one); equal
places share a rank. Seats without a registry entry (a player waiting for review) are left out;
a table left with fewer than two is skipped.

Bots: unless the event's ``rate_bot_games`` says otherwise, a person's seat a bot played any part
of (the live table's log names the bot of each move; the seat's flag and the audit entry of its
seating tell it too, also after the table went back to paper) is left out, and so is a person
whose only opponents were bots. With the setting, such a seat counts as the person's, and bots
in empty seats are opponents with openskill's starting rating, never rated themselves.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from sqlalchemy import and_, delete, insert, or_, true
from sqlalchemy import select as select_columns
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, func, select

from organizer.core import guard
from organizer.core.models import (
    AuditEntry,
    ClubPlayer,
    Event,
    GameTable,
    Player,
    RatingPoint,
    Result,
    ResultStatus,
    Round,
    RoundStatus,
    Seat,
)
from organizer.core.translate import N_, _, format_rating
from organizer.scoring.rules import species_tiebreak
from organizer.scoring.skill import ordinal as ordinal

log = logging.getLogger(__name__)

#: why a person's game is not rated (English, translated where shown)
BOT_SEAT = N_("a bot played this seat for part of the game")
ONLY_BOTS = N_("only bots to play against")

#: the lock every change of the stored ratings takes (guard.lock_key): a replay reads the points
#: before the events it replays and writes those after, so two replays at once would each miss
#: the other's
_LOCK = 0x41_72_62_52  # "ArbR"


@dataclass(frozen=True)
class RatedTable:
    """One settled table as the ratings see it: registry ids and their places (1 = first). A
    negative id is a bot, an opponent with the starting rating that is never rated itself."""

    event_id: int
    club_player_ids: tuple[int, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class Unrated:
    """A person's settled game the ratings leave out, and why (:data:`BOT_SEAT`, :data:`ONLY_BOTS`)."""

    club_player_id: int
    event_id: int
    round_number: int
    table_number: int
    reason: str


def places(seats: Sequence[tuple[int, int]], species_breaks_ties: bool) -> list[int]:
    """Each seat's place from (points, species): 1 plus the seats that finished strictly ahead
    (the standings' ``beats``), so a tie shares its place."""
    def ahead(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a[0] > b[0] or (a[0] == b[0] and species_breaks_ties and a[1] > b[1])
    return [1 + sum(ahead(other, seat) for other in seats) for seat in seats]


EventKey = tuple[Date, int]


def _since(key: EventKey | None) -> Any:
    """Events at or after ``key`` in time order (date, then id); every event when None."""
    if key is None:
        return true()
    day, event_id = key
    return or_(col(Event.date) > day, and_(col(Event.date) == day, col(Event.id) >= event_id))


def _settled_tables(since: EventKey | None, *columns: Any) -> Any:
    """``columns`` of each settled table (a confirmed result in a closed round) of the events
    from ``since`` on."""
    return (select_columns(*columns).select_from(Result)
            .join(GameTable, col(GameTable.id) == Result.table_id)
            .join(Round, col(Round.id) == GameTable.round_id)
            .join(Event, col(Event.id) == Round.event_id)
            .where(col(Result.status) == ResultStatus.CONFIRMED, col(Round.status) == RoundStatus.FINISHED,
                   _since(since)))


def _bot_seats(session: Session, since: EventKey | None) -> set[tuple[int, int]]:
    """The (table, position) pairs a bot played any part of, over the settled tables from
    ``since`` on."""
    played: set[tuple[int, int]] = set()
    for table_id, position in session.execute(
            _settled_tables(since, Seat.table_id, Seat.position)
            .join(Seat, col(Seat.table_id) == GameTable.id).where(col(Seat.is_bot))).all():
        played.add((table_id, position))
    # the live log: each move a bot made names its seat (nonce "bot:<version>:<seat>:<kind>")
    for table_id, action_log in session.execute(
            _settled_tables(since, GameTable.id, GameTable.action_log).where(col(GameTable.log_version) > 0)).all():
        for entry in action_log or []:
            if len(entry) > 2 and str(entry[2]).startswith("bot:"):
                played.add((table_id or 0, int(entry[0])))
    # a bot seated and removed again, or a table gone back to paper (its log cleared): the audit
    for table_id, new in session.execute(
            _settled_tables(since, AuditEntry.table_id, AuditEntry.new)
            .join(AuditEntry, col(AuditEntry.table_id) == GameTable.id)
            .where(AuditEntry.action == "live.bot_seated")).all():
        seat = (new or {}).get("seat")
        if table_id is not None and isinstance(seat, int):
            played.add((table_id, seat - 1))
    return played


def read_tables(session: Session, since: EventKey | None = None) -> tuple[list[RatedTable], list[Unrated]]:
    """The settled tables from ``since`` on (every one when None) as the ratings count them, in
    time order, and the persons' games they leave out."""
    links = dict(session.exec(select(Player.id, Player.club_player_id).join(Event, col(Event.id) == Player.event_id)
                              .where(col(Player.club_player_id).is_not(None), _since(since))).all())
    rows = session.execute(
        _settled_tables(since, Result.seats, GameTable.id, GameTable.number, Round.number, Round.format, Event.id,
                        Event.edition, Event.rate_bot_games)
        .order_by(col(Event.date), col(Event.id), col(Round.number), col(GameTable.number))
    ).all()
    bot_played = _bot_seats(session, since)
    tiebreaks: dict[tuple[str, str], bool] = {}
    tables: list[RatedTable] = []
    unrated: list[Unrated] = []
    for seats, table_id, table_number, round_number, round_format, event_id, edition, with_bots in rows:
        assert event_id is not None and table_id is not None  # stored rows
        if (edition, round_format) not in tiebreaks:
            tiebreaks[(edition, round_format)] = species_tiebreak(edition, round_format)
        ranks = places([(int(s["points"]), int(s["species_count"])) for s in seats], tiebreaks[(edition, round_format)])
        kept: list[tuple[int, int]] = []
        left_out: list[int] = []
        humans = 0  # persons' seats no bot played
        for position, (seat, rank) in enumerate(zip(seats, ranks, strict=True)):
            person = seat.get("player_id")
            if person is None:  # a bot in an empty seat
                if with_bots:
                    kept.append((-1 - position, rank))
                continue
            cp = links.get(person)
            if (table_id, position) in bot_played and not with_bots:
                if cp is not None:
                    left_out.append(cp)
                continue
            humans += 1
            if cp is not None:
                kept.append((cp, rank))
        people = [cp for cp, _rank in kept if cp >= 0]
        if len(kept) >= 2 and len(people) >= 1 and len(set(people)) == len(people):
            tables.append(RatedTable(event_id, tuple(cp for cp, _rank in kept), tuple(r for _cp, r in kept)))
        elif humans == 1 and len(people) == 1 and len(seats) > 1:
            unrated.append(Unrated(people[0], event_id, round_number, table_number, ONLY_BOTS))
        unrated.extend(Unrated(cp, event_id, round_number, table_number, BOT_SEAT) for cp in left_out)
    return tables, unrated


def rated_tables(session: Session) -> list[RatedTable]:
    """Every settled table as the ratings count it, in time order."""
    return read_tables(session)[0]


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


def compute(tables: Iterable[RatedTable], start: Sequence[Point] = (), sequence: int = 0) -> list[Point]:
    """Every player's rating after each event they played, from ``tables`` in time order,
    starting from the players' ratings ``start`` (their latest points before these tables) and
    numbering the events after ``sequence``."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[int, Any] = {p.club_player_id: model.rating(mu=p.mu, sigma=p.sigma) for p in start}
    played: dict[int, int] = {p.club_player_id: p.tables for p in start}
    points: list[Point] = []
    event_players: dict[int, None] = {}  # the event's players in order of first table
    event_id: int | None = None

    def close_event() -> None:
        nonlocal sequence
        if event_id is None or not event_players:
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
            if cp < 0:  # a bot: the starting rating, every time
                teams.append([model.rating()])
                continue
            if cp not in current:
                current[cp] = model.rating()
            event_players.setdefault(cp)
            played[cp] = played.get(cp, 0) + 1
            teams.append([current[cp]])
        rated = model.rate(teams, ranks=list(table.ranks))
        for cp, (rating,) in zip(table.club_player_ids, rated, strict=True):
            if cp >= 0:
                current[cp] = rating
    close_event()
    return points


@dataclass(frozen=True)
class Recomputed:
    tables: int
    players: int
    points: int


def recompute(session: Session) -> Recomputed:
    """Replace every stored rating point by a replay of all settled results (the repair tool:
    :func:`follow` keeps them up to date); the leagues' stored figures of events whose results
    changed since are stored again with them."""
    from organizer.club import leagues

    guard.lock_key(session, _LOCK)
    tables = rated_tables(session)
    points = compute(tables)
    store(session, points)
    session.commit()
    leagues.store_tallies(session)
    return Recomputed(len(tables), len({p.club_player_id for p in points}), len(points))


def follow(session: Session, event_ids: Sequence[int]) -> int:
    """Bring the stored ratings up to date after the results of ``event_ids`` settled: replay
    from the earliest of them on, starting from each player's rating before it, and commit.
    Under the ratings' lock, so two results settled at once are replayed one after the other,
    the second from what the first stored. Returns how many points were stored."""
    guard.lock_key(session, _LOCK)
    keys = [(day, e) for e, day in session.execute(
        select_columns(col(Event.id), col(Event.date)).where(col(Event.id).in_(list(event_ids)))).all() if e is not None]
    if not keys:
        session.commit()
        return 0
    since = min(keys)
    later = (select(func.min(RatingPoint.sequence)).select_from(RatingPoint)
             .join(Event, col(Event.id) == RatingPoint.event_id).where(_since(since)))
    cut = session.exec(later).one()
    # points of earlier events numbered after the cut: an event's date moved since they were
    # stored, so their order no longer holds and only a full replay puts it right
    if cut is not None and session.exec(
            select(func.count()).select_from(RatingPoint).join(Event, col(Event.id) == RatingPoint.event_id)
            .where(RatingPoint.sequence >= cut, ~_since(since))).one():
        points = compute(rated_tables(session))
        store(session, points)
        session.commit()
        return len(points)
    before = col(RatingPoint.sequence) < cut if cut is not None else true()
    latest = (select(RatingPoint.club_player_id, func.max(RatingPoint.sequence).label("seq")).where(before)
              .group_by(col(RatingPoint.club_player_id)).subquery())
    start = [Point(p.club_player_id, p.event_id, p.sequence, p.mu, p.sigma, p.tables) for p in session.exec(
        select(RatingPoint).join(latest, (col(RatingPoint.club_player_id) == latest.c.club_player_id)
                                 & (col(RatingPoint.sequence) == latest.c.seq))).all()]
    base = session.exec(select(func.max(RatingPoint.sequence)).where(before)).one() or 0
    points = compute(read_tables(session, since)[0], start, base)
    if cut is not None:
        session.execute(delete(RatingPoint).where(col(RatingPoint.sequence) >= cut))
    _insert(session, points)
    session.commit()
    return len(points)


def follow_quietly(session: Session, event_ids: Sequence[int]) -> int:
    """:func:`follow` after a commit that must stand whatever happens here: a database refusing
    the replay (busy, a lost connection) is logged and leaves the ratings to the next settled
    result or a recompute, never failing the request that settled the results."""
    try:
        return follow(session, event_ids)
    except DBAPIError:
        session.rollback()
        log.warning("ratings not brought up to date after events %s", list(event_ids)[:5], exc_info=True)
        return 0


def store(session: Session, points: Sequence[Point]) -> None:
    """Replace the stored rating points by ``points`` (the caller commits)."""
    session.execute(delete(RatingPoint))
    _insert(session, points)


def _insert(session: Session, points: Sequence[Point]) -> None:
    if points:
        session.execute(insert(RatingPoint), params=[
            {"club_player_id": p.club_player_id, "event_id": p.event_id, "sequence": p.sequence, "mu": p.mu,
             "sigma": p.sigma, "tables": p.tables} for p in points])


def unrated_games(session: Session, club_player_id: int) -> list[Unrated]:
    """The player's settled games the ratings leave out, in time order."""
    first = session.execute(select_columns(col(Event.date), col(Event.id)).join(Player, col(Player.event_id) == Event.id)
                            .where(col(Player.club_player_id) == club_player_id)
                            .order_by(col(Event.date), col(Event.id))).first()
    if first is None:
        return []
    day, event_id = first
    return [u for u in read_tables(session, (day, event_id or 0))[1] if u.club_player_id == club_player_id]


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

    # one event draws its band as a bar: a polygon of one point has no area
    spread = 8 if len(points) == 1 else 0
    band = " ".join(f"{x(i) - spread:.1f},{y(p.mu + p.sigma):.1f}" for i, p in enumerate(points))
    band += " " + " ".join(f"{x(i) + spread:.1f},{y(p.mu + p.sigma):.1f} {x(i) + spread:.1f},{y(p.mu - p.sigma):.1f}"
                           if spread else f"{x(i):.1f},{y(p.mu - p.sigma):.1f}"
                           for i, p in reversed(list(enumerate(points))))
    if spread:
        band += f" {x(0) - spread:.1f},{y(points[0].mu - points[0].sigma):.1f}"
    line = " ".join(f"{x(i):.1f},{y(p.mu):.1f}" for i, p in enumerate(points))
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(p.mu):.1f}" r="3"><title>{html.escape(p.event_name)} '
        f'({p.event_date.isoformat()}): {html.escape(p.text)}</title></circle>' for i, p in enumerate(points))
    label = html.escape(_("Estimated skill (mu ± σ) after each event"))  # a call of its own: extracted
    # as wide as the screen allows, never wider: the height follows the viewBox
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" width="100%" '
            f'viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{label}">'
            f'<polygon points="{band}" fill="#cde" stroke="none"/>'
            f'<polyline points="{line}" fill="none" stroke="#246" stroke-width="2"/>'
            f'<g fill="#246">{dots}</g>'
            f'<text x="2" y="{y(high) + 10:.1f}" font-size="10">{_axis(high)}</text>'
            f'<text x="2" y="{y(low):.1f}" font-size="10">{_axis(low)}</text></svg>')


def _axis(value: float) -> str:
    """An axis label: a whole number, never "-0" (a bound just below zero is zero)."""
    return str(round(value) + 0)
