"""Sign-in, sign-out, the first-run page, one-time links; the request's account (Flask-Login over
server-side sessions) and the one hook that applies ``permissions.RULES`` to every request."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, g, has_request_context, redirect, request, session, url_for
from flask_login import LoginManager, UserMixin, login_user, logout_user  # type: ignore[import-untyped]
from flask_login import current_user as _current_user
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import event as sa_event
from sqlmodel import Session
from werkzeug.wrappers import Response

from organizer.accounts import service as accounts
from organizer.accounts import sessions, sign_in
from organizer.core import permissions
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.models import AccountSession, AuditEntry, Organizer
from organizer.core.pages import render_page
from organizer.core.security import same_site_path

bp = Blueprint("auth", __name__)
login_manager = LoginManager()
#: OWASP's device cookie: which names signed in from this browser before (signed, 180 days)
DEVICE_COOKIE = "arboretum_device"
DEVICE_COOKIE_DAYS = 180
_MAX_DEVICE_NAMES = 8


class SignedIn(UserMixin):  # type: ignore[misc]
    """Flask-Login's user: the cookie's id is the session token, never the account's id, so
    ending the session row signs that cookie out wherever it was copied to."""

    def __init__(self, token: str, row: AccountSession, account: Organizer) -> None:
        self.token, self.row, self.account = token, row, account

    def get_id(self) -> str:
        return self.token


def _load_user(token: str) -> SignedIn | None:
    found = sessions.resume(get_session(), token)
    return SignedIn(token, *found) if found else None


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.user_loader(_load_user)
    # Sessions live on the server; a venue's changing address must not mark them anything.
    login_manager.session_protection = None
    app.before_request(_account_and_permissions)
    app.add_template_global(permissions.may, "may")
    if not sa_event.contains(Session, "before_flush", _stamp_audit_role):
        sa_event.listen(Session, "before_flush", _stamp_audit_role)


def _account_and_permissions() -> Response | None:
    user = _current_user._get_current_object()
    signed_in = isinstance(user, SignedIn)
    g.organizer = user.account if signed_in else None
    g.account_session = user.row if signed_in else None
    if permissions.enforce() == "sign in":
        return _to_sign_in()
    return None


def _to_sign_in() -> Response:
    """Anonymous requests go to the sign-in page (HTMX requests are told to load it as a page)."""
    if request.headers.get("HX-Request"):
        # back to the page that asked, not to the fragment it was refreshing
        current = urlsplit(request.headers.get("HX-Current-URL", ""))
        page = same_site_path(current.path + (f"?{current.query}" if current.query else "")) if current.path else None
        return Response(status=401, headers={"HX-Redirect": url_for("auth.sign_in", next=page)})
    target = url_for("auth.sign_in", next=request.full_path if request.method == "GET" else None)
    return redirect(target)


def _stamp_audit_role(db: Session, _context: Any, _instances: Any) -> None:
    """Every audit entry written by the signed-in account during its request names its role
    (services name the actor; the role is the request's, so no service needs to be told)."""
    if not has_request_context():
        return
    account: Organizer | None = g.get("organizer")
    if account is None:
        return
    for entry in db.new:
        if isinstance(entry, AuditEntry) and not entry.role and entry.actor == account.name:
            entry.role = account.role


def start_session(account: Organizer) -> None:
    """A fresh cookie session (defeats session fixation) bound to a new server-side session."""
    started = sessions.start(get_session(), account, request.headers.get("User-Agent", ""))
    session.clear()
    login_user(SignedIn(started.token, started.row, account))
    session.permanent = True


def _safe_next(target: str | None) -> str:
    return same_site_path(target) or url_for("events.index")


def _client_address() -> str:
    return request.remote_addr or "unknown"


def _device_signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.secret_key or "", salt="arboretum-device")


def _known_devices() -> dict[str, str]:
    raw = request.cookies.get(DEVICE_COOKIE, "")
    if not raw:
        return {}
    try:
        data = _device_signer().loads(raw, max_age=DEVICE_COOKIE_DAYS * 86400)
    except BadSignature:
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _remember_device(response: Response, devices: dict[str, str], name_key: str) -> None:
    nonce = devices.pop(name_key, None) or secrets.token_urlsafe(18)
    devices[name_key] = nonce  # newest last; the oldest names drop off a shared tablet's cookie
    kept = dict(list(devices.items())[-_MAX_DEVICE_NAMES:])
    response.set_cookie(DEVICE_COOKIE, _device_signer().dumps(kept), max_age=DEVICE_COOKIE_DAYS * 86400,
                        httponly=True, samesite="Lax", secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))


