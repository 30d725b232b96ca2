"""The accounts page: one's own sessions and password for everyone; for owners, every account,
invitations and reset links (shown once, with a QR for a tablet), roles, disabling."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, g, request, url_for

from organizer.accounts import service, sessions
from organizer.accounts.auth_views import start_session
from organizer.accounts.qr import qr_svg
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.models import ROLES, Organizer, Role
from organizer.core.pages import go_to, render_page
from organizer.core.public_urls import public_url
from organizer.core.translate import N_, _, ngettext

bp = Blueprint("accounts", __name__, url_prefix="/organizers")

#: Each role as the page names it (translated where shown).
ROLE_LABELS = {Role.OWNER: N_("owner"), Role.ORGANIZER: N_("organizer"), Role.JUDGE: N_("judge")}


def _page(status: int = 200, **context: Any) -> Any:
    db = get_session()
    me: Organizer = g.organizer
    context.setdefault("form", {})
    context.setdefault("errors", {})
    context.setdefault("password_errors", {})
    context.setdefault("link", None)
    link = context["link"]
    if link is not None:
        url = public_url("auth.welcome", token=link.token)
        context["link_url"], context["link_qr"] = url, qr_svg(url)
    return render_page("accounts/index.html", "accounts/accounts_panel.html", status,
                       accounts=service.all_accounts(db) if me.role == Role.OWNER else [],
                       my_sessions=sessions.active(db, me), this_session=g.account_session,
                       roles=ROLES, role_labels={role: _(label) for role, label in ROLE_LABELS.items()}, **context)


def _account(account_id: int) -> Organizer:
    account = get_session().get(Organizer, account_id)
    if account is None:
        abort(404)
    return account


@bp.get("")
def index() -> Any:
    return _page()


@bp.post("")
def add() -> Any:
    """An invitation: the account exists at once, without a password, and its link (valid a day)
    lets its person choose one."""
    db = get_session()
    form = {"name": request.form.get("name", ""), "role": request.form.get("role", Role.JUDGE)}
    try:
        link = service.invite(db, form["name"], service.parse_role(form["role"]), g.organizer.name)
    except InputError as bad:
        db.rollback()
        return _page(422, form=form, errors=bad.errors)
    return _page(link=link)


@bp.post("/<int:account_id>/reset")
def reset(account_id: int) -> Any:
    return _page(link=service.reset_link(get_session(), _account(account_id), g.organizer.name))


@bp.post("/<int:account_id>/role")
def set_role(account_id: int) -> Any:
    db = get_session()
    account = _account(account_id)
    try:
        service.set_role(db, account, service.parse_role(request.form.get("role", "")))
    except InputError as bad:
        db.rollback()
        return _page(422, errors=bad.errors)
    flash(_("%(name)s is now %(role)s.", name=account.name, role=_(ROLE_LABELS[Role(account.role)])))
    return go_to(url_for("accounts.index"))


@bp.post("/<int:account_id>/disable")
def disable(account_id: int) -> Any:
    db = get_session()
    account = _account(account_id)
    try:
        service.disable(db, account)
    except InputError as bad:
        db.rollback()
        return _page(422, errors=bad.errors)
    flash(_("%(name)s is disabled and signed out everywhere.", name=account.name))
    return go_to(url_for("accounts.index"))


@bp.post("/<int:account_id>/sign-out")
def sign_out_account(account_id: int) -> Any:
    """An owner ends every session of another account, as its person's own "sign out
    everywhere" does; the account may sign in again."""
    account = _account(account_id)
    if account.id == g.organizer.id:
        return sign_out_everywhere()
    ended = sessions.end_all(get_session(), account)
    flash(ngettext("%(name)s is signed out of %(num)d session.", "%(name)s is signed out of %(num)d sessions.", ended,
                   name=account.name))
    return go_to(url_for("accounts.index"))


@bp.post("/<int:account_id>/enable")
def enable(account_id: int) -> Any:
    account = _account(account_id)
    service.enable(get_session(), account)
    flash(_("%(name)s may sign in again.", name=account.name))
    return go_to(url_for("accounts.index"))


@bp.post("/password")
def change_password() -> Any:
    db = get_session()
    try:
        service.change_password(db, g.organizer, request.form.get("current", ""), request.form.get("new_password", ""),
                                request.form.get("new_confirm", ""))
    except InputError as bad:
        db.rollback()
        return _page(422, password_errors=bad.errors)
    # Every session ended, this one too: this browser goes on under a new token, so even a copy
    # of its own cookie stops working.
    start_session(g.organizer)
    flash(_("Your password was changed; your other sessions have ended."))
    return go_to(url_for("accounts.index"))


@bp.post("/sessions/<int:session_id>/end")
def end_session(session_id: int) -> Any:
    if not sessions.end(get_session(), g.organizer, session_id):
        abort(404)
    if session_id == g.account_session.id:
        return go_to(url_for("auth.sign_in"))
    flash(_("That session has ended."))
    return go_to(url_for("accounts.index"))


@bp.post("/sessions/end-all")
def sign_out_everywhere() -> Any:
    sessions.end_all(get_session(), g.organizer)
    return go_to(url_for("auth.sign_in"))
