"""Export an event as JSON (complete, re-importable) or as CSV files; import a JSON export
back into a new, identical event. Records refer to each other by player name, round and table
number, never by database id, so an export can move between installations."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import date, datetime
from typing import Any

from sqlmodel import Session, col, select

from engine import Edition, edition_species

from ..models import (AuditEntry, Confirmation, EntryMode, Event, GameTable, Organizer, Player, Result, ResultStatus,
                      Round, RoundFormat, RoundStatus, Seat, utcnow)
from . import events as event_service
from . import players as player_service
from . import results
from .events import EventInput
from .players import PlayerInput
from .errors import InputError
from .rounds import event_rounds, tables_of
from .event_standings import standings_view

FORMAT = "arboretum-event"
VERSION = 1


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parse_time(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def export_event(session: Session, event: Event) -> dict[str, Any]:
    assert event.id is not None
    players = session.exec(select(Player).where(Player.event_id == event.id).order_by(col(Player.id))).all()
    name_of = {p.id: p.name for p in players}
    organizers = {o.id: o.name for o in session.exec(select(Organizer)).all()}
    table_ref: dict[int, list[int]] = {}
    rounds_out = []
    for rnd in event_rounds(session, event.id):
        assert rnd.id is not None
        tables_out = []
        for view in tables_of(session, rnd.id):
            assert view.table.id is not None
            table_ref[view.table.id] = [rnd.number, view.table.number]
            position_of = {s.seat.id: s.seat.position for s in view.seats}
            result_out = None
            if view.result is not None:
                result = view.result
                confirmations = session.exec(select(Confirmation).where(Confirmation.result_id == result.id)
                                             .order_by(col(Confirmation.id))).all()
                result_out = {
                    "entry_mode": result.entry_mode, "status": result.status, "dispute_note": result.dispute_note,
                    "version": result.version, "entered_by": result.entered_by,
                    "entered_at": _time(result.entered_at), "updated_at": _time(result.updated_at),
                    "seats": [{**{k: v for k, v in s.items() if k != "player_id"}, "player": name_of.get(s.get("player_id"))}
                              for s in result.seats],
                    "score_case": result.score_case, "score_output": result.score_output,
                    "confirmations": [{"seat": position_of.get(c.seat_id) if c.seat_id else None,
                                       "organizer": organizers.get(c.organizer_id), "result_version": c.result_version,
                                       "at": _time(c.at)} for c in confirmations],
                }
            tables_out.append({
                "number": view.table.number, "species": view.table.species, "digital": view.table.digital,
                "game": view.table.game, "action_log": view.table.action_log, "log_version": view.table.log_version,
                # Seat tokens are private links: never exported; an import makes new ones.
                "seats": [{"position": s.seat.position, "player": s.player.name if s.player else None,
                           "is_bot": s.seat.is_bot} for s in view.seats],
                "result": result_out,
            })
        rounds_out.append({"number": rnd.number, "format": rnd.format, "status": rnd.status, "seed": rnd.seed,
                           "duration_minutes": rnd.duration_minutes, "clock_started_at": _time(rnd.clock_started_at),
                           "created_at": _time(rnd.created_at), "published_at": _time(rnd.published_at),
                           "tables": tables_out})
    audit = session.exec(select(AuditEntry).where(AuditEntry.event_id == event.id).order_by(col(AuditEntry.id))).all()
    return {
        "format": FORMAT, "version": VERSION,
        "event": {"name": event.name, "date": event.date.isoformat(), "edition": event.edition,
                  "round_formats": event.round_formats, "preferred_table_size": event.preferred_table_size,
                  "point_scheme": event.point_scheme, "tiebreak_order": event.tiebreak_order,
                  "entry_modes": event.entry_modes, "pick_timer_seconds": event.pick_timer_seconds,
                  "created_at": _time(event.created_at), "updated_at": _time(event.updated_at)},
        "players": [{"name": p.name, "club": p.club, "email": p.email, "checked_in": p.checked_in,
                     "dropped": p.dropped, "dropped_after_round": p.dropped_after_round,
                     "fixed_table": p.fixed_table, "joined_round": p.joined_round,
                     "created_at": _time(p.created_at)} for p in players],
        "rounds": rounds_out,
        # Audit values are kept as recorded (ids in them are those of the exporting database).
        "audit": [{"actor": a.actor, "action": a.action, "at": _time(a.at), "old": a.old, "new": a.new,
                   "table": table_ref.get(a.table_id) if a.table_id else None} for a in audit],
    }


def import_event(session: Session, data: Any, organizer_id: int | None) -> Event:
    """Create a new event identical to the exported one; all or nothing."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError({"file": "Not an event export of this app (the JSON has no \"format\": \"arboretum-event\")."})
    if data.get("version") != VERSION:
        raise InputError({"file": f"Export version {data.get('version')!r} is not supported (expected {VERSION})."})
    try:
        return _import(session, data, organizer_id)
    except InputError:
        session.rollback()
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as bad:
        session.rollback()
        raise InputError({"file": f"The export is damaged or incomplete ({type(bad).__name__}: {bad})."}) from None


