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
from organizer.events import service

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


@bp.get("/")
def index() -> Any:
    account = g.organizer
    judge_id = account.id if account.role == Role.JUDGE else None
    return render_page("events/index.html", "events/event_list.html", events=service.list_events(get_session(), judge_id))


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


@bp.get("/events/<int:event_id>")
def show(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    return render_page("events/show.html", "events/event_overview.html", event=event,
                       counts=service.event_counts(db, event_id),
                       rounds=service.rounds_started(db, event_id),
                       disputes=service.open_disputes(db, event_id),
                       point_schemes=service.POINT_SCHEMES, tiebreaks=service.TIEBREAKS)
