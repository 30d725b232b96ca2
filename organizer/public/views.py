"""The players' side of an event: the public page ``/e/<code>``, each player's own page
``/p/<token>`` with check-in, dropping out and self-reporting, and the organizer's tools for it
(settings, a player's link and card, sending it, the round's "needs attention" list).

The code or token in the URL is the only credential of the public routes: an unknown one is a
plain 404, the same as any page that does not exist."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import force_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from sqlmodel import select

from organizer.accounts.qr import qr_svg
from organizer.core import mail
from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.extensions import htmx
from organizer.core.fragment_cache import Rendered, SharedFragments
from organizer.core.guard import StaleChange
from organizer.core.i18n import current_language, use_event_language, use_event_time_zone
from organizer.core.models import Event, Player, Signup
from organizer.core.pages import go_to, render_page
from organizer.core.public_urls import public_url
from organizer.core.streams import streams_enabled
from organizer.core.translate import _
from organizer.events import announcements as announcement_service
from organizer.events.views import load_event
from organizer.players import service as player_service
from organizer.public import attention as attention_service
from organizer.public import judge_calls, self_report, service
from organizer.rounds import results as result_service
from organizer.rounds.views import load_round

bp = Blueprint("public", __name__)

#: phones must not keep a copy of a page another phone's action changed
_NO_STORE = {"Cache-Control": "no-store"}
#: a player's link is a credential: no shared cache may keep a page that shows one
_PRIVATE = {"Cache-Control": "private, no-store"}


def _event(code: str) -> Event:
    event = service.event_by_code(get_session(), code)
    if event is None:
        abort(404)
    use_event_time_zone(event)
    return event


def _player(token: str) -> Player:
    player = self_report.player_by_token(get_session(), token)
    if player is None:
        # a sign-up that is not (or no longer) a player: its own sign-up page
        if get_session().exec(select(Signup.id).where(Signup.token == token)).first() is not None:
            abort(redirect(url_for("signup.page", token=token)))
        abort(404)
    event = get_session().get(Event, player.event_id)
    if event is not None:
        use_event_time_zone(event)
    return player


@bp.app_template_global("public_qr")
def public_qr(event: Event, size_px: int = 168) -> Any:
    """The QR code of the event's public page, for the projector and the event overview."""
    return qr_svg(public_url("public.event", code=event.public_code), size_px)


# The public event page.

#: the page's fragments, by (event's code, stamp, search, language)
_PANELS = Rendered(64)
#: whole pages (a phone's first visit) by (event's code, stamp, address, language)
_PAGES = Rendered(64)
#: the page's rows (a table's card, a line of the standings, a player's results), by (macro,
#: language, its data): a result changes a few rows, and a page of a big event has hundreds
_ROWS = Rendered(10_000)


def _row_memo(language: str) -> Callable[..., Markup]:
    """For the page's templates: ``memo(macro, *data)`` is the macro's HTML for that data,
    rendered once per language in this process. Such a macro shows only its arguments (and
    translated words), never anything else of the page."""
    def memo(macro: Any, *data: Hashable) -> Markup:
        key = (macro.name, language, data)
        return Markup(_ROWS.get_or_render(key, lambda: str(macro(*data))))
    return memo


_SHARED = SharedFragments()


def _panel(event: Event, stamp: str | None = None) -> str:
    """The page's fragment for the request's search and language, rendered once per change, search
    and language (in one process, then shared through the instance folder).
    It holds nothing of the visitor (no CSRF token, no cookie), so any phone may get it."""
    assert event.id is not None
    db = get_session()
    current = stamp or service.stamp(db, event.id)
    search, language = request.args.get("q", "")[:80], current_language()
    # the code, not the id: a fragment of another database's event 1 (tests) never matches
    key = (event.public_code, current, search, language)

    def render() -> str:
        # the view reads what it shows after the stamp of its key: never older than the stamp it carries
        return render_template("public/public_event.html", view=service.public_view(db, event, search, current),
                               refresh=service.REFRESH_SECONDS, memo=_row_memo(language),
                               stream=_stream_url("public.event", code=event.public_code),
                               pushed_refresh=service.PUSHED_REFRESH_SECONDS,
                               announcements=announcement_service.shown(db, event.id or 0, language))

    folder = Path(current_app.instance_path) / "public-pages"
    return _PANELS.get_or_render(key, lambda: _SHARED.get_or_render(folder, key, render))


