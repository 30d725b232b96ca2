"""Event list, creation, editing and the event's overview page."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, g, request, url_for

from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.guard import StaleChange
from organizer.core.i18n import time_zone_names
from organizer.core.models import Event, Role
from organizer.core.pages import go_to, render_page
from organizer.core.translate import _
from organizer.events import announcements, service

bp = Blueprint("events", __name__)


def load_event(event_id: int) -> Event:
    event = get_session().get(Event, event_id)
    if event is None:
        abort(404)
    return event


def _submitted_form() -> dict[str, Any]:
    form: dict[str, Any] = {key: request.form.get(key, "") for key in request.form}
    form["entry_modes"] = request.form.getlist("entry_modes")
    return form


def _form_context(form: dict[str, Any], errors: dict[str, str]) -> dict[str, Any]:
    return {
        "form": form, "errors": errors, "round_count": service.round_count_from(form),
        "point_schemes": service.POINT_SCHEMES, "tiebreaks": service.TIEBREAKS,
        "default_tiebreaks": service.DEFAULT_TIEBREAKS, "default_scheme": service.DEFAULT_POINT_SCHEME,
        "default_tiebreak_text": " → ".join(_(service.TIEBREAKS[key]) for key in service.DEFAULT_TIEBREAKS),
        "time_zones": time_zone_names(),
    }


def _judge_id() -> int | None:
    account = g.organizer
    return account.id if account.role == Role.JUDGE else None


@bp.get("/")
def index() -> Any:
    db = get_session()
    return render_page("events/index.html", "events/event_list.html", events=service.list_events(db, _judge_id()),
                       archived=service.archived_count(db, _judge_id()), showing_archive=False)


@bp.get("/events/archive")
def archive() -> Any:
    """The archived events, and the record of deleted ones."""
    db = get_session()
    return render_page("events/archive.html", "events/event_list.html",
                       events=service.list_events(db, _judge_id(), archived=True), archived=0, showing_archive=True,
                       deletions=service.deletions(db))


@bp.post("/events/<int:event_id>/archive")
def set_archived(event_id: int) -> Any:
    event = load_event(event_id)
    archived = request.form.get("archived") == "1"
    service.set_archived(get_session(), event_id, archived, g.organizer.name, g.organizer.role)
    if archived:
        flash(_("“%(name)s” moved to the archive.", name=event.name))
        return go_to(url_for("events.index"))
    flash(_("“%(name)s” is back in the list of events.", name=event.name))
    return go_to(url_for("events.show", event_id=event_id))


@bp.route("/events/<int:event_id>/delete", methods=["GET", "POST"])
def delete(event_id: int) -> Any:
    """Delete the event once its name is typed (POST), after the page that says what goes (GET)."""
    event = load_event(event_id)
    db = get_session()
    errors: dict[str, str] = {}
    typed = ""
    if request.method == "POST":
        typed = request.form.get("confirm_name", "")
        name = event.name
        try:
            service.delete_event(db, event_id, typed, g.organizer.name, g.organizer.role)
        except InputError as bad:
            db.rollback()
            event = load_event(event_id)
            errors = bad.errors
        else:
            flash(_("“%(name)s” deleted with all its players, rounds and results.", name=name))
            return go_to(url_for("events.index"))
    return render_page("events/delete.html", "events/delete_form.html", 422 if errors else 200, event=event,
                       errors=errors, typed=typed, counts=service.event_counts(db, event_id),
                       rounds=service.rounds_started(db, event_id),
                       running=service.live_tables_running(db, event_id))


@bp.route("/events/new", methods=["GET", "POST"])
def new() -> Any:
    form, errors = service.form_defaults(), {}
    if request.method == "POST":
        form = _submitted_form()
        try:
            data = service.parse_event_form(form)
        except InputError as bad:
            errors = bad.errors
        else:
            event = service.create_event(get_session(), data, g.organizer.id, g.organizer.name)
            flash(_("Event “%(name)s” created. Add the players next.", name=event.name))
            return go_to(url_for("players.index", event_id=event.id))
    return render_page("events/form.html", "events/event_form.html", 422 if errors else 200,
                       event=None, **_form_context(form, errors))


@bp.route("/events/<int:event_id>/edit", methods=["GET", "POST"])
def edit(event_id: int) -> Any:
    event = load_event(event_id)
    form, errors = service.form_defaults(event), {}
    if request.method == "POST":
        form = _submitted_form()
        try:
            service.update_event(get_session(), event, service.parse_event_form(form), g.organizer.name,
                                 service.form_version(form))
        except StaleChange as stale:
            # nothing saved: the message beside the form, which shows the settings as they are now
            get_session().rollback()
            event = load_event(event_id)
            form, errors = service.form_defaults(event), stale.errors
        except InputError as bad:
            get_session().rollback()
            errors = bad.errors
        else:
            flash(_("Event saved."))
            return go_to(url_for("events.show", event_id=event.id))
    return render_page("events/form.html", "events/event_form.html", 422 if errors else 200,
                       event=event, **_form_context(form, errors))


@bp.get("/events/round-formats")
def round_formats() -> Any:
    """The per-round format choices for the round count being typed (HTMX, on change)."""
    form = {key: request.args.get(key, "") for key in request.args}
    return render_page("events/form.html", "events/round_formats.html", **_form_context(form, {}))


def _show(event_id: int, status: int = 200, announce_errors: dict[str, str] | None = None,
          announce_form: dict[str, str] | None = None) -> Any:
    event = load_event(event_id)
    db = get_session()
    return render_page("events/show.html", "events/event_overview.html", status, event=event,
                       announcements=announcements.current(db, event_id), announce_errors=announce_errors or {},
                       announce_form=announce_form or {},
                       counts=service.event_counts(db, event_id),
                       rounds=service.rounds_started(db, event_id),
                       disputes=service.open_disputes(db, event_id), step=service.next_step(db, event),
                       point_schemes=service.POINT_SCHEMES, tiebreaks=service.TIEBREAKS)


@bp.get("/events/<int:event_id>")
def show(event_id: int) -> Any:
    return _show(event_id)


@bp.post("/events/<int:event_id>/announcements")
def announce(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    form = {key: request.form.get(key, "") for key in ("text", "language", "second_text", "second_language")}
    try:
        announcements.post(db, event, form["text"], form["language"], form["second_text"], form["second_language"],
                           g.organizer.name, str(g.organizer.role))
    except InputError as bad:
        db.rollback()
        return _show(event_id, 422, bad.errors, form)
    flash(_("Announcement shown on the players' pages, the public page and the projector."))
    return go_to(url_for("events.show", event_id=event_id) + "#announcements")


@bp.post("/events/<int:event_id>/announcements/<int:announcement_id>/withdraw")
def withdraw_announcement(event_id: int, announcement_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    try:
        announcements.withdraw(db, event, announcement_id, g.organizer.name, str(g.organizer.role))
    except InputError as bad:
        db.rollback()
        flash(" ".join(bad.errors.values()), "error")
    else:
        flash(_("Announcement withdrawn."))
    return go_to(url_for("events.show", event_id=event_id) + "#announcements")
