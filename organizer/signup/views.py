"""Sign-up's pages: the form on the event's public side (``/e/<code>/sign-up``), the person's
own sign-up page (``/p/<token>/sign-up``, where ``/p/<token>`` leads until they are a player),
the e-mail's confirmation link, and the organizer's list of sign-ups with its settings,
moves and CSV export."""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, g, redirect, request, url_for
from flask_babel import force_locale

from organizer.core import mail
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.models import Event, Signup, SignupStatus
from organizer.core.pages import go_to, render_page
from organizer.core.public_urls import public_url
from organizer.core.translate import _
from organizer.events.views import load_event
from organizer.public import service as public_service
from organizer.signup import service

log = logging.getLogger(__name__)
bp = Blueprint("signup", __name__)
_PRIVATE = {"Cache-Control": "private, no-store"}


@bp.app_template_global("signup_open")
def signup_open(event: Event) -> bool:
    """Whether the event's public page offers its sign-up form."""
    assert event.id is not None
    return service.is_open(service.settings_of(get_session(), event.id))


@bp.app_template_global("has_signup")
def has_signup(token: str) -> bool:
    """Whether a player's own page has a sign-up page behind it (its status, its withdrawal)."""
    return service.find(get_session(), token) is not None


def _public_event(code: str) -> Event:
    event = public_service.event_by_code(get_session(), code)
    if event is None:
        abort(404)
    return event


def _mail_settings() -> mail.MailSettings | None:
    return mail.settings_from(current_app.config)


def _send(event: Event, make: Any) -> str | None:
    """Send a message in the event's language; the reason in words when it could not go."""
    settings = _mail_settings()
    if settings is None:
        return None
    try:
        with force_locale(event.language):
            mail.send(settings, make(settings))
    except InputError as failed:
        log.warning("sign-up mail for event %s not sent: %s", event.id, failed.errors.get(""))
        return failed.errors.get("")
    return None


def _tell_promoted(promoted: list[Signup]) -> None:
    for signup in promoted:
        event = get_session().get(Event, signup.event_id)
        assert event is not None
        link = public_url("signup.page", token=signup.token)
        _send(event, lambda settings, s=signup, e=event, link=link: mail.signup_promoted_message(
            settings, s.name, s.email, e.name, link))


def _tell_moved(event: Event, moved: service.Moved, to: str) -> str | None:
    """The person the organizer moved, told by e-mail; the reason in words when it could not go."""
    signup = moved.signup
    link = public_url("signup.page", token=signup.token)
    return _send(event, lambda settings: mail.signup_moved_message(
        settings, signup.name, signup.email, event.name, to, signup.status, moved.waiting, link))


def _form_page(event: Event, status: int = 200, errors: dict[str, str] | None = None,
               form: dict[str, str] | None = None) -> Any:
    assert event.id is not None
    settings = service.settings_of(get_session(), event.id)
    body, code = render_page("signup/form.html", "signup/form.html", status, event=event, settings=settings,
                             open=service.is_open(settings), errors=errors or {}, form=form or {},
                             closing=service.closing_words(settings, event))
    return body, code, _PRIVATE


@bp.get("/e/<code>/sign-up")
def form(code: str) -> Any:
    return _form_page(_public_event(code))


@bp.post("/e/<code>/sign-up")
def submit(code: str) -> Any:
    event = _public_event(code)
    db = get_session()
    entered = {key: request.form.get(key, "") for key in ("name", "club", "email", "note")}
    try:
        signup = service.sign_up(db, event, entered, request.remote_addr or "unknown",
                                 confirm_by_email=_mail_settings() is not None)
    except service.RateLimited as limited:
        db.rollback()
        body, _code, headers = _form_page(event, 429, limited.errors, entered)
        return body, 429, {**headers, "Retry-After": str(limited.retry_after)}
    except InputError as bad:
        db.rollback()
        return _form_page(event, 422, bad.errors, entered)
    if signup.status == SignupStatus.UNCONFIRMED:
        confirm_link = public_url("signup.confirm_page", token=signup.token, code=signup.email_code)
        page_link = public_url("signup.page", token=signup.token)
        problem = _send(event, lambda settings: mail.signup_confirmation_message(
            settings, signup.name, signup.email, event.name, confirm_link, page_link))
        if problem:
            return _own_page(signup, errors={"": problem})
    return redirect(url_for("signup.page", token=signup.token), 303)


