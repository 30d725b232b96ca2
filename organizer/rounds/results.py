"""Table results: entry in totals or scorepad mode (and from a score case), confirmations,
disputes and the audit log. Two tablets never silently overwrite each other: every write names
the version it replaces and a stale one is refused."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from organizer.core import guard, signals, text
from organizer.core.errors import InputError
from organizer.core.models import (
    ENTRY_MODES,
    AuditEntry,
    Confirmation,
    EntryMode,
    Event,
    Result,
    ResultStatus,
    Round,
    RoundFormat,
    RoundStatus,
    utcnow,
)
from organizer.core.translate import N_, _, ordinal, species_name
from organizer.rounds import assistant
from organizer.rounds.service import TableSeating, lock_table
from organizer.rounds.submission import SeatEntry as SeatEntry
from organizer.rounds.submission import Submission as Submission
from organizer.scoring import rules

MAX_TOTAL = 300
#: the words for statuses and entry modes, translated where they are shown (``_(WORDS[key])``)
ROUND_STATUS_WORDS: dict[str, str] = {RoundStatus.PROPOSED: N_("proposed"), RoundStatus.PUBLISHED: N_("published"),
                      RoundStatus.FINISHED: N_("finished")}
RESULT_STATUS_WORDS: dict[str, str] = {ResultStatus.ENTERED: N_("entered"), ResultStatus.CONFIRMED: N_("confirmed"),
                       ResultStatus.DISPUTED: N_("disputed")}
ENTRY_MODE_WORDS: dict[str, str] = {EntryMode.TOTALS: N_("totals"), EntryMode.SCOREPAD: N_("scorepad"),
                    EntryMode.ASSISTANT: N_("scoring assistant"), EntryMode.DIGITAL: N_("played on the devices")}
ENTRY_MODE_TABS: dict[str, str] = {EntryMode.TOTALS: N_("Totals"), EntryMode.SCOREPAD: N_("Scorepad"),
                   EntryMode.ASSISTANT: N_("Assistant"), EntryMode.DIGITAL: N_("Played on the devices")}


def mode_word(mode: str) -> str:
    """An entry mode in words, translated (for a sentence; unknown modes as typed)."""
    return _(ENTRY_MODE_WORDS[mode]) if mode in ENTRY_MODE_WORDS else (mode or "?")
#: a species' best possible path under each rule set (the engine's, see .rules)
DRAFT_BONUS = rules.DRAFT_BONUS


class ResultConflict(ValueError):
    """Someone else saved this table's result since the form was opened."""

    def __init__(self, current: Result) -> None:
        super().__init__(_("The result changed meanwhile (now version %(version)s, by %(name)s).",
                           version=current.version, name=current.entered_by))
        self.current = current


# The one check of a table's figures, on typed values. The forms, the JSON import and the demo
# all go through it; each names a problem its own way (a form field, a place in the file), so
# problems are keyed by the seat's part: "points", "species", "bonus", "pad_<species index>".

def _points_message() -> str:
    return _("Points: a whole number from 0 to %(most)d.", most=MAX_TOTAL)


def _species_message(limit: int) -> str:
    return _("Species in the arboretum: a whole number from 0 to %(most)d.", most=limit)


def _pad_message(species: str, draft: bool, high: int) -> str:
    name = species_name(species)
    return (_("%(species)s: 0 to %(most)d points.", species=name, most=high) if draft else
            _("%(species)s: 0, or 2 to %(most)d (a species never scores 1 or more than %(most)d).",
              species=name, most=high))


def _bonus_message() -> str:
    return _("The draft bonus is %(bonus)d (every pick planted) or 0.", bonus=DRAFT_BONUS)


def _species_limit(species: Sequence[str]) -> int:
    return len(species) or rules.MOST_SPECIES


def _who(name: str) -> str:
    return name or _("This player")