def _stream_url(endpoint: str, **values: Any) -> str | None:
    """The address of the page's stream (organizer/live/stream.py answers it), where this server
    keeps streams open."""
    return f"{url_for(endpoint, **values)}/events" if streams_enabled(current_app.config) else None


def cached_fragment(code: str, stamp: str, search: str, language: str) -> str | None:
    """The fragment this process rendered for the page ``code`` at ``stamp`` (the poll's answer
    from organizer/live/fastpoll.py), or None."""
    return _PANELS.get((code, stamp, search[:80], language))


def _public(event: Event, stamp: str | None = None) -> Any:
    assert event.id is not None
    current = stamp or service.stamp(get_session(), event.id)
    panel = _panel(event, current)
    if htmx:
        return panel, 200, _NO_STORE
    # the whole page around it: the same for every visitor but its address (the language menu's way back)
    key = (event.public_code, current, request.full_path, current_language())
    return _PAGES.get_or_render(key, lambda: render_template(
        "public/event.html", event=event, panel=Markup(panel), search=request.args.get("q", "")[:80])), 200, _NO_STORE


@bp.get("/e/<code>")
def event(code: str) -> Any:
    return _public(_event(code))


@bp.get("/e/<code>/changed")
def event_changed(code: str) -> Any:
    """The phones' poll: 204 while nothing changed since the stamp they show, else the page's
    fragment (rendered once per change and search in each process)."""
    found = _event(code)
    assert found.id is not None
    stamp = service.stamp(get_session(), found.id)
    if request.args.get("since") == stamp:
        return Response(status=204, headers=_NO_STORE)
    return _public(found, stamp)


# A player's own page.

def _player_page(player: Player, status: int = 200, errors: dict[str, str] | None = None,
                 form: dict[str, str] | None = None, part: str | None = None) -> Any:
    page = self_report.player_page(get_session(), player)
    db = get_session()
    context: dict[str, Any] = {"page": page, "errors": errors or {}, "form": form or {},
                               "refresh": service.REFRESH_SECONDS, "pushed_refresh": service.PUSHED_REFRESH_SECONDS,
                               "stream": _stream_url("public.player", token=player.token),
                               "announcements": announcement_service.shown(db, player.event_id, current_language())}
    if page.view is not None and page.round is not None and page.round.id is not None:
        context["call"] = judge_calls.table_call(db, page.round.id, page.view.table.number)
        context["may_call"] = not page.read_only
    if page.view is not None and page.view.table.digital and page.seat_token:
        context["seat_url"] = public_url("live.seat", token=page.seat_token)
    if page.view is not None and page.view.result is not None and not form and page.may_report:
        # a correction starts from the figures stored, as the organizer's form does
        context["form"] = result_service.form_from_result(page.view)
    status_html = Markup(render_template("public/public_player_status.html", **context))
    context["status_html"] = status_html
    # the CSRF token of the report form (for a phone without JavaScript) is signed anew each time:
    # it is not what the page shows, so it is no change
    context["stamp"] = hashlib.sha256(status_html.replace(generate_csrf(), "").encode()).hexdigest()[:16]
    if part == "status":
        return context["stamp"], status_html
    body, code = render_page("public/player.html", "public/public_player.html", status, **context)
    return body, code, _NO_STORE


@bp.get("/p/<token>")
def player(token: str) -> Any:
    return _player_page(_player(token))


@bp.get("/p/<token>/changed")
def player_changed(token: str) -> Any:
    stamp, status_html = _player_page(_player(token), part="status")
    if request.args.get("since") == stamp:
        return Response(status=204, headers=_NO_STORE)
    return render_template("public/public_player_poll.html", stamp=stamp, status_html=status_html,
                           token=token, refresh=service.REFRESH_SECONDS, pushed_refresh=service.PUSHED_REFRESH_SECONDS,
                           stream=_stream_url("public.player", token=token)), 200, _NO_STORE


