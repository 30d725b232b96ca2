"""Export an event as JSON (complete, re-importable by :mod:`organizer.exchange.event_import`) or as CSV files.
Records refer to each other by player name, round and table number, never by database id, so an
export can move between installations."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from organizer.core.models import AuditEntry, Confirmation, Event, Finals, Organizer, Player
from organizer.core.text import spreadsheet_cell
from organizer.exchange.event_import import FORMAT, VERSION
from organizer.rounds.history import seats_played
from organizer.rounds.service import event_rounds, tables_of
from organizer.scoring.event_standings import standings_view


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


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
                           "is_bot": s.seat.is_bot, "bot_level": s.seat.bot_level} for s in view.seats],
                "result": result_out,
            })
        rounds_out.append({"number": rnd.number, "stage": rnd.stage, "format": rnd.format, "status": rnd.status,
                           "seed": rnd.seed,
                           "duration_minutes": rnd.duration_minutes, "clock_started_at": _time(rnd.clock_started_at),
                           "created_at": _time(rnd.created_at), "published_at": _time(rnd.published_at),
                           "tables": tables_out})
    audit = session.exec(select(AuditEntry).where(AuditEntry.event_id == event.id).order_by(col(AuditEntry.id))).all()
    cut = session.exec(select(Finals).where(Finals.event_id == event.id)).first()
    finals_out = None if cut is None else {
        "cut_size": cut.cut_size, "top_seed_chooses": cut.top_seed_chooses, "created_at": _time(cut.created_at),
        "seeds": [{"seed": s["seed"], "player": name_of.get(s["player_id"]), "rank": s["rank"], "reason": s["reason"],
                   "replaces": name_of.get(s["replaces"]) if s.get("replaces") is not None else None}
                  for s in cut.seeds],
        "declined": [name_of.get(p) for p in cut.declined]}
    return {
        "format": FORMAT, "version": VERSION,
        "event": {"name": event.name, "date": event.date.isoformat(), "edition": event.edition,
                  "round_formats": event.round_formats, "preferred_table_size": event.preferred_table_size,
                  "point_scheme": event.point_scheme, "tiebreak_order": event.tiebreak_order,
                  "entry_modes": event.entry_modes, "pick_timer_seconds": event.pick_timer_seconds,
                  "language": event.language, "time_zone": event.time_zone,
                  "first_round_by_rating": event.first_round_by_rating, "rate_bot_games": event.rate_bot_games,
                  "created_at": _time(event.created_at), "updated_at": _time(event.updated_at)},
        "players": [{"name": p.name, "club": p.club, "email": p.email, "checked_in": p.checked_in,
                     "dropped": p.dropped, "dropped_after_round": p.dropped_after_round,
                     "fixed_table": p.fixed_table, "joined_round": p.joined_round,
                     "created_at": _time(p.created_at)} for p in players],
        "rounds": rounds_out,
        # the cut for the finals, by player name (None: no finals)
        "finals": finals_out,
        # Audit values are kept as recorded (ids in them are those of the exporting database).
        "audit": [{"actor": a.actor, "action": a.action, "at": _time(a.at), "old": a.old, "new": a.new,
                   "table": table_ref.get(a.table_id) if a.table_id else None} for a in audit],
    }


def export_csv_zip(session: Session, event: Event) -> bytes:
    """players.csv, results.csv (one row per seat of every table) and standings.csv in a zip."""
    assert event.id is not None
    view = standings_view(session, event)
    seats = seats_played(session, event.id)
    players = sorted(view.players.values(), key=lambda p: p.name.casefold())
    files: dict[str, list[list[Any]]] = {
        "players.csv": [["name", "club", "email", "checked_in", "dropped_after_round", "fixed_table", "joined_round"]]
        + [[p.name, p.club, p.email, p.checked_in, p.dropped_after_round if p.dropped else "", p.fixed_table or "",
            p.joined_round] for p in players],
        "results.csv": [["round", "stage", "format", "table", "seat", "player", "start_player", "dealer", "points",
                         "species_count", "result_status", "entry_mode", "species_in_play"]],
        "standings.csv": [["rank", "player", "club", "tournament_points", "game_points", "opponents_average",
                           "species_count", "seats"]]
        + [[row.rank, view.players[row.player_id].name if row.player_id in view.players else row.player_id,
            view.players[row.player_id].club if row.player_id in view.players else "",
            f"{row.tournament_points:.4f}", row.game_points, f"{row.opponents_average:.4f}", row.species_count,
            ", ".join(seats.get(row.player_id, []))]
           for row in view.rows],
    }
    for rnd in event_rounds(session, event.id):
        assert rnd.id is not None
        for table in tables_of(session, rnd.id):
            for index, seat in enumerate(table.seats):
                stored = table.result.seats[index] if table.result else {}
                files["results.csv"].append([
                    rnd.number, rnd.stage, rnd.format, table.table.number, index + 1, seat.player.name if seat.player else "",
                    index == 0, index == len(table.seats) - 1, stored.get("points", ""), stored.get("species_count", ""),
                    table.result.status if table.result else "", table.result.entry_mode if table.result else "",
                    " / ".join(table.table.species)])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, rows in files.items():
            text = io.StringIO()
            # A cell such as =HYPERLINK(...) would be a live formula in a spreadsheet: guarded.
            csv.writer(text).writerows([[spreadsheet_cell(cell) for cell in row] for row in rows])
            archive.writestr(name, text.getvalue())
    return buffer.getvalue()