def seat_problems(entry: SeatEntry, mode: str, species: Sequence[str], round_format: str,
                  name: str = "") -> dict[str, str]:
    """What is wrong with one seat's figures (part → message); empty when they are right. Beyond
    the ranges, figures that no finished game can give are refused (the engine's limits, see
    :mod:`engine.limits`); each message names the player (``name``)."""
    problems: dict[str, str] = {}
    draft = round_format == RoundFormat.DRAFT
    who = _who(name)
    scored = 0
    if entry.scorepad is not None:
        high = rules.max_species_points(round_format)
        possible = rules.species_scores(round_format)
        for index, species_name_ in enumerate(species):
            value = entry.scorepad.get(species_name_, 0)
            if value not in possible:
                problems[f"pad_{index}"] = _pad_message(species_name_, draft, high)
        scored = sum(1 for value in entry.scorepad.values() if value > 0)
        unknown = sorted(set(entry.scorepad) - set(species))
        if unknown:
            problems["pad"] = _("%(species)s is not a species in play at this table.", species=unknown[0])
        if entry.bonus not in ((0, DRAFT_BONUS) if draft else (0,)):
            problems["bonus"] = _bonus_message() if draft else _("Only a draft has a bonus.")
        if not problems and entry.points != sum(entry.scorepad.values()) + entry.bonus:
            problems["points"] = _("Points: the total must be the scorepad's sum plus the bonus.")
    elif mode == EntryMode.SCOREPAD:
        problems["pad"] = _("A scorepad entry needs the points per species.")
    if not 0 <= entry.points <= MAX_TOTAL and "points" not in problems:
        problems["points"] = _points_message()
    limit = _species_limit(species)
    if not 0 <= entry.species_count <= limit:
        problems["species"] = _species_message(limit)
    if problems:
        return problems
    fewest = rules.fewest_species(round_format)
    if entry.species_count < fewest:
        problems["species"] = _("%(name)s: a finished arboretum holds at least %(fewest)d species (every player "
                                "plants a card on every turn).", name=who, fewest=fewest)
    elif entry.species_count < scored:
        problems["species"] = _("%(name)s scores in %(scored)d species, so at least %(scored)d species are in the "
                                "arboretum (a species scores only with its cards planted).", name=who, scored=scored)
    if not rules.total_possible(round_format, entry.points):
        problems["points"] = _("%(name)s: a total of %(points)d cannot happen (a species scores 0 or at least 2).",
                               name=who, points=entry.points)
    elif entry.points > rules.most_points(round_format, entry.species_count) and "species" not in problems:
        problems["points"] = _("%(name)s: %(points)d points cannot come from %(count)d species in the arboretum "
                               "(at most %(most)d).", name=who, points=entry.points, count=entry.species_count,
                               most=rules.most_points(round_format, entry.species_count))
    return problems


def submission_problems(submission: Submission, species: Sequence[str], round_format: str,
                        names: Sequence[str] = ()) -> list[dict[str, str]]:
    """Every seat's problems, in seat order (see :func:`seat_problems`); ``names`` in seat order."""
    return [seat_problems(entry, submission.mode, species, round_format, names[index] if index < len(names) else "")
            for index, entry in enumerate(submission.seats)]


#: a total above this, and more than UNLIKELY_RATIO times every other total at the table, is
#: saved only once the person entering it confirms it
UNLIKELY_FLOOR = 40
UNLIKELY_RATIO = 2
#: the result form's checkbox that confirms unlikely figures
CONFIRM_UNLIKELY = "confirm_unlikely"


def unlikely_totals(submission: Submission) -> list[int]:
    """The seats (indexes) whose totals are possible but unlikely: above :data:`UNLIKELY_FLOOR`
    and more than twice the next best at the table, as a typing slip ("55" for "5") leaves them."""
    points = [entry.points for entry in submission.seats]
    unlikely = []
    for index, total in enumerate(points):
        others = points[:index] + points[index + 1:]
        if others and total > UNLIKELY_FLOOR and total > UNLIKELY_RATIO * max(others):
            unlikely.append(index)
    return unlikely


def _seat_names(view: TableSeating) -> list[str]:
    return [s.player.name if s.player else _("Seat %(number)d", number=index)
            for index, s in enumerate(view.seats, start=1)]


def _field(part: str, seat_id: int | None) -> str:
    """A seat's part as the result form names its field."""
    if part.startswith("pad_"):
        return f"pad_{seat_id}_{part[4:]}"
    return f"{part}_{seat_id}"


