"""The event's audit log: every change, newest first, a page at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Blueprint, request

from organizer.core.db import get_session
from organizer.core.models import AuditEntry
from organizer.core.pages import render_page
from organizer.core.paging import page_number
from organizer.core.permissions import may
from organizer.events import audit as service
from organizer.events.views import load_event

bp = Blueprint("audit", __name__, url_prefix="/events/<int:event_id>")


@bp.get("/audit")
def index(event_id: int) -> Any:
    event = load_event(event_id)
    chosen = service.audit_filter(request.args.get("round"), request.args.get("table"), request.args.get("actor"))
    log = service.audit_page(get_session(), event_id, chosen, page_number(request.args.get("page")),
                             show_emails=_may_see_emails(event_id))
    return render_page("events/audit.html", "events/audit_log.html", event=event, log=log)


@bp.app_template_global("audit_lines")
def audit_lines(entries: Sequence[AuditEntry | service.AuditLine]) -> list[service.AuditLine]:
    """Entries as sentences for events/audit_rows.html (a table's history passes bare entries)."""
    lines = [entry for entry in entries if isinstance(entry, service.AuditLine)]
    bare = [entry for entry in entries if isinstance(entry, AuditEntry)]
    if bare:
        return service.describe_page(get_session(), bare[0].event_id, bare, _may_see_emails(bare[0].event_id))
    return lines


def _may_see_emails(event_id: int) -> bool:
    """Players' addresses are for those who may edit players (organizers, owners), never judges."""
    return may("players.edit", event_id)