def _refused(where: str, problems: dict[str, str]) -> InputError:
    """A problem of the file named by its place in it, as the forms' checks word it."""
    return InputError({"file": f"{where}: " + " ".join(problems.values())})


def _whole(value: Any) -> int:
    """A number the export must hold as a JSON integer (true and 3.5 are not)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not text")
    return value


def _event_settings(settings: dict[str, Any]) -> EventInput:
    timer = settings.get("pick_timer_seconds")
    data = EventInput(name=_text(settings["name"]), date=date.fromisoformat(settings["date"]),
                      edition=_text(settings["edition"]), round_formats=[_text(f) for f in settings["round_formats"]],
                      preferred_table_size=_whole(settings["preferred_table_size"]),
                      point_scheme=_text(settings["point_scheme"]),
                      tiebreak_order=[_text(t) for t in settings["tiebreak_order"]],
                      entry_modes=[_text(m) for m in settings["entry_modes"]],
                      pick_timer_seconds=None if timer is None else _whole(timer))
    try:
        return event_service.check_event(data)  # the event form's checks
    except InputError as bad:
        raise _refused("The event's settings", bad.errors) from None


def _player(place: int, entry: dict[str, Any]) -> PlayerInput:
    data = player_service.player_input(_text(entry["name"]), _text(entry["club"]), _text(entry["email"]))
    problems = player_service.player_problems(data)  # the player form's checks
    fixed = entry["fixed_table"]
    if fixed is not None and not 1 <= _whole(fixed) <= player_service.MAX_TABLE_NUMBER:
        problems["fixed_table"] = f"A fixed table is 1 to {player_service.MAX_TABLE_NUMBER}."
    if _whole(entry["joined_round"]) < 1:
        problems["joined_round"] = "A player joins in round 1 or later."
    if problems:
        raise _refused(f"Player {place} ({data.name or 'no name'})", problems)
    return data


def _check_table(event: EventInput, rnd: Round, table_number: int, species: list[str]) -> None:
    known = set(edition_species(Edition.parse(event.edition)))
    unknown = [name for name in species if name not in known]
    if unknown:
        raise InputError({"file": f"Round {rnd.number}, table {table_number}: {unknown[0]!r} is not a species "
                                  f"of the {event.edition} edition."})


def _check_result(rnd: Round, table: GameTable, result_data: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """A stored result gets the result form's checks (figures in range, scorepads that add up)."""
    where = f"Round {rnd.number}, table {table.number}"
    mode = _text(result_data["entry_mode"])
    if mode not in set(EntryMode):
        raise InputError({"file": f"{where}: unknown entry mode {mode!r}."})
    if _text(result_data["status"]) not in set(ResultStatus):
        raise InputError({"file": f"{where}: unknown result status {result_data['status']!r}."})
    entries = [results.SeatEntry(int(seat["player_id"]), _whole(seat["points"]), _whole(seat["species_count"]),
                                 {_text(k): _whole(v) for k, v in seat["scorepad"].items()}
                                 if seat.get("scorepad") is not None else None,
                                 _whole(seat.get("bonus", 0)))
               for seat in seats]
    submission = results.Submission(mode, entries)
    for place, problems in enumerate(results.submission_problems(submission, table.species, rnd.format), start=1):
        if problems:
            raise _refused(f"{where}, seat {place}", problems)