def _throttle() -> sign_in.Throttle:
    config = current_app.config
    return sign_in.Throttle(free_failures=int(config["SIGN_IN_MAX_FAILURES"]),
                            window=timedelta(minutes=float(config["SIGN_IN_WINDOW_MINUTES"])))


def sign_in_page() -> Any:
    db = get_session()
    if accounts.organizer_count(db) == 0:
        return redirect(url_for("auth.first_run"))
    form = {"name": request.form.get("name", "")}
    error = ""
    status = 200
    headers: dict[str, str] = {}
    if request.method == "POST":
        devices = _known_devices()
        name_key = accounts.name_key(form["name"])[:80]
        try:
            account = sign_in.authenticate(db, form["name"], request.form.get("password", ""), _client_address(),
                                           devices.get(name_key), _throttle())
        except accounts.SignInRefused as refused:
            error, status = str(refused), 422
            if refused.retry_after is not None and refused.throttled:
                status, headers = 429, {"Retry-After": str(refused.retry_after)}
        else:
            start_session(account)
            response: Response = redirect(_safe_next(request.args.get("next")))
            _remember_device(response, devices, name_key)
            return response
    body, status = render_page("accounts/sign_in.html", "accounts/sign_in_form.html", status, form=form, error=error,
                               next=request.args.get("next", ""))
    return body, status, headers


# the endpoint keeps its name (auth.sign_in); the function may not shadow the service module
bp.add_url_rule("/sign-in", endpoint="sign_in", view_func=sign_in_page, methods=["GET", "POST"])


@bp.post("/sign-out")
def sign_out() -> Any:
    row: AccountSession | None = g.get("account_session")
    if row is not None and g.organizer is not None and row.id is not None:
        sessions.end(get_session(), g.organizer, row.id)
    logout_user()
    session.clear()
    return redirect(url_for("auth.sign_in"))


@bp.route("/first-run", methods=["GET", "POST"])
def first_run() -> Any:
    """Only while no account exists: whoever installs the app makes the first account, its owner."""
    db = get_session()
    if accounts.organizer_count(db) > 0:
        return redirect(url_for("auth.sign_in"))
    form = {"name": request.form.get("name", "")}
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            account = accounts.create_organizer(
                db, form["name"], request.form.get("password", ""), request.form.get("confirm", ""))
        except InputError as bad:
            errors = bad.errors
        else:
            start_session(account)
            return redirect(url_for("events.index"))
    return render_page("accounts/first_run.html", "accounts/first_run_form.html", 422 if errors else 200,
                       form=form, errors=errors)


@bp.route("/welcome/<token>", methods=["GET", "POST"])
def welcome(token: str) -> Any:
    """An invitation or reset link: its person sets a password once and is signed in."""
    db = get_session()
    errors: dict[str, str] = {}
    try:
        account, purpose = accounts.link_account(db, token)
    except accounts.LinkRefused as refused:
        return render_page("accounts/welcome.html", "accounts/welcome_form.html", 410, refused=str(refused), token=token,
                           errors={}, account=None, purpose="")
    if request.method == "POST":
        try:
            account = accounts.use_link(db, token, request.form.get("password", ""), request.form.get("confirm", ""))
        except InputError as bad:
            db.rollback()
            errors = bad.errors
        except accounts.LinkRefused as refused:
            return render_page("accounts/welcome.html", "accounts/welcome_form.html", 410, refused=str(refused), token=token,
                               errors={}, account=None, purpose="")
        else:
            start_session(account)
            response: Response = redirect(url_for("events.index"))
            # The link proves the person as well as a password would: this browser becomes a
            # known device, which a stranger's guesses at the name never slow down.
            _remember_device(response, _known_devices(), accounts.name_key(account.name)[:80])
            return response
    return render_page("accounts/welcome.html", "accounts/welcome_form.html", 422 if errors else 200, refused="",
                       token=token, errors=errors, account=account, purpose=purpose)