def check_submission(view: TableSeating, round_format: str, submission: Submission,
                     ask_unlikely: bool = False) -> None:
    """Raise InputError, keyed by the result form's fields, unless the figures are right. With
    ``ask_unlikely``, unlikely totals (:func:`unlikely_totals`) are refused too until the form's
    :data:`CONFIRM_UNLIKELY` box is ticked (the message asks for it)."""
    if len(submission.seats) != len(view.seats):
        raise InputError({"": _("This table has %(seats)d seats; the result lists %(listed)d.",
                                seats=len(view.seats), listed=len(submission.seats))})
    errors: dict[str, str] = {}
    names = _seat_names(view)
    problems = submission_problems(submission, view.table.species, round_format, names)
    for seat, seat_problems_ in zip(view.seats, problems, strict=True):
        for part, message in seat_problems_.items():
            errors[_field(part, seat.seat.id)] = message
    if errors:
        raise InputError(errors)
    if ask_unlikely and submission.typed.get(CONFIRM_UNLIKELY) != "yes":
        for index in unlikely_totals(submission):
            others = [entry.points for i, entry in enumerate(submission.seats) if i != index]
            errors[_field("points", view.seats[index].seat.id)] = _(
                "%(name)s: %(points)d points is more than twice anyone else's at this table (at most %(best)d). "
                "Check the figures; if they are right, tick the box and save again.",
                name=names[index], points=submission.seats[index].points, best=max(others))
        if errors:
            errors[CONFIRM_UNLIKELY] = _("Tick this box if the figures are right as typed.")
            raise InputError(errors)


# The result form: its fields turned into a typed submission. Only text that is not a number is
# refused here; what the numbers may be is the check above.

def _number(form: Mapping[str, str], key: str, message: str, errors: dict[str, str], blank: int | None = None) -> int:
    """A score field: plain digits 0-9 (see :func:`.text.whole_number`); empty is ``blank``."""
    raw = form.get(key, "")
    if not raw and blank is not None:
        return blank
    number = text.whole_number(raw)
    if number is None:
        errors[key] = _("%(problem)s Type digits 0-9 only.", problem=message)
        return 0
    return number


def _refuse(view: TableSeating, round_format: str, submission: Submission, errors: dict[str, str],
            ask_unlikely: bool = False) -> Submission:
    """The parse errors and the figures' problems together, a message per field."""
    try:
        check_submission(view, round_format, submission, ask_unlikely=ask_unlikely and not errors)
    except InputError as bad:
        errors = {**bad.errors, **errors}
    if errors:
        raise InputError(errors)
    return submission


def parse_totals(view: TableSeating, form: Mapping[str, str], round_format: str = RoundFormat.STANDARD,
                 ask_unlikely: bool = False) -> Submission:
    """Each seat's total and species count. Field names: points_<seat id>, species_<seat id>."""
    errors: dict[str, str] = {}
    seats = []
    limit = _species_limit(view.table.species)
    for seat_view in view.seats:
        seat = seat_view.seat
        points = _number(form, f"points_{seat.id}", _points_message(), errors)
        count = _number(form, f"species_{seat.id}", _species_message(limit), errors)
        assert seat.player_id is not None
        seats.append(SeatEntry(seat.player_id, points, count))
    return _refuse(view, round_format, Submission(EntryMode.TOTALS, seats, typed=dict(form)), errors, ask_unlikely)


def parse_scorepad(view: TableSeating, round_format: str, form: Mapping[str, str],
                   ask_unlikely: bool = False) -> Submission:
    """Points per species per seat as on the paper scorepad; empty means 0. Field names:
    pad_<seat id>_<species index>, species_<seat id>, bonus_<seat id> (draft)."""
    errors: dict[str, str] = {}
    draft = round_format == RoundFormat.DRAFT
    high = rules.max_species_points(round_format)
    limit = _species_limit(view.table.species)
    seats = []
    for seat_view in view.seats:
        seat = seat_view.seat
        pad = {species: _number(form, f"pad_{seat.id}_{index}", _pad_message(species, draft, high), errors, blank=0)
               for index, species in enumerate(view.table.species)}
        bonus = _number(form, f"bonus_{seat.id}", _bonus_message(), errors, blank=0) if draft else 0
        count = _number(form, f"species_{seat.id}", _species_message(limit), errors)
        assert seat.player_id is not None
        seats.append(SeatEntry(seat.player_id, sum(pad.values()) + bonus, count, pad, bonus))
    return _refuse(view, round_format, Submission(EntryMode.SCOREPAD, seats, typed=dict(form)), errors, ask_unlikely)


def entry_mode(event: Event, requested: str | None) -> str:
    """The entry form to show: the one asked for if the event allows it, else the event's first."""
    modes = [m for m in event.entry_modes if m in ENTRY_MODES]
    return requested if requested in modes else (modes[0] if modes else EntryMode.TOTALS)


