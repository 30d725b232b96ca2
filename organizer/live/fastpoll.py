"""The hot paths of polling: a live seat's "changed since N?" and the public page's "changed
since this stamp?", when nothing changed.

400 seats' devices ask once a second, hundreds of phones every 10 seconds, and nearly every
answer is "no" (204). This WSGI middleware gives that answer from one query
(:mod:`organizer.live.poll`) before Flask builds a request context, a session and a response
object; anything else (a change, a pick timer to check, an unknown token or code, a page switched
off, a query of another shape, an error) goes on to Flask as usual, so the answers are the same,
only cheaper. A phone's poll after a change gets the page's fragment from here too when this
process rendered it already for another phone (nearly every poll while results come in). Both
carry the headers Flask's would (``organizer/core/security.py``'s, and the
``Vary: Cookie`` Flask adds once the session was looked at)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from flask import Flask

from organizer.core.i18n import environ_language
from organizer.core.security import security_headers
from organizer.live.poll import board_for, read_since
from organizer.public import views as public

SEAT_PREFIX = "/play/"
PUBLIC_PREFIX = "/e/"
SUFFIX = "/changed"
#: the only parameters of the public page's poll: its stamp, the "find your table" search (htmx
#: sends the search field along; a search alone never changes what an unchanged stamp means) and
#: the stamp its stream said (static/core/push.js; one this process has not heard of is read afresh)
PUBLIC_PARAMETERS = frozenset({"since", "q", "pushed"})


#: what the middleware answers: status, headers, body
Answer = tuple[str, list[tuple[str, str]], bytes]


class FastPoll:
    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.headers = [("Content-Type", "text/html; charset=utf-8"),
                        *security_headers(bool(app.config.get("HTTPS")), html=True), ("Vary", "Cookie")]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        answer = self._answer(environ)
        if answer is None:
            return self.wsgi_app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body] if body else []

    def _answer(self, environ: dict[str, Any]) -> Answer | None:
        path: str = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET" or not path.endswith(SUFFIX):
            return None
        query: str = environ.get("QUERY_STRING", "")
        try:
            if path.startswith(SEAT_PREFIX):
                return self._seat(path[len(SEAT_PREFIX):-len(SUFFIX)], query)
            if path.startswith(PUBLIC_PREFIX):
                return self._public(path[len(PUBLIC_PREFIX):-len(SUFFIX)], query, environ)
        except Exception:  # noqa: BLE001 - Flask answers instead, with its error handling
            return None
        return None

    def _unchanged(self) -> Answer:
        return "204 NO CONTENT", list(self.headers), b""

    def _seat(self, token: str, query: str) -> Answer | None:
        if not token or "/" in token or not query.startswith("since=") or "&" in query:
            return None
        since = read_since(query[len("since="):])
        if since is None:
            return None
        info = board_for(self.app.extensions["db_engine"]).lookup(token)
        if info is not None and (info.version, info.bot) == since and not info.pick_timer_seconds:
            return self._unchanged()
        return None

    def _public(self, code: str, query: str, environ: dict[str, Any]) -> Answer | None:
        """204 for the stamp the phone shows; the page's fragment when this process has the one of
        the new stamp already (rendered for an earlier phone), as Flask's view would send it."""
        if not code or "/" in code or "\x00" in code:
            return None
        params = parse_qs(query, keep_blank_values=True)
        # Flask refuses a NUL anywhere (400) and reads the first of repeated parameters: leave it those
        if not params.keys() <= PUBLIC_PARAMETERS or any(len(v) != 1 or "\x00" in v[0] for v in params.values()):
            return None
        since = params.get("since", [""])[0]
        if not since:
            return None
        board = board_for(self.app.extensions["db_engine"])
        current = board.public_stamp(code)
        pushed = params.get("pushed", [""])[0]
        if current is not None and pushed and pushed != current:
            current = board.public_stamp(code, fresh=True)  # told by a stream of a change not heard here yet
        if current is None:
            return None
        if current == since:
            return self._unchanged()
        if environ.get("HTTP_HX_REQUEST") != "true":  # a whole page: Flask builds it
            return None
        fragment = public.cached_fragment(code, current, params.get("q", [""])[0], environ_language(environ))
        if fragment is None:
            return None
        body = fragment.encode("utf-8")
        return "200 OK", [self.headers[0], ("Content-Length", str(len(body))), *self.headers[1:]], body


def install(app: Flask) -> None:
    app.wsgi_app = FastPoll(app, app.wsgi_app)  # type: ignore[method-assign]
