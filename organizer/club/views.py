"""The club's registry pages: players across events, doubtful matches, merges, ratings,
a player's profile."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from markupsafe import Markup

from organizer.club import exchange as club_exchange
from organizer.club import ratings, registry
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.translate import _, format_number, ngettext
from organizer.core.uploads import read_json

bp = Blueprint("club", __name__, url_prefix="/club")


def _number(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() and len(raw) < 10 else None


@bp.get("/", strict_slashes=False)
def index() -> Any:
    """The menu's "Club" and a typed /club open the registry, the club's first page."""
    return redirect(url_for("club.players"))


@bp.get("/players")
def players() -> Any:
    db = get_session()
    search = request.args.get("q", "")
    return render_template("club/players.html", rows=registry.registry_rows(db, search), search=search,
                           duplicates=registry.duplicate_names(db), waiting=len(registry.pending_reviews(db)))


@bp.post("/players/merge")
def merge() -> Any:
    keep, gone = _number(request.form.get("keep")), _number(request.form.get("gone"))
    try:
        entry = registry.merge(get_session(), keep or 0, gone or 0)
        flash(_("Merged into %(name)s; the ratings follow.", name=entry.name), "ok")
    except InputError as error:
        flash(" ".join(error.errors.values()), "error")
    return redirect(url_for("club.players"))


@bp.get("/review")
def review() -> Any:
    return render_template("club/review.html", items=registry.pending_reviews(get_session()))


@bp.post("/review/<int:review_id>")
def resolve(review_id: int) -> Any:
    choice = request.form.get("choice", "")
    try:
        registry.resolve_review(get_session(), review_id, None if choice == "new" else _number(choice) or 0)
    except InputError as error:
        flash(" ".join(error.errors.values()), "error")
    return redirect(url_for("club.review"))


@bp.post("/review/match")
def match_unlinked() -> Any:
    waiting = registry.link_unmatched(get_session())
    flash(ngettext("Players matched; %(num)d waits for review.", "Players matched; %(num)d wait for review.", waiting), "ok")
    return redirect(url_for("club.review"))


@bp.get("/players/<int:club_player_id>")
def profile(club_player_id: int) -> Any:
    found = registry.profile(get_session(), club_player_id)
    if found is None:
        abort(404)
    # the chart is built from numbers and escaped names only (ratings.chart_svg)
    return render_template("club/profile.html", profile=found, chart=Markup(found.chart))


@bp.post("/players/<int:club_player_id>/public")
def public_profile(club_player_id: int) -> Any:
    """The player told the organizer whether their profile may be public."""
    public = request.form.get("public_profile") == "1"
    try:
        entry = registry.set_public_profile(get_session(), club_player_id, public)
    except InputError:
        abort(404)
    flash(_("%(name)s's profile is public now.", name=entry.name) if public
          else _("%(name)s's profile is private now.", name=entry.name), "ok")
    return redirect(url_for("club.profile", club_player_id=entry.id))


@bp.get("/ratings")
def ratings_page() -> Any:
    return render_template("club/ratings.html", rows=ratings.current_ratings(get_session()),
                           rated_after=ratings.RATED_AFTER)


@bp.post("/ratings/recompute")
def recompute() -> Any:
    done = ratings.recompute(get_session())
    flash(_("Ratings recomputed from %(tables)s confirmed tables: %(players)s players.",
            tables=format_number(done.tables), players=format_number(done.players)), "ok")
    return redirect(url_for("club.ratings_page"))


@bp.get("/export.json")
def export_json() -> Any:
    body = json.dumps(club_exchange.export_club(get_session()), indent=1, ensure_ascii=False)
    # names and e-mails of the club's players: kept out of shared caches, as the event exports
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": 'attachment; filename="club.json"',
                             "Cache-Control": "private, no-store"})


@bp.post("/import")
def import_json() -> Any:
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        flash(_("Choose the club's JSON export to import."), "error")
        return players(), 422
    try:
        done = club_exchange.import_club(get_session(), read_json(upload.read(), "file", _("a club export")))
    except InputError as bad:
        flash(_("Nothing imported: %(problem)s", problem=" ".join(bad.errors.values())), "error")
        return players(), 422
    message = _("Club imported: %(entries)s registry entries linked to %(links)s players, %(seasons)s seasons, "
                "%(ratings)s ratings checked against the results.", entries=format_number(done.entries),
                links=format_number(done.links), seasons=format_number(done.seasons),
                ratings=format_number(done.ratings))
    if done.unlinked:
        message += " " + ngettext("%(num)d player of events the file does not cover is unlinked: match them on Review.",
                                  "%(num)d players of events the file does not cover are unlinked: match them on Review.",
                                  done.unlinked)
    flash(message, "ok")
    return redirect(url_for("club.players"))