def _player_action(token: str, act: Any) -> Any:
    found = _player(token)
    db = get_session()
    form = {key: request.form.get(key, "") for key in request.form if key != "csrf_token"}
    try:
        act(db, found, form)
    except self_report.RateLimited as limited:
        db.rollback()
        body, _code, headers = _player_page(found, 429, errors=limited.errors, form=form)
        return body, 429, {**headers, "Retry-After": str(limited.retry_after)}
    except result_service.ResultConflict:
        db.rollback()
        return _player_page(found, 409, errors={"": _("Someone at your table saved a result meanwhile; check it.")})
    except InputError as bad:
        db.rollback()
        return _player_page(found, 422, errors=bad.errors, form=form)
    db.expire_all()
    return _player_page(found)


def _number(form: dict[str, str], key: str) -> int:
    try:
        return int(form.get(key, ""))
    except ValueError:
        return -1


@bp.post("/p/<token>/check-in")
def player_check_in(token: str) -> Any:
    return _player_action(token, lambda db, p, form: self_report.check_in(db, p))


@bp.post("/p/<token>/drop")
def player_drop(token: str) -> Any:
    return _player_action(token, lambda db, p, form: self_report.drop(db, p))


@bp.post("/p/<token>/report")
def player_report(token: str) -> Any:
    return _player_action(token, lambda db, p, form: self_report.report(
        db, p, _number(form, "round"), _number(form, "table"), form, _number(form, "version")))


@bp.post("/p/<token>/confirm")
def player_confirm(token: str) -> Any:
    return _player_action(token, lambda db, p, form: self_report.confirm(
        db, p, _number(form, "round"), _number(form, "table"), _number(form, "version")))


@bp.post("/p/<token>/dispute")
def player_dispute(token: str) -> Any:
    return _player_action(token, lambda db, p, form: self_report.dispute(
        db, p, _number(form, "round"), _number(form, "table"), _number(form, "version"), form.get("note", "")))


@bp.post("/p/<token>/call-judge")
def player_call_judge(token: str) -> Any:
    return _player_action(token, lambda db, p, form: judge_calls.call_judge(db, p, form.get("note", "")))


# The organizer's side.

@bp.post("/events/<int:event_id>/players-side")
def settings(event_id: int) -> Any:
    found = load_event(event_id)
    db = get_session()
    form = {key: request.form.get(key, "") for key in request.form}
    try:
        service.update_settings(db, found, service.parse_settings(form), g.organizer.name,
                                int(form.get("version", "-1") or -1))
    except (StaleChange, InputError, ValueError) as bad:
        db.rollback()
        message = " ".join(bad.errors.values()) if isinstance(bad, InputError) else _("The form was incomplete.")
        flash(message, "error")
    else:
        flash(_("Players' side saved."))
    return go_to(url_for("events.show", event_id=event_id))


def _event_player(event_id: int, player_id: int) -> tuple[Event, Player]:
    found = load_event(event_id)
    listed = player_service.get_player(get_session(), event_id, player_id)
    if listed is None:
        abort(404)
    return found, listed


def player_url(player: Player) -> str:
    return public_url("public.player", token=player.token)


@bp.get("/events/<int:event_id>/players/<int:player_id>/link")
def player_link(event_id: int, player_id: int) -> Any:
    """The player's personal link and its QR code, for the organizer's players page (htmx)."""
    found, listed = _event_player(event_id, player_id)
    return render_template(_link_template(), event=found, player=listed, url=player_url(listed),
                           qr=qr_svg(player_url(listed), 200),
                           can_mail=mail.settings_from(current_app.config) is not None), 200, _PRIVATE


def _link_template() -> str:
    """The link's card for the players page (htmx), or a whole page when opened by itself."""
    return "players/_link.html" if htmx and not htmx.boosted else "public/player_link_page.html"