def submission_from_form(event: Event, rnd: Round, view: TableSeating, form: Mapping[str, str],
                         case_file: bytes | None = None, ask_unlikely: bool = False) -> Submission:
    """The result form's submission (any entry mode the event allows, or an uploaded score
    case) as a typed, checked submission; InputError names the fields that are wrong. With
    ``ask_unlikely`` (the staff's form, which shows the box), typed totals that are possible but
    unlikely are saved only with the form's :data:`CONFIRM_UNLIKELY` box ticked."""
    mode = form.get("mode", "")
    if mode not in event.entry_modes:
        raise InputError({"": _("This event does not allow %(mode)s entry.", mode=mode_word(mode))})
    if mode == EntryMode.SCOREPAD:
        return parse_scorepad(view, rnd.format, form, ask_unlikely)
    if mode == EntryMode.TOTALS:
        return parse_totals(view, form, rnd.format, ask_unlikely)
    rules_name = assistant.rules_for_round(event, rnd.format)
    if case_file is not None:
        return assistant.score_submission(view, rules_name, assistant.case_from_upload(case_file), field="case_file")
    return assistant.score_submission(view, rules_name, assistant.case_from_form(view, rules_name, form))


def form_from_result(view: TableSeating) -> dict[str, str]:
    """The stored result as the result form's values, for a correction."""
    form: dict[str, str] = {}
    if view.result is None:
        return form
    case_players = (view.result.score_case or {}).get("players") or []
    # a stored case may list no players (totals): the form then shows no arboretums
    for seat_view, player in zip(view.seats, case_players, strict=False):
        sid = seat_view.seat.id
        form[f"arboretum_{sid}"] = "\n".join(
            f"{c['x']},{c['y']} {c['species']} {c['value']}" for c in player.get("arboretum", []))
        form[f"hand_{sid}"] = ", ".join(str(card) for card in player.get("hand", []))
    for seat_view, stored in zip(view.seats, view.result.seats, strict=False):  # saved together, seat by seat
        sid = seat_view.seat.id
        form[f"points_{sid}"] = str(stored.get("points", ""))
        form[f"species_{sid}"] = str(stored.get("species_count", ""))
        pad = stored.get("scorepad") or {}
        for index, species in enumerate(view.table.species):
            if species in pad:
                form[f"pad_{sid}_{index}"] = str(pad[species])
        if stored.get("bonus"):
            form[f"bonus_{sid}"] = str(stored["bonus"])
    return form


def _audit(session: Session, event_id: int, view: TableSeating, result_id: int | None, actor: str, action: str,
           old: dict[str, Any] | None = None, new: dict[str, Any] | None = None) -> None:
    session.add(AuditEntry(event_id=event_id, table_id=view.table.id, result_id=result_id, actor=actor,
                           action=action, old=old, new=new))


def _snapshot(result: Result) -> dict[str, Any]:
    return {"version": result.version, "mode": result.entry_mode, "status": result.status, "seats": list(result.seats)}


