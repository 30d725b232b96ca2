"""Rounds: seat (propose), review and swap, publish, close; each table's page."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from organizer.core import signals
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.extensions import htmx
from organizer.core.models import Event, Round
from organizer.core.pages import go_to, render_page
from organizer.core.paging import page_number
from organizer.core.translate import _, round_name
from organizer.events import service as event_service
from organizer.events.views import load_event
from organizer.rounds import page as round_page
from organizer.rounds import service

bp = Blueprint("rounds", __name__, url_prefix="/events/<int:event_id>/rounds")


def load_round(event: Event, number: int) -> Round:
    assert event.id is not None
    rnd = service.get_round(get_session(), event.id, number)
    if rnd is None:
        abort(404)
    return rnd


def _round_list(event: Event, status: int = 200, errors: dict[str, str] | None = None,
                form: dict[str, str] | None = None) -> Any:
    assert event.id is not None
    db = get_session()
    coming = service.next_round(db, event)
    return render_page("rounds/index.html", "rounds/round_list.html", status, event=event,
                       rounds=service.event_rounds(db, event.id), next_number=coming.number, ready=coming.ready,
                       errors=errors or {}, form=form or {}, status_name=service.status_name)


@bp.get("")
def index(event_id: int) -> Any:
    return _round_list(load_event(event_id))


@bp.post("/propose")
def propose(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    raw_seed = request.form.get("seed", "")
    try:
        rnd = service.propose_round(db, event, g.organizer.name, service.seed_from_text(raw_seed))
    except InputError as bad:
        db.rollback()
        return _round_list(event, 422, bad.errors, {"seed": raw_seed.strip()})
    flash(_("Round %(number)d proposed. Review the tables, swap players if needed, then publish.", number=rnd.number))
    return go_to(url_for("rounds.show", event_id=event_id, number=rnd.number))


def _round_context(event: Event, rnd: Round) -> dict[str, Any]:
    # the page of tables shown: the link's (?page=), or the form's it was sent from
    review = round_page.review_round(get_session(), event, rnd, page_number(request.values.get("page")))
    return {"event": event, "round": rnd, "tables": review.tables, "page": review.page, "progress": review.progress,
            "standing": review.standing, "unseated": review.unseated, "deadline": review.deadline,
            "repeats": review.repeats, "more_repeats": review.more_repeats,
            "more_repeated_seats": review.more_repeated_seats, "seats_before": review.seats_before,
            "repeated_seats": review.repeated_seats,
            "by_rating": review.by_rating,
            "dropped": review.dropped, "status_name": service.status_name,
            # the event's next step, pointed to once this round is closed
            "step": event_service.next_step(get_session(), event) if rnd.status == "finished" else None,
            # (name, table number) of the players who dropped out of the event during this round
            "dropped_seats": review.dropped_seats,
            # the swap form's searches, when Find reloaded the page (without script)
            "finds": {slot: round_page.find_seated(get_session(), rnd.id or 0, request.args[f"find_{slot}"])
                      for slot in ("first", "second") if rnd.status == "proposed" and request.args.get(f"find_{slot}")}}


@bp.get("/<int:number>")
def show(event_id: int, number: int) -> Any:
    event = load_event(event_id)
    # The tables grid polls itself while results come in, and its page links swap only it:
    # only the grid is sent for those.
    grid = request.args.get("part") == "grid" or (htmx and htmx.target == "round-grid")
    partial = "rounds/round_grid.html" if grid else "rounds/round_tables.html"
    return render_page("rounds/show.html", partial, **_round_context(event, load_round(event, number)), errors={})


@bp.get("/<int:number>/seated")
def seated(event_id: int, number: int) -> Any:
    """The swap form's search: the round's players whose name holds what was typed (or who sit
    at the table of that number), to pick one of (``slot``: the form's first or second player)."""
    event = load_event(event_id)
    rnd = load_round(event, number)
    assert rnd.id is not None
    slot = "second" if request.args.get("slot") == "second" else "first"
    if not htmx:  # the search lives in the round's page: opened by itself, the page shows its matches
        search: dict[str, Any] = {f"find_{slot}": request.args.get(f"find_{slot}", "")}
        return redirect(url_for("rounds.show", event_id=event_id, number=number, **search))
    found = round_page.find_seated(get_session(), rnd.id, request.args.get(f"find_{slot}", ""))
    return render_template("rounds/round_swap_picks.html", event=event, round=rnd, slot=slot, found=found)


@bp.post("/<int:number>/swap")
def swap(event_id: int, number: int) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    try:
        first, second = int(request.form.get("first", "")), int(request.form.get("second", ""))
    except ValueError:
        errors = {"swap": _("Choose two players to swap.")}
    else:
        try:
            effect = service.swap_players(get_session(), event, rnd, first, second, g.organizer.name)
            errors = {}
        except InputError as bad:
            get_session().rollback()
            errors = bad.errors
    if not errors and not request.headers.get("HX-Request"):
        flash(effect.swapped)
        flash(effect.message)
        return go_to(url_for("rounds.show", event_id=event_id, number=number))
    return render_page("rounds/show.html", "rounds/round_tables.html", 422 if errors else 200,
                       **_round_context(event, rnd), errors=errors, swap_effect=None if errors else effect)


def _round_action(event_id: int, number: int, action: str) -> Any:
    event = load_event(event_id)
    rnd = load_round(event, number)
    db = get_session()
    named = round_name(number, rnd.stage)
    try:
        if action == "publish":
            service.publish_round(db, event, rnd, g.organizer.name)
            signals.round_published.send(db, event=event, round=rnd)  # the live tables deal here, in a POST: no GET deals
            flash(_("%(round)s published: the tables can play.", round=named))
        elif action == "discard":
            service.discard_proposal(db, event, rnd, g.organizer.name)
            flash(_("Proposal discarded: %(round)s.", round=named))
            return go_to(url_for("rounds.index", event_id=event_id))
        elif action == "close":
            service.close_round(db, event, rnd, g.organizer.name)
            flash(_("%(round)s closed.", round=named))
        elif action == "reopen":
            service.reopen_round(db, event, rnd, g.organizer.name)
            flash(_("%(round)s reopened: correct its results, then close it again.", round=named))
    except InputError as bad:
        db.rollback()
        return render_page("rounds/show.html", "rounds/round_tables.html", 422, **_round_context(event, rnd), errors=bad.errors)
    return go_to(url_for("rounds.show", event_id=event_id, number=number))


@bp.post("/<int:number>/clock")
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
        return render_page("rounds/show.html", "rounds/round_tables.html", 422, **_round_context(event, rnd),
                           errors=bad.errors, minutes=request.form.get("minutes", ""))
    return go_to(url_for("rounds.show", event_id=event_id, number=number))


@bp.post("/<int:number>/publish")
def publish(event_id: int, number: int) -> Any:
    return _round_action(event_id, number, "publish")


@bp.post("/<int:number>/discard")
def discard(event_id: int, number: int) -> Any:
    return _round_action(event_id, number, "discard")


@bp.post("/<int:number>/reopen")
def reopen(event_id: int, number: int) -> Any:
    return _round_action(event_id, number, "reopen")


@bp.post("/<int:number>/close")
def close(event_id: int, number: int) -> Any:
    return _round_action(event_id, number, "close")