def _import(session: Session, data: dict[str, Any], organizer_id: int | None) -> Event:
    settings = data["event"]
    checked = _event_settings(settings)
    event = Event(name=checked.name, date=checked.date, edition=checked.edition,
                  round_formats=checked.round_formats, preferred_table_size=checked.preferred_table_size,
                  point_scheme=checked.point_scheme, tiebreak_order=checked.tiebreak_order,
                  entry_modes=checked.entry_modes, pick_timer_seconds=checked.pick_timer_seconds,
                  created_by_id=organizer_id, created_at=_parse_time(settings.get("created_at")) or utcnow(),
                  updated_at=_parse_time(settings.get("updated_at")) or utcnow())
    session.add(event)
    session.flush()
    assert event.id is not None
    name_key = player_service.name_key

    ids: dict[str, int] = {}
    for place, entry in enumerate(data["players"], start=1):
        details = _player(place, entry)
        player = Player(event_id=event.id, name=details.name, name_key=name_key(details.name), club=details.club,
                        email=details.email, checked_in=bool(entry["checked_in"]), dropped=bool(entry["dropped"]),
                        dropped_after_round=entry["dropped_after_round"], fixed_table=entry["fixed_table"],
                        joined_round=int(entry["joined_round"]), created_at=_parse_time(entry.get("created_at")) or utcnow())
        if player.name_key in {name_key(n) for n in ids}:
            raise InputError({"file": f"The export lists the player {player.name} twice."})
        session.add(player)
        session.flush()
        assert player.id is not None
        ids[_text(entry["name"])] = player.id
        ids.setdefault(player.name, player.id)
    organizers = {o.name: o.id for o in session.exec(select(Organizer)).all()}
    table_ids: dict[tuple[int, int], int] = {}
    for rnd_data in data["rounds"]:
        if rnd_data["format"] not in set(RoundFormat) or rnd_data["status"] not in set(RoundStatus):
            raise InputError({"file": f"Round {rnd_data['number']}: unknown format {rnd_data['format']!r} "
                                      f"or status {rnd_data['status']!r}."})
        rnd = Round(event_id=event.id, number=int(rnd_data["number"]), format=rnd_data["format"], status=rnd_data["status"],
                    seed=int(rnd_data["seed"]), duration_minutes=rnd_data["duration_minutes"],
                    clock_started_at=_parse_time(rnd_data["clock_started_at"]),
                    created_at=_parse_time(rnd_data.get("created_at")) or utcnow(),
                    published_at=_parse_time(rnd_data["published_at"]))
        session.add(rnd)
        session.flush()
        assert rnd.id is not None
        for table_data in rnd_data["tables"]:
            _check_table(checked, rnd, int(table_data["number"]), list(table_data["species"]))
            table = GameTable(round_id=rnd.id, number=int(table_data["number"]), species=list(table_data["species"]),
                              digital=bool(table_data["digital"]), game=table_data["game"],
                              action_log=list(table_data["action_log"]), log_version=int(table_data["log_version"]))
            session.add(table)
            session.flush()
            assert table.id is not None
            table_ids[(rnd.number, table.number)] = table.id
            seat_ids: dict[int, int] = {}
            for seat_data in table_data["seats"]:
                player_name = seat_data["player"]
                if player_name is not None and player_name not in ids:
                    raise InputError({"file": f"Round {rnd.number}, table {table.number}: unknown player {player_name!r}."})
                seat = Seat(table_id=table.id, player_id=ids.get(player_name) if player_name else None,
                            position=int(seat_data["position"]), is_bot=bool(seat_data["is_bot"]))
                session.add(seat)
                session.flush()
                assert seat.id is not None
                seat_ids[seat.position] = seat.id
            result_data = table_data["result"]
            if result_data is None:
                continue
            seats = []
            for seat_result in result_data["seats"]:
                values = {k: v for k, v in seat_result.items() if k != "player"}
                seats.append({"player_id": ids[seat_result["player"]], **values})
            _check_result(rnd, table, result_data, seats)
            result = Result(table_id=table.id, entry_mode=result_data["entry_mode"], seats=seats,
                            score_case=result_data["score_case"], score_output=result_data["score_output"],
                            status=result_data["status"], dispute_note=result_data["dispute_note"],
                            version=int(result_data["version"]), entered_by=result_data["entered_by"],
                            entered_at=_parse_time(result_data["entered_at"]) or utcnow(),
                            updated_at=_parse_time(result_data["updated_at"]) or utcnow())
            session.add(result)
            session.flush()
            assert result.id is not None
            for confirmation in result_data["confirmations"]:
                session.add(Confirmation(result_id=result.id, result_version=int(confirmation["result_version"]),
                                         seat_id=seat_ids[confirmation["seat"]] if confirmation["seat"] is not None else None,
                                         organizer_id=organizers.get(confirmation["organizer"]),
                                         at=_parse_time(confirmation["at"]) or utcnow()))
    for entry in data["audit"]:
        ref = entry.get("table")
        session.add(AuditEntry(event_id=event.id, table_id=table_ids.get((ref[0], ref[1])) if ref else None,
                               actor=entry["actor"], action=entry["action"], at=_parse_time(entry["at"]) or utcnow(),
                               old=entry["old"], new=entry["new"]))
    session.commit()
    session.refresh(event)
    return event


