"""Table results: entry in totals or scorepad mode (and from a score case), confirmations,
disputes and the audit log. Two tablets never silently overwrite each other: every write names
the version it replaces and a stale one is refused."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ..models import AuditEntry, Confirmation, Event, Result, Round, utcnow
from .errors import InputError
from .rounds import TableView

MAX_TOTAL = 300
#: standard game: a path of 8 cards of one species from 1 to 8 scores 8 + 8 + 1 + 2
MAX_SPECIES_STANDARD = 19
#: draft: the same path scores 8 + 8 + 1 - 2 (an 8 at the end costs 2 there)
MAX_SPECIES_DRAFT = 15
DRAFT_BONUS = 3


class ResultConflict(ValueError):
    """Someone else saved this table's result since the form was opened."""

    def __init__(self, current: Result) -> None:
        super().__init__(f"result changed meanwhile (now version {current.version}, by {current.entered_by})")
        self.current = current


@dataclass
class SeatEntry:
    player_id: int
    points: int
    species_count: int
    scorepad: dict[str, int] | None = None
    bonus: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player_id": self.player_id, "points": self.points, "species_count": self.species_count}
        if self.scorepad is not None:
            data["scorepad"] = dict(self.scorepad)
            data["bonus"] = self.bonus
        return data


@dataclass
class Submission:
    mode: str
    seats: list[SeatEntry]
    score_case: dict[str, Any] | None = None
    score_output: dict[str, Any] | None = None
    typed: dict[str, str] = field(default_factory=dict)


def _whole(raw: str, low: int, high: int, blank: int | None = None) -> int:
    raw = raw.strip()
    if not raw and blank is not None:
        return blank
    value = int(raw)  # ValueError for text; callers turn it into a message
    if not low <= value <= high:
        raise ValueError
    return value


def _species_count(view: TableView, form: Mapping[str, str], key: str, errors: dict[str, str]) -> int:
    limit = len(view.table.species) or 10
    try:
        return _whole(form.get(key, ""), 0, limit)
    except ValueError:
        errors[key] = f"Species in the arboretum: a whole number from 0 to {limit}."
        return 0


def parse_totals(view: TableView, form: Mapping[str, str]) -> Submission:
    """Each seat's total and species count. Field names: points_<seat id>, species_<seat id>."""
    errors: dict[str, str] = {}
    seats = []
    for seat_view in view.seats:
        seat = seat_view.seat
        key = f"points_{seat.id}"
        try:
            points = _whole(form.get(key, ""), 0, MAX_TOTAL)
        except ValueError:
            errors[key] = f"Points: a whole number from 0 to {MAX_TOTAL}."
            points = 0
        count = _species_count(view, form, f"species_{seat.id}", errors)
        assert seat.player_id is not None
        seats.append(SeatEntry(seat.player_id, points, count))
    if errors:
        raise InputError(errors)
    return Submission("totals", seats, typed=dict(form))


def parse_scorepad(view: TableView, round_format: str, form: Mapping[str, str]) -> Submission:
    """Points per species per seat as on the paper scorepad; empty means 0. Field names:
    pad_<seat id>_<species index>, species_<seat id>, bonus_<seat id> (draft)."""
    errors: dict[str, str] = {}
    draft = round_format == "draft"
    high = MAX_SPECIES_DRAFT if draft else MAX_SPECIES_STANDARD
    seats = []
    for seat_view in view.seats:
        seat = seat_view.seat
        pad: dict[str, int] = {}
        for index, species in enumerate(view.table.species):
            key = f"pad_{seat.id}_{index}"
            try:
                value = _whole(form.get(key, ""), 0, high, blank=0)
                if value == 1 and not draft:
                    raise ValueError
            except ValueError:
                errors[key] = (f"{species}: 0 to {high} points." if draft else
                               f"{species}: 0, or 2 to {high} (a species never scores 1 or more than {high}).")
                value = 0
            pad[species] = value
        bonus = 0
        if draft:
            bonus_key = f"bonus_{seat.id}"
            raw = form.get(bonus_key, "").strip()
            if raw not in ("", "0", str(DRAFT_BONUS)):
                errors[bonus_key] = f"The draft bonus is {DRAFT_BONUS} (every pick planted) or 0."
            bonus = DRAFT_BONUS if raw == str(DRAFT_BONUS) else 0
        count = _species_count(view, form, f"species_{seat.id}", errors)
        assert seat.player_id is not None
        seats.append(SeatEntry(seat.player_id, sum(pad.values()) + bonus, count, pad, bonus))
    if errors:
        raise InputError(errors)
    return Submission("scorepad", seats, typed=dict(form))


