"""Seasons and their league tables (issue 16).

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

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from fractions import Fraction
from typing import Any

from sqlalchemy import Text, cast
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, func, select

from ..models import PLAYED_STATUSES, ClubPlayer, Event, GameTable, Player, Result, ResultStatus, Round, Season, SeasonEvent
from ..printing.data import Paper
from ..printing.league import LeagueData, LeagueLine
from . import standings, text
from .errors import InputError
from .event_standings import seat_player_id
from .rules import species_tiebreak
from .standings_schemes import UNIT
from .translate import N_, _, ngettext

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
    session.refresh(season)
    return season


def season_events(session: Session, season_id: int) -> list[Event]:
    return list(session.exec(select(Event).join(SeasonEvent, col(SeasonEvent.event_id) == Event.id)
                             .where(SeasonEvent.season_id == season_id)
                             .order_by(col(Event.date), col(Event.id))).all())


@dataclass(frozen=True)
class EventScore:
    """One player's figures at one event."""

    event_id: int
    points: Fraction
    game_points: int
    species: int


def pick(scores: Sequence[EventScore], rule: str, best_of: int) -> list[EventScore]:
    """The events that count: all, or the best ``best_of`` by points (the earlier event first
    among equals, so the choice is stable)."""
    if rule != "best":
        return list(scores)
    return sorted(scores, key=lambda s: -s.points)[:best_of]


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
    per_event: dict[int, float] = field(default_factory=dict)


def rank_league(scores: dict[int, list[EventScore]], names: dict[int, str], rule: str, best_of: int = 0,
                min_events: int = 0) -> list[LeagueRow]:
    """The league table from each player's event scores (pure: the hand-worked tests call it)."""
    figures: dict[int, tuple[Fraction, int, int]] = {}
    counted: dict[int, list[EventScore]] = {}
    for cp, events in scores.items():
        used = pick(events, rule, best_of)
        counted[cp] = used
        total = sum((s.points for s in used), Fraction(0))
        value = total / len(used) if rule == "average" and used else total
        figures[cp] = (value, sum(s.game_points for s in used), sum(s.species for s in used))
    ranked = [cp for cp in scores if rule != "average" or len(scores[cp]) >= min_events]
    ranked_set = set(ranked)
    unranked = [cp for cp in scores if cp not in ranked_set]
    ranked.sort(key=lambda cp: (-figures[cp][0], -figures[cp][1], -figures[cp][2], names.get(cp, "").casefold(), cp))
    unranked.sort(key=lambda cp: (-len(scores[cp]), -figures[cp][0], names.get(cp, "").casefold(), cp))
    rows: list[LeagueRow] = []
    for position, cp in enumerate(ranked):
        previous = ranked[position - 1] if position else None
        rank = rows[-1].rank if previous is not None and figures[previous] == figures[cp] else position + 1
        rows.append(_row(rank, cp, names, figures, scores, counted))
    rows.extend(_row(None, cp, names, figures, scores, counted) for cp in unranked)
    return rows


def _row(rank: int | None, cp: int, names: dict[int, str], figures: dict[int, tuple[Fraction, int, int]],
         scores: dict[int, list[EventScore]], counted: dict[int, list[EventScore]]) -> LeagueRow:
    value, game_points, species = figures[cp]
    return LeagueRow(rank, cp, names.get(cp, "?"), float(value), len(scores[cp]), len(counted[cp]), game_points,
                     species, {s.event_id: float(s.points) for s in scores[cp]})


#: (event id, fingerprint of its results and settings) -> event player id -> (points, game points,
#: species): an event's figures are read and scored once, not at every view of the league
_TALLIES: dict[tuple[int, tuple[Any, ...]], dict[int, tuple[Fraction, int, int]]] = {}
_MAX_CACHED = 5000


