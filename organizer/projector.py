"""The projector view: seatings, round clock and standings in large type, refreshing itself."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from .db import get_session
from .events import load_event
from .models import utcnow
from .pages import render_page
from .services import rounds as round_service
from .services.event_standings import standings_view

bp = Blueprint("projector", __name__, url_prefix="/events/<int:event_id>/projector")

#: how often the projector asks for fresh figures (seconds); the clock itself ticks every second
REFRESH_SECONDS = 10


@bp.get("")
def show(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    rnd = round_service.current_round(db, event_id)
    seating: list[tuple[str, int]] = []
    deadline = None
    if rnd is not None and rnd.id is not None:
        seating = sorted(((s.player.name, view.table.number) for view in round_service.tables_of(db, rnd.id)
                          for s in view.seats if s.player), key=lambda item: item[0].casefold())
        deadline = round_service.clock_deadline(rnd)
    remaining = None
    if deadline is not None:
        remaining = max(0, int((deadline - utcnow()).total_seconds()))
    return render_page("projector/show.html", "projector_panel.html", event=event, round=rnd, seating=seating,
                       deadline=deadline, remaining=remaining, standings=standings_view(db, event),
                       refresh=REFRESH_SECONDS)