def _audit(session: Session, event_id: int, view: TableView, result_id: int | None, actor: str, action: str,
           old: dict[str, Any] | None = None, new: dict[str, Any] | None = None) -> None:
    session.add(AuditEntry(event_id=event_id, table_id=view.table.id, result_id=result_id, actor=actor,
                           action=action, old=old, new=new))


def _snapshot(result: Result) -> dict[str, Any]:
    return {"version": result.version, "mode": result.entry_mode, "status": result.status, "seats": list(result.seats)}


def _current(session: Session, table_id: int) -> Result | None:
    session.expire_all()
    return session.exec(select(Result).where(Result.table_id == table_id)).first()


def save_result(session: Session, event: Event, rnd: Round, view: TableView, submission: Submission,
                expected_version: int, actor: str) -> Result:
    """Store a new result (``expected_version`` 0) or a correction of the version the form showed.

    A stale version raises ResultConflict and stores nothing but an audit entry of the refused
    entry, so what the second tablet typed is not lost either."""
    assert event.id is not None and view.table.id is not None
    if rnd.status != "published":
        raise InputError({"": f"Round {rnd.number} is {rnd.status}: results are entered while it is published."})
    if submission.mode not in event.entry_modes and submission.mode != "digital":
        raise InputError({"": f"This event does not allow {submission.mode} entry."})
    new_seats = [entry.to_json() for entry in submission.seats]
    existing = _current(session, view.table.id)
    stale = (existing is None) != (expected_version == 0) or (existing is not None and existing.version != expected_version)
    if stale:
        assert existing is not None or expected_version != 0
        if existing is None:
            raise InputError({"": "The result you were correcting no longer exists; enter it again."})
        _audit(session, event.id, view, existing.id, actor, "result.conflict_refused",
               old=_snapshot(existing), new={"mode": submission.mode, "seats": new_seats, "based_on": expected_version})
        session.commit()
        raise ResultConflict(existing)
    now = utcnow()
    if existing is None:
        result = Result(table_id=view.table.id, entry_mode=submission.mode, seats=new_seats,
                        score_case=submission.score_case, score_output=submission.score_output,
                        status="entered", version=1, entered_by=actor, entered_at=now, updated_at=now)
        session.add(result)
        try:
            session.flush()
        except IntegrityError:
            # Another tablet inserted in the same instant: theirs stands, this one is refused.
            session.rollback()
            current = _current(session, view.table.id)
            assert current is not None
            _audit(session, event.id, view, current.id, actor, "result.conflict_refused",
                   old=_snapshot(current), new={"mode": submission.mode, "seats": new_seats, "based_on": 0})
            session.commit()
            raise ResultConflict(current) from None
        _audit(session, event.id, view, result.id, actor, "result.entered", new=_snapshot(result))
        session.commit()
        return result
    old = _snapshot(existing)
    changed = session.execute(
        update(Result).where(col(Result.id) == existing.id, col(Result.version) == expected_version).values(
            entry_mode=submission.mode, seats=new_seats, score_case=submission.score_case,
            score_output=submission.score_output, status="entered", dispute_note="",
            version=expected_version + 1, entered_by=actor, updated_at=now)
    )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        current = _current(session, view.table.id)
        assert current is not None
        _audit(session, event.id, view, current.id, actor, "result.conflict_refused",
               old=_snapshot(current), new={"mode": submission.mode, "seats": new_seats, "based_on": expected_version})
        session.commit()
        raise ResultConflict(current)
    # One transaction for the correction and its audit entry: a crash between two commits would
    # leave a changed result that the audit log does not show.
    corrected = _current(session, view.table.id)
    assert corrected is not None
    _audit(session, event.id, view, corrected.id, actor, "result.corrected", old=old, new=_snapshot(corrected))
    session.commit()
    return corrected


