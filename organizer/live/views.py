"""Live tables: each seat's private page (``/play/<token>``), its cheap "changed since N?" poll,
its actions; the organizer's overview of a round's live tables (progress, who holds a table up,
bots into seats, tables made digital)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, g, request, url_for

from organizer.core.db import get_engine, get_session
from organizer.core.errors import InputError
from organizer.core.models import Event, Round
from organizer.core.pages import go_to, render_page
from organizer.core.paging import page_number
from organizer.core.translate import _, round_name
from organizer.events.views import load_event
from organizer.live import overview as live_overview
from organizer.live import poll as live_poll
from organizer.live import seats as live_seats
from organizer.live import stream
from organizer.live import tables as live_tables
from organizer.live.log import Replayed
from organizer.live.pages import SeatUrls, act_and_show, push_enabled, render_seat
from organizer.rounds import service as round_service
from organizer.rounds.views import load_round

bp = Blueprint("live", __name__)


def _context(token: str, recent_ok: bool = False) -> live_seats.SeatContext:
    ctx = live_seats.seat_context(get_session(), token, recent_ok)
    if ctx is None:
        abort(404)  # a wrong token learns nothing, not even whether a table exists
    return ctx


def _urls(ctx: live_seats.SeatContext, version: int, finished: bool) -> SeatUrls:
    token = ctx.seat.token
    return SeatUrls(url_for("live.seat", token=token), url_for("live.act", token=token),
                    url_for("live.changed", token=token, since=live_poll.since_mark(version, ctx.seat.is_bot)),
                    url_for("replay.seat", token=token) if finished else None, url_for("live.tick", token=token),
                    f"{url_for('live.seat', token=token)}/events" if push_enabled() else None)


def _title(ctx: live_seats.SeatContext) -> str:
    return _("%(event)s · %(round)s · table %(table)d", event=ctx.event.name,
             round=round_name(ctx.round.number, ctx.round.stage),
             table=ctx.table.number)


def _waiting(ctx: live_seats.SeatContext, bad: InputError) -> Any:
    get_session().rollback()
    dealable = isinstance(bad, live_seats.NotDealt) and bad.dealable
    return render_page("live/waiting.html", "live/live_waiting.html", 409, title=_title(ctx), message=str(bad),
                       tick=url_for("live.tick", token=ctx.seat.token) if dealable else None)


def _show(ctx: live_seats.SeatContext, status: int = 200, message: str = "", message_kind: str = "error",
          replayed: Replayed | None = None, fresh: bool = True) -> Any:
    if replayed is None:
        try:
            # fresh: the table row was read in this request, so its log version is current
            shown = live_seats.seat_state(get_session(), ctx, fresh=fresh and status == 200 and not message)
        except InputError as bad:
            return _waiting(ctx, bad)
        replayed, owed = shown.replayed, shown.owed
    else:
        owed = live_seats.owes(ctx, replayed)
    return render_seat(replayed, ctx.position, _urls(ctx, replayed.version, replayed.state.is_terminal()), _title(ctx),
                       status, message, message_kind, owed=owed, bot_seat=ctx.seat.is_bot,
                       bots=live_tables.bot_seats(ctx.view, list(replayed.state.names)))


@bp.get("/play/<token>")
def seat(token: str) -> Any:
    return _show(_context(token))


@bp.get("/play/<token>/changed")
def changed(token: str) -> Any:
    """204 while nothing changed since the screen marked ``since`` (its table's version and
    whether a bot plays the seat: one indexed query), else the new screen. With a pick timer
    the cached state also says whether a seat's time ran out."""
    # a phone its stream told of a change asks with the mark it was told: from the database then,
    # should this process hear of the change a moment later than the stream's did
    found = live_poll.seat_now(get_engine(), token, fresh=bool(request.args.get("pushed")))
    if found is None:
        abort(404)
    if live_poll.is_current(get_engine(), found, request.args.get("since", "")):
        return Response(status=204)
    ctx = _context(token, recent_ok=True)
    if ctx.seat.is_bot != found.bot:  # a bot seated or the seat given back: read the seat afresh
        ctx = _context(token)
    return _show(ctx, fresh=False)


@bp.post("/play/<token>/tick")
def tick(token: str) -> Any:
    """Sent by the seat's page when its screen says bots or the pick timer owe the table a move
    (or the table is still to be dealt): plays it, then shows the screen."""
    ctx = _context(token)
    try:
        replayed = live_seats.tick(get_session(), ctx)
    except InputError as bad:
        return _waiting(ctx, bad)
    return _show(ctx, replayed=replayed)


