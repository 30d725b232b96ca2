"""Rounds: seat (propose), review and swap, publish, close; each table's page."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, g, request, url_for

from .auth import login_required
from .db import get_session
from .events import load_event
from .models import Event, Round
from .pages import go_to, render_page
from .services import rounds as service
from .services import seating
from .services.errors import InputError
from .services.tournament import standings_for

bp = Blueprint("rounds", __name__, url_prefix="/events/<int:event_id>/rounds")


def load_round(event: Event, number: int) -> Round:
    assert event.id is not None
    rnd = service.get_round(get_session(), event.id, number)
    if rnd is None:
        abort(404)
    return rnd


@bp.get("")
@login_required
def index(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    next_number = service.next_round_number(db, event)
    ready = len(service.seatable_players(db, event_id, next_number)) if next_number <= event.rounds else 0
    return render_page("rounds/index.html", "round_list.html", event=event,
                       rounds=service.event_rounds(db, event_id), next_number=next_number, ready=ready,
                       errors={}, form={})


@bp.post("/propose")
@login_required
def propose(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    raw_seed = request.form.get("seed", "").strip()
    errors: dict[str, str] = {}
    seed: int | None = None
    if raw_seed:
        try:
            seed = int(raw_seed)
            if not 0 <= seed < 2**31:
                raise ValueError
        except ValueError:
            errors["seed"] = "A seed is a whole number from 0 to 2147483647; leave empty for a random one."
    if not errors:
        try:
            rnd = service.propose_round(db, event, g.organizer.name, seed)
        except InputError as bad:
            db.rollback()
            errors = bad.errors
        else:
            flash(f"Round {rnd.number} proposed. Review the tables, swap players if needed, then publish.")
            return go_to(url_for("rounds.show", event_id=event_id, number=rnd.number))
    next_number = service.next_round_number(db, event)
    ready = len(service.seatable_players(db, event_id, next_number)) if next_number <= event.rounds else 0
    return render_page("rounds/index.html", "round_list.html", 422, event=event,
                       rounds=service.event_rounds(db, event_id), next_number=next_number, ready=ready,
                       errors=errors, form={"seed": raw_seed})


def _round_context(event: Event, rnd: Round) -> dict[str, Any]:
    db = get_session()
    assert rnd.id is not None and event.id is not None
    tables = service.tables_of(db, rnd.id)
    history = service.history_before(db, event.id, rnd.number)
    repeats = seating.repeated_pairs([[s.seat.player_id for s in t.seats if s.seat.player_id] for t in tables], history)
    names = {s.player.id: s.player.name for t in tables for s in t.seats if s.player}
    standing: dict[int, Any] = {}
    if rnd.number > 1 and rnd.status == "proposed":
        # The organizer reviews a Swiss proposal against the standings it was made from.
        standing = {row.player_id: row for row in standings_for(db, event)}
    unseated: list[str] = []
    if rnd.status == "proposed":
        # Checked in after the proposal was made: the organizer re-proposes or seats them by hand.
        seated_ids = {s.seat.player_id for t in tables for s in t.seats}
        unseated = [p.name for p in service.seatable_players(db, event.id, rnd.number) if p.id not in seated_ids]
    return {"event": event, "round": rnd, "tables": tables, "standing": standing, "unseated": unseated,
            "deadline": service.clock_deadline(rnd),
            "repeats": [(names.get(a, "?"), names.get(b, "?")) for a, b in repeats],
            "seated": sorted(((s.player.name, s.player.id, t.table.number) for t in tables for s in t.seats if s.player),
                             key=lambda item: item[0].casefold())}


@bp.get("/<int:number>")
@login_required
def show(event_id: int, number: int) -> Any:
    event = load_event(event_id)
    # The tables grid polls itself while results come in; only the grid is sent for that.
    partial = "round_grid.html" if request.args.get("part") == "grid" else "round_tables.html"
    return render_page("rounds/show.html", partial, **_round_context(event, load_round(event, number)), errors={})


@bp.post("/<int:number>/swap")
@login_required
def swap(event_id: int, number: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    try:
        first, second = int(request.form.get("first", "")), int(request.form.get("second", ""))
    except ValueError:
        errors = {"swap": "Choose two players to swap."}
    else:
        try:
            service.swap_players(get_session(), event, rnd, first, second, g.organizer.name)
            errors = {}
        except InputError as bad:
            get_session().rollback()
            errors = bad.errors
    if not errors and not request.headers.get("HX-Request"):
        return go_to(url_for("rounds.show", event_id=event_id, number=number))
    return render_page("rounds/show.html", "round_tables.html", 422 if errors else 200,
                       **_round_context(event, rnd), errors=errors)


def _round_action(event_id: int, number: int, action: str) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    db = get_session()
    try:
        if action == "publish":
            service.publish_round(db, event, rnd, g.organizer.name)
            flash(f"Round {number} published: the tables can play.")
        elif action == "discard":
            service.discard_proposal(db, event, rnd, g.organizer.name)
            flash(f"Proposal for round {number} discarded.")
            return go_to(url_for("rounds.index", event_id=event_id))
        elif action == "close":
            service.close_round(db, event, rnd, g.organizer.name)
            flash(f"Round {number} closed.")
        elif action == "reopen":
            service.reopen_round(db, event, rnd, g.organizer.name)
            flash(f"Round {number} reopened: correct its results, then close it again.")
    except InputError as bad:
        db.rollback()
        return render_page("rounds/show.html", "round_tables.html", 422, **_round_context(event, rnd), errors=bad.errors)
    return go_to(url_for("rounds.show", event_id=event_id, number=number))


@bp.post("/<int:number>/clock")
@login_required
def clock(event_id: int, number: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    db = get_session()
    try:
        if request.form.get("stop"):
            service.stop_clock(db, event, rnd, g.organizer.name)
        else:
            service.start_clock(db, event, rnd, request.form.get("minutes", ""), g.organizer.name)
    except InputError as bad:
        db.rollback()
        return render_page("rounds/show.html", "round_tables.html", 422, **_round_context(event, rnd),
                           errors=bad.errors, minutes=request.form.get("minutes", ""))
    return go_to(url_for("rounds.show", event_id=event_id, number=number))


@bp.post("/<int:number>/publish")
@login_required
def publish(event_id: int, number: int) -> Any:
    return _round_action(event_id, number, "publish")


@bp.post("/<int:number>/discard")
@login_required
def discard(event_id: int, number: int) -> Any:
    return _round_action(event_id, number, "discard")


@bp.post("/<int:number>/reopen")
@login_required
def reopen(event_id: int, number: int) -> Any:
    return _round_action(event_id, number, "reopen")


@bp.post("/<int:number>/close")
@login_required
def close(event_id: int, number: int) -> Any:
    return _round_action(event_id, number, "close")