def save_result(session: Session, event: Event, rnd: Round, view: TableSeating, submission: Submission,
                expected_version: int, actor: str, refuse_confirmed: bool = False) -> Result:
    """Store a new result (``expected_version`` 0) or a correction of the version the form showed.

    Checked and written under the round's and the table's lock (:func:`.rounds.lock_table`), so
    a confirmation or a closing of the round sent at the same instant comes wholly before or
    wholly after it. A stale version raises ResultConflict and stores nothing but an audit entry
    of the refused entry, so what the second tablet typed is not lost either. With
    ``refuse_confirmed`` (a player's report) a confirmed result is refused, checked under the
    same lock: only staff correct a confirmed result."""
    assert event.id is not None and view.table.id is not None
    if submission.mode not in event.entry_modes and submission.mode != EntryMode.DIGITAL:
        raise InputError({"": _("This event does not allow %(mode)s entry.", mode=mode_word(submission.mode))})
    check_submission(view, rnd.format, submission)
    rnd, view = lock_table(session, rnd, view.table)
    if rnd.status != RoundStatus.PUBLISHED:
        raise InputError({"": _("Round %(number)d is %(status)s: results are entered while it is published.",
                                number=rnd.number, status=_(ROUND_STATUS_WORDS.get(rnd.status, rnd.status)))})
    new_seats = [entry.to_json() for entry in submission.seats]
    existing = view.result
    if existing is None and view.table.digital and submission.mode != EntryMode.DIGITAL:
        raise InputError({"": _("Table %(number)d is playing on the players' devices: its result is recorded when the "
                                "game ends. To enter it on paper, switch the table back to paper first.",
                                number=view.table.number)})
    if existing is not None and refuse_confirmed and existing.status == ResultStatus.CONFIRMED:
        raise InputError({"": _("This result is confirmed; ask the organizer to correct it.")})
    if existing is None and expected_version != 0:
        raise InputError({"": _("The result you were correcting no longer exists; enter it again.")})
    if existing is not None and existing.version != expected_version:
        _audit(session, event.id, view, existing.id, actor, "result.conflict_refused",
               old=_snapshot(existing), new={"mode": submission.mode, "seats": new_seats, "based_on": expected_version})
        session.commit()
        raise ResultConflict(existing)
    now = utcnow()
    if existing is None:
        assert view.table.id is not None
        result = Result(table_id=view.table.id, entry_mode=submission.mode, seats=new_seats,
                        score_case=submission.score_case, score_output=submission.score_output,
                        status=ResultStatus.ENTERED, version=1, entered_by=actor, entered_at=now, updated_at=now)
        session.add(result)
        session.flush()
        _audit(session, event.id, view, result.id, actor, "result.entered", new=_snapshot(result))
        session.commit()
        return result
    # One transaction for the correction and its audit entry: a crash between two commits would
    # leave a changed result that the audit log does not show.
    settled = _settled(session, event.id, existing)
    old = _snapshot(existing)
    existing.entry_mode, existing.seats = submission.mode, new_seats
    existing.score_case, existing.score_output = submission.score_case, submission.score_output
    existing.status, existing.dispute_note = ResultStatus.ENTERED, ""
    existing.version, existing.entered_by, existing.updated_at = expected_version + 1, actor, now
    session.add(existing)
    _audit(session, event.id, view, existing.id, actor, "result.corrected", old=old, new=_snapshot(existing))
    session.commit()
    _restore_league_figures(session, event.id, settled)
    return existing


def _settled(session: Session, event_id: int, result: Result) -> bool:
    """Whether a change of ``result`` changes settled results: a confirmed result (or a disputed
    one, settled now) of an event whose stored league figures held until now, as in a reopened
    round. A round in play's entries and corrections, a player's among them, are not: their
    figures are stored when the round closes, and this costs them no query."""
    return result.status != ResultStatus.ENTERED and _figures_hold(session, event_id)


def _figures_hold(session: Session, event_id: int) -> bool:
    """Whether the event's stored league figures hold until now (as in a reopened round): a
    change of a result, a confirmation's new version among them, stores them again."""
    return any(held for _, held in signals.results_changing.send(session, event_id=event_id))


def _restore_league_figures(session: Session, event_id: int, settled: bool) -> None:
    """After a change of settled results, the event's league figures are stored again in the
    same request (after its commit: a refused store never takes the change with it), so the
    league keeps reading them rather than scoring the event until the round closes again."""
    if settled:
        signals.results_settled.send(session, event_ids=[event_id])


def confirmations_of(session: Session, result: Result) -> list[Confirmation]:
    return list(session.exec(select(Confirmation).where(
        Confirmation.result_id == result.id, Confirmation.result_version == result.version)).all())


def _check_round_open(rnd: Round) -> None:
    """Refuse any change of a result unless its round (read under the lock) is published: a closed
    round's results change only after an organizer reopens it."""
    if rnd.status != RoundStatus.PUBLISHED:
        raise InputError({"": _("Round %(number)d is %(status)s: its results change only while it is published "
                                "(an organizer can reopen the latest closed round).",
                                number=rnd.number, status=_(ROUND_STATUS_WORDS.get(rnd.status, rnd.status)))})


def _locked_result(session: Session, view: TableSeating, version: int) -> tuple[TableSeating, Result]:
    """The table's result as committed now, under the round's and the table's lock, if it is
    still the version the form was rendered with (else StaleChange: nothing is saved)."""
    table = view.table
    rnd = session.get(Round, table.round_id)
    assert rnd is not None
    rnd, fresh = lock_table(session, rnd, table)
    _check_round_open(rnd)
    if fresh.result is None:
        raise InputError({"": _("This table has no result any more.")})
    guard.check_version(fresh.result.version, version, _("The result of table %(number)d", number=table.number),
                        _("It is version %(version)d now; check the new figures first.", version=fresh.result.version))
    return fresh, fresh.result


