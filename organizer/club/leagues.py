"""Seasons and their league tables.

A season names dates and the events it groups; its league ranks the club's players by the rule
the organizer picks, over each event's tournament points (the event's own standings: its point
scheme, disputed tables left out, as the event shows them):

- ``sum``: all tournament points of the season;
- ``best``: the best ``best_of`` events' points of each player;
- ``average``: points per event attended, players with fewer than ``min_events`` events listed
  below the ranked ones, unranked.

Ties are broken as in events, by the figures a season has: game points, then species, over the
events that count; still equal, the rank is shared (1, 2, 2, 4). An event's opponents' average
and head-to-head belong to its own tables and are left out of the league.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date as Date
from fractions import Fraction
from operator import attrgetter
from typing import Any, NamedTuple

from sqlalchemy import Text, cast, delete, insert
from sqlalchemy import select as select_columns
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, func, select

from organizer.core import text
from organizer.core.errors import InputError
from organizer.core.models import (
    PLAYED_STATUSES,
    ClubPlayer,
    Event,
    GameTable,
    LeagueTally,
    Player,
    Result,
    ResultStatus,
    Round,
    Season,
    SeasonEvent,
)
from organizer.core.paging import PER_PAGE, Page, page_of
from organizer.core.translate import N_, _, ngettext
from organizer.printing.data import Paper
from organizer.printing.league import LeagueData, LeagueLine
from organizer.scoring import standings
from organizer.scoring.event_standings import seat_player_id
from organizer.scoring.rules import species_tiebreak
from organizer.scoring.schemes import UNIT

log = logging.getLogger(__name__)

RULES: dict[str, str] = {
    "sum": N_("sum of tournament points"),
    "best": N_("best N events"),
    "average": N_("points per event attended, with a minimum attendance"),
}
MAX_EVENTS = 1000


@dataclass(frozen=True)
class SeasonInput:
    name: str
    starts_on: Date
    ends_on: Date
    rule: str = "sum"
    best_of: int = 0
    min_events: int = 0


def season_problems(data: SeasonInput) -> dict[str, str]:
    errors: dict[str, str] = {}
    name = text.name_problem(data.name, 120, _("Name the season."))
    if name is not None:
        errors["name"] = name
    if data.ends_on < data.starts_on:
        errors["ends_on"] = _("The season ends on or after the day it starts.")
    if data.rule not in RULES:
        errors["rule"] = _("Pick one of the rules shown.")
    elif data.rule == "best" and not 1 <= data.best_of <= MAX_EVENTS:
        errors["best_of"] = _("Count the best 1 to %(most)d events.", most=MAX_EVENTS)
    elif data.rule == "average" and not 0 <= data.min_events <= MAX_EVENTS:
        errors["min_events"] = _("Ask for 0 to %(most)d events.", most=MAX_EVENTS)
    return errors


def save_season(session: Session, data: SeasonInput, season: Season | None = None,
                event_ids: Sequence[int] | None = None) -> Season:
    """Create or change a season. Its events are ``event_ids`` when given; a new season without
    them takes the events dated within its dates."""
    errors = season_problems(data)
    if errors:
        raise InputError(errors)
    season = season or Season(name=data.name, starts_on=data.starts_on, ends_on=data.ends_on)
    season.name, season.starts_on, season.ends_on = text.clean_name(data.name), data.starts_on, data.ends_on
    season.rule, season.best_of, season.min_events = data.rule, data.best_of, data.min_events
    new = season.id is None
    session.add(season)
    session.flush()
    if event_ids is None and new:
        event_ids = [e for e in session.exec(select(Event.id).where(Event.date >= data.starts_on,
                                                                    Event.date <= data.ends_on)).all() if e is not None]
    if event_ids is not None:
        for link in session.exec(select(SeasonEvent).where(SeasonEvent.season_id == season.id)).all():
            session.delete(link)
        session.flush()
        session.add_all(SeasonEvent(season_id=season.id or 0, event_id=e) for e in sorted(set(event_ids)))
    session.commit()
    # the season's league is read next: its events' figures are stored now (a POST), not
    # scored again at every view
    store_tallies(session, [e.event_id for e in session.exec(select(SeasonEvent).where(SeasonEvent.season_id == season.id))])
    session.refresh(season)
    return season


@dataclass(frozen=True)
class EventFacts:
    """What a league needs of an event, read as columns (300 events as model objects cost more
    than their league)."""

    id: int
    name: str
    date: Date
    version: int
    point_scheme: str
    edition: str


_FACTS = (col(Event.id), col(Event.name), col(Event.date), col(Event.version), col(Event.point_scheme),
          col(Event.edition))


def season_events(session: Session, season_id: int) -> list[EventFacts]:
    """The season's events in date order (then id)."""
    rows = session.connection().execute(
        select_columns(*_FACTS).join(SeasonEvent, col(SeasonEvent.event_id) == Event.id)
        .where(col(SeasonEvent.season_id) == season_id).order_by(col(Event.date), col(Event.id))).all()
    return [_facts(*row) for row in rows]