@bp.post("/play/<token>/act")
def act(token: str) -> Any:
    ctx = _context(token)
    try:
        game = live_seats.seat_game(get_session(), ctx)
    except InputError as bad:
        return _waiting(ctx, bad)
    return act_and_show(game, ctx.position,
                        lambda status, message, kind, replayed: _show(ctx, status, message, kind, replayed))


# -- the organizer's overview --------------------------------------------------------------------

def _overview(event: Event, rnd: Round, status: int = 200, errors: dict[str, str] | None = None) -> Any:
    listed = live_overview.overview(get_session(), event, rnd, page_number=page_number(request.args.get("page")))
    return render_page("live/overview.html", "live/live_overview.html", status, event=event, round=rnd, rows=listed.rows,
                       page=listed.page, status_name=round_service.status_name,
                       errors=errors or {}, timer=event.pick_timer_seconds, levels=live_tables.level_choices(),
                       owed=listed.owed,
                       stream=url_for("live.overview_events", event_id=event.id, number=rnd.number)
                       if push_enabled() else None)


@bp.get("/events/<int:event_id>/rounds/<int:number>/live")
def overview(event_id: int, number: int) -> Any:
    event = load_event(event_id)
    return _overview(event, load_round(event, number))


@bp.get("/events/<int:event_id>/rounds/<int:number>/live/events")
def overview_events(event_id: int, number: int) -> Any:
    """The overview's stream (organizer/live/stream.py): its permission is checked here, as for
    the overview itself; the stream then runs after the request, holding no database session."""
    event = load_event(event_id)
    rnd = load_round(event, number)
    if not push_enabled():
        return Response(status=204, headers={"Cache-Control": "no-store"})
    assert event.id is not None and rnd.id is not None
    board = live_poll.board_for(get_engine())
    return Response(stream.round_stream(board, rnd.id, event.id),
                    headers=stream.headers(bool(current_app.config.get("HTTPS"))))


@bp.post("/events/<int:event_id>/rounds/<int:number>/live/tick")
def overview_tick(event_id: int, number: int) -> Any:
    """Sent by the overview when its page shows tables that bots or the pick timer owe a move
    (GETs never play one): plays them for about a second, then shows the page again."""
    event = load_event(event_id)
    rnd = load_round(event, number)
    numbers = [int(n) for n in request.form.getlist("table") if n.isascii() and n.isdigit() and len(n) < 7]
    numbers = numbers[:live_overview.PER_PAGE]
    live_tables.settle_owed(get_session(), event, rnd, numbers)
    return _overview(event, rnd)


@bp.post("/events/<int:event_id>/rounds/<int:number>/live/tables/<int:table>/digital")
def make_digital(event_id: int, number: int, table: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    db = get_session()
    view = live_tables.find_table(db, rnd, table)
    if view is None:
        abort(404)
    try:
        live_tables.make_digital(db, event, rnd, view, g.organizer.name)
    except InputError as bad:
        db.rollback()
        return _overview(event, rnd, 422, bad.errors)
    if request.form.get("back") == "overview":  # pressed on the live overview: back to its page of tables
        back_page = page_number(request.form.get("page"))
        return go_to(url_for("live.overview", event_id=event_id, number=number,
                             page=back_page if back_page > 1 else None))
    # pressed on the table's page: back there, where the seats' codes now are
    return go_to(url_for("tables.show", event_id=event_id, number=number, table=table))


@bp.post("/events/<int:event_id>/rounds/<int:number>/live/tables/<int:table>/seats/<int:position>/bot")
def bot(event_id: int, number: int, table: int, position: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    db = get_session()
    try:
        found = live_tables.seat_bot(db, event, rnd, table, position, request.form.get("bot", "1") == "1",
                                     g.organizer.name, request.form.get("level"))
    except InputError as bad:
        db.rollback()
        return _overview(event, rnd, 422, bad.errors)
    if not found:
        abort(404)
    back_page = page_number(request.form.get("page"))  # back to the overview's page of tables it was pressed on
    return go_to(url_for("live.overview", event_id=event_id, number=number, page=back_page if back_page > 1 else None))


@bp.get("/healthz")
def health() -> Any:
    """A trivial answer for load balancers and uptime checks (and the benchmark's baseline)."""
    return Response("ok\n", mimetype="text/plain")
