"""The event's audit log: every change, newest first, a page at a time."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from .db import get_session
from .events import load_event
from .pages import render_page
from .services import audit as service
from .services.paging import page_number

bp = Blueprint("audit", __name__, url_prefix="/events/<int:event_id>")


@bp.get("/audit")
def index(event_id: int) -> Any:
    event = load_event(event_id)
    chosen = service.audit_filter(request.args.get("round"), request.args.get("table"), request.args.get("actor"))
    log = service.audit_page(get_session(), event_id, chosen, page_number(request.args.get("page")))
    return render_page("audit/index.html", "audit_log.html", event=event, log=log)
