"""Replays of finished digital games, move by move, every hand shown (the game is over):
``/replay/seat/<token>`` (any seat of an event table), ``/replay/practice/<token>``, and the
organizer's ``/events/<id>/rounds/<n>/tables/<t>/replay``. The rules are in
:mod:`organizer.live.replay`."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, request, url_for

from organizer.core.db import get_session
from organizer.core.pages import render_page
from organizer.events.views import load_event
from organizer.live import replay as service
from organizer.rounds.views import load_round

bp = Blueprint("replay", __name__)


def _step() -> int | None:
    raw = request.args.get("step", "")
    try:
        return int(raw) if raw else None
    except ValueError:
        return None


def _render(page: service.ReplayPage | None, base_url: str, back: str) -> Any:
    if page is None:
        abort(404)  # no such game, or not over yet: a replay shows every hand
    return render_page("live/replay.html", "live/live_replay.html", screen=page.screen, hands=page.hands, step=page.step,
                       total=page.total, moves=page.moves, base_url=base_url, title=page.title, back=back,
                       why=page.why, reader=page.reader)


@bp.get("/replay/seat/<token>")
def seat(token: str) -> Any:
    page = service.for_seat(get_session(), token, _step(), request.args.get("path", ""))
    return _render(page, url_for("replay.seat", token=token), url_for("live.seat", token=token))


@bp.get("/replay/practice/<token>")
def practice(token: str) -> Any:
    page = service.for_practice(get_session(), token, _step(), request.args.get("path", ""))
    return _render(page, url_for("replay.practice", token=token), url_for("practice.play", token=token))


@bp.get("/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/replay")
def table(event_id: int, number: int, table: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    page = service.for_table(get_session(), event, rnd, table, _step(), request.args.get("path", ""))
    return _render(page, url_for("replay.table", event_id=event_id, number=number, table=table),
                   url_for("live.overview", event_id=event_id, number=number))