def _mark_confirmed(session: Session, result: Result) -> None:
    """The result becomes confirmed as a new version, so a form made from the unconfirmed one (a
    correction, a player's report) is stale from now on; the confirmations of the version
    confirmed move with it, so the page still shows who confirmed."""
    assert result.id is not None
    session.flush()
    for confirmation in session.exec(select(Confirmation).where(
            Confirmation.result_id == result.id, Confirmation.result_version == result.version)).all():
        confirmation.result_version = result.version + 1
        session.add(confirmation)
    result.status, result.version, result.updated_at = ResultStatus.CONFIRMED, result.version + 1, utcnow()
    session.add(result)


def confirm_by_seat(session: Session, event: Event, view: TableSeating, result: Result, seat_id: int,
                    version: int, organizer_id: int | None, actor: str) -> Result:
    """One player's tap. When every seat has confirmed this version, the result is confirmed, in
    the same transaction: of two last taps at once, the second sees the first's confirmation."""
    assert event.id is not None
    view, result = _locked_result(session, view, version)
    assert result.id is not None
    seat_ids = {s.seat.id for s in view.seats}
    if seat_id not in seat_ids:
        raise InputError({"": _("That seat is not at this table.")})
    if result.status == ResultStatus.DISPUTED:
        raise InputError({"": _("This result is disputed; the organizer decides.")})
    confirmed = {c.seat_id for c in confirmations_of(session, result)}
    settled = False
    if seat_id not in confirmed:
        session.add(Confirmation(result_id=result.id, result_version=result.version, seat_id=seat_id,
                                 organizer_id=organizer_id))
        name = next((s.player.name for s in view.seats if s.seat.id == seat_id and s.player), "?")
        _audit(session, event.id, view, result.id, actor, "result.confirmed_by_player",
               new={"player": name, "version": result.version})
        confirmed.add(seat_id)
        if seat_ids <= confirmed and result.status != ResultStatus.CONFIRMED:
            settled = _figures_hold(session, event.id)
            _mark_confirmed(session, result)
            _audit(session, event.id, view, result.id, actor, "result.confirmed",
                   old={"status": "entered"}, new={"status": "confirmed", "by": "all players", "version": result.version})
    session.commit()
    _restore_league_figures(session, event.id, settled)
    return result


def confirm_by_organizer(session: Session, event: Event, view: TableSeating, result: Result, version: int,
                         organizer_id: int | None, actor: str) -> Result:
    """The organizer confirms for the whole table (also how a dispute is settled as entered)."""
    assert event.id is not None
    view, result = _locked_result(session, view, version)
    assert result.id is not None
    # a confirmation makes a new version: stored league figures that held are stored again
    settled = result.status != ResultStatus.CONFIRMED and _figures_hold(session, event.id)
    if result.status != ResultStatus.CONFIRMED:
        old_status = result.status
        _mark_confirmed(session, result)
        session.add(Confirmation(result_id=result.id, result_version=result.version, seat_id=None,
                                 organizer_id=organizer_id))
        _audit(session, event.id, view, result.id, actor, "result.confirmed",
               old={"status": old_status}, new={"status": "confirmed", "by": "organizer", "version": result.version})
    session.commit()
    _restore_league_figures(session, event.id, settled)
    return result


def dispute(session: Session, event: Event, view: TableSeating, result: Result, version: int, note: str,
            actor: str, by_player: bool = False) -> Result:
    """A dispute of the version the form showed. A player (``by_player``) may not dispute a
    confirmed result, checked under the lock: the organizer or a judge reopens or corrects it."""
    assert event.id is not None
    note = " ".join(note.split())
    if not note:
        raise InputError({"note": _("Say briefly what is wrong, for the organizer.")})
    if len(note) > 500:
        raise InputError({"note": _("Keep the note to 500 characters.")})
    view, result = _locked_result(session, view, version)
    if by_player and result.status == ResultStatus.CONFIRMED:
        raise InputError({"": _("This result is confirmed; ask the organizer or a judge if it is wrong.")})
    settled = _settled(session, event.id, result)
    old_status = result.status
    result.status = ResultStatus.DISPUTED
    result.dispute_note = note
    session.add(result)
    _audit(session, event.id, view, result.id, actor, "result.disputed", old={"status": old_status},
           new={"status": "disputed", "note": note})
    session.commit()
    _restore_league_figures(session, event.id, settled)
    return result


