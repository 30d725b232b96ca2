"""An event's staff page: its organizers assign judges to it, and say whether judges may also
change the seating of a proposed round."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, request, url_for

from organizer.core import staff as service
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.pages import go_to, render_page
from organizer.core.translate import _
from organizer.events.views import load_event

bp = Blueprint("staff", __name__, url_prefix="/events/<int:event_id>/staff")


def _page(event_id: int, status: int = 200, errors: dict[str, str] | None = None) -> Any:
    event = load_event(event_id)
    return render_page("events/staff.html", "events/event_staff.html", status, event=event,
                       staff=service.staff_of(get_session(), event), errors=errors or {})


@bp.get("")
def index(event_id: int) -> Any:
    return _page(event_id)


@bp.post("/judges")
def assign(event_id: int) -> Any:
    db = get_session()
    raw = request.form.get("judge", "")
    try:
        judge = service.assign_judge(db, load_event(event_id), int(raw) if raw.isdigit() else None, g.organizer.name)
    except InputError as bad:
        db.rollback()
        return _page(event_id, 422, bad.errors)
    flash(_("%(name)s judges this event.", name=judge.name))
    return go_to(url_for("staff.index", event_id=event_id))


@bp.post("/judges/<int:account_id>/remove")
def unassign(event_id: int, account_id: int) -> Any:
    service.unassign_judge(get_session(), load_event(event_id), account_id)
    return go_to(url_for("staff.index", event_id=event_id))


@bp.post("/seating")
def seating(event_id: int) -> Any:
    service.set_judges_may_seat(get_session(), load_event(event_id), request.form.get("judges_may_seat") == "1")
    return go_to(url_for("staff.index", event_id=event_id))
