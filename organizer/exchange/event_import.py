"""Import a JSON event export (see :mod:`organizer.exchange.export`) into a new, identical event: all or nothing.

Every item goes through the check its form uses (the event's settings, each player, each result's
figures), stored live games are replayed through the engine, and whatever the file holds (wrong
types, numbers out of range, a NUL, a name twice, a seat at no table) is refused with a message
naming the first bad item by its place in the file, never a server error. Records are written in
batches, one flush per kind, so the time grows with the file's size and nothing else."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import insert
from sqlmodel import Session, col, select

from engine import ArboretumError, Edition, Game, edition_species
from engine.bots import LEVELS
from organizer.core import signals, text
from organizer.core.errors import InputError
from organizer.core.models import (
    AuditEntry,
    Confirmation,
    EntryMode,
    Event,
    Finals,
    GameTable,
    Organizer,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundFormat,
    RoundStage,
    RoundStatus,
    Seat,
    utcnow,
)
from organizer.core.translate import N_, _
from organizer.events import service as event_service
from organizer.events.service import EventInput
from organizer.live import log as live_log
from organizer.players import service as player_service
from organizer.rounds import results
from organizer.rounds.service import MAX_CLOCK_MINUTES, SEED_LIMIT
from organizer.scoring import finals as finals_rules

FORMAT = "arboretum-event"
VERSION = 1
#: the largest integer a database column holds on every backend (PostgreSQL's INTEGER)
_INT_LIMIT = 2**31 - 1
_MAX_TABLES = 10_000
_MAX_ACTOR = 120


class _Bad(ValueError):
    """A value of the wrong kind or out of range at the current place in the file."""


@dataclass
class _Place:
    """Where in the file the import is, for the message naming the first bad item."""

    where: str = N_("The file")


def import_event(session: Session, data: Any, organizer_id: int | None) -> Event:
    """Create a new event identical to the exported one; InputError (key "file") names the first
    bad item and nothing is written."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError({"file": _("Not an event export of this app (the JSON has no \"format\": \"arboretum-event\").")})
    if data.get("version") != VERSION:
        raise InputError({"file": _("Export version %(version)s is not supported (expected %(expected)d).",
                                    version=repr(data.get("version")), expected=VERSION)})
    bad_text = _first_bad_text(data)
    if bad_text is not None:
        raise InputError({"file": bad_text})
    place = _Place()
    try:
        return _import(session, data, organizer_id, place)
    except InputError:
        session.rollback()
        raise
    except _Bad as bad:
        session.rollback()
        raise InputError({"file": _("%(where)s: %(problem)s", where=_(place.where), problem=bad)}) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as bad:
        session.rollback()
        missing = (_("the field %(field)s is missing", field=bad) if isinstance(bad, KeyError)
                   else f"{type(bad).__name__}: {bad}")
        raise InputError({"file": _("%(where)s: the export is damaged or incomplete (%(detail)s).",
                                    where=_(place.where), detail=missing)}) from None


def _first_bad_text(data: Any) -> str | None:
    """A NUL or lone surrogate anywhere in the file (keys too), which no database stores."""
    stack: list[tuple[Any, str]] = [(data, _("the file"))]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            problem = text.text_problem(value)
            if problem is not None:
                return _("%(where)s: %(problem)s", where=f"{path[0].upper()}{path[1:]}", problem=problem)
        elif isinstance(value, dict):
            for key, item in value.items():
                problem = text.text_problem(key)
                if problem is not None:
                    return _("A key in %(where)s: %(problem)s", where=path, problem=problem)
                stack.append((item, f"{path} → {key}"))
        elif isinstance(value, list):
            stack.extend((item, _("%(where)s → item %(number)d", where=path, number=index + 1))
                         for index, item in enumerate(value))
    return None


# -- typed reading of the file's values -----------------------------------------------------------

def _whole(value: Any, low: int = 0, high: int = _INT_LIMIT, what: str = "") -> int:
    """A JSON integer (true and 3.5 are not) from ``low`` to ``high``."""
    what = what or _("a number")
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(_("%(what)s must be a whole number, not %(value)s.", what=what, value=repr(value)))
    if not low <= value <= high:
        raise _Bad(_("%(what)s must be from %(low)d to %(high)d, not %(value)d.", what=what, low=low, high=high,
                       value=value))
    return value


def _figure(value: Any, what: str) -> int:
    return _whole(value, -_INT_LIMIT, _INT_LIMIT, what)


