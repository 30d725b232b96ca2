"""The projector view: seatings, round clock and standings in large type, refreshing itself."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from organizer.core.db import get_session
from organizer.core.i18n import use_event_language
from organizer.core.pages import render_page
from organizer.events import announcements
from organizer.events.views import load_event
from organizer.standings.projector import REFRESH_SECONDS, projector_screen

bp = Blueprint("projector", __name__, url_prefix="/events/<int:event_id>/projector")


@bp.get("")
def show(event_id: int) -> Any:
    event = load_event(event_id)
    use_event_language(event)  # the room reads the event's language, whatever this device says
    db = get_session()
    screen = projector_screen(db, event)
    return render_page("standings/projector.html", "standings/projector_panel.html", event=event, screen=screen,
                       round=screen.round, refresh=REFRESH_SECONDS,
                       announcements=announcements.shown(db, event_id, event.language))
