"""A club player's public profile and their say in it: the profile at an unguessable
``/profile/<code>`` (events, results, rating over time; only while the player agrees), and the
switch on their own page ``/p/<token>``. Kept apart from ``public.py`` (the event's players'
side): the code or token in the URL is the only credential, an unknown or private one a 404."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from markupsafe import Markup

from organizer.club import registry
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.models import ClubPlayer, Player
from organizer.public import self_report

bp = Blueprint("club_public", __name__)

#: a profile's consent can be withdrawn: no cache may keep a copy of it
_NO_STORE = {"Cache-Control": "no-store"}


@bp.app_template_global("club_profile_of")
def club_profile_of(player: Player) -> ClubPlayer | None:
    """The registry entry of the player whose own page is shown (for the profile switch)."""
    return registry.own_entry(get_session(), player)


@bp.get("/profile/<code>")
def profile(code: str) -> Any:
    found = registry.public_profile(get_session(), code)
    if found is None:
        abort(404)
    # the chart is built from numbers and escaped names only (ratings.chart_svg)
    return render_template("club/public_profile.html", profile=found, chart=Markup(found.chart)), 200, _NO_STORE


@bp.post("/p/<token>/profile")
def player_consent(token: str) -> Any:
    db = get_session()
    player = self_report.player_by_token(db, token)
    if player is None:
        abort(404)
    try:
        registry.set_own_public_profile(db, player, request.form.get("public_profile") == "1")
    except InputError:
        db.rollback()
        abort(404)  # nothing to set: the page shows no switch then
    return redirect(url_for("public.player", token=token) + "#club-profile")