def _signup(token: str) -> Signup:
    found = service.find(get_session(), token)
    if found is None:
        abort(404)
    return found


def _own_page(signup: Signup, status: int = 200, errors: dict[str, str] | None = None,
              confirming: str | None = None) -> Any:
    db = get_session()
    event = db.get(Event, signup.event_id)
    assert event is not None
    shown = "expired" if service.expired(signup) else signup.status
    body, code = render_page("signup/page.html", "signup/page.html", status, event=event, signup=signup,
                             shown=shown, waiting=service.waiting_number(db, signup), errors=errors or {},
                             confirming=confirming, mail_on=_mail_settings() is not None)
    return body, code, _PRIVATE


@bp.get("/p/<token>/sign-up")
def page(token: str) -> Any:
    return _own_page(_signup(token))


@bp.get("/p/<token>/sign-up/confirm/<code>")
def confirm_page(token: str, code: str) -> Any:
    """A page with one button, not the confirmation itself: mail scanners open links."""
    signup = _signup(token)
    if signup.email_code != code:
        abort(404)
    return _own_page(signup, confirming=code)


@bp.post("/p/<token>/sign-up/confirm/<code>")
def confirm(token: str, code: str) -> Any:
    signup = _signup(token)
    db = get_session()
    try:
        service.confirm(db, token, code)
    except InputError as bad:
        db.rollback()
        return _own_page(signup, 422, bad.errors)
    return redirect(url_for("signup.page", token=token), 303)


@bp.post("/p/<token>/sign-up/withdraw")
def withdraw(token: str) -> Any:
    _signup(token)
    db = get_session()
    promoted = service.withdraw(db, token)
    _tell_promoted(promoted)
    return redirect(url_for("signup.page", token=token), 303)


# The organizer's side.

def _actor() -> tuple[str, str]:
    account = g.get("organizer")
    return (account.name, str(account.role)) if account is not None else ("", "")


def _list_page(event: Event, status: int = 200, errors: dict[str, str] | None = None,
               form: dict[str, str] | None = None) -> Any:
    assert event.id is not None
    db = get_session()
    settings = service.settings_of(db, event.id)
    return render_page("signup/index.html", "signup/index.html", status, event=event, settings=settings,
                       rows=service.rows(db, event.id), errors=errors or {}, form=form,
                       open=service.is_open(settings), closes_local=service.closes_local(settings, event),
                       closing=service.closing_words(settings, event),
                       public_link=public_url("signup.form", code=event.public_code))


@bp.get("/events/<int:event_id>/sign-ups")
def index(event_id: int) -> Any:
    return _list_page(load_event(event_id))


@bp.post("/events/<int:event_id>/sign-ups/settings")
def settings(event_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    entered = {key: request.form.get(key, "") for key in ("open", "cap", "closes_at", "approval", "question")}
    actor, role = _actor()
    try:
        service.save_settings(db, event, entered, int(request.form.get("version", "0") or 0), actor, role)
    except (InputError, ValueError) as bad:
        db.rollback()
        errors = bad.errors if isinstance(bad, InputError) else {"": _("The form is incomplete; reload the page.")}
        return _list_page(event, 422 if isinstance(bad, InputError) and "" not in errors else 409, errors, entered)
    return go_to(url_for("signup.index", event_id=event_id))


@bp.post("/events/<int:event_id>/sign-ups/<int:signup_id>/move")
def move(event_id: int, signup_id: int) -> Any:
    event = load_event(event_id)
    db = get_session()
    actor, role = _actor()
    to = request.form.get("to", "")
    try:
        moved = service.move(db, event, signup_id, to, actor, role, seen_status=request.form.get("from") or None)
    except InputError as bad:
        db.rollback()
        return _list_page(event, 409, bad.errors)
    problem = _tell_moved(event, moved, to)
    if problem:
        flash(_("%(name)s could not be told by e-mail: %(problem)s", name=moved.signup.name, problem=problem))
    _tell_promoted(moved.promoted)
    return go_to(url_for("signup.index", event_id=event_id))


@bp.get("/events/<int:event_id>/sign-ups.csv")
def export_csv(event_id: int) -> Any:
    event = load_event(event_id)
    assert event.id is not None
    body = service.export_csv(service.rows(get_session(), event.id))
    return Response(body, mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="sign-ups-{event.id}.csv"', **_PRIVATE})
