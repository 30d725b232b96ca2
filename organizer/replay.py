"""Replays of finished digital games, move by move, every hand shown (the game is over):
``/replay/seat/<token>`` (any seat of an event table), ``/replay/practice/<token>``, and the
organizer's ``/events/<id>/rounds/<n>/tables/<t>/replay``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, request, url_for

from engine import Game

from .auth import login_required
from .db import get_session
from .events import load_event
from .pages import render_page
from .rounds import load_round
from .services import live_seats, live_tables
from .services import live_log
from .services import practice as practice_service
from .services.live_view import CardFace, build_screen
from .services.rounds import tables_of

bp = Blueprint("replay", __name__)


def _step() -> int | None:
    raw = request.args.get("step", "")
    try:
        return int(raw) if raw else None
    except ValueError:
        return None


def _render(game: Game, log: list[Any], base_url: str, title: str, back: str) -> Any:
    total = len(log)
    step = _step()
    step = total if step is None else max(0, min(step, total))
    position = live_log.replay(game, log[:step], step, 0.0)
    state: Any = position.state
    names = list(state.names)
    hands = []
    for seat in range(state.seats):
        seat_view = state.view(seat).to_json()
        cards = [CardFace.of(t) for t in seat_view.get("hand", [])]
        if state.mode == "solo" and seat == 1:
            cards = [CardFace.of(str(c)) for c in state.hands[1]]  # Q's face-down hand, shown in the replay
        pending = seat_view.get("pending")
        hands.append((names[seat], cards, pending["text"] if pending else ""))
    screen = build_screen(state.view(None), request.args.get("path", ""))
    moves = []
    for index, entry in enumerate(log, start=1):
        note = " (bot)" if str(entry[2]).startswith("bot:") else " (pick timer)" if str(entry[2]).startswith("timer:") else ""
        moves.append((index, f"{names[entry[0]]}: {entry[1]}{note}"))
    return render_page("live/replay.html", "live_replay.html", screen=screen, hands=hands, step=step, total=total,
                       moves=moves, base_url=base_url, title=title, back=back)


def _finished_table(table: Any) -> tuple[Game, list[Any]]:
    db = get_session()
    if table.game is None or table.log_version == 0:
        abort(404)
    replayed = live_tables.load_state(db, table)
    if not replayed.state.is_terminal():
        abort(404)  # replays only once the game is over: they show every hand
    return live_tables.game_of(table), [list(e) for e in replayed.entries]


@bp.get("/replay/seat/<token>")
def seat(token: str) -> Any:
    ctx = live_seats.seat_context(get_session(), token)
    if ctx is None:
        abort(404)
    game, log = _finished_table(ctx.table)
    return _render(game, log, url_for("replay.seat", token=token),
                   f"{ctx.event.name} · round {ctx.round.number} · table {ctx.table.number}",
                   url_for("live.seat", token=token))


@bp.get("/replay/practice/<token>")
def practice(token: str) -> Any:
    db = get_session()
    game_row = practice_service.find(db, token)
    if game_row is None:
        abort(404)
    replayed = practice_service.load_state(db, game_row)
    if not replayed.state.is_terminal():
        abort(404)
    return _render(practice_service.game_of(game_row), [list(e) for e in replayed.entries],
                   url_for("replay.practice", token=token), practice_service.MODE_LABELS[replayed.state.mode],
                   url_for("practice.play", token=token))


@bp.get("/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/replay")
@login_required
def table(event_id: int, number: int, table: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    assert rnd.id is not None
    view = next((v for v in tables_of(get_session(), rnd.id) if v.table.number == table), None)
    if view is None:
        abort(404)
    game, log = _finished_table(view.table)
    return _render(game, log, url_for("replay.table", event_id=event_id, number=number, table=table),
                   f"{event.name} · round {number} · table {table}", url_for("live.overview", event_id=event_id, number=number))
