"""The hot paths of polling: a live seat's "changed since N?" and the public page's "changed
since this stamp?", when nothing changed.

400 seats' devices ask once a second, hundreds of phones every 10 seconds, and nearly every
answer is "no" (204). This WSGI middleware gives that answer from one query
(:mod:`.services.live_poll`) before Flask builds a request context, a session and a response
object; anything else (a change, a pick timer to check, an unknown token or code, a page switched
off, a query of another shape, an error) goes on to Flask as usual, so the answers are the same,
only cheaper. The 204 carries the headers Flask's would (``organizer/security.py``'s, and the
``Vary: Cookie`` Flask adds once the session was looked at)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from flask import Flask

from .security import security_headers
from .services.live_poll import board_for

SEAT_PREFIX = "/play/"
PUBLIC_PREFIX = "/e/"
SUFFIX = "/changed"
#: the only parameters of the public page's poll: its stamp and the "find your table" search
#: (htmx sends the search field along; a search alone never changes what an unchanged stamp means)
PUBLIC_PARAMETERS = frozenset({"since", "q"})


class FastPoll:
    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.headers = [("Content-Type", "text/html; charset=utf-8"),
                        *security_headers(bool(app.config.get("HTTPS")), html=True), ("Vary", "Cookie")]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if self._unchanged(environ):
            start_response("204 NO CONTENT", list(self.headers))
            return []
        return self.wsgi_app(environ, start_response)

    def _unchanged(self, environ: dict[str, Any]) -> bool:
        path: str = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET" or not path.endswith(SUFFIX):
            return False
        query: str = environ.get("QUERY_STRING", "")
        try:
            if path.startswith(SEAT_PREFIX):
                return self._seat_unchanged(path[len(SEAT_PREFIX):-len(SUFFIX)], query)
            if path.startswith(PUBLIC_PREFIX):
                return self._public_unchanged(path[len(PUBLIC_PREFIX):-len(SUFFIX)], query)
        except Exception:  # noqa: BLE001 - Flask answers instead, with its error handling
            return False
        return False

    def _seat_unchanged(self, token: str, query: str) -> bool:
        if not token or "/" in token or not query.startswith("since=") or "&" in query:
            return False
        since = int(query[len("since="):])
        info = board_for(self.app.extensions["db_engine"]).lookup(token)
        return info is not None and info.version == since and not info.pick_timer_seconds

    def _public_unchanged(self, code: str, query: str) -> bool:
        if not code or "/" in code or "\x00" in code:
            return False
        params = parse_qs(query, keep_blank_values=True)
        # Flask refuses a NUL anywhere (400) and reads the first of repeated parameters: leave it those
        if not params.keys() <= PUBLIC_PARAMETERS or any(len(v) != 1 or "\x00" in v[0] for v in params.values()):
            return False
        since = params.get("since", [""])[0]
        return bool(since) and board_for(self.app.extensions["db_engine"]).public_stamp(code) == since


def install(app: Flask) -> None:
    app.wsgi_app = FastPoll(app, app.wsgi_app)  # type: ignore[method-assign]
