"""The players of an event: registration, CSV import, check-in, drop, fixed tables."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, g, request, url_for

from .db import get_session
from .events import load_event
from .models import Event, Player
from .pages import go_to, render_page
from .services import players as service
from .services.errors import InputError
from .services.paging import page_number

bp = Blueprint("players", __name__, url_prefix="/events/<int:event_id>/players")


def _load(event_id: int, player_id: int) -> tuple[Event, Player]:
    event = load_event(event_id)
    player = service.get_player(get_session(), event_id, player_id)
    if player is None:
        abort(404)
    return event, player


def _page(event: Event, status: int = 200, partial: str = "players_panel.html", **context: Any) -> Any:
    assert event.id is not None
    context.setdefault("form", {})
    context.setdefault("errors", {})
    context.setdefault("import_form", {})
    context.setdefault("import_errors", {})
    listed = service.players_page(get_session(), event.id, request.args.get("q", ""),
                                  page_number(request.args.get("page")))
    return render_page("players/index.html", partial, status, event=event, listed=listed,
                       tables=listed.tables, next_round=listed.next_round, **context)


def _row(event: Event, player: Player, status: int = 200, errors: dict[str, str] | None = None) -> Any:
    db = get_session()
    assert event.id is not None
    if not request.headers.get("HX-Request"):
        if errors:
            flash(f"{player.name}: " + " ".join(v for k, v in errors.items() if not k.endswith("_value")), "error")
        return go_to(url_for("players.index", event_id=event.id))
    assert player.id is not None
    return render_page("players/index.html", "player_row.html", status, event=event, player=player,
                       tables=service.seated_table_numbers(db, event.id, [player.id]), row_errors=errors or {},
                       next_round=service.started_rounds(db, event.id) + 1)


@bp.get("")
def index(event_id: int) -> Any:
    """The players, a page at a time; a search as it is typed, or another page (htmx), gets only
    the list."""
    searching = "q" in request.args or "page" in request.args
    return _page(load_event(event_id), partial="player_list.html" if searching else "players_panel.html")


@bp.post("")
def add(event_id: int) -> Any:
    event = load_event(event_id)
    form = {key: request.form.get(key, "") for key in ("name", "club", "email")}
    try:
        player = service.add_player(get_session(), event, form["name"], form["club"], form["email"], g.organizer.name)
    except InputError as bad:
        return _page(event, 422, form=form, errors=bad.errors)
    message = f"{player.name} added."
    if player.joined_round > 1:
        message += f" Late entry: joins from round {player.joined_round}."
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
        return _page(event, 422, partial="player_import_form.html",
                     import_form={"csv_text": request.form.get("csv_text", "")}, import_errors=bad.errors)
    flash(f"{len(imported)} player{'s' if len(imported) != 1 else ''} imported.")
    return go_to(url_for("players.index", event_id=event_id))


@bp.post("/<int:player_id>/check-in")
def check_in(event_id: int, player_id: int) -> Any:
    event, player = _load(event_id, player_id)
    # An explicit value, not a toggle: a double tap must not undo itself.
    service.set_checked_in(get_session(), player, request.form.get("checked_in") == "1", g.organizer.name)
    return _row(event, player)


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
    return render_page("players/edit.html", "player_edit_row.html", 422 if errors else 200, event=event,
                       player=player, form=form, errors=errors)


@bp.post("/<int:player_id>/remove")
def remove(event_id: int, player_id: int) -> Any:
    event, player = _load(event_id, player_id)
    try:
        service.remove_player(get_session(), player, g.organizer.name)
    except InputError as bad:
        return _row(event, player, 422, bad.errors)
    if request.headers.get("HX-Request"):
        return ""  # the row disappears
    flash(f"{player.name} removed.")
    return go_to(url_for("players.index", event_id=event_id))