def _optional_whole(value: Any, low: int = 0, high: int = _INT_LIMIT, what: str = "") -> int | None:
    return None if value is None else _whole(value, low, high, what)


def _text(value: Any, what: str = "", limit: int | None = None) -> str:
    what = what or _("a text")
    if not isinstance(value, str):
        raise _Bad(_("%(what)s must be text, not %(value)s.", what=what, value=repr(value)))
    if limit is not None and len(value) > limit:
        raise _Bad(_("%(what)s is longer than %(limit)d characters.", what=what, limit=limit))
    return value


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise _Bad(_("%(what)s must be true or false, not %(value)s.", what=what, value=repr(value)))
    return value


def _bot_level(value: Any) -> str:
    """A bot seat's level (a file from before the levels has none: normal)."""
    if not isinstance(value, str) or value not in LEVELS:
        raise _Bad(_("a bot's level must be one of %(levels)s, not %(value)s.", levels=", ".join(LEVELS),
                     value=repr(value)))
    return value


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Bad(_("%(what)s must be a JSON object.", what=what))
    return value


def _optional_object(value: Any, what: str) -> dict[str, Any] | None:
    return None if value is None else _object(value, what)


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Bad(_("%(what)s must be a list.", what=what))
    return value


def _time(value: Any, what: str = "") -> datetime | None:
    """An ISO time; one written without a zone is UTC, as the app stores every time."""
    what = what or _("a time")
    if value is None or value == "":
        return None
    try:
        moment = datetime.fromisoformat(_text(value, what))
    except ValueError:
        raise _Bad(_("%(what)s %(value)s is not an ISO date and time.", what=what, value=repr(value))) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# -- the items ------------------------------------------------------------------------------------

def _event_settings(settings: dict[str, Any]) -> EventInput:
    timer = settings.get("pick_timer_seconds")
    try:
        day = date.fromisoformat(_text(settings["date"], _("the date")))
    except ValueError:
        raise _Bad(_("the date %(value)s is not written YYYY-MM-DD.", value=repr(settings["date"]))) from None
    data = EventInput(name=_text(settings["name"], _("the name")), date=day,
                      edition=_text(settings["edition"], _("the edition")),
                      round_formats=[_text(f, _("a round format")) for f in _list(settings["round_formats"], "round_formats")],
                      preferred_table_size=_whole(settings["preferred_table_size"], what=_("the table size")),
                      point_scheme=_text(settings["point_scheme"], _("the point scheme")),
                      tiebreak_order=[_text(t, _("a tie-break")) for t in _list(settings["tiebreak_order"], "tiebreak_order")],
                      entry_modes=[_text(m, _("an entry mode")) for m in _list(settings["entry_modes"], "entry_modes")],
                      pick_timer_seconds=_optional_whole(timer, what=_("the pick timer")),
                      # an export from before these settings: the defaults, English and UTC
                      language=_text(settings.get("language", "en"), _("the language")),
                      time_zone=_text(settings.get("time_zone", "UTC"), _("the time zone")),
                      # from before the option: round 1 shuffled, as it was then
                      first_round_by_rating=_flag(settings.get("first_round_by_rating", False),
                                                  _("the seating of round 1 by rating")),
                      # from before the option: games with bots left out of the ratings
                      rate_bot_games=_flag(settings.get("rate_bot_games", False), _("the ratings of games with bots")))
    try:
        return event_service.check_event(data)  # the event form's checks
    except InputError as bad:
        raise _Bad(" ".join(bad.errors.values())) from None


def _player(event_id: int, rounds: int, entry: dict[str, Any]) -> dict[str, Any]:
    """A player's row (a plain mapping: building 16,000 model objects costs seconds)."""
    data = player_service.player_input(_text(entry["name"], _("the name")), _text(entry["club"], _("the club")),
                                       _text(entry["email"], _("the e-mail")))
    problems = player_service.player_problems(data)  # the player form's checks
    if problems:
        raise _Bad(" ".join(problems.values()))
    dropped = _flag(entry["dropped"], "dropped")
    return dict(event_id=event_id, name=data.name, name_key=player_service.name_key(data.name), club=data.club,
                email=data.email, checked_in=_flag(entry["checked_in"], "checked_in"), dropped=dropped,
                dropped_after_round=_optional_whole(entry["dropped_after_round"], 0, rounds, "dropped_after_round"),
                fixed_table=_optional_whole(entry["fixed_table"], 1, player_service.MAX_TABLE_NUMBER, _("a fixed table")),
                joined_round=_whole(entry["joined_round"], 1, rounds + 1, _("the round the player joined")),
                created_at=_time(entry.get("created_at"), "created_at") or utcnow())


