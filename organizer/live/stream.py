"""The pages' streams, answered as ``text/event-stream``: a live seat's (``GET
/play/<token>/events``), the public page's (``/e/<code>/events``) and a player's own page's
(``/p/<token>/events``), all before Flask, and the live overview's (:func:`round_stream`, through
its view, which checks the organizer's permission first).

A stream says its page's mark at once and whenever it changes, never anything the page shows: a
seat's table version (:func:`organizer.live.poll.since_mark`), the event's stamp
(:func:`organizer.public.service.stamp`), the round's mark for the overview. The page then
fetches its own content with its poll, as ever, so what anyone may see is decided in one place.
Streams are served only under an event-loop worker (gevent), where an idle stream is a greenlet,
not a thread; anywhere else the answer is 204, which tells the browser not to retry, and the page
polls as before.

Each stream waits on a gate in the process's notifier (:mod:`organizer.live.push`), so a waiting
stream reads no table; an event's or a round's mark is read once per process per change, whatever
the number of streams."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask import Flask

from organizer.core import streams as core_streams
from organizer.core.security import security_headers
from organizer.live.poll import VersionBoard, since_mark
from organizer.live.push import Notifier

log = logging.getLogger("organizer.live.stream")

#: a stream whose process is told of changes says its page's mark again this often: the page
#: knows its stream is alive (and its timed poll slows down, static/live/push.js) as long as
#: these arrive; it also keeps proxies from closing an idle stream and finds streams whose
#: phone has gone
HEARTBEAT_SECONDS = 5.0
#: a stream ends after about this long and the browser opens it again (to whichever server the
#: proxy picks), so servers share the phones again after one restarted
STREAM_SECONDS = 300.0
#: what the browser waits before opening a dropped stream again (ms)
RETRY_MS = 1000

SEAT_PREFIX = "/play/"
PUBLIC_PREFIX = "/e/"
PLAYER_PREFIX = "/p/"
SUFFIX = "/events"


def streams_enabled(app: Flask) -> bool:
    return core_streams.streams_enabled(app.config)


def message(mark: str) -> bytes:
    return f"id: {mark}\ndata: {mark}\n\n".encode()


def headers(https: bool) -> list[tuple[str, str]]:
    return [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
            ("X-Accel-Buffering", "no"), *security_headers(https, html=False)]


def _follow(board: VersionBoard, gate_of: Callable[[Notifier], threading.Event],
            current: Callable[[], str | None]) -> Iterator[bytes]:
    """The stream: ``current()`` (the page's mark; None ends the stream) at once and after every
    change, ``gate_of`` the notifier's gate for the next one."""
    yield f"retry: {RETRY_MS}\n\n".encode()
    shown, said_at = "", 0.0
    ends = time.monotonic() + STREAM_SECONDS * (0.8 + 0.4 * random.random())
    while time.monotonic() < ends:
        notifier = board.notifier  # (a new one after the engine was disposed)
        gate = gate_of(notifier) if notifier is not None else None
        try:
            mark = current()
        except Exception:  # the database went away: the browser opens the stream again
            log.warning("a stream ended: its mark could not be read", exc_info=True)
            return
        if mark is None:
            return
        told = notifier is not None and gate is not None and notifier.healthy
        # a gate opened by a change that left this mark as it was (on SQLite any commit opens
        # every event's gate) says nothing, but the mark is still said every HEARTBEAT_SECONDS
        if mark != shown or (told and time.monotonic() - said_at >= HEARTBEAT_SECONDS):
            shown, said_at = mark, time.monotonic()
            yield message(mark)
        if not told or gate is None:
            # nothing tells this process of changes yet: a comment, which the page does not count
            # as a sign of life, so its poll goes on at its own pace and does the work. A notifier
            # still connecting (a process just started, every phone's stream opened again) opens
            # every gate once it listens, and the stream is told from then on.
            if gate is not None:
                gate.wait(HEARTBEAT_SECONDS)
            else:
                time.sleep(HEARTBEAT_SECONDS)
            yield b": still here\n\n"
        else:
            gate.wait(max(0.0, said_at + HEARTBEAT_SECONDS - time.monotonic()))


def seat_stream(board: VersionBoard, token: str, table_id: int) -> Iterator[bytes]:
    def current() -> str | None:
        found = board.lookup(token)
        return None if found is None else since_mark(found.version, found.bot)
    return _follow(board, lambda notifier: notifier.gate(table_id), current)


def event_stream(board: VersionBoard, event_id: int, code: str | None = None) -> Iterator[bytes]:
    """The event's stamp; ``code``: for the public page under that code, which ends the stream
    once the page is switched off or moved to another code."""
    def current() -> str | None:
        found = board.event_stamp(event_id)
        if found is None or (code is not None and (found.code != code or not found.public_page)):
            return None
        return found.stamp
    return _follow(board, lambda notifier: notifier.mark_gate(("e", event_id), event_id), current)


def round_stream(board: VersionBoard, round_id: int, event_id: int) -> Iterator[bytes]:
    """The round's mark, for its live overview (whose view checked who may follow it)."""
    return _follow(board, lambda notifier: notifier.mark_gate(("r", round_id), event_id),
                   lambda: board.round_mark(round_id, event_id))


class StreamMiddleware:
    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]],
                 board: Callable[[], VersionBoard]) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.board = board
        self.headers = headers(bool(app.config.get("HTTPS")))

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET" or not path.endswith(SUFFIX):
            return self.wsgi_app(environ, start_response)
        for prefix in (SEAT_PREFIX, PUBLIC_PREFIX, PLAYER_PREFIX):
            if path.startswith(prefix):
                break
        else:
            return self.wsgi_app(environ, start_response)
        key = path[len(prefix):-len(SUFFIX)]
        if not key or "/" in key or "\x00" in key:
            return self.wsgi_app(environ, start_response)
        if not streams_enabled(self.app):
            start_response("204 NO CONTENT", [("Cache-Control", "no-store")])
            return []
        board = self.board()
        try:
            body = self._open(board, prefix, key)
        except Exception:  # the database is busy or gone: the page's script tries again
            log.warning("a stream could not be opened", exc_info=True)
            start_response("503 SERVICE UNAVAILABLE", [("Cache-Control", "no-store"), ("Retry-After", "1")])
            return []
        if body is None:  # Flask's own 404 page for a token or code nothing has
            return self.wsgi_app(environ, start_response)
        start_response("200 OK", list(self.headers))
        return body

    def _open(self, board: VersionBoard, prefix: str, key: str) -> Iterator[bytes] | None:
        if prefix == SEAT_PREFIX:
            info = board.lookup(key)
            return None if info is None else seat_stream(board, key, info.table_id)
        if prefix == PUBLIC_PREFIX:
            event_id = board.page_event(key)
            return None if event_id is None else event_stream(board, event_id, key)
        event_id = board.player_event(key)
        return None if event_id is None else event_stream(board, event_id)


def install(app: Flask, board: Callable[[], VersionBoard]) -> None:
    app.wsgi_app = StreamMiddleware(app, app.wsgi_app, board)  # type: ignore[method-assign]
