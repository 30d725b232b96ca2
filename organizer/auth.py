"""Sign-in, sign-out and the first-run page that creates the first organizer account."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Blueprint, current_app, g, redirect, request, session, url_for
from werkzeug.wrappers import Response

from .db import get_session
from .models import Organizer
from .pages import render_page
from .services import accounts
from .services.errors import InputError

bp = Blueprint("auth", __name__)
View = TypeVar("View", bound=Callable[..., Any])


@bp.before_app_request
def load_organizer() -> None:
    organizer_id = session.get("organizer_id")
    g.organizer = get_session().get(Organizer, organizer_id) if organizer_id else None


def login_required(view: View) -> View:
    """Every change to an event goes through this: anonymous requests go to the sign-in page
    (HTMX requests are told to load it as a whole page)."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if g.get("organizer") is None:
            target = url_for("auth.sign_in", next=request.full_path if request.method == "GET" else None)
            if request.headers.get("HX-Request"):
                return Response(status=401, headers={"HX-Redirect": target})
            return redirect(target)
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def _safe_next(target: str | None) -> str:
    """Only same-site paths: a crafted ?next= must not send an organizer elsewhere."""
    if target and target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return url_for("events.index")


def _client_address() -> str:
    return request.remote_addr or "unknown"


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> Any:
    db = get_session()
    if accounts.organizer_count(db) == 0:
        return redirect(url_for("auth.first_run"))
    form = {"name": request.form.get("name", "")}
    error = ""
    status = 200
    if request.method == "POST":
        try:
            organizer = accounts.authenticate(
                db, form["name"], request.form.get("password", ""), _client_address(),
                max_failures=current_app.config["SIGN_IN_MAX_FAILURES"],
                window_minutes=current_app.config["SIGN_IN_WINDOW_MINUTES"],
            )
        except accounts.SignInRefused as refused:
            error, status = str(refused), 422
        else:
            session.clear()  # a fresh session on sign-in defeats session fixation
            session["organizer_id"] = organizer.id
            session.permanent = True
            return redirect(_safe_next(request.args.get("next")))
    return render_page("auth/sign_in.html", "sign_in_form.html", status, form=form, error=error,
                       next=request.args.get("next", ""))


@bp.post("/sign-out")
def sign_out() -> Any:
    session.clear()
    return redirect(url_for("auth.sign_in"))


@bp.route("/first-run", methods=["GET", "POST"])
def first_run() -> Any:
    """Only while no account exists: whoever installs the app makes the first organizer."""
    db = get_session()
    if accounts.organizer_count(db) > 0:
        return redirect(url_for("auth.sign_in"))
    form = {"name": request.form.get("name", "")}
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            organizer = accounts.create_organizer(
                db, form["name"], request.form.get("password", ""), request.form.get("confirm", ""))
        except InputError as bad:
            errors = bad.errors
        else:
            session.clear()
            session["organizer_id"] = organizer.id
            return redirect(url_for("events.index"))
    return render_page("auth/first_run.html", "first_run_form.html", 422 if errors else 200,
                       form=form, errors=errors)