def confirmations_of(session: Session, result: Result) -> list[Confirmation]:
    return list(session.exec(select(Confirmation).where(
        Confirmation.result_id == result.id, Confirmation.result_version == result.version)).all())


def _check_version(result: Result, version: int) -> None:
    if version != result.version:
        raise InputError({"": "The result changed since this page was opened; check the new figures first."})


def confirm_by_seat(session: Session, event: Event, view: TableView, result: Result, seat_id: int,
                    version: int, organizer_id: int | None, actor: str) -> Result:
    """One player's tap. When every seat has confirmed this version, the result is confirmed."""
    assert event.id is not None and result.id is not None
    _check_version(result, version)
    seat_ids = {s.seat.id for s in view.seats}
    if seat_id not in seat_ids:
        raise InputError({"": "That seat is not at this table."})
    if result.status == "disputed":
        raise InputError({"": "This result is disputed; the organizer decides."})
    confirmed = {c.seat_id for c in confirmations_of(session, result)}
    if seat_id not in confirmed:
        session.add(Confirmation(result_id=result.id, result_version=result.version, seat_id=seat_id,
                                 organizer_id=organizer_id))
        name = next((s.player.name for s in view.seats if s.seat.id == seat_id and s.player), "?")
        _audit(session, event.id, view, result.id, actor, "result.confirmed_by_player",
               new={"player": name, "version": result.version})
        confirmed.add(seat_id)
        if seat_ids <= confirmed and result.status != "confirmed":
            result.status = "confirmed"
            session.add(result)
            _audit(session, event.id, view, result.id, actor, "result.confirmed",
                   old={"status": "entered"}, new={"status": "confirmed", "by": "all players"})
        try:
            session.commit()
        except IntegrityError:  # the same tap arrived twice at once
            session.rollback()
    session.refresh(result)
    return result


def confirm_by_organizer(session: Session, event: Event, view: TableView, result: Result, version: int,
                         organizer_id: int | None, actor: str) -> Result:
    """The organizer confirms for the whole table (also how a dispute is settled as entered)."""
    assert event.id is not None and result.id is not None
    _check_version(result, version)
    if result.status != "confirmed":
        old_status = result.status
        result.status = "confirmed"
        session.add(result)
        session.add(Confirmation(result_id=result.id, result_version=result.version, seat_id=None,
                                 organizer_id=organizer_id))
        _audit(session, event.id, view, result.id, actor, "result.confirmed",
               old={"status": old_status}, new={"status": "confirmed", "by": "organizer"})
        session.commit()
    return result


def dispute(session: Session, event: Event, view: TableView, result: Result, version: int, note: str,
            actor: str) -> Result:
    assert event.id is not None
    _check_version(result, version)
    note = " ".join(note.split())
    if not note:
        raise InputError({"note": "Say briefly what is wrong, for the organizer."})
    if len(note) > 500:
        raise InputError({"note": "Keep the note to 500 characters."})
    old_status = result.status
    result.status = "disputed"
    result.dispute_note = note
    session.add(result)
    _audit(session, event.id, view, result.id, actor, "result.disputed", old={"status": old_status},
           new={"status": "disputed", "note": note})
    session.commit()
    return result


def audit_log(session: Session, event_id: int, table_id: int | None = None, limit: int = 500) -> list[AuditEntry]:
    query = select(AuditEntry).where(AuditEntry.event_id == event_id)
    if table_id is not None:
        query = query.where(AuditEntry.table_id == table_id)
    return list(session.exec(query.order_by(col(AuditEntry.at).desc(), col(AuditEntry.id).desc()).limit(limit)).all())


def open_disputes(session: Session, event_id: int) -> list[tuple[int, int, str]]:
    """(round, table, note) of every disputed result, for the organizer's attention."""
    from ..models import GameTable

    rows = session.exec(
        select(Round.number, GameTable.number, Result.dispute_note)
        .join(GameTable, col(GameTable.round_id) == Round.id)
        .join(Result, col(Result.table_id) == GameTable.id)
        .where(Round.event_id == event_id, Result.status == "disputed")
        .order_by(col(Round.number), col(GameTable.number))
    ).all()
    return [(int(r), int(t), note) for r, t, note in rows]