def export_csv_zip(session: Session, event: Event) -> bytes:
    """players.csv, results.csv (one row per seat of every table) and standings.csv in a zip."""
    assert event.id is not None
    view = standings_view(session, event)
    players = sorted(view.players.values(), key=lambda p: p.name.casefold())
    files: dict[str, list[list[Any]]] = {
        "players.csv": [["name", "club", "email", "checked_in", "dropped_after_round", "fixed_table", "joined_round"]]
        + [[p.name, p.club, p.email, p.checked_in, p.dropped_after_round if p.dropped else "", p.fixed_table or "",
            p.joined_round] for p in players],
        "results.csv": [["round", "format", "table", "seat", "player", "start_player", "dealer", "points",
                         "species_count", "result_status", "entry_mode", "species_in_play"]],
        "standings.csv": [["rank", "player", "club", "tournament_points", "game_points", "opponents_average",
                           "species_count"]]
        + [[row.rank, view.players[row.player_id].name if row.player_id in view.players else row.player_id,
            view.players[row.player_id].club if row.player_id in view.players else "",
            f"{row.tournament_points:.4f}", row.game_points, f"{row.opponents_average:.4f}", row.species_count]
           for row in view.rows],
    }
    for rnd in event_rounds(session, event.id):
        assert rnd.id is not None
        for table in tables_of(session, rnd.id):
            for index, seat in enumerate(table.seats):
                stored = table.result.seats[index] if table.result else {}
                files["results.csv"].append([
                    rnd.number, rnd.format, table.table.number, index + 1, seat.player.name if seat.player else "",
                    index == 0, index == len(table.seats) - 1, stored.get("points", ""), stored.get("species_count", ""),
                    table.result.status if table.result else "", table.result.entry_mode if table.result else "",
                    " / ".join(table.table.species)])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, rows in files.items():
            text = io.StringIO()
            csv.writer(text).writerows(rows)
            archive.writestr(name, text.getvalue())
    return buffer.getvalue()
