"""Seasons and their league tables: list, create, the league page and its projector view."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from organizer.club import leagues
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.pages import render_page
from organizer.core.paging import page_number
from organizer.core.translate import _
from organizer.printing import PrintingError
from organizer.printing.league import league_pdf
from organizer.prints.views import pdf_response, requested_paper, slug

bp = Blueprint("seasons", __name__, url_prefix="/seasons")


def _day(raw: str) -> date | None:
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        return None


def _whole(raw: str) -> int:
    raw = raw.strip()
    return int(raw) if raw.isdigit() and len(raw) < 6 else -1


@bp.get("")
def index() -> Any:
    return render_template("club/seasons.html", seasons=leagues.list_seasons(get_session()), rules=leagues.RULES,
                           errors={}, form={})


@bp.post("")
def create() -> Any:
    form = request.form
    starts, ends = _day(form.get("starts_on", "")), _day(form.get("ends_on", ""))
    errors: dict[str, str] = {}
    if starts is None:
        errors["starts_on"] = _("Enter the first day (YYYY-MM-DD).")
    if ends is None:
        errors["ends_on"] = _("Enter the last day (YYYY-MM-DD).")
    if not errors and starts is not None and ends is not None:
        data = leagues.SeasonInput(form.get("name", ""), starts, ends, form.get("rule", "sum"),
                                   _whole(form.get("best_of", "0") or "0"), _whole(form.get("min_events", "0") or "0"))
        try:
            season = leagues.save_season(get_session(), data)
            return redirect(url_for("seasons.show", season_id=season.id))
        except InputError as error:
            errors = error.errors
    return render_template("club/seasons.html", seasons=leagues.list_seasons(get_session()), rules=leagues.RULES,
                           errors=errors, form=form), 422


@bp.get("/<int:season_id>")
def show(season_id: int) -> Any:
    listed = leagues.league_page(get_session(), season_id, page_number(request.args.get("page")),
                                 request.args.get("q", ""))
    if listed is None:
        abort(404)
    # a search as it is typed, or another page (htmx), gets only the rows
    return render_page("club/season.html", "club/league_rows.html", league=listed.league, listed=listed)


@bp.get("/<int:season_id>/projector")
def projector(season_id: int) -> Any:
    listed = leagues.league_page(get_session(), season_id)
    if listed is None:
        abort(404)
    # the screen shows the top of the league; the rest is on the league page and its PDF
    return render_template("club/season_projector.html", league=listed.league, top=listed.rows,
                           more=len(listed.league.rows) - len(listed.rows))


@bp.get("/<int:season_id>/league.pdf")
def league_download(season_id: int) -> Any:
    try:
        data = leagues.league_print(get_session(), season_id, requested_paper())
        if data is None:
            abort(404)
        pdf = league_pdf(data)
    except (InputError, PrintingError) as refused:
        message = " ".join(refused.errors.values()) if isinstance(refused, InputError) else str(refused)
        flash(_("No PDF made: %(problem)s", problem=f"{message[:1].upper()}{message[1:]}"), "error")
        return redirect(url_for("seasons.show", season_id=season_id))
    return pdf_response(pdf, f"{slug(data.season)}-league.pdf")
