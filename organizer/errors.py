"""Friendly error pages: nothing answers with a bare server error page."""

from __future__ import annotations

import logging

from flask import Flask, Response, make_response, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from . import htmx

log = logging.getLogger(__name__)

MESSAGES = {
    400: "The request could not be understood.",
    403: "You may not do that.",
    404: "There is nothing at this address.",
    405: "That action is not available here.",
    413: "That upload is too large (2 MB at most).",
    429: "Too many requests; wait a moment and try again.",
    500: "Something went wrong on the server. Nothing you entered before this was lost; "
         "please try again, and tell the organizer if it keeps happening.",
}


def _error_response(status: int, message: str) -> Response:
    if htmx:
        # Shown in the page's message area instead of replacing the element that asked.
        response = make_response(render_template("partials/error.html", status=status, message=message), status)
        response.headers["HX-Retarget"] = "#messages"
        response.headers["HX-Reswap"] = "innerHTML"
        return response
    return make_response(render_template("error.html", status=status, message=message), status)


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> Response:
        return _error_response(
            400, "This form has expired or came from elsewhere. Reload the page and submit again.")

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        message = MESSAGES.get(status, error.description or "Request refused.")
        return _error_response(status, message)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return http_error(error)
        log.exception("unhandled error", exc_info=error)
        return _error_response(500, MESSAGES[500])

    @app.errorhandler(InternalServerError)
    def internal(error: InternalServerError) -> Response:
        return _error_response(500, MESSAGES[500])
