"""Organizer accounts in the browser: list, add one (a judge for a table tablet), change one's
own password."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, request, url_for
from sqlmodel import col, select

from .auth import login_required
from .db import get_session
from .models import Organizer
from .pages import go_to, render_page
from .services import accounts as service
from .services.errors import InputError

bp = Blueprint("accounts", __name__, url_prefix="/organizers")


def _page(status: int = 200, **context: Any) -> Any:
    context.setdefault("form", {})
    context.setdefault("errors", {})
    context.setdefault("password_errors", {})
    organizers = get_session().exec(select(Organizer).order_by(col(Organizer.name))).all()
    return render_page("accounts/index.html", "accounts_panel.html", status, organizers=organizers, **context)


@bp.get("")
@login_required
def index() -> Any:
    return _page()


@bp.post("")
@login_required
def add() -> Any:
    form = {"name": request.form.get("name", "")}
    try:
        organizer = service.create_organizer(get_session(), form["name"], request.form.get("password", ""),
                                             request.form.get("confirm", ""))
    except InputError as bad:
        get_session().rollback()
        return _page(422, form=form, errors=bad.errors)
    flash(f"Account {organizer.name} created.")
    return go_to(url_for("accounts.index"))


@bp.post("/password")
@login_required
def change_password() -> Any:
    db = get_session()
    try:
        service.change_password(db, g.organizer, request.form.get("current", ""), request.form.get("new_password", ""),
                                request.form.get("new_confirm", ""))
    except InputError as bad:
        db.rollback()
        return _page(422, password_errors=bad.errors)
    flash("Your password was changed.")
    return go_to(url_for("accounts.index"))
