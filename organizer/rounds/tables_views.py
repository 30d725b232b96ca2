"""A table's page: seats, species, result entry (totals / scorepad / score case), confirmations,
disputes (the event's audit log is organizer/events/audit_views.py)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, flash, g, request, url_for

from engine import Edition, edition_species
from engine.cards import species_code, species_colour
from organizer.core import signals
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.models import Event, Round
from organizer.core.pages import go_to, render_page
from organizer.core.translate import _, ngettext, species_name
from organizer.events.views import load_event
from organizer.rounds import results as service
from organizer.rounds import service as round_service
from organizer.rounds.views import load_round
from organizer.scoring import rules

bp = Blueprint("tables", __name__, url_prefix="/events/<int:event_id>")


def _load(event_id: int, number: int, table: int) -> tuple[Event, Round, round_service.TableSeating]:
    event = load_event(event_id)
    rnd = load_round(event, number)
    assert rnd.id is not None
    views = round_service.tables_of(get_session(), rnd.id, table)
    if not views:
        abort(404)
    return event, rnd, views[0]


def _page(event: Event, rnd: Round, view: round_service.TableSeating, status: int = 200, **context: Any) -> Any:
    db = get_session()
    confirmed_seats: set[int | None] = set()
    if view.result is not None:
        confirmed_seats = {c.seat_id for c in service.confirmations_of(db, view.result)}
    editing = context.pop("editing", view.result is None)
    form = context.pop("form", None)
    if form is None:
        form = service.form_from_result(view) if editing else {}
    context.setdefault("errors", {})
    context.setdefault("conflict", None)
    context.setdefault("chosen_species", list(view.table.species))
    context.setdefault("edition_species", edition_species(Edition.parse(event.edition)))
    context.setdefault("species_needed", round_service.species_needed(rnd, len(view.seats)))
    context.setdefault("species_colours", [[species, species_colour(species)[1]] for species in view.table.species])
    context.setdefault("live", _live_state(event, rnd, view))
    context.setdefault("places", service.table_places(event, rnd, view))
    context.setdefault("max_species_points", rules.max_species_points(rnd.format))
    context.setdefault("draft_bonus", rules.DRAFT_BONUS)
    context.setdefault("assistant_strings", _assistant_strings(view))
    return render_page("rounds/table.html", "rounds/table_result.html", status, event=event, round=rnd, view=view,
                       mode=service.entry_mode(event, request.values.get("mode")
                                               or (view.result.entry_mode if view.result else None)),
                       editing=editing, form=form, confirmed_seats=confirmed_seats,
                       round_status_words=service.ROUND_STATUS_WORDS, result_status_words=service.RESULT_STATUS_WORDS,
                       entry_mode_tabs=service.ENTRY_MODE_TABS, entry_mode_words=service.ENTRY_MODE_WORDS,
                       log=service.audit_log(db, event.id or 0, view.table.id), **context)


@bp.get("/rounds/<int:number>/tables/<int:table>")
def show(event_id: int, number: int, table: int) -> Any:
    event, rnd, view = _load(event_id, number, table)
    return _page(event, rnd, view, editing=view.result is None or request.args.get("edit") == "1")


@bp.post("/rounds/<int:number>/tables/<int:table>/result")
def enter(event_id: int, number: int, table: int) -> Any:
    event, rnd, view = _load(event_id, number, table)
    db = get_session()
    form = {key: request.form.get(key, "") for key in request.form if key != "csrf_token"}
    upload = request.files.get("case_file")
    try:
        submission = service.submission_from_form(event, rnd, view, form,
                                                  upload.read() if upload is not None and upload.filename else None,
                                                  ask_unlikely=True)
        # no version at all: a first entry (version 0)
        service.save_result(db, event, rnd, view, submission, _version(missing="0"), g.organizer.name)
    except InputError as bad:
        db.rollback()
        return _page(event, rnd, view, 422, editing=True, form=form, errors=bad.errors)
    except service.ResultConflict as conflict:
        fresh = _load(event_id, number, table)[2]
        return _page(event, rnd, fresh, 409, editing=True, form=form, conflict=conflict.current)
    return go_to(url_for("tables.show", event_id=event_id, number=number, table=table))


def _assistant_strings(view: round_service.TableSeating) -> dict[str, Any]:
    """What static/rounds/assistant.js writes on the page, in the reader's language, and each species'
    name and code. ``{x}``-style slots are filled in by the script."""
    return {
        "species": {species: {"name": species_name(species), "code": species_code(species)}
                    for species in view.table.species},
        "done": _("Done"), "cancel": _("Cancel"),
        "value": _("value {value}"),
        "taken": _("{card} is already used at this table"),
        "plantedCards": _("Planted cards of {name}"),
        "cardFor": _("Card for {cell}"),
        "cardAt": _("{card} at {cell}"),
        "remove": _("Remove {card}"),
        "wouldSplit": _("Removing it would split the arboretum: remove a card at an end first."),
        "plantAt": _("Plant at {cell}"),
        "notUnderstood": _("Lines not understood (fix them in the text below): {lines}"),
        "handOf": _("Hand of {name}"),
        "removeFromHand": _("Remove {card} from the hand"),
        "addCard": _("+ Card"),
        "addToHandOf": _("Add a card to the hand of {name}"),
        "addToHandTitle": _("Add to the hand of {name}"),
        # every count a hand can reach, each with its language's plural form
        "cardCounts": [ngettext("%(num)d card", "%(num)d cards", count) for count in range(0, 41)],
        "howTo": _("Or tap: + plants a card next to the others (choose the species, then the value); tap a planted "
                   "card or a hand card to take it back. The text boxes follow every tap."),
    }


def _live_state(event: Event, rnd: Round, view: round_service.TableSeating) -> dict[str, Any] | None:
    """A digital table's game as stored, for its page: progress, cards left, who is awaited, the
    number of moves and the log's version (read only: a GET plays nothing)."""
    table = view.table
    if not table.digital:
        return None
    if table.game is None or table.log_version == 0:
        return {"started": False, "progress": "", "left": "", "awaited": [], "moves": 0, "finished": False,
                "version": table.log_version}
    answers = [state for _, state in signals.table_game_asked.send(get_session(), event=event, round=rnd, view=view)
               if state is not None]
    return answers[0] if answers else None


