"""The club's registry, seasons and ratings as one JSON file, and its import.

The file names events and their players as the event exports do (an event by its name and date,
a player by their name in that event), so it travels with the events' own exports: import the
events first, then the club. The import replaces this installation's registry, seasons and
ratings, all or nothing, and names the first bad item. Ratings are derived: the import
recomputes them from the events' results with the file's links and refuses a file whose ratings
differ (edited, or exported with other results).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime
from typing import Any

from sqlalchemy import delete, update
from sqlmodel import Session, col, select

from organizer.club import leagues, ratings
from organizer.club.leagues import SeasonInput, season_problems
from organizer.club.registry import MAX_CHAIN
from organizer.core import text
from organizer.core.errors import InputError
from organizer.core.models import ClubPlayer, Event, Player, RatingPoint, RegistryReview, Season, SeasonEvent
from organizer.core.translate import _
from organizer.exchange.event_import import _first_bad_text

FORMAT = "arboretum-club"
VERSION = 1
_MAX_ENTRIES = 1_000_000
#: ratings read back from JSON are the same floats; the margin only absorbs another platform's
#: last-digit rounding in openskill's arithmetic, far below anything an edit would change
_TOLERANCE = 1e-9


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_club(session: Session) -> dict[str, Any]:
    events = {e.id: e for e in session.exec(select(Event)).all()}

    def event_ref(event_id: int) -> dict[str, str]:
        event = events[event_id]
        return {"event": event.name, "date": event.date.isoformat()}

    links: dict[int, list[dict[str, str]]] = {}
    for entry_id, event_id, name in session.exec(
            select(Player.club_player_id, Player.event_id, Player.name).join(Event, col(Event.id) == Player.event_id)
            .where(col(Player.club_player_id).is_not(None)).order_by(col(Event.date), col(Event.id), col(Player.id))):
        if entry_id is not None:
            links.setdefault(entry_id, []).append({**event_ref(event_id), "player": name})
    entries = session.exec(select(ClubPlayer).order_by(col(ClubPlayer.id))).all()
    seasons = session.exec(select(Season).order_by(col(Season.starts_on), col(Season.id))).all()
    season_events: dict[int, list[int]] = {}
    for season_id, event_id in session.exec(select(SeasonEvent.season_id, SeasonEvent.event_id)
                                            .order_by(col(SeasonEvent.event_id))).all():
        season_events.setdefault(season_id, []).append(event_id)
    points = session.exec(select(RatingPoint).order_by(col(RatingPoint.sequence), col(RatingPoint.club_player_id))).all()
    return {
        "format": FORMAT, "version": VERSION,
        "registry": [{"id": e.id, "name": e.name, "email": e.email, "merged_into": e.merged_into_id,
                      "merged_at": _time(e.merged_at), "created_at": _time(e.created_at),
                      # the player's consent and the address they may have shared go with them
                      "public_profile": e.public_profile, "public_code": e.public_code,
                      "players": links.get(e.id or 0, [])} for e in entries],
        "seasons": [{"name": s.name, "starts_on": s.starts_on.isoformat(), "ends_on": s.ends_on.isoformat(),
                     "rule": s.rule, "best_of": s.best_of, "min_events": s.min_events,
                     "events": [event_ref(e) for e in sorted(season_events.get(s.id or 0, []),
                                                              key=lambda e: (events[e].date, e))]}
                    for s in seasons],
        # derived from the events' results: the import recomputes them and compares
        "ratings": [{"player": p.club_player_id, **event_ref(p.event_id), "mu": p.mu, "sigma": p.sigma,
                     "tables": p.tables} for p in points],
    }


@dataclass(frozen=True)
class ClubImported:
    entries: int
    links: int
    seasons: int
    ratings: int
    #: players of this installation's events the file does not link (events it does not name)
    unlinked: int


class _Bad(ValueError):
    """A bad item: the message says what is wrong with it, ``_Place`` where it is."""


class _Place:
    where = "the file"


def import_club(session: Session, data: Any) -> ClubImported:
    """Replace the registry, seasons and ratings by the file's; InputError (key "file") names
    the first bad item and nothing is written."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError({"file": _("Not a club export of this app (the JSON has no \"format\": \"arboretum-club\").")})
    if data.get("version") != VERSION:
        raise InputError({"file": _("Club export version %(version)s is not supported (expected %(expected)d).",
                                    version=repr(data.get("version")), expected=VERSION)})
    bad_text = _first_bad_text(data)
    if bad_text is not None:
        raise InputError({"file": bad_text})
    place = _Place()
    try:
        return _import(session, data, place)
    except _Bad as bad:
        session.rollback()
        raise InputError({"file": f"{place.where[:1].upper()}{place.where[1:]}: {bad}"}) from None
    except (KeyError, TypeError, ValueError, AttributeError) as bad:
        session.rollback()
        missing = f"the field {bad} is missing" if isinstance(bad, KeyError) else f"{type(bad).__name__}: {bad}"
        raise InputError({"file": _("%(where)s: the export is damaged or incomplete (%(missing)s).",
                                    where=place.where, missing=missing)}) from None


