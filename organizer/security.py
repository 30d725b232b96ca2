"""Security headers on every response: the one list, used by Flask's responses and by the
live tables' fast poll (:mod:`.live_fastpoll`), which answers before Flask does."""

from __future__ import annotations

from flask import Flask, Response

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


def init_app(app: Flask) -> None:
    https = bool(app.config["HTTPS"])

    @app.after_request
    def add_headers(response: Response) -> Response:
        for name, value in security_headers(https, response.mimetype == "text/html"):
            response.headers.setdefault(name, value)
        return response
