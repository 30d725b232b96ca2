"""The hot path of live tables: a device's "changed since N?" poll when nothing changed.

400 phones ask once a second and nearly every answer is "no" (204). This WSGI middleware gives
that answer from one primary-key query (:mod:`.services.live_poll`) before Flask builds a
request context, a session and a response object; anything else (a change, a pick timer to
check, an unknown token, an error) goes on to Flask as usual, so the answers are the same, only
cheaper. The 204 carries the same security headers Flask's would (``organizer/security.py``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask

from .security import security_headers
from .services.live_poll import board_for

PREFIX = "/play/"
SUFFIX = "/changed"


class FastPoll:
    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.headers = [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", "0"),
                        *security_headers(bool(app.config.get("HTTPS")), html=True)]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if self._unchanged(environ):
            start_response("204 NO CONTENT", list(self.headers))
            return []
        return self.wsgi_app(environ, start_response)

    def _unchanged(self, environ: dict[str, Any]) -> bool:
        path: str = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET" or not path.startswith(PREFIX) or not path.endswith(SUFFIX):
            return False
        token = path[len(PREFIX):-len(SUFFIX)]
        query: str = environ.get("QUERY_STRING", "")
        if not token or "/" in token or not query.startswith("since=") or "&" in query:
            return False
        try:
            since = int(query[len("since="):])
            info = board_for(self.app.extensions["db_engine"]).lookup(token)
        except Exception:  # noqa: BLE001 - Flask answers instead, with its error handling
            return False
        return info is not None and info.version == since and not info.pick_timer_seconds


def install(app: Flask) -> None:
    app.wsgi_app = FastPoll(app, app.wsgi_app)  # type: ignore[method-assign]