def _check_chains(merged_into: dict[int, Any], names: dict[int, str], place: _Place) -> None:
    """Every chain of merges in the file ends at an entry not merged, within
    ``MAX_CHAIN`` steps: a cycle (A merged into B, B into A) is refused."""
    ends: set[int] = set()  # entries whose chain is known to end well
    for start in merged_into:
        path: list[int] = []
        current: int = start
        while current not in ends and merged_into.get(current) is not None:
            if current in path or len(path) > MAX_CHAIN:
                place.where = f"the registry → {names[start]}"
                if current in path:
                    cycle = " → ".join(names[i] for i in path[path.index(current):] + [current])
                    raise _Bad(_("its merges lead back to it (%(cycle)s): a merge cycle, which no registry "
                                 "can hold", cycle=cycle))
                raise _Bad(_("its chain of merges is longer than %(most)d entries", most=MAX_CHAIN))
            path.append(current)
            current = merged_into[current]
        ends.update(path)


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Bad(f"{what} should be a list")
    if len(value) > _MAX_ENTRIES:
        raise _Bad(f"{what} has more than {_MAX_ENTRIES} items")
    return value


def _object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Bad("expected an object")
    return value


def _text(value: Any, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise _Bad(f"{what} should be a text")
    if len(value) > limit:
        raise _Bad(f"{what} is longer than {limit} characters")
    return value


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**31:
        raise _Bad(f"{what} should be a whole number, 0 or more")
    return value


def _figure(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _Bad(f"{what} should be a number")
    return float(value)


def _day(value: Any, what: str) -> Date:
    try:
        return Date.fromisoformat(_text(value, what, 10))
    except ValueError:
        raise _Bad(f"{what} should be a date (YYYY-MM-DD), not {value!r}") from None


class _Events:
    """This installation's events by the file's names for them."""

    def __init__(self, session: Session) -> None:
        self.by_name: dict[tuple[str, Date], list[int]] = {}
        for event_id, name, day in session.exec(select(col(Event.id), col(Event.name), col(Event.date))).all():
            if event_id is not None:
                self.by_name.setdefault((name, day), []).append(event_id)

    def find(self, item: dict[str, Any]) -> int:
        name, day = _text(item["event"], "the event's name", 200), _day(item["date"], "the event's date")
        found = self.by_name.get((name, day), [])
        if not found:
            raise _Bad(f"no event “{name}” of {day.isoformat()} here: import its event export first")
        if len(found) > 1:
            raise _Bad(f"{len(found)} events here are named “{name}” on {day.isoformat()}: rename one of them "
                       "so the file's links can tell them apart")
        return found[0]


#: a public profile's code as ``models.new_code`` makes them (URL-safe base64)
_CODE = re.compile(r"[A-Za-z0-9_-]{16,32}")


def _clear(session: Session) -> None:
    """Everything the file replaces, in an order the foreign keys allow."""
    session.execute(delete(RegistryReview))
    session.execute(update(Player).values(club_player_id=None))
    session.execute(delete(RatingPoint))
    session.execute(delete(SeasonEvent))
    session.execute(delete(Season))
    session.execute(update(ClubPlayer).values(merged_into_id=None))
    session.execute(delete(ClubPlayer))


def _import(session: Session, data: dict[str, Any], place: _Place) -> ClubImported:
    events = _Events(session)
    registry = _list(data["registry"], "the registry")
    seasons = _list(data["seasons"], "the seasons")
    file_ratings = _list(data["ratings"], "the ratings")
    _clear(session)

    # entries first (their ids in the file are only names for the links below)
    new_id: dict[int, int] = {}
    codes: set[str] = set()
    entries: list[tuple[int, ClubPlayer, dict[str, Any]]] = []
    for index, raw in enumerate(registry, start=1):
        place.where = f"the registry → entry {index}"
        item = _object(raw)
        file_id = _whole(item["id"], "its id")
        if file_id in new_id:
            raise _Bad(f"the id {file_id} is used twice")
        name = _text(item["name"], "the name", 200)
        problem = text.name_problem(name, 80, "The entry has no name.")
        if problem is not None:
            raise _Bad(problem)
        place.where = f"the registry → {name}"
        entry = ClubPlayer(name=text.clean_name(name), name_key=text.name_key(name)[:80],
                           email=_text(item.get("email", ""), "the e-mail", 254).strip().casefold())
        if item.get("created_at"):
            entry.created_at = datetime.fromisoformat(_text(item["created_at"], "created_at", 40))
        # older files have neither: a private profile with a new address
        entry.public_profile = item.get("public_profile", False) is True
        if item.get("public_code") is not None:
            code = _text(item["public_code"], "the public profile's code", 32)
            if not _CODE.fullmatch(code):
                raise _Bad("its public profile's code should be 16 to 32 letters, digits, - or _")
            if code in codes:
                raise _Bad("its public profile's code is another entry's too")
            codes.add(code)
            entry.public_code = code
        session.add(entry)
        session.flush()
        assert entry.id is not None
        new_id[file_id] = entry.id
        entries.append((file_id, entry, item))
    for file_id, entry, item in entries:
        place.where = f"the registry → {entry.name}"
        merged_into = item.get("merged_into")
        if merged_into is not None:
            if merged_into not in new_id or merged_into == file_id:
                raise _Bad(f"it is merged into entry {merged_into!r}, which is not another entry of the file")
            entry.merged_into_id = new_id[merged_into]
            merged_at = item.get("merged_at")
            entry.merged_at = datetime.fromisoformat(_text(merged_at, "merged_at", 40)) if merged_at else None
            session.add(entry)
    _check_chains({file_id: item.get("merged_into") for file_id, _entry, item in entries},
                  {file_id: entry.name for file_id, entry, _item in entries}, place)

    # the links to the events' players
    wanted: list[tuple[int, int, str, str]] = []  # (event id, entry id, player name, where)
    for file_id, entry, item in entries:
        for number, raw in enumerate(_list(item.get("players", []), "its players"), start=1):
            place.where = f"the registry → {entry.name} → player {number}"
            link = _object(raw)
            wanted.append((events.find(link), new_id[file_id], _text(link["player"], "the player's name", 200),
                           place.where))
    players: dict[tuple[int, str], int] = {}
    for player_id, event_id, key in session.exec(select(Player.id, Player.event_id, Player.name_key).where(
            col(Player.event_id).in_({w[0] for w in wanted}))).all():
        if player_id is not None:
            players[(event_id, key)] = player_id
    links: dict[int, int] = {}
    linked_events: dict[tuple[int, int], str] = {}
    for event_id, entry_id, name, where in wanted:
        place.where = where
        player_id = players.get((event_id, text.name_key(name)[:80]))
        if player_id is None:
            raise _Bad(f"no player “{name}” in that event here")
        if player_id in links:
            raise _Bad(f"“{name}” of that event is linked to two entries")
        if (event_id, entry_id) in linked_events:
            raise _Bad(f"the entry has two players in that event ({linked_events[(event_id, entry_id)]} and {name})")
        links[player_id] = entry_id
        linked_events[(event_id, entry_id)] = name
    if links:
        session.execute(update(Player), [{"id": p, "club_player_id": e} for p, e in links.items()])

    # seasons and their events
    for index, raw in enumerate(seasons, start=1):
        place.where = f"the seasons → season {index}"
        item = _object(raw)
        rule = SeasonInput(_text(item["name"], "the name", 200), _day(item["starts_on"], "the first day"),
                           _day(item["ends_on"], "the last day"), _text(item["rule"], "the rule", 16),
                           _whole(item.get("best_of", 0), "best_of"), _whole(item.get("min_events", 0), "min_events"))
        problems = season_problems(rule)
        if problems:
            raise _Bad(" ".join(problems.values()))
        place.where = f"the seasons → {rule.name}"
        season = Season(name=text.clean_name(rule.name), starts_on=rule.starts_on, ends_on=rule.ends_on,
                        rule=rule.rule, best_of=rule.best_of, min_events=rule.min_events)
        session.add(season)
        session.flush()
        event_ids = [events.find(_object(e)) for e in _list(item["events"], "its events")]
        if len(set(event_ids)) != len(event_ids):
            raise _Bad("an event is listed twice")
        session.add_all(SeasonEvent(season_id=season.id or 0, event_id=e) for e in event_ids)

    # ratings: recomputed from the results with these links, then held against the file's
    session.flush()
    points = ratings.compute(ratings.rated_tables(session))
    computed = {(p.club_player_id, p.event_id): p for p in points}
    names = {entry.id: entry.name for _, entry, _ in entries}
    seen: set[tuple[int, int]] = set()
    for index, raw in enumerate(file_ratings, start=1):
        place.where = f"the ratings → item {index}"
        item = _object(raw)
        file_player = item["player"]
        if file_player not in new_id:
            raise _Bad(f"it rates entry {file_player!r}, which the registry does not have")
        entry_id, event_id = new_id[file_player], events.find(item)
        place.where = f"the ratings → {names[entry_id]} after “{item['event']}” of {item['date']}"
        mu, sigma, tables = _figure(item["mu"], "mu"), _figure(item["sigma"], "sigma"), _whole(item["tables"], "tables")
        found = computed.get((entry_id, event_id))
        if found is None:
            raise _Bad("the events' results here give this player no rating after that event. Ratings are "
                       "derived from the results: the file does not match them; nothing was imported")
        if (not math.isclose(mu, found.mu, rel_tol=_TOLERANCE, abs_tol=_TOLERANCE)
                or not math.isclose(sigma, found.sigma, rel_tol=_TOLERANCE, abs_tol=_TOLERANCE)
                or tables != found.tables):
            raise _Bad(f"the file says mu {mu:.4f}, sigma {sigma:.4f} over {tables} tables; the events' results "
                       f"here give mu {found.mu:.4f}, sigma {found.sigma:.4f} over {found.tables} tables. Ratings "
                       "are derived from the results: the file does not match them; nothing was imported")
        seen.add((entry_id, event_id))
    missing = [p for key, p in computed.items() if key not in seen]
    if missing:
        first = missing[0]
        event = session.get(Event, first.event_id)
        place.where = "the ratings"
        raise _Bad(f"{names.get(first.club_player_id, '?')} has a rating after “{event.name if event else '?'}” "
                   "from the events' results here, and none in the file. Ratings are derived from the results: "
                   "the file does not match them; nothing was imported")
    ratings.store(session, points)
    unlinked = len(session.exec(select(Player.id).where(col(Player.club_player_id).is_(None))).all())
    session.commit()
    leagues.store_tallies(session)
    return ClubImported(len(entries), len(links), len(seasons), len(points), unlinked)