def _facts(event_id: int | None, name: str, day: Date, version: int, point_scheme: str, edition: str) -> EventFacts:
    assert event_id is not None  # a stored event has its id
    return EventFacts(event_id, name, day, version, point_scheme, edition)


class EventScore(NamedTuple):
    """One player's figures at one event (a tuple: a league makes tens of thousands)."""

    event_id: int
    points: Fraction
    game_points: int
    species: int


def pick(scores: Sequence[EventScore], rule: str, best_of: int) -> list[EventScore]:
    """The events that count: all, or the best ``best_of`` by points (the earlier event first
    among equals, so the choice is stable)."""
    if rule != "best":
        return list(scores)
    return sorted(scores, key=attrgetter("points"), reverse=True)[:best_of]


@dataclass(frozen=True)
class LeagueRow:
    rank: int | None  # None: below the minimum attendance
    club_player_id: int
    name: str
    points: float  # the rule's figure
    attended: int
    counted: int
    game_points: int
    species: int
    scores: tuple[EventScore, ...] = ()

    @property
    def per_event(self) -> dict[int, float]:
        """Points at each event attended."""
        return {s.event_id: float(s.points) for s in self.scores}


def _total(used: Sequence[EventScore]) -> Fraction:
    """The exact sum of the events' points, made as one Fraction: the points share a few small
    denominators (whole twelfths), and adding 12,000 Fractions one by one cost more than all the
    rest of a league."""
    if not used:
        return Fraction(0)
    common = math.lcm(*{s.points.denominator for s in used})
    return Fraction(sum(s.points.numerator * (common // s.points.denominator) for s in used), common)


def rank_league(scores: dict[int, list[EventScore]], names: dict[int, str], rule: str, best_of: int = 0,
                min_events: int = 0) -> list[LeagueRow]:
    """The league table from each player's event scores (pure: the hand-worked tests call it)."""
    values: dict[int, Fraction] = {}
    figures: dict[int, tuple[int, int, int]] = {}  # (the rule's figure over ``common``, game points, species)
    counted: dict[int, list[EventScore]] = {}
    for cp, events in scores.items():
        used = pick(events, rule, best_of)
        counted[cp] = used
        total = _total(used)
        values[cp] = total / len(used) if rule == "average" and used else total
    # the figures as whole numbers over one common denominator: exact, and sorted and compared as
    # integers
    common = math.lcm(*{v.denominator for v in values.values()}) if values else 1
    for cp, value in values.items():
        used = counted[cp]
        figures[cp] = (value.numerator * (common // value.denominator), sum(s.game_points for s in used),
                       sum(s.species for s in used))
    ranked = [cp for cp in scores if rule != "average" or len(scores[cp]) >= min_events]
    ranked_set = set(ranked)
    unranked = [cp for cp in scores if cp not in ranked_set]
    ranked.sort(key=lambda cp: (-figures[cp][0], -figures[cp][1], -figures[cp][2], names.get(cp, "").casefold(), cp))
    unranked.sort(key=lambda cp: (-len(scores[cp]), -figures[cp][0], names.get(cp, "").casefold(), cp))
    rows: list[LeagueRow] = []
    for position, cp in enumerate(ranked):
        previous = ranked[position - 1] if position else None
        rank = rows[-1].rank if previous is not None and figures[previous] == figures[cp] else position + 1
        rows.append(_row(rank, cp, names, values[cp], figures[cp], scores, counted))
    rows.extend(_row(None, cp, names, values[cp], figures[cp], scores, counted) for cp in unranked)
    return rows


def _row(rank: int | None, cp: int, names: dict[int, str], value: Fraction, figures: tuple[int, int, int],
         scores: dict[int, list[EventScore]], counted: dict[int, list[EventScore]]) -> LeagueRow:
    _value, game_points, species = figures
    return LeagueRow(rank, cp, names.get(cp, "?"), float(value), len(scores[cp]), len(counted[cp]), game_points,
                     species, tuple(scores[cp]))


#: (database, event id, stamp) -> event player id -> (units, game points, species): an event
#: whose stored tally is stale (results changed after it was stored) is scored from its results
#: once per process and state of its results, not at every view of the league
_TALLIES: dict[tuple[str, int, str], dict[int, tuple[int, int, int]]] = {}
_MAX_CACHED = 5000

#: whole units of 1/UNIT as Fractions, made once each (a league reads tens of thousands)
_FRACTIONS: dict[int, Fraction] = {}


def _points(units: int) -> Fraction:
    found = _FRACTIONS.get(units)
    if found is None:
        found = _FRACTIONS[units] = Fraction(units, UNIT)
    return found


def _event_facts(session: Session, event_ids: Sequence[int]) -> dict[int, EventFacts]:
    """The events, in date order (then id)."""
    rows = session.connection().execute(
        select_columns(*_FACTS).where(col(Event.id).in_(list(event_ids))).order_by(col(Event.date), col(Event.id))).all()
    facts = [_facts(*row) for row in rows]
    return {e.id: e for e in facts}


def _fingerprints(session: Session, events: dict[int, EventFacts]) -> dict[int, str]:
    """Per event, a digest of what changes whenever its league figures can: results entered,
    corrected, confirmed or disputed (each bumps a version or a count, or the newest change),
    rounds played, the point scheme and edition, the settings' version."""
    # sqlalchemy's select: sqlmodel's types stop at four columns
    rows = session.connection().execute(
        select_columns(col(Round.event_id), func.count(), func.sum(col(Result.version)), func.max(col(Result.updated_at)),
                       func.count().filter(col(Result.status) == ResultStatus.DISPUTED))
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .where(col(Round.event_id).in_(list(events)), col(Round.status).in_(PLAYED_STATUSES))
        .group_by(col(Round.event_id))).all()
    found = {event_id: tuple(rest) for event_id, *rest in rows}
    return {e: hashlib.sha256(repr((event.version, event.point_scheme, event.edition, found.get(e))).encode())
            .hexdigest() for e, event in events.items()}


def _tallies(session: Session, events: dict[int, EventFacts], event_ids: list[int]) -> dict[int, dict[int, tuple[int, int, int]]]:
    """Each event's figures per event player (tournament points in whole units of 1/UNIT, the
    schemes' own integers, as the event standings add them), read in one statement."""
    if not event_ids:
        return {}
    # the seats come as their JSON text and are decoded in one json.loads for all tables: one call
    # per table cost more than all the scoring
    rows = session.execute(
        select_columns(cast(col(Result.seats), Text), col(GameTable.id), col(Round.number), col(Round.format),
                       col(Round.event_id))
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .where(col(Round.event_id).in_(event_ids), col(Round.status).in_(PLAYED_STATUSES),
               col(Result.status) != ResultStatus.DISPUTED)).all()
    all_seats: list[list[dict[str, Any]]] = json.loads("[" + ",".join(row[0] or "[]" for row in rows) + "]")
    units: dict[int, dict[int, list[int]]] = {e: {} for e in event_ids}
    # per event, read once: its scheme and edition
    schemes = {e: (standings.SCHEMES[events[e].point_scheme].table_units, events[e].edition) for e in event_ids}
    tiebreaks: dict[tuple[str, str], bool] = {}
    for seats, (_text, table_id, round_number, round_format, event_id) in zip(all_seats, rows, strict=True):
        table_units, edition = schemes[event_id]
        tiebreak = tiebreaks.get((edition, round_format))
        if tiebreak is None:
            tiebreak = tiebreaks[(edition, round_format)] = species_tiebreak(edition, round_format)
        table = standings.TableResult(
            table_id, round_number,
            [standings.SeatResult(seat_player_id(table_id, i, s.get("player_id")), int(s["points"]),
                                  int(s["species_count"])) for i, s in enumerate(seats)],
            tiebreak)
        points = table_units(table)
        tally = units[event_id]
        for seat in table.seats:
            figures = tally.get(seat.player_id)
            if figures is None:
                tally[seat.player_id] = [points[seat.player_id], seat.points, seat.species_count]
            else:
                figures[0] += points[seat.player_id]
                figures[1] += seat.points
                figures[2] += seat.species_count
    return {e: {player: (u, game, species) for player, (u, game, species) in tally.items()}
            for e, tally in units.items()}


def store_tallies(session: Session, event_ids: Sequence[int] | None = None) -> int:
    """Store the league figures of ``event_ids`` (None: every event whose stored figures are
    stale or missing), stamped with their results' state, and commit; a league then reads them
    instead of scoring every table. Called by the POSTs after which an event's results are
    settled (a round closed, an import, ratings recomputed, a season saved). Returns how many
    events were stored."""
    if event_ids is None:
        event_ids = [e for e in session.exec(select(Event.id)).all() if e is not None]
    events = _event_facts(session, event_ids)
    # the stamp is read before the results: a result changed in between leaves a stamp that no
    # longer holds, so the league scores that event itself rather than trust these rows
    stamps = _fingerprints(session, events)
    fresh = _fresh(session, stamps)
    wanted = [e for e in events if e not in fresh]
    if not wanted:
        return 0
    known = set(session.exec(select(Player.id).where(col(Player.event_id).in_(wanted))).all())
    tallies = _tallies(session, events, wanted)
    rows = [{"event_id": e, "player_id": player, "units": u, "game_points": game, "species": species, "stamp": stamps[e]}
            for e in wanted for player, (u, game, species) in tallies[e].items() if player in known]
    try:
        session.execute(delete(LeagueTally).where(col(LeagueTally.event_id).in_(wanted)))
        if rows:
            session.execute(insert(LeagueTally), params=rows)
        session.commit()
    except DBAPIError:
        # another request stored the same events at the same moment (PostgreSQL's unique key,
        # SQLite's busy snapshot): its rows serve as well, and stale ones are scored by the league
        # itself; the POST that asked has done its own work already
        session.rollback()
        log.warning("league figures of events %s not stored: stored concurrently", wanted[:5], exc_info=True)
        return 0
    return len(wanted)


def figures_hold(session: Session, event_id: int) -> bool:
    """Whether the event's stored league figures still hold: its results are as they were when
    a POST stored them. Read before a change of a result, under its lock, it tells a change of
    settled results (a reopened round's correction, a dispute) from one of a round in play, whose
    event the league scores from its results until the round closes."""
    stored = session.connection().execute(select_columns(col(LeagueTally.stamp)).distinct()
                                          .where(col(LeagueTally.event_id) == event_id)).all()
    if len(stored) != 1:
        return False
    return _fingerprints(session, _event_facts(session, [event_id])).get(event_id) == stored[0][0]


def _fresh(session: Session, stamps: dict[int, str]) -> set[int]:
    """The events whose stored figures still hold."""
    if not stamps:
        return set()
    rows = session.connection().execute(select_columns(col(LeagueTally.event_id), col(LeagueTally.stamp)).distinct()
                           .where(col(LeagueTally.event_id).in_(list(stamps)))).all()
    stale = {e for e, stamp in rows if stamp != stamps[e]}
    return {e for e, _stamp in rows if e not in stale}


def event_scores(session: Session, event_ids: Sequence[int]) -> dict[int, list[EventScore]]:
    """Club player id -> their figures at each of the events (in event date order); each event's
    tournament points by its own scheme: the stored figures while they hold, else scored from
    the results (once per process and state of the results)."""
    if not event_ids:
        return {}
    return _scores(session, _event_facts(session, event_ids))


def _scores(session: Session, events: dict[int, EventFacts],
            stamps: dict[int, str] | None = None) -> dict[int, list[EventScore]]:
    """:func:`event_scores` of ``events`` (in date order), whose fingerprints may be given."""
    if not events:
        return {}
    stamps = stamps if stamps is not None else _fingerprints(session, events)
    fresh = _fresh(session, stamps)
    per_event: dict[int, list[tuple[int, int, int, int]]] = {e: [] for e in events}
    if fresh:
        # one statement: the stored rows with the registry links as they are now (a review
        # settled or a merge moves a link without touching a result)
        for event_id, cp, units, game_points, species in session.connection().execute(
                select_columns(col(LeagueTally.event_id), col(Player.club_player_id), col(LeagueTally.units),
                               col(LeagueTally.game_points), col(LeagueTally.species))
                .join(Player, col(Player.id) == LeagueTally.player_id)
                .where(col(LeagueTally.event_id).in_(list(fresh)), col(Player.club_player_id).is_not(None))):
            per_event[event_id].append((cp or 0, units, game_points, species))  # not None: the query's
    stale = [e for e in events if e not in fresh]
    if stale:
        database = str(session.get_bind().engine.url)
        missing = [e for e in stale if (database, e, stamps[e]) not in _TALLIES]
        if len(_TALLIES) + len(missing) > _MAX_CACHED:
            _TALLIES.clear()
        for e, tally in _tallies(session, events, missing).items():
            _TALLIES[(database, e, stamps[e])] = tally
        links = dict(session.exec(select(Player.id, Player.club_player_id).where(
            col(Player.event_id).in_(stale), col(Player.club_player_id).is_not(None))).all())
        for e in stale:
            for player_id, (units, game_points, species) in _TALLIES[(database, e, stamps[e])].items():
                cp = links.get(player_id)
                if cp is not None:
                    per_event[e].append((cp, units, game_points, species))
    scores: dict[int, list[EventScore]] = {}
    for event_id, found in per_event.items():  # in date order
        for cp, units, game_points, species in found:
            scores.setdefault(cp, []).append(EventScore(event_id, _points(units), game_points, species))
    return scores


@dataclass(frozen=True)
class League:
    season: Season
    events: list[EventFacts]
    rows: list[LeagueRow]
    #: counted results not confirmed yet (entered, not disputed): the league is provisional, as
    #: the events' own standings are, while there are any
    unconfirmed: int = 0

    @property
    def rule_text(self) -> str:
        if self.season.rule == "best":
            return ngettext("best %(num)d event's tournament points", "best %(num)d events' tournament points",
                            self.season.best_of)
        if self.season.rule == "average":
            return ngettext("tournament points per event attended, at least %(num)d event",
                            "tournament points per event attended, at least %(num)d events", self.season.min_events)
        return _("sum of tournament points")


#: the last league rows ranked per season, by the season's data version (its rule, its events'
#: results fingerprints, the registry's links and names): a page, a search or the projector of an
#: unchanged season ranks nothing again (per process; the version is read from the database each
#: time)
_RANKED: dict[tuple[str, int], tuple[tuple[Any, ...], list[LeagueRow]]] = {}
_MAX_RANKED = 64


def _registry_version(session: Session, event_ids: list[int]) -> tuple[Any, ...]:
    """What the league's rows take from the registry, read cheaply: which entry each of the
    events' players is linked to (a review settled, a merge, an import move a link) and the
    entries themselves (names come with new entries; an import replaces them all)."""
    links = session.connection().execute(
        select_columns(func.count(col(Player.club_player_id)), func.sum(col(Player.club_player_id)),
                       func.sum(col(Player.id) * col(Player.club_player_id)))
        .where(col(Player.event_id).in_(event_ids))).one()
    entries = session.connection().execute(
        select_columns(func.count(), func.max(col(ClubPlayer.id)), func.max(col(ClubPlayer.merged_at)))).one()
    return (*links, *entries)


def league(session: Session, season_id: int) -> League | None:
    season = session.get(Season, season_id)
    if season is None:
        return None
    events = season_events(session, season_id)
    facts = {e.id: e for e in events}
    stamps = _fingerprints(session, facts)
    version = (season.rule, season.best_of, season.min_events, tuple(events), tuple(stamps.values()),
               _registry_version(session, list(facts)))
    key = (str(session.get_bind().engine.url), season_id)
    cached = _RANKED.get(key)
    unconfirmed = unconfirmed_results(session, list(facts))
    if cached is not None and cached[0] == version:
        return League(season, events, cached[1], unconfirmed)
    scores = _scores(session, facts, stamps)
    names = {entry_id: name for entry_id, name in session.exec(
        select(ClubPlayer.id, ClubPlayer.name).where(col(ClubPlayer.id).in_(list(scores)))).all() if entry_id is not None}
    rows = rank_league(scores, names, season.rule, season.best_of, season.min_events)
    if len(_RANKED) >= _MAX_RANKED and key not in _RANKED:
        _RANKED.clear()
    _RANKED[key] = (version, rows)
    return League(season, events, rows, unconfirmed)


def unconfirmed_results(session: Session, event_ids: list[int]) -> int:
    """How many results the events' standings count that nobody has confirmed yet."""
    if not event_ids:
        return 0
    return int(session.connection().execute(
        select_columns(func.count()).select_from(Result)
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .where(col(Round.event_id).in_(event_ids), col(Round.status).in_(PLAYED_STATUSES),
               col(Result.status) == ResultStatus.ENTERED)).scalar_one())


@dataclass(frozen=True)
class LeaguePage:
    """The league page: the whole league ranked, the rows of one page shown (those whose name
    holds ``search``, when given)."""

    league: League
    rows: list[LeagueRow]
    page: Page
    search: str


def league_page(session: Session, season_id: int, number: int | None = None, search: str = "",
                per_page: int = PER_PAGE) -> LeaguePage | None:
    """A page of the league: every player is ranked (ranks need the whole season), only the
    page's rows are rendered."""
    found = league(session, season_id)
    if found is None:
        return None
    search = text.clean_name(search)[:80]
    key = text.name_key(search)
    rows = [r for r in found.rows if key in text.name_key(r.name)] if key else found.rows
    page = page_of(len(rows), number, per_page)
    return LeaguePage(found, rows[page.offset:page.offset + page.per_page], page, search)


def league_print(session: Session, season_id: int, paper: Paper = "a4") -> LeagueData | None:
    """The league table as the printing layer takes it (None: no such season)."""
    found = league(session, season_id)
    if found is None:
        return None
    season = found.season
    return LeagueData(season.name, season.starts_on.isoformat(), season.ends_on.isoformat(), found.rule_text,
                      tuple((e.date.isoformat(), e.name) for e in found.events),
                      tuple(LeagueLine(r.rank, r.name, r.points, r.attended, r.counted, r.game_points, r.species)
                            for r in found.rows), paper, found.unconfirmed)


def list_seasons(session: Session) -> list[Season]:
    return list(session.exec(select(Season).order_by(col(Season.starts_on).desc(), col(Season.id))).all())
