"""Friendly error pages: nothing answers with a bare server error page."""

from __future__ import annotations

import logging

from flask import Flask, Response, current_app, g, make_response, render_template
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, InternalServerError

from organizer.core.extensions import htmx
from organizer.core.translate import N_, _

log = logging.getLogger(__name__)

MESSAGES = {
    400: N_("The request could not be understood."),
    403: N_("You may not do that."),
    404: N_("There is nothing at this address."),
    405: N_("That action is not available here."),
    413: N_("That upload is too large (2 MB at most)."),
    429: N_("Too many requests; wait a moment and try again."),
    503: N_("The database is busy, so this was not saved. Try again in a moment; if you were sending "
            "a form, go back: what you typed is still there."),
    507: N_("The server's disk is full, so this was not saved. Tell the organizer to free some space, "
            "then try again; if you were sending a form, go back: what you typed is still there."),
    500: N_("Something went wrong on the server. Nothing you entered before this was lost; "
            "please try again, and tell the organizer if it keeps happening."),
}
#: The page's heading, by status; others say "Error 418".
TITLES = {
    400: N_("Request not understood"), 403: N_("Not allowed"), 404: N_("Page not found"),
    405: N_("Not available here"), 413: N_("Upload too large"), 429: N_("Too many requests"),
    500: N_("Something went wrong"), 503: N_("Not saved: the database is busy"), 507: N_("Not saved: the disk is full"),
}
CSRF_MESSAGE = N_("This form has expired or came from elsewhere. Reload the page and submit again.")
REFUSED = N_("Request refused.")


def _translated(message: str) -> str:
    """``message`` in the reader's language; English when even that fails (the error page must
    render whatever broke)."""
    try:
        return _(message)
    except Exception:
        log.exception("error message left untranslated")
        return message


def _roll_back() -> None:
    """A failed flush leaves the request's session unusable; the error page reads the signed-in
    organizer through it, so start a clean transaction first."""
    session = g.get("db_session")
    if session is not None:
        try:
            session.rollback()
        except Exception:  # the database may still be unreachable; the page must render anyway
            log.exception("rollback failed")


def _bare_message(status: int, message: str) -> str:
    """The message alone, rendered without the context processors: those read the signed-in
    account from the database, which may be what just failed (a locked file)."""
    template = current_app.jinja_env.get_template("core/error_fragment.html")
    return template.render(status=status, message=message)


def _error_response(status: int, message: str) -> Response:
    message = _translated(message)
    if htmx:
        # Shown in the page's message area instead of replacing the element that asked.
        try:
            fragment = render_template("core/error_fragment.html", status=status, message=message)
        except Exception:  # the database behind the context processors failed
            log.exception("error fragment fell back to the bare message")
            fragment = _bare_message(status, message)
        response = make_response(fragment, status)
        response.headers["HX-Retarget"] = "#messages"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    try:
        title = _translated(TITLES[status]) if status in TITLES else ""
        page = render_template("core/error.html", status=status, message=message, status_title=title)
    except Exception:  # the database behind the context processors failed
        # The whole page shows who is signed in, read from the database; when that is what
        # failed, the message alone still tells the user what happened.
        log.exception("error page fell back to the bare message")
        page = _bare_message(status, message)
    return make_response(page, status)


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> Response:
        return _error_response(400, CSRF_MESSAGE)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        # An exception that words its own message for the user (security.NulInRequest) keeps it.
        message = getattr(error, "user_message", None) or MESSAGES.get(status, error.description or REFUSED)
        return _error_response(status, message)

    @app.errorhandler(OperationalError)
    def database_unavailable(error: OperationalError) -> Response:
        # A locked SQLite file, a full disk, a database server gone: the transaction was rolled
        # back, so say plainly that nothing was saved rather than show a crash page.
        reason = str(error.orig or error).lower()
        log.error("database unavailable: %s", reason)
        _roll_back()
        status = 507 if "full" in reason or "no space" in reason else 503
        response = _error_response(status, MESSAGES[status])
        response.headers["Retry-After"] = "5"
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return http_error(error)
        log.exception("unhandled error", exc_info=error)
        _roll_back()
        return _error_response(500, MESSAGES[500])

    @app.errorhandler(InternalServerError)
    def internal(error: InternalServerError) -> Response:
        return _error_response(500, MESSAGES[500])
