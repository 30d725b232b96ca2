"""The seats' streams: ``GET /play/<token>/events`` answered before Flask, as
``text/event-stream``.

A stream says the seat's mark (:func:`organizer.live.poll.since_mark`) at once and whenever its
table changes, never a card; the page then fetches its own screen with its poll, as ever, so what
a seat may see is decided in one place. Streams are served only under an event-loop worker (gevent), where an idle stream is a
greenlet, not a thread; anywhere else the answer is 204, which tells the browser not to retry, and
the page polls as before.

Each stream waits on its table's gate in the process's notifier (:mod:`organizer.live.push`), so a
waiting stream reads no table."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask

from organizer.core.security import security_headers
from organizer.live.poll import PollInfo, VersionBoard, since_mark

#: a stream whose process is told of changes says the seat's mark again this often: the page
#: knows its stream is alive (and polls only every ``SLOW_POLL`` seconds, static/live/push.js) as
#: long as these arrive; it also keeps proxies from closing an idle stream and finds streams whose
#: phone has gone
HEARTBEAT_SECONDS = 5.0
#: a stream ends after about this long and the browser opens it again (to whichever server the
#: proxy picks), so servers share the phones again after one restarted
STREAM_SECONDS = 300.0
#: what the browser waits before opening a dropped stream again (ms)
RETRY_MS = 1000

PREFIX = "/play/"
SUFFIX = "/events"


def streams_enabled(app: Flask) -> bool:
    """Whether this server streams: ``LIVE_PUSH`` true or false, or by default only under
    gevent's monkey-patching (gunicorn's gevent worker), where an idle stream holds no thread."""
    setting = app.config.get("LIVE_PUSH")
    if setting is not None:
        return bool(setting)
    try:
        from gevent import monkey  # type: ignore[import-untyped]
    except ImportError:
        return False
    return bool(monkey.is_module_patched("socket"))


def message(mark: str) -> bytes:
    return f"id: {mark}\ndata: {mark}\n\n".encode()


class StreamMiddleware:
    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]],
                 board: Callable[[], VersionBoard]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.board = board
        self.headers = [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                        ("X-Accel-Buffering", "no"), *security_headers(bool(app.config.get("HTTPS")), html=False)]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET" or not path.startswith(PREFIX) or not path.endswith(SUFFIX):
            return self.wsgi_app(environ, start_response)
        token = path[len(PREFIX):-len(SUFFIX)]
        if not token or "/" in token:
            return self.wsgi_app(environ, start_response)
        if not streams_enabled(self.app):
            start_response("204 NO CONTENT", [("Cache-Control", "no-store")])
            return []
        board = self.board()
        info = board.lookup(token)
        if info is None:  # Flask's own 404 page for a token no seat has
            return self.wsgi_app(environ, start_response)
        start_response("200 OK", list(self.headers))
        return self._stream(board, token, info)

    def _stream(self, board: VersionBoard, token: str, info: PollInfo) -> Iterator[bytes]:
        yield f"retry: {RETRY_MS}\n\n".encode()
        shown = ""
        ends = time.monotonic() + STREAM_SECONDS * (0.8 + 0.4 * random.random())
        while time.monotonic() < ends:
            notifier = board.notifier  # (a new one after the engine was disposed)
            gate = notifier.gate(info.table_id) if notifier is not None else None
            found = board.lookup(token)
            if found is None:
                return
            info = found
            mark = since_mark(info.version, info.bot)
            if mark != shown:
                shown = mark
                yield message(mark)
            if notifier is None or gate is None or not notifier.healthy:
                # nothing tells this process of changes: a comment, which the page does not count
                # as a sign of life, so its poll goes on every second and does the work
                time.sleep(HEARTBEAT_SECONDS)
                yield b": still here\n\n"
            elif not gate.wait(HEARTBEAT_SECONDS):
                yield message(mark)


def install(app: Flask, board: Callable[[], VersionBoard]) -> None:
    app.wsgi_app = StreamMiddleware(app, app.wsgi_app, board)  # type: ignore[method-assign]