def _fingerprints(session: Session, events: dict[int, Event]) -> dict[int, tuple[Any, ...]]:
    """Per event, what changes whenever its league figures can: results entered, corrected,
    confirmed or disputed (each bumps a version or a count), rounds played, the point scheme."""
    # sqlalchemy's select: sqlmodel's types stop at four columns
    rows = session.execute(
        select_columns(col(Round.event_id), func.count(), func.sum(col(Result.version)), func.max(col(Result.updated_at)),
                       func.count().filter(col(Result.status) == ResultStatus.DISPUTED))
        .join(GameTable, col(GameTable.id) == Result.table_id)
        .join(Round, col(Round.id) == GameTable.round_id)
        .where(col(Round.event_id).in_(list(events)), col(Round.status).in_(PLAYED_STATUSES))
        .group_by(col(Round.event_id))).all()
    found = {event_id: tuple(rest) for event_id, *rest in rows}
    return {e: (event.version, event.point_scheme, event.edition, found.get(e)) for e, event in events.items()}


def _tallies(session: Session, events: dict[int, Event], event_ids: list[int]) -> dict[int, dict[int, tuple[Fraction, int, int]]]:
    """Each event's figures per event player, read in one statement. Tournament points add up as
    whole units of 1/UNIT (the schemes' own integers, as the event standings do) and become a
    Fraction once per player: a season of 12,000 tables made 60,000 Fraction additions before."""
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
    # per event, read once: its scheme and edition (model attributes cost a lookup each)
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
    return {e: {player: (Fraction(u, UNIT), game, species) for player, (u, game, species) in tally.items()}
            for e, tally in units.items()}


def event_scores(session: Session, event_ids: Sequence[int]) -> dict[int, list[EventScore]]:
    """Club player id -> their figures at each of the events (in event date order); each event's
    tournament points by its own scheme, computed once per state of its results."""
    if not event_ids:
        return {}
    events = {e.id: e for e in session.exec(select(Event).where(col(Event.id).in_(event_ids))
                                            .order_by(col(Event.date), col(Event.id))).all() if e.id is not None}
    prints = _fingerprints(session, events)
    missing = [e for e in events if (e, prints[e]) not in _TALLIES]
    if len(_TALLIES) + len(missing) > _MAX_CACHED:
        _TALLIES.clear()
    for e, tally in _tallies(session, events, missing).items():
        _TALLIES[(e, prints[e])] = tally
    links = dict(session.exec(select(Player.id, Player.club_player_id).where(
        col(Player.event_id).in_(event_ids), col(Player.club_player_id).is_not(None))).all())
    scores: dict[int, list[EventScore]] = {}
    for event_id in events:
        for player_id, (points, game_points, species) in _TALLIES[(event_id, prints[event_id])].items():
            cp = links.get(player_id)
            if cp is not None:
                scores.setdefault(cp, []).append(EventScore(event_id, points, game_points, species))
    return scores


@dataclass(frozen=True)
class League:
    season: Season
    events: list[Event]
    rows: list[LeagueRow]

    @property
    def rule_text(self) -> str:
        if self.season.rule == "best":
            return ngettext("best %(num)d event's tournament points", "best %(num)d events' tournament points",
                            self.season.best_of)
        if self.season.rule == "average":
            return ngettext("tournament points per event attended, at least %(num)d event",
                            "tournament points per event attended, at least %(num)d events", self.season.min_events)
        return _("sum of tournament points")


def league(session: Session, season_id: int) -> League | None:
    season = session.get(Season, season_id)
    if season is None:
        return None
    events = season_events(session, season_id)
    scores = event_scores(session, [e.id for e in events if e.id is not None])
    names = {entry_id: name for entry_id, name in session.exec(
        select(ClubPlayer.id, ClubPlayer.name).where(col(ClubPlayer.id).in_(list(scores)))).all() if entry_id is not None}
    return League(season, events, rank_league(scores, names, season.rule, season.best_of, season.min_events))


def league_print(session: Session, season_id: int, paper: Paper = "a4") -> LeagueData | None:
    """The league table as the printing layer takes it (None: no such season)."""
    found = league(session, season_id)
    if found is None:
        return None
    season = found.season
    return LeagueData(season.name, season.starts_on.isoformat(), season.ends_on.isoformat(), found.rule_text,
                      tuple((e.date.isoformat(), e.name) for e in found.events),
                      tuple(LeagueLine(r.rank, r.name, r.points, r.attended, r.counted, r.game_points, r.species)
                            for r in found.rows), paper)


def list_seasons(session: Session) -> list[Season]:
    return list(session.exec(select(Season).order_by(col(Season.starts_on).desc(), col(Season.id))).all())
