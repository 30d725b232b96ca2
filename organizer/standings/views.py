"""The standings page."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from organizer.core.db import get_session
from organizer.core.pages import render_page
from organizer.core.paging import page_number
from organizer.core.translate import _
from organizer.events import service as event_service
from organizer.events.views import load_event
from organizer.finals.service import finals_view
from organizer.rounds.service import played_rounds
from organizer.scoring.event_standings import standings_page

bp = Blueprint("standings", __name__, url_prefix="/events/<int:event_id>/standings")


@bp.get("")
def index(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    listed = standings_page(db, event, request.args.get("q", ""), page_number(request.args.get("page")))
    # a search as it is typed, or another page (htmx), gets only the rows
    only_rows = "q" in request.args or "page" in request.args
    partial = "standings/standings_rows.html" if only_rows else "standings/standings_table.html"
    return render_page("standings/index.html", partial, event=event, listed=listed, view=listed.view,
                       print_rounds=played_rounds(db, event), finals=finals_view(db, event),
                       # the labels are marked for translation where they are defined (N_)
                       point_scheme=_(str(event_service.POINT_SCHEMES.get(event.point_scheme, event.point_scheme))),
                       tiebreak_names=[_(str(event_service.TIEBREAKS.get(key, key))) for key in event.tiebreak_order])
