"""The standings page."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from .auth import login_required
from .db import get_session
from .events import load_event
from .pages import render_page
from .services import events as event_service
from .services.event_standings import standings_view
from .services.prints import played_rounds

bp = Blueprint("standings", __name__, url_prefix="/events/<int:event_id>/standings")


@bp.get("")
@login_required
def index(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    return render_page("standings/index.html", "standings_table.html", event=event,
                       view=standings_view(db, event), print_rounds=played_rounds(db, event),
                       tiebreaks=event_service.TIEBREAKS,
                       point_schemes=event_service.POINT_SCHEMES)
