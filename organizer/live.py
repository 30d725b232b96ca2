"""Live tables: each seat's private page (``/play/<token>``), its cheap "changed since N?" poll,
its actions; the organizer's overview of a round's live tables (progress, who holds a table up,
bots into seats, tables made digital)."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, abort, g, request, url_for

from .auth import login_required
from .db import get_engine, get_session
from .events import load_event
from .live_pages import SeatUrls, form_stamp, qr_svg, render_seat
from .models import Event, Round
from .pages import go_to, render_page
from .rounds import load_round
from .services import live as service
from .services import live_log, live_poll
from .services.errors import InputError
from .services.live_view import compose_action
from .services.rounds import tables_of

bp = Blueprint("live", __name__)


@bp.record_once
def _install_fast_poll(state: Any) -> None:
    from .live_fastpoll import install

    install(state.app)


@bp.app_template_global("seat_qr_svg")
def seat_qr_svg(token: str) -> Any:
    """The QR code of a seat's private link (for the table's page)."""
    return qr_svg(url_for("live.seat", token=token, _external=True))


def _context(token: str, recent_ok: bool = False) -> service.SeatContext:
    ctx = service.seat_context(get_session(), token, recent_ok)
    if ctx is None:
        abort(404)  # a wrong token learns nothing, not even whether a table exists
    return ctx


def _urls(ctx: service.SeatContext, version: int, finished: bool) -> SeatUrls:
    token = ctx.seat.token
    return SeatUrls(url_for("live.seat", token=token), url_for("live.act", token=token),
                    url_for("live.changed", token=token, since=version),
                    url_for("replay.seat", token=token) if finished else None)


def _title(ctx: service.SeatContext) -> str:
    return f"{ctx.event.name} · round {ctx.round.number} · table {ctx.table.number}"


def _show(ctx: service.SeatContext, status: int = 200, message: str = "", message_kind: str = "error",
          replayed: live_log.Replayed | None = None, fresh: bool = True) -> Any:
    db = get_session()
    if ctx.table.log_version == 0:
        try:
            service.start_table(db, ctx.event, ctx.round, ctx.view)
        except InputError as bad:
            db.rollback()
            return render_page("live/waiting.html", "live_waiting.html", 409, title=_title(ctx), message=str(bad))
    if replayed is None:
        # fresh: the table row was read in this request, so its log version is current
        replayed = service.settle(db, ctx.event, ctx.round, ctx.view, fresh=fresh and status == 200 and not message)
    return render_seat(replayed, ctx.position, _urls(ctx, replayed.version, replayed.state.is_terminal()), _title(ctx),
                       status, message, message_kind, bot_seat=ctx.seat.is_bot)


@bp.get("/play/<token>")
def seat(token: str) -> Any:
    return _show(_context(token))


@bp.get("/play/<token>/changed")
def changed(token: str) -> Any:
    """204 while nothing changed since version ``since`` (one indexed query), else the new
    screen. With a pick timer the cached state also says whether a seat's time ran out."""
    info = live_poll.board_for(get_engine()).lookup(token)
    if info is None:
        abort(404)
    try:
        since = int(request.args.get("since", ""))
    except ValueError:
        since = -1
    if since == info.version and not _timer_due(info):
        return Response(status=204)
    return _show(_context(token, recent_ok=True), fresh=False)


def _timer_due(info: live_poll.PollInfo) -> bool:
    if not info.pick_timer_seconds:
        return False
    cached = live_log.CACHE.peek(live_log.cache_key(get_session(), service.KIND, info.table_id), info.version)
    if cached is None:
        return True  # not replayed in this process yet: let the full path decide
    state = cached.state
    return (state.mode == "draft" and not state.is_terminal()
            and time.time() - cached.since >= info.pick_timer_seconds)


@bp.post("/play/<token>/act")
def act(token: str) -> Any:
    ctx = _context(token)
    db = get_session()
    form = {key: request.form.get(key, "") for key in ("action", "verb", "card", "cell")}
    try:
        text = compose_action(form)
        applied = service.act(db, ctx, text, request.form.get("nonce", ""), form_stamp())
    except (ValueError, live_log.ActionRefused) as refused:
        db.rollback()
        return _show(ctx, 422, str(refused))
    if applied.repeated:
        return _show(ctx, 200, "That was already done (the same form arrived twice); nothing more was changed.",
                     "notice", applied.replayed)
    return _show(ctx, replayed=applied.replayed)


# -- the organizer's overview --------------------------------------------------------------------

def _overview(event: Event, rnd: Round, status: int = 200, errors: dict[str, str] | None = None) -> Any:
    rows = service.overview(get_session(), event, rnd)
    return render_page("live/overview.html", "live_overview.html", status, event=event, round=rnd, rows=rows,
                       errors=errors or {}, timer=event.pick_timer_seconds)


@bp.get("/events/<int:event_id>/rounds/<int:number>/live")
@login_required
def overview(event_id: int, number: int) -> Any:
    event = load_event(event_id)
    return _overview(event, load_round(event, number))


def _table(event: Event, rnd: Round, table_number: int) -> Any:
    assert rnd.id is not None
    view = next((v for v in tables_of(get_session(), rnd.id) if v.table.number == table_number), None)
    if view is None:
        abort(404)
    return view


@bp.post("/events/<int:event_id>/rounds/<int:number>/live/tables/<int:table>/digital")
@login_required
def make_digital(event_id: int, number: int, table: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    db = get_session()
    try:
        service.make_digital(db, event, rnd, _table(event, rnd, table), g.organizer.name)
    except InputError as bad:
        db.rollback()
        return _overview(event, rnd, 422, bad.errors)
    return go_to(url_for("live.overview", event_id=event_id, number=number))


@bp.post("/events/<int:event_id>/rounds/<int:number>/live/tables/<int:table>/seats/<int:position>/bot")
@login_required
def bot(event_id: int, number: int, table: int, position: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    db = get_session()
    try:
        view = _table(event, rnd, table)
        service.set_bot(db, event, rnd, view, position, request.form.get("bot", "1") == "1", g.organizer.name)
        view = _table(event, rnd, table)
        if view.table.digital and view.table.log_version == 0:
            service.start_table(db, event, rnd, view)
    except InputError as bad:
        db.rollback()
        return _overview(event, rnd, 422, bad.errors)
    return go_to(url_for("live.overview", event_id=event_id, number=number))


@bp.get("/healthz")
def health() -> Any:
    """A trivial answer for load balancers and uptime checks (and the benchmark's baseline)."""
    return Response("ok\n", mimetype="text/plain")
