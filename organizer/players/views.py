"""The players of an event: registration, CSV import, check-in, drop, fixed tables."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, flash, g, request, url_for

from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.guard import StaleChange
from organizer.core.models import Event, Player
from organizer.core.pages import go_to, render_page
from organizer.core.paging import page_number
from organizer.core.translate import _, ngettext
from organizer.events.views import load_event
from organizer.players import service

bp = Blueprint("players", __name__, url_prefix="/events/<int:event_id>/players")


def _load(event_id: int, player_id: int) -> tuple[Event, Player]:
    event = load_event(event_id)
    player = service.get_player(get_session(), event_id, player_id)
    if player is None:
        abort(404)
    return event, player


def _page(event: Event, status: int = 200, partial: str = "players/players_panel.html", **context: Any) -> Any:
    assert event.id is not None
    context.setdefault("form", {})
    context.setdefault("errors", {})
    context.setdefault("import_form", {})
    context.setdefault("import_errors", {})
    search = context.pop("search", request.args.get("q", ""))
    listed = service.players_page(get_session(), event.id, search, page_number(request.args.get("page")))
    return render_page("players/index.html", partial, status, event=event, listed=listed,
                       tables=listed.tables, next_round=listed.next_round,
                       waiting=service.waiting_ids(get_session(), event.id, listed.search), **context)


def _row(event: Event, player: Player, status: int = 200, errors: dict[str, str] | None = None) -> Any:
    db = get_session()
    assert event.id is not None
    if not request.headers.get("HX-Request"):
        if errors:
            flash(_("%(name)s: %(problems)s", name=player.name,
                    problems=" ".join(v for k, v in errors.items() if not k.endswith("_value"))), "error")
        return go_to(url_for("players.index", event_id=event.id))
    assert player.id is not None
    return render_page("players/index.html", "players/player_row.html", status, event=event, player=player,
                       tables=service.seated_table_numbers(db, event.id, [player.id]), row_errors=errors or {},
                       next_round=service.started_rounds(db, event.id) + 1, **_list_extras(event.id))


def _on_the_list() -> bool:
    """Whether an htmx request comes from the players list (not the stand-alone edit page), whose
    counts and "Check in all" its answer brings along, out of band."""
    return urlsplit(request.headers.get("HX-Current-URL", "")).path.rstrip("/").endswith("/players")


def _list_extras(event_id: int) -> dict[str, Any]:
    """The counts and the "Check in all" form, for an answer that changes one row of the list: the
    search box's text comes with the row's forms (hx-include), so the form matches the list shown."""
    if not _on_the_list():
        return {}
    db = get_session()
    search = request.values.get("q", "")
    return {"counts": service.player_counts(db, event_id), "counts_oob": True, "bulk_oob": True,
            "search": search, "waiting": service.waiting_ids(db, event_id, search)}


@bp.get("")
def index(event_id: int) -> Any:
    """The players, a page at a time; a search as it is typed, or another page (htmx), gets only
    the list."""
    searching = "q" in request.args or "page" in request.args
    return _page(load_event(event_id), partial="players/player_list.html" if searching else "players/players_panel.html")


@bp.post("")
def add(event_id: int) -> Any:
    event = load_event(event_id)
    form = {key: request.form.get(key, "") for key in ("name", "club", "email")}
    try:
        player = service.add_player(get_session(), event, form["name"], form["club"], form["email"], g.organizer.name)
    except InputError as bad:
        return _page(event, 422, form=form, errors=bad.errors)
    if player.joined_round > 1:
        message = _("%(name)s added. Late entry: joins from round %(number)d.", name=player.name,
                    number=player.joined_round)
    else:
        message = _("%(name)s added.", name=player.name)
    if not request.headers.get("HX-Request"):
        flash(message)
        return go_to(url_for("players.index", event_id=event_id))
    return _page(event, added=message)


@bp.post("/import")
def import_csv(event_id: int) -> Any:
    event = load_event(event_id)
    text = request.form.get("csv_text", "")
    upload = request.files.get("csv_file")
    if upload is not None and upload.filename:
        text = service.decode_upload(upload.read())
    try:
        imported = service.import_players(get_session(), event, text, g.organizer.name)
    except InputError as bad:
        get_session().rollback()
        return _page(event, 422, partial="players/player_import_form.html",
                     import_form={"csv_text": request.form.get("csv_text", "")}, import_errors=bad.errors)
    flash(ngettext("%(num)d player imported.", "%(num)d players imported.", len(imported)))
    return go_to(url_for("players.index", event_id=event_id))


@bp.post("/<int:player_id>/check-in")
def check_in(event_id: int, player_id: int) -> Any:
    event, player = _load(event_id, player_id)
    # An explicit value, not a toggle: a double tap must not undo itself.
    service.set_checked_in(get_session(), player, request.form.get("checked_in") == "1", g.organizer.name)
    return _row(event, player)


@bp.post("/check-in-all")
def check_in_all(event_id: int) -> Any:
    """Check in every player the list showed as waiting (all of them, or those the search found):
    the form names them, so a player added or dropped since is not checked in behind the
    organizer's back (a dropped or removed one makes the form stale: nothing is saved)."""
    event = load_event(event_id)
    search = request.form.get("q", "")
    ids = [int(part) for part in request.form.get("ids", "").split() if part.isdigit() and len(part) < 12]
    try:
        changed = service.check_in_many(get_session(), event_id, ids, g.organizer.name)
    except StaleChange as stale:
        get_session().rollback()
        if not request.headers.get("HX-Request"):
            flash(stale.errors[""], "error")
            return go_to(url_for("players.index", event_id=event_id, q=search or None))
        return _page(event, 409, partial="players/player_list.html", search=search, list_error=stale.errors[""])
    message = ngettext("%(num)d player checked in.", "%(num)d players checked in.", len(changed))
    if not request.headers.get("HX-Request"):
        flash(message)
        return go_to(url_for("players.index", event_id=event_id, q=search or None))
    return _page(event, partial="players/player_list.html", search=search, list_message=message)


