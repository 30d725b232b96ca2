"""Refusing a flood of practice games cheaply (a single client can send thousands in seconds).

The limit itself is counted in the database (:mod:`organizer.core.rate_windows`), shared by every
worker, and decided by Flask's view (:func:`.practice.create`). Once the view has refused an
address, it leaves in the request's environ when that address's window ends, and this WSGI
middleware remembers it: until then, this process answers that address's ``POST /practice``
itself, before Flask, the session, CSRF and the database, with the page the view gives (in the
client's language, or its HTMX fragment), the same 429 status, ``Retry-After`` and headers.

Remembering is safe because nothing but time ends a refusal early: a window's count only grows
until the window ends. Other workers learn of the refusal from their own first one. CSRF is not
checked for a refused address: nothing is created, whatever the request carries."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from markupsafe import escape

from organizer.core.i18n import LANGUAGE_COOKIE
from organizer.core.i18n import environ_language as client_language
from organizer.core.security import security_headers
from organizer.live import practice as service
from organizer.live import practice_views as practice

PATH = "/practice"
#: addresses remembered at most; beyond that, the ended refusals are forgotten, then all (the
#: next refusal of each comes from Flask again, as it would without this middleware)
MAX_REMEMBERED = 10_000
#: the wait's place in the page rendered once per language (survives HTML escaping as it is)
WAIT_MARK = "\x00wait\x00"


class PracticeGate:
    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        #: client address -> when its refusal ends (time.time())
        self.refused_until: dict[str, float] = {}
        #: (language, fragment?) -> the page's bytes before and after the wait
        self.pages: dict[tuple[str, bool], tuple[bytes, bytes]] = {}
        #: (language, seconds) -> the wait in words, escaped
        self.waits: dict[tuple[str, int], bytes] = {}
        self.headers = [*security_headers(bool(app.config.get("HTTPS")), html=True), ("Vary", "Cookie")]
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST" or environ.get("PATH_INFO") != PATH:
            return self.wsgi_app(environ, start_response)
        address = environ.get("REMOTE_ADDR") or "unknown"  # as the view reads it (inside ProxyFix)
        until = self.refused_until.get(address)
        if until is not None:
            left = until - time.time()
            if left > 0:
                try:
                    body = self._page(environ, math.ceil(left))
                except Exception:  # noqa: BLE001 - Flask answers instead, with its error handling
                    body = None
                if body is not None:
                    start_response("429 TOO MANY REQUESTS", [
                        ("Retry-After", str(math.ceil(left))), ("Content-Type", "text/html; charset=utf-8"),
                        ("Content-Length", str(len(body))), *self.headers])
                    return [body]
        answer = self.wsgi_app(environ, start_response)
        refused_until = environ.get(practice.REFUSED_UNTIL)
        if isinstance(refused_until, float):
            self._remember(address, refused_until)
        return answer

    def _remember(self, address: str, until: float) -> None:
        with self.lock:
            if len(self.refused_until) >= MAX_REMEMBERED:
                now = time.time()
                for known, ends in list(self.refused_until.items()):
                    if ends <= now:
                        del self.refused_until[known]
                if len(self.refused_until) >= MAX_REMEMBERED:
                    self.refused_until.clear()
            self.refused_until[address] = until

    def _page(self, environ: dict[str, Any], wait: int) -> bytes:
        language = client_language(environ)
        # the fragment exactly when organizer.core.pages.render_page would send it
        fragment = environ.get("HTTP_HX_REQUEST") == "true" and environ.get("HTTP_HX_BOOSTED") != "true"
        page = self.pages.get((language, fragment))
        words = self.waits.get((language, wait))
        if page is None or words is None:
            page, words = self._render(language, fragment, wait)
        before, after = page
        return before + words + after

    def _render(self, language: str, fragment: bool, wait: int) -> tuple[tuple[bytes, bytes], bytes]:
        """The refusal page in ``language`` with a mark where the wait goes, rendered by the view's
        own function in a request of that language, and the wait in words."""
        headers = {"Cookie": f"{LANGUAGE_COOKIE}={language}"}
        if fragment:
            headers["HX-Request"] = "true"
        with self.app.test_request_context(PATH, method="POST", headers=headers):
            page = self.pages.get((language, fragment))
            if page is None:
                limits = service.PracticeLimits.from_config(self.app.config)
                # no CSRF token: it belongs to the client's session, which is not read here (the
                # page has no form; its link opens the practice form with a fresh token)
                text, _status = practice.refusal_page(service.too_many_from_address(limits, WAIT_MARK), 429,
                                                      csrf_token=lambda: "")
                before, mark, after = text.encode("utf-8").partition(WAIT_MARK.encode("utf-8"))
                if not mark:
                    raise LookupError("the refusal's sentence has no place for the wait")
                page = self.pages[(language, fragment)] = (before, after)
            if len(self.waits) >= MAX_REMEMBERED:
                self.waits.clear()
            words = self.waits[(language, wait)] = str(escape(service.wait_in_words(wait))).encode("utf-8")
        return page, words


def install(app: Flask) -> None:
    """Wrap the app as it stands (before ProxyFix wraps it: the gate must see the address the
    views see)."""
    gate = PracticeGate(app, app.wsgi_app)
    app.extensions["practice_gate"] = gate
    app.wsgi_app = gate  # type: ignore[method-assign]