def _round(event_id: int, settings: EventInput, entry: dict[str, Any], seen: set[int], place: _Place) -> Round:
    # an export made before the finals existed has Swiss rounds only
    stage = _text(entry.get("stage", RoundStage.SWISS), _("the round's stage"))
    if stage not in set(RoundStage):
        raise _Bad(_("unknown round stage %(value)s.", value=repr(stage)))
    # the finals' rounds follow the Swiss rounds: at most a semi-final and a final round more
    last = len(settings.round_formats) + (0 if stage == RoundStage.SWISS else 2)
    number = _whole(entry["number"], 1, last, _("a round's number (the event's rounds)"))
    place.where = _("Round %(number)d", number=number)
    if number in seen:
        raise _Bad(_("round %(number)d appears twice.", number=number))
    seen.add(number)
    fmt = _text(entry["format"], _("the format"))
    if stage != RoundStage.SWISS:
        if fmt != RoundFormat.STANDARD:
            raise _Bad(_("a round of the finals is a standard round, not %(value)s.", value=repr(fmt)))
    elif fmt != settings.round_formats[number - 1]:
        raise _Bad(_("the event's settings make round %(number)d a %(format)s round, not %(value)s.", number=number,
                     format=settings.round_formats[number - 1], value=repr(fmt)))
    status = _text(entry["status"], _("the status"))
    if status not in set(RoundStatus):
        raise _Bad(_("unknown round status %(value)s.", value=repr(status)))
    return Round(event_id=event_id, number=number, stage=stage, format=fmt, status=status,
                 seed=_whole(entry["seed"], 0, SEED_LIMIT - 1, _("the seed")),
                 duration_minutes=_optional_whole(entry["duration_minutes"], 1, MAX_CLOCK_MINUTES, _("the round's length")),
                 clock_started_at=_time(entry["clock_started_at"], "clock_started_at"),
                 created_at=_time(entry.get("created_at"), "created_at") or utcnow(),
                 published_at=_time(entry["published_at"], "published_at"))


def _species(settings: EventInput, value: Any) -> list[str]:
    species = [_text(name, _("a species")) for name in _list(value, "species")]
    known = set(edition_species(Edition.parse(settings.edition)))
    unknown = [name for name in species if name not in known]
    if unknown:
        raise _Bad(_("%(value)s is not a species of the %(edition)s edition.", value=repr(unknown[0]),
                     edition=settings.edition))
    if len(set(species)) != len(species):
        raise _Bad(_("a species is listed twice."))
    return species


def _live_game(table: dict[str, Any], species: list[str], seats: int) -> tuple[dict[str, Any] | None, list[Any], int]:
    """A digital table's stored game, replayed through the engine as the live pages will."""
    params = _optional_object(table["game"], _("the live game"))
    log = _list(table["action_log"], _("the action log"))
    version = _whole(table["log_version"], what="log_version")
    if params is None:
        if log:
            raise _Bad(_("the action log holds moves but the table has no game."))
        return None, log, version
    started_at = params.get("started_at", 0.0)
    if isinstance(started_at, bool) or not isinstance(started_at, (int, float)) or not math.isfinite(started_at):
        raise _Bad(_("the live game's started_at %(value)s is not a time.", value=repr(started_at)))
    for index, entry in enumerate(log, start=1):
        if (not isinstance(entry, list) or len(entry) != 4 or type(entry[0]) is not int or not isinstance(entry[1], str)
                or not isinstance(entry[2], str) or isinstance(entry[3], bool) or not isinstance(entry[3], (int, float))
                or not math.isfinite(entry[3])):
            raise _Bad(_("move %(number)d of the live game is not [seat, action, nonce, time]: %(value)s.",
                         number=index, value=repr(entry)))
    try:
        game = Game.from_json({k: v for k, v in params.items() if k != "started_at"})
        if game.players != seats:
            raise _Bad(_("the live game has %(players)d players; the table has %(seats)d seats.",
                         players=game.players, seats=seats))
        if game.species and list(game.species) != species:
            raise _Bad(_("the live game plays other species than the table shows."))
        live_log.replay(game, log, version, float(started_at))
    except ArboretumError as bad:
        raise _Bad(_("the live game does not replay: %(problem)s", problem=bad)) from None
    return params, log, version