@bp.get("/events/<int:event_id>/players/<int:player_id>/card.pdf")
def player_card(event_id: int, player_id: int) -> Any:
    from organizer.printing.player_card import PlayerCard, player_cards_pdf

    found, listed = _event_player(event_id, player_id)
    use_event_language(found)  # printed matter speaks the event's language
    pdf = player_cards_pdf(found.name, [PlayerCard(listed.name, player_url(listed))])
    return Response(pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="player-card-{listed.id}.pdf"', "Cache-Control": "private, no-store"})


@bp.get("/events/<int:event_id>/player-cards.pdf")
def player_cards(event_id: int) -> Any:
    from organizer.printing.player_card import PlayerCard, player_cards_pdf

    found = load_event(event_id)
    listed = [p for p in player_service.list_players(get_session(), event_id) if not p.dropped]
    if not listed:
        abort(404)
    use_event_language(found)
    pdf = player_cards_pdf(found.name, [PlayerCard(p.name, player_url(p)) for p in listed])
    return Response(pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="player-cards-{event_id}.pdf"', "Cache-Control": "private, no-store"})


@bp.post("/events/<int:event_id>/players/<int:player_id>/send-link")
def send_link(event_id: int, player_id: int) -> Any:
    found, listed = _event_player(event_id, player_id)
    settings_ = mail.settings_from(current_app.config)
    status, message = 200, _("Sent %(name)s's link to their e-mail address.", name=listed.name)
    if settings_ is None:
        status, message = 422, _("No mail server is configured (ORGANIZER_SMTP_HOST).")
    else:
        try:
            if not listed.email:
                raise InputError({"": _("%(name)s has no e-mail address.", name=listed.name)})
            # the mail speaks the event's language; the organizer's page (and its errors) keep theirs
            with force_locale(found.language):
                message_ = mail.player_link_message(settings_, listed.name, listed.email, found.name,
                                                    player_url(listed))
            mail.send(settings_, message_)
        except InputError as bad:
            status, message = 422, " ".join(bad.errors.values())
    return render_template(_link_template(), event=found, player=listed, url=player_url(listed),
                           qr=qr_svg(player_url(listed), 200), can_mail=settings_ is not None,
                           message=message, failed=status != 200), status, _PRIVATE


@bp.get("/events/<int:event_id>/rounds/<int:number>/attention")
def attention(event_id: int, number: int) -> Any:
    found = load_event(event_id)
    rnd = load_round(found, number)
    if not htmx:  # the list lives on the round's page; opened by itself, go there
        return redirect(url_for("rounds.show", event_id=event_id, number=number) + "#attention")
    return render_template("public/_attention.html", event=found, round=rnd,
                           attention=attention_service.needs_attention(get_session(), found, rnd))


def _call_action(event_id: int, number: int, call_id: int, act: Callable[..., Any]) -> Any:
    """Take or resolve a judge's call; the round's list comes back (htmx) with what happened."""
    found = load_event(event_id)
    db = get_session()
    status, message = 200, ""
    try:
        act(db, found, call_id, g.organizer.name, str(g.organizer.role))
    except InputError as bad:
        db.rollback()
        status, message = (409 if isinstance(bad, StaleChange) else 422), " ".join(bad.errors.values())
    if not htmx:
        if message:
            flash(message, "error")
        return go_to(url_for("rounds.show", event_id=event_id, number=number) + "#attention")
    db.expire_all()
    rnd = load_round(found, number)
    return render_template("public/_attention.html", event=found, round=rnd, message=message,
                           attention=attention_service.needs_attention(db, found, rnd)), status


@bp.post("/events/<int:event_id>/rounds/<int:number>/calls/<int:call_id>/take")
def take_call(event_id: int, number: int, call_id: int) -> Any:
    return _call_action(event_id, number, call_id, judge_calls.take)


@bp.post("/events/<int:event_id>/rounds/<int:number>/calls/<int:call_id>/resolve")
def resolve_call(event_id: int, number: int, call_id: int) -> Any:
    return _call_action(event_id, number, call_id, judge_calls.resolve)
