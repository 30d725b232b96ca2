"""Languages, time zones and number formats, wired to Flask-Babel.

Which language a page speaks, first match wins:

1. a view that renders an event's printed matter or projector calls :func:`use_event_language`,
   so the room sees the event's language whatever the organizer's device says;
2. the person's own choice from the language menu, kept in a cookie for a year;
3. the browser's ``Accept-Language``;
4. English.

Times are shown in the event's time zone when the page belongs to an event (:func:`use_event_time_zone`),
else in UTC. The catalogs live in ``organizer/core/translations``; docs/translations.md says how to
extract, update and compile them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, g, has_request_context, redirect, request
from flask_babel import Babel, get_locale, get_timezone, gettext, ngettext, refresh
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.wrappers import Response

from organizer.core import translate
from organizer.core.security import same_site_path
from organizer.core.translate import DEFAULT_LANGUAGE, LANGUAGES, time_zone_names, valid_time_zone

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "LANGUAGE_COOKIE", "bp", "current_language", "environ_language",
           "init_app",
           "time_zone_names", "use_event_language", "use_event_time_zone", "valid_time_zone"]
LANGUAGE_COOKIE = "lang"
_YEAR = 365 * 24 * 3600

babel = Babel()
#: the gettext catalogs (docs/translations.md)
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
bp = Blueprint("language", __name__)


def select_locale() -> str:
    forced = g.get("event_language")
    if forced in LANGUAGES:
        return str(forced)
    if not has_request_context():  # a command or a job: the event's language when set, else English
        return DEFAULT_LANGUAGE
    return environ_language(request.environ)


def environ_language(environ: dict[str, Any]) -> str:
    """The language of a request no view forces, read from its WSGI environ: the language menu's
    cookie, else the browser's languages, else English. One rule for Flask's pages
    (:func:`select_locale`) and the middlewares that answer before Flask (the public page's fast
    poll, the practice gate), so a page they serve speaks what Flask's would."""
    chosen = parse_cookie(environ).get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return str(chosen)
    accepted = parse_accept_header(environ.get("HTTP_ACCEPT_LANGUAGE"), LanguageAccept)
    return accepted.best_match(LANGUAGES.keys()) or DEFAULT_LANGUAGE


def select_time_zone() -> str | None:
    """The event's zone on an event's pages (``/events/<event_id>/...`` finds it by itself, asked
    only when a page formats a time); pages reached by a code or token call use_event_time_zone."""
    zone = g.get("event_time_zone")
    if zone is None and request and (request.view_args or {}).get("event_id"):
        from organizer.core.db import get_session
        from organizer.core.models import Event

        event = get_session().get(Event, request.view_args["event_id"]) if request.view_args else None
        zone = g.event_time_zone = event.time_zone if event else "UTC"
    return str(zone) if zone and valid_time_zone(str(zone)) else None


def use_event_language(event: Any) -> None:
    """This request renders for the room (a PDF, the projector): speak the event's language."""
    g.event_language = getattr(event, "language", DEFAULT_LANGUAGE)
    refresh()


def use_event_time_zone(event: Any) -> None:
    """This request belongs to ``event``: show its times in the event's time zone."""
    g.event_time_zone = getattr(event, "time_zone", "UTC")
    refresh()


def current_language() -> str:
    locale = get_locale()
    return str(locale.language) if locale else DEFAULT_LANGUAGE


@bp.get("/language/<code>")
def choose(code: str) -> Response:
    """The language menu: remember the choice on this device and go back to the page.

    A link rather than a form: public pages carry no session (so no CSRF token), and the only
    effect is a cookie on the chooser's own device."""
    back = same_site_path(request.args.get("next")) or "/"
    response = redirect(back, code=303)
    if code in LANGUAGES:
        response.set_cookie(LANGUAGE_COOKIE, code, max_age=_YEAR, samesite="Lax", httponly=True,
                            secure=bool(request.is_secure))
    return response


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_time_zone)
    translate.install(gettext, ngettext, get_locale, get_timezone)
    # {% trans %} blocks are written over several lines; their msgids are the words, one space apart
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.jinja_env.globals.update(
        format_datetime=translate.format_datetime, format_time=translate.format_time,
        format_date=translate.format_date, format_number=translate.format_number,
        round_name=translate.round_name,
    )

    @app.context_processor
    def language_for_templates() -> dict[str, Any]:
        return {"languages": LANGUAGES, "current_language": current_language()}