def _check_result(rnd: Round, species: list[str], player_ids: list[int | None], data: dict[str, Any],
                  seats: list[dict[str, Any]], place: _Place) -> None:
    """A stored result gets the result form's checks (figures in range, scorepads that add up),
    and lists the table's players in seat order."""
    mode = _text(data["entry_mode"], _("the entry mode"))
    if mode not in set(EntryMode):
        raise _Bad(_("unknown entry mode %(value)s.", value=repr(mode)))
    if _text(data["status"], _("the status")) not in set(ResultStatus):
        raise _Bad(_("unknown result status %(value)s.", value=repr(data["status"])))
    if [seat["player_id"] for seat in seats] != player_ids:
        raise _Bad(_("the result does not list the table's players in seat order."))
    entries = []
    for seat in seats:
        pad = _optional_object(seat.get("scorepad"), _("a scorepad"))
        # any integer here: the ranges are the result form's check, worded as the form words them
        entries.append(results.SeatEntry(
            seat["player_id"], _figure(seat["points"], "points"), _figure(seat["species_count"], "species_count"),
            {_text(k, _("a species")): _figure(v, _("%(species)s's points", species=k)) for k, v in pad.items()}
            if pad is not None else None,
            _figure(seat.get("bonus", 0), _("the bonus"))))
    problems = results.submission_problems(results.Submission(mode, entries), species, rnd.format)
    for number, seat_problems in enumerate(problems, start=1):
        if seat_problems:
            place.where = _("%(where)s, seat %(number)d", where=_(place.where), number=number)
            raise _Bad(" ".join(seat_problems.values()))


