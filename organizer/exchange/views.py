"""Export an event (JSON, CSV zip) and import a JSON export."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, Response, flash, g, request, url_for

from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.pages import go_to, render_page
from organizer.core.translate import _
from organizer.core.uploads import read_json
from organizer.events import service as event_service
from organizer.events.views import load_event
from organizer.exchange import event_import
from organizer.exchange import export as service

bp = Blueprint("exchange", __name__)
#: exports hold players' names and e-mails: kept out of shared caches and off the disk cache
PRIVATE = "private, no-store"


def _file_stem(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "event"


@bp.get("/events/<int:event_id>/export.json")
def export_json(event_id: int) -> Any:
    event = load_event(event_id)
    body = json.dumps(service.export_event(get_session(), event), indent=1, ensure_ascii=False)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{_file_stem(event.name)}.json"',
                             "Cache-Control": PRIVATE})


@bp.get("/events/<int:event_id>/export.zip")
def export_zip(event_id: int) -> Any:
    event = load_event(event_id)
    return Response(service.export_csv_zip(get_session(), event), mimetype="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="{_file_stem(event.name)}-csv.zip"',
                             "Cache-Control": PRIVATE})


@bp.post("/events/import")
def import_json() -> Any:
    db = get_session()
    upload = request.files.get("file")
    errors: dict[str, str] = {}
    if upload is None or not upload.filename:
        errors = {"file": _("Choose the event's JSON export to import.")}
    else:
        try:
            event = event_import.import_event(db, read_json(upload.read(), "file", _("an event export")), g.organizer.id)
        except InputError as bad:
            errors = {"file": " ".join(bad.errors.values())}
        else:
            flash(_("Event “%(name)s” imported.", name=event.name))
            return go_to(url_for("events.show", event_id=event.id))
    return render_page("events/index.html", "events/event_list.html", 422, events=event_service.list_events(db),
                       import_errors=errors)