@bp.post("/<int:player_id>/drop")
def drop(event_id: int, player_id: int) -> Any:
    event, player = _load(event_id, player_id)
    service.set_dropped(get_session(), player, request.form.get("dropped") == "1", g.organizer.name)
    return _row(event, player)


@bp.post("/<int:player_id>/fixed-table")
def fixed_table(event_id: int, player_id: int) -> Any:
    event, player = _load(event_id, player_id)
    try:
        service.set_fixed_table(get_session(), player, request.form.get("fixed_table", ""), g.organizer.name)
    except InputError as bad:
        return _row(event, player, 422, {**bad.errors, "fixed_table_value": request.form.get("fixed_table", "")})
    return _row(event, player)


@bp.get("/<int:player_id>")
def row(event_id: int, player_id: int) -> Any:
    event, player = _load(event_id, player_id)
    return _row(event, player)


@bp.route("/<int:player_id>/edit", methods=["GET", "POST"])
def edit(event_id: int, player_id: int) -> Any:
    event, player = _load(event_id, player_id)
    form = {"name": player.name, "club": player.club, "email": player.email}
    errors: dict[str, str] = {}
    if request.method == "POST":
        form = {key: request.form.get(key, "") for key in ("name", "club", "email")}
        try:
            service.update_player(get_session(), player, form["name"], form["club"], form["email"], g.organizer.name)
        except InputError as bad:
            get_session().rollback()
            errors = bad.errors
        else:
            return _row(event, player)
    return render_page("players/edit.html", "players/player_edit_row.html", 422 if errors else 200, event=event,
                       player=player, form=form, errors=errors)


@bp.post("/<int:player_id>/remove")
def remove(event_id: int, player_id: int) -> Any:
    event, player = _load(event_id, player_id)
    try:
        service.remove_player(get_session(), player, g.organizer.name)
    except InputError as bad:
        return _row(event, player, 422, bad.errors)
    if request.headers.get("HX-Request"):
        # the row disappears; the counts above the list follow
        if not _on_the_list():
            return ""
        return render_page("players/index.html", "players/player_removed.html", event=event, **_list_extras(event_id))
    flash(_("%(name)s removed.", name=player.name))
    return go_to(url_for("players.index", event_id=event_id))
