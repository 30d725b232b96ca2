"""Security headers on every response: the one list, used by Flask's responses and by the
live tables' fast poll (:mod:`.live_fastpoll`), which answers before Flask does."""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.exceptions import BadRequest

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "style-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "object-src 'none'",
    ]
)


def security_headers(https: bool, html: bool) -> list[tuple[str, str]]:
    """The headers every response carries (``html``: the response is an HTML page)."""
    headers = [
        ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "same-origin"),
        ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
    ]
    if https:
        headers.append(("Strict-Transport-Security", "max-age=31536000"))
    if html:
        # Pages carry names and results that change by the minute; never serve stale ones.
        headers.append(("Cache-Control", "no-store"))
    return headers


class NulInRequest(BadRequest):
    """A NUL character in the address or a form field. No text the app stores may hold one
    (PostgreSQL refuses it outright), so the request is refused before any view reads it."""

    description = ("The request contains a NUL character (\\0), which no field accepts. "
                   "Remove it and send the form again.")
    #: shown as is by the error page (see errors.py)
    user_message = description


def refuse_nul() -> None:
    """Refuse a NUL anywhere in the path, the query or the form fields (names and values).
    Uploaded files are read by their services, which refuse it in any text they keep."""
    fields = [request.path, *request.args.keys(), *request.args.values()]
    if request.method in ("POST", "PUT", "PATCH") and request.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        fields += [*request.form.keys(), *request.form.values()]
    if any("\x00" in field for field in fields):
        raise NulInRequest()


def init_app(app: Flask) -> None:
    https = bool(app.config["HTTPS"])
    app.before_request(refuse_nul)

    @app.after_request
    def add_headers(response: Response) -> Response:
        for name, value in security_headers(https, response.mimetype == "text/html"):
            response.headers.setdefault(name, value)
        return response