@bp.post("/rounds/<int:number>/tables/<int:table>/paper")
def paper(event_id: int, number: int, table: int) -> Any:
    """The TO takes the table off the devices (after a confirmation that says what is lost)."""
    event, rnd, view = _load(event_id, number, table)
    db = get_session()
    try:
        moves = service.move_to_paper(db, event, rnd, view, _version(), g.organizer.name)
    except InputError as bad:
        db.rollback()
        fresh = _load(event_id, number, table)[2]
        return _page(event, rnd, fresh, 422, editing=False, errors=bad.errors)
    flash(ngettext("Table %(table)d is back on paper; the game in progress (%(num)d move) was discarded.",
                   "Table %(table)d is back on paper; the game in progress (%(num)d moves) was discarded.",
                   moves, table=table))
    return go_to(url_for("tables.show", event_id=event_id, number=number, table=table))


def _version(missing: str = "") -> int:
    try:
        return int(request.form.get("version", missing))
    except ValueError:
        return -1


@bp.post("/rounds/<int:number>/tables/<int:table>/confirm")
def confirm(event_id: int, number: int, table: int) -> Any:
    event, rnd, view = _load(event_id, number, table)
    if view.result is None:
        abort(404)
    db = get_session()
    seat = request.form.get("seat", "")
    try:
        if seat == "organizer":
            service.confirm_by_organizer(db, event, view, view.result, _version(), g.organizer.id, g.organizer.name)
        else:
            try:
                seat_id = int(seat)
            except ValueError:
                raise InputError({"": _("Tap the name of the player who confirms.")}) from None
            service.confirm_by_seat(db, event, view, view.result, seat_id, _version(), g.organizer.id, g.organizer.name)
    except InputError as bad:
        db.rollback()
        fresh = _load(event_id, number, table)[2]
        return _page(event, rnd, fresh, 422, editing=False, errors=bad.errors)
    fresh = _load(event_id, number, table)[2]
    return _page(event, rnd, fresh, editing=False)


@bp.post("/rounds/<int:number>/tables/<int:table>/dispute")
def dispute(event_id: int, number: int, table: int) -> Any:
    event, rnd, view = _load(event_id, number, table)
    if view.result is None:
        abort(404)
    db = get_session()
    try:
        service.dispute(db, event, view, view.result, _version(), request.form.get("note", ""), g.organizer.name)
    except InputError as bad:
        db.rollback()
        fresh = _load(event_id, number, table)[2]  # a stale form: the result as it is now
        return _page(event, rnd, fresh, 422, editing=False, errors=bad.errors,
                     dispute_note=request.form.get("note", ""))
    fresh = _load(event_id, number, table)[2]
    return _page(event, rnd, fresh, editing=False)


@bp.post("/rounds/<int:number>/tables/<int:table>/species")
def species(event_id: int, number: int, table: int) -> Any:
    event, rnd, view = _load(event_id, number, table)
    db = get_session()
    try:
        round_service.set_species(db, event, rnd, view, request.form.getlist("species"), g.organizer.name)
    except InputError as bad:
        db.rollback()
        fresh = _load(event_id, number, table)[2]
        return _page(event, rnd, fresh, 422, errors=bad.errors, chosen_species=request.form.getlist("species"))
    fresh = _load(event_id, number, table)[2]
    return _page(event, rnd, fresh)


@bp.get("/rounds/<int:number>/tables/<int:table>/case.json")
def case_download(event_id: int, number: int, table: int) -> Any:
    view = _load(event_id, number, table)[2]
    if view.result is None or view.result.score_case is None:
        abort(404)
    return Response(json.dumps(view.result.score_case, indent=2), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="round{number}-table{table}.json"',
                             "Cache-Control": "private, no-store"})
