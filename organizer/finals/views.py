"""The finals page: make the cut, record decliners, seat the semi-finals and the final table."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, request, url_for

from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.models import Event
from organizer.core.pages import go_to, render_page
from organizer.core.translate import _
from organizer.events.views import load_event
from organizer.finals import service

bp = Blueprint("finals", __name__, url_prefix="/events/<int:event_id>/finals")


def _page(event: Event, status: int = 200, errors: dict[str, str] | None = None,
          form: dict[str, str] | None = None) -> Any:
    view = service.finals_view(get_session(), event)
    return render_page("finals/index.html", "finals/finals_panel.html", status, event=event, view=view,
                       errors=errors or {}, form=form or {}, cut_sizes=(4, 8, 12, 16))


def _version() -> int:
    try:
        return int(request.form.get("version", "0"))
    except ValueError:
        return -1


@bp.get("")
def index(event_id: int) -> Any:
    return _page(load_event(event_id))


@bp.post("/cut")
def cut(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    form = {"cut_size": request.form.get("cut_size", ""), "top_seed_chooses": request.form.get("top_seed_chooses", "")}
    try:
        size = service.cut_size_from_text(form["cut_size"])
        service.make_cut(db, event, size, bool(form["top_seed_chooses"]), _version(), g.organizer.name)
    except InputError as bad:
        db.rollback()
        return _page(event, 422, bad.errors, form)
    flash(_("The cut is made: %(size)d players.", size=size))
    return go_to(url_for("finals.index", event_id=event_id))


@bp.post("/decline")
def decline(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    try:
        player_id = int(request.form.get("player", ""))
    except ValueError:
        return _page(event, 422, {"": _("Choose a player.")})
    try:
        service.decline(db, event, player_id, _version(), g.organizer.name)
    except InputError as bad:
        db.rollback()
        return _page(event, 422, bad.errors)
    flash(_("Declined; the next in line takes the place."))
    return go_to(url_for("finals.index", event_id=event_id))


@bp.post("/seat")
def seat(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    top_seats: dict[int, int] = {}
    for key, raw in request.form.items():
        if key.startswith("top_seat_") and raw.strip():
            try:
                top_seats[int(key.removeprefix("top_seat_"))] = int(raw)
            except ValueError:
                return _page(event, 422, {key: _("Choose a seat.")})
    try:
        rnd = service.seat_next(db, event, _version(), top_seats, g.organizer.name)
    except InputError as bad:
        db.rollback()
        return _page(event, 422, bad.errors)
    flash(_("Seated by seed. Review the tables, then publish."))
    return go_to(url_for("rounds.show", event_id=event_id, number=rnd.number))