def _import(session: Session, data: dict[str, Any], organizer_id: int | None, place: _Place) -> Event:
    place.where = _("The event's settings")
    settings = _object(data["event"], "event")
    checked = _event_settings(settings)
    rounds = len(checked.round_formats)
    event = Event(name=checked.name, date=checked.date, edition=checked.edition,
                  round_formats=checked.round_formats, preferred_table_size=checked.preferred_table_size,
                  point_scheme=checked.point_scheme, tiebreak_order=checked.tiebreak_order,
                  entry_modes=checked.entry_modes, pick_timer_seconds=checked.pick_timer_seconds,
                  language=checked.language, time_zone=checked.time_zone,
                  first_round_by_rating=checked.first_round_by_rating, rate_bot_games=checked.rate_bot_games,
                  imported_at=utcnow(),
                  created_by_id=organizer_id, created_at=_time(settings.get("created_at"), "created_at") or utcnow(),
                  updated_at=_time(settings.get("updated_at"), "updated_at") or utcnow())
    session.add(event)
    session.flush()
    assert event.id is not None

    players: list[dict[str, Any]] = []
    by_key: dict[str, int] = {}
    for number, entry in enumerate(_list(data["players"], "players"), start=1):
        place.where = _("Player %(number)d", number=number)
        entry = _object(entry, _("a player"))
        if isinstance(entry.get("name"), str):
            name = text.clean_name(entry["name"])
            shown = name if len(name) <= 100 else name[:100] + "…"
            place.where = _("Player %(number)d (%(name)s)", number=number, name=shown or _("no name"))
        player = _player(event.id, rounds, entry)
        if player["name_key"] in by_key:
            raise _Bad(_("the export lists %(name)s twice (also player %(number)d).", name=player["name"],
                         number=by_key[player["name_key"]]))
        by_key[player["name_key"]] = number
        players.append(player)
    inserted = insert(Player).returning(col(Player.id), sort_by_parameter_order=True)
    new_ids = [i for i in session.scalars(inserted, players) if i is not None] if players else []
    # Seats and results name players as the file spells them; the stored name is its NFC form.
    ids: dict[str, int] = {}
    for entry, player, new_id in zip(data["players"], players, new_ids, strict=True):
        ids[entry["name"]] = new_id
        ids.setdefault(player["name"], new_id)

    place.where = _("The file")
    organizers = {name: org_id for name, org_id in session.exec(select(Organizer.name, Organizer.id)).all()}
    table_ids: dict[tuple[int, int], int] = {}
    round_numbers: set[int] = set()
    for round_place, rnd_data in enumerate(_list(data["rounds"], "rounds"), start=1):
        place.where = _("Round entry %(number)d", number=round_place)
        rnd_data = _object(rnd_data, _("a round"))
        rnd = _round(event.id, checked, rnd_data, round_numbers, place)
        session.add(rnd)
        session.flush()
        assert rnd.id is not None
        seated: set[int] = set()
        tables = _list(rnd_data["tables"], "tables")
        for table_place, table_data in enumerate(tables, start=1):
            place.where = _("Round %(round)d, table entry %(number)d", round=rnd.number, number=table_place)
            table_data = _object(table_data, _("a table"))
            table_number = _whole(table_data["number"], 1, _MAX_TABLES, _("a table number"))
            place.where = _("Round %(round)d, table %(number)d", round=rnd.number, number=table_number)
            if (rnd.number, table_number) in table_ids:
                raise _Bad(_("this table appears twice."))
            species = _species(checked, table_data["species"])
            seats_data = [_object(seat, _("a seat")) for seat in _list(table_data["seats"], "seats")]
            if not 1 <= len(seats_data) <= 4:
                raise _Bad(_("a table seats 1 to 4 players, not %(count)d.", count=len(seats_data)))
            game, log, version = _live_game(table_data, species, len(seats_data))
            table = GameTable(round_id=rnd.id, number=table_number, species=species,
                              digital=_flag(table_data["digital"], "digital"), game=game, action_log=log,
                              log_version=version)
            session.add(table)
            session.flush()
            assert table.id is not None
            table_ids[(rnd.number, table_number)] = table.id
            seats: list[Seat] = []
            for seat_data in seats_data:
                player_name = seat_data["player"]
                player_id = None
                if player_name is not None:
                    player_id = ids.get(_text(player_name, _("a seat's player")))
                    if player_id is None:
                        raise _Bad(_("unknown player %(value)s.", value=repr(player_name)))
                    if player_id in seated:
                        raise _Bad(_("%(name)s is seated twice in round %(number)d.", name=player_name, number=rnd.number))
                    seated.add(player_id)
                seats.append(Seat(table_id=table.id, player_id=player_id,
                                  position=_whole(seat_data["position"], 0, 3, _("a seat's position")),
                                  is_bot=_flag(seat_data["is_bot"], "is_bot"),
                                  bot_level=_bot_level(seat_data.get("bot_level", "normal"))))
            if sorted(seat.position for seat in seats) != list(range(len(seats))):
                raise _Bad(_("the seats' positions are not 0, 1, ... once each."))
            session.add_all(seats)
            session.flush()
            seat_ids = {seat.position: seat.id for seat in seats}
            if table_data["result"] is None:
                continue
            _add_result(session, rnd, table, species, seats, ids, organizers, seat_ids,
                        _object(table_data["result"], _("the result")), place)
    if data.get("finals") is not None:
        place.where = _("The finals")
        session.add(_finals(event.id, _object(data["finals"], _("the finals")), ids))
    for number, entry in enumerate(_list(data["audit"], "audit"), start=1):
        place.where = _("Audit entry %(number)d", number=number)
        session.add(_audit_entry(event.id, _object(entry, _("an audit entry")), table_ids))
    # its players join the club's registry as a sign-up or a CSV import would
    signals.event_imported.send(session, event=event)
    session.commit()
    signals.results_settled.send(session, event_ids=[event.id])
    session.refresh(event)
    return event


