"""Security headers on every response: the one list, used by Flask's responses and by the
live tables' fast poll (:mod:`organizer.live.fastpoll`), which answers before Flask does."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, request
from werkzeug.exceptions import BadRequest

from organizer.core.translate import N_


def same_site_path(target: str | None) -> str | None:
    """``target`` when it is a path on this site, else None: a crafted ``?next=`` must never
    send anyone elsewhere (no scheme, no host, no protocol-relative ``//``)."""
    if target and target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return None

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

    description = N_("The request contains a NUL character (\\0), which no field accepts. "
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
    # a multipart part with a mangled header can parse with no name at all (None)
    if any(field and "\x00" in field for field in fields):
        raise NulInRequest()


class ChunkedBodyLimit:
    """WSGI middleware: a request body sent in chunks (no Content-Length) is read here, up to
    one byte over MAX_CONTENT_LENGTH, and handed on with its length. Werkzeug would otherwise
    read such a body only up to the limit and stop there silently (under gunicorn, which sets
    ``wsgi.input_terminated``), so an oversized upload was cut short and used. One byte over
    the limit gives the app a Content-Length it refuses with 413, like any oversized body."""

    def __init__(self, wsgi_app: Any, app: Flask) -> None:
        self.wsgi_app = wsgi_app
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        limit = self.app.config.get("MAX_CONTENT_LENGTH")
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if limit is not None and chunked and not environ.get("CONTENT_LENGTH"):
            stream = environ["wsgi.input"]
            parts: list[bytes] = []
            size = 0
            while size <= limit:
                part = stream.read(min(64 * 1024, limit + 1 - size))
                if not part:
                    break
                parts.append(part)
                size += len(part)
            environ["wsgi.input"] = io.BytesIO(b"".join(parts))
            environ["CONTENT_LENGTH"] = str(size)
            # Werkzeug ignores Content-Length while the request says it is chunked
            del environ["HTTP_TRANSFER_ENCODING"]
        return self.wsgi_app(environ, start_response)  # type: ignore[no-any-return]


def init_app(app: Flask) -> None:
    https = bool(app.config["HTTPS"])
    app.before_request(refuse_nul)
    app.wsgi_app = ChunkedBodyLimit(app.wsgi_app, app)  # type: ignore[method-assign]

    @app.after_request
    def add_headers(response: Response) -> Response:
        for name, value in security_headers(https, response.mimetype == "text/html"):
            response.headers.setdefault(name, value)
        return response