def audit_log(session: Session, event_id: int, table_id: int | None = None, limit: int = 500) -> list[AuditEntry]:
    query = select(AuditEntry).where(AuditEntry.event_id == event_id)
    if table_id is not None:
        query = query.where(AuditEntry.table_id == table_id)
    return list(session.exec(query.order_by(col(AuditEntry.at).desc(), col(AuditEntry.id).desc()).limit(limit)).all())


# -- places and tournament points, shown before the players confirm -------------------------------

@dataclass(frozen=True)
class Place:
    """One seat's place at its table (1 = first; tied seats share a place), its tournament points
    under the event's scheme, and why, when its points equal another seat's."""

    place: int
    shared: bool
    tournament_points: float
    tie_note: str
    label: str


def table_places(event: Event, rnd: Round, view: TableSeating) -> list[Place]:
    """Each seat's place and tournament points from the table's stored result (in seat order),
    as the standings will count them; empty without a result, or when it cannot be counted."""
    from organizer.scoring.schemes import SeatResult, StandingsError, TableResult, beats, tournament_points

    if view.result is None or len(view.result.seats) != len(view.seats):
        return []
    tiebreak = rules.species_tiebreak(event.edition, rnd.format)
    try:
        seats = [SeatResult(index, int(s.get("points", 0)), int(s.get("species_count", 0)))
                 for index, s in enumerate(view.result.seats)]
        table = TableResult(view.table.id or 0, rnd.number, seats, tiebreak)
        points = tournament_points(table, event.point_scheme)
    except (StandingsError, ValueError, TypeError):
        return []
    places = []
    for seat in seats:
        place = 1 + sum(beats(table, other, seat) for other in seats if other is not seat)
        level = [other for other in seats if other is not seat and other.points == seat.points]
        shared = any(not beats(table, seat, other) and not beats(table, other, seat) for other in level)
        note = ""
        if level and tiebreak and not shared:
            note = _("%(place)s — tie on %(points)s points broken by species count: %(mine)s vs %(theirs)s",
                     place=ordinal(place), points=seat.points, mine=seat.species_count,
                     theirs=", ".join(str(other.species_count) for other in level))
        elif shared and tiebreak:
            note = _("shared %(place)s — tie on %(points)s points and %(species)s species",
                     place=ordinal(place), points=seat.points, species=seat.species_count)
        elif shared:
            note = _("shared %(place)s — tie on %(points)s points (these rules break no ties)",
                     place=ordinal(place), points=seat.points)
        label = _("shared %(place)s", place=ordinal(place)) if shared else ordinal(place)
        places.append(Place(place, shared, points[seat.player_id], note, label))
    return places


# -- a table back on paper ---------------------------------------------------------------------------

def move_to_paper(session: Session, event: Event, rnd: Round, view: TableSeating, log_version: int,
                  actor: str) -> int:
    """The TO takes a table off the devices: the game in progress (if any) is discarded and the
    result is entered on paper. ``log_version`` is the game's version the page showed (a stale
    page changes nothing). Returns the number of moves discarded."""
    assert event.id is not None
    rnd, view = lock_table(session, rnd, view.table)
    table = view.table
    if not table.digital:
        session.rollback()
        return 0
    guard.check_version(table.log_version, log_version, _("The game at table %(number)d", number=table.number),
                        _("Check the game as it is now and try again."))
    if view.result is not None:
        raise InputError({"": _("Table %(number)d already has a result; correct it instead.", number=table.number)})
    if rnd.status == RoundStatus.FINISHED:
        raise InputError({"": _("Round %(number)d is finished.", number=rnd.number)})
    moves = len(table.action_log or [])
    table.digital, table.game, table.action_log, table.log_version = False, None, [], 0
    for seat_view in view.seats:
        if seat_view.seat.is_bot and seat_view.player is not None:
            seat_view.seat.is_bot = False
            session.add(seat_view.seat)
    session.add(table)
    _audit(session, event.id, view, None, actor, "live.back_to_paper", new={"table": table.number, "moves": moves})
    session.commit()
    return moves