def _add_result(session: Session, rnd: Round, table: GameTable, species: list[str], seats: list[Seat],
                ids: dict[str, int], organizers: dict[str, int | None], seat_ids: dict[int, int | None],
                data: dict[str, Any], place: _Place) -> None:
    stored = []
    for seat_result in _list(data["seats"], _("the result's seats")):
        seat_result = _object(seat_result, _("a result's seat"))
        name = seat_result["player"]
        if name is not None and (not isinstance(name, str) or name not in ids):
            raise _Bad(_("the result names an unknown player %(value)s.", value=repr(name)))
        # None: a bot in a seat no player took
        stored.append({"player_id": ids[name] if name is not None else None,
                       **{k: v for k, v in seat_result.items() if k != "player"}})
    ordered = sorted(seats, key=lambda seat: seat.position)
    _check_result(rnd, species, [seat.player_id for seat in ordered], data, stored, place)
    version = _whole(data["version"], 1, what=_("the result's version"))
    assert table.id is not None
    result = Result(table_id=table.id, entry_mode=data["entry_mode"], seats=stored,
                    score_case=_optional_object(data["score_case"], "score_case"),
                    score_output=_optional_object(data["score_output"], "score_output"),
                    status=data["status"], dispute_note=_text(data["dispute_note"], _("the dispute note"), 500),
                    version=version, entered_by=_text(data["entered_by"], "entered_by", _MAX_ACTOR),
                    entered_at=_time(data["entered_at"], "entered_at") or utcnow(),
                    updated_at=_time(data["updated_at"], "updated_at") or utcnow())
    session.add(result)
    session.flush()
    assert result.id is not None
    confirmed: set[tuple[int, int | None]] = set()
    for confirmation in _list(data["confirmations"], "confirmations"):
        confirmation = _object(confirmation, _("a confirmation"))
        position = _optional_whole(confirmation["seat"], 0, 3, _("a confirmation's seat"))
        if position is not None and position not in seat_ids:
            raise _Bad(_("a confirmation names seat %(number)d, which the table does not have.", number=position))
        result_version = _whole(confirmation["result_version"], 1, version, _("a confirmation's result version"))
        organizer = confirmation["organizer"]
        if organizer is not None:
            _text(organizer, _("a confirmation's organizer"))
        if position is not None:
            if (result_version, position) in confirmed:
                raise _Bad(_("seat %(number)d confirms version %(version)d twice.", number=position, version=result_version))
            confirmed.add((result_version, position))
        session.add(Confirmation(result_id=result.id, result_version=result_version,
                                 seat_id=seat_ids[position] if position is not None else None,
                                 organizer_id=organizers.get(organizer) if organizer is not None else None,
                                 at=_time(confirmation["at"], _("a confirmation's time")) or utcnow()))


def _finals(event_id: int, data: dict[str, Any], ids: dict[str, int]) -> Finals:
    """The cut for the finals as exported, its players by name."""
    size = _whole(data["cut_size"], 4, 16, _("the cut's size"))
    if size not in finals_rules.CUT_SIZES:
        raise _Bad(_("a cut is 4, 8, 12 or 16 players, not %(count)d.", count=size))

    def player(name: Any) -> int:
        found = ids.get(_text(name, _("a finalist")))
        if found is None:
            raise _Bad(_("unknown player %(value)s.", value=repr(name)))
        return found

    reasons = {finals_rules.REASON_RANK, finals_rules.REASON_LAST_ROUND, finals_rules.REASON_LOT,
               finals_rules.REASON_REPLACES}
    seeds = []
    for number, seed in enumerate(_list(data["seeds"], "seeds"), start=1):
        seed = _object(seed, _("a seed"))
        if _whole(seed["seed"], 1, size, _("a seed")) != number:
            raise _Bad(_("the seeds are not 1, 2, ... in order."))
        reason = _text(seed["reason"], _("a seed's reason"))
        if reason not in reasons:
            raise _Bad(_("unknown reason %(value)s.", value=repr(reason)))
        seeds.append({"seed": number, "player_id": player(seed["player"]),
                      "rank": _whole(seed["rank"], 1, what=_("a seed's rank")), "reason": reason,
                      "replaces": player(seed["replaces"]) if seed.get("replaces") is not None else None})
    if len(seeds) != size or len({s["player_id"] for s in seeds}) != size:
        raise _Bad(_("a cut of %(count)d needs %(count)d different players.", count=size))
    declined = [player(name) for name in _list(data["declined"], "declined")]
    return Finals(event_id=event_id, cut_size=size, top_seed_chooses=_flag(data["top_seed_chooses"], "top_seed_chooses"),
                  seeds=seeds, declined=declined, created_at=_time(data.get("created_at"), "created_at") or utcnow())


def _audit_entry(event_id: int, entry: dict[str, Any], table_ids: dict[tuple[int, int], int]) -> AuditEntry:
    ref = entry.get("table")
    table_id = None
    if ref is not None:
        ref = _list(ref, _("the table"))
        if len(ref) != 2:
            raise _Bad(_("the table must be [round, table]."))
        table_id = table_ids.get((_whole(ref[0], what=_("a round")), _whole(ref[1], what=_("a table"))))
    return AuditEntry(event_id=event_id, table_id=table_id, actor=_text(entry["actor"], _("the actor"), _MAX_ACTOR),
                      action=_text(entry["action"], _("the action"), 64),
                      at=_time(entry["at"], _("the time")) or utcnow(),
                      old=_optional_object(entry["old"], "old"), new=_optional_object(entry["new"], "new"))
