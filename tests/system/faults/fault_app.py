"""The real app with fault hooks, for ``gunicorn 'tests.system.faults.fault_app:create_app()'``.

Set by environment variables (the fault tests start the server with them):

- ``FAULT_PAUSE_PATH`` (regex) and ``FAULT_PAUSE_AT`` (``after_flush:N``, ``before_commit:N`` or
  ``after_commit:N``): a POST to a matching path stops after its Nth flush or just before its
  Nth commit (written to the database file inside the open transaction), or right after its
  Nth commit, touches ``FAULT_MARKER`` and sleeps, so the
  test can SIGKILL the server at exactly that moment;
- ``FAULT_SQLITE_TIMEOUT``: seconds SQLite waits for a lock (the app waits 10 s; a test of a
  locked database should not);
- ``FAULT_MAX_PAGE_COUNT``: SQLite's ``max_page_count`` on every connection, a full disk where
  no small filesystem can be mounted;
- ``FAULT_CLOSE_RAISES`` (regex): closing the database session of a request to a matching path
  raises the error a PostgreSQL restart gives (the connection closed under the request), after
  the response is made.
- ``FAULT_HASH_METHOD``: the method new password hashes are made with (and sign-ins rehash
  to), e.g. werkzeug's ``pbkdf2:sha256:1000``: a suite whose subject is not passwords signs
  in without argon2's half second of work per sign-in (the page tests' cheap hash).

Nothing else differs from ``organizer.create_app``."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

from flask import Flask, g, has_request_context, request
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

import organizer.core.db
from organizer import create_app as create_real_app


def _pause_hook(kind: str, nth: int, pattern: re.Pattern[str], marker: Path) -> Any:
    def hook(*_args: Any) -> None:
        if not has_request_context() or request.method != "POST" or not pattern.search(request.path):
            return
        count = g.get(f"fault_{kind}", 0) + 1
        setattr(g, f"fault_{kind}", count)
        if count == nth:
            marker.write_text(f"{kind}:{nth} {request.path}\n")
            time.sleep(120)  # killed here

    return hook


def _close_raises(app: Flask, pattern: re.Pattern[str]) -> None:
    real_close = Session.close

    @app.before_request
    def mark() -> None:
        g.fault_close_raises = bool(pattern.search(request.path))

    def close(self: Session) -> None:
        real_close(self)
        if g and g.pop("fault_close_raises", False):
            raise OperationalError("ROLLBACK", {}, Exception("server closed the connection unexpectedly"))

    Session.close = close  # type: ignore[method-assign]


def create_app() -> Flask:
    timeout = os.environ.get("FAULT_SQLITE_TIMEOUT")
    max_pages = os.environ.get("FAULT_MAX_PAGE_COUNT")
    real_make_engine = organizer.core.db.make_engine

    def make_engine(url: str) -> Any:
        engine = real_make_engine(url)
        if url.startswith("sqlite"):
            @event.listens_for(engine, "connect")
            def limits(connection: Any, _record: Any) -> None:
                if timeout:
                    connection.execute(f"PRAGMA busy_timeout = {int(float(timeout) * 1000)}")
                if max_pages:
                    connection.execute(f"PRAGMA max_page_count = {int(max_pages)}")
        return engine

    organizer.core.db.make_engine = make_engine  # type: ignore[assignment]
    hash_method = os.environ.get("FAULT_HASH_METHOD")
    if hash_method:
        from organizer.accounts import service as accounts

        accounts.HASH_METHOD = hash_method
    app = create_real_app()

    close_raises = os.environ.get("FAULT_CLOSE_RAISES")
    if close_raises:
        _close_raises(app, re.compile(close_raises))

    pause_at = os.environ.get("FAULT_PAUSE_AT")
    if pause_at:
        kind, nth = pause_at.split(":")
        pattern = re.compile(os.environ["FAULT_PAUSE_PATH"])
        marker = Path(os.environ["FAULT_MARKER"])
        if kind == "after_flush":
            event.listen(Session, "after_flush_postexec", _pause_hook(kind, int(nth), pattern, marker))
        elif kind == "before_commit":
            # Core statements (an UPDATE ... WHERE version = n) write without an ORM flush.
            event.listen(Session, "before_commit", _pause_hook(kind, int(nth), pattern, marker))
        elif kind == "after_commit":
            event.listen(Session, "after_commit", _pause_hook(kind, int(nth), pattern, marker))
        else:
            raise ValueError(f"FAULT_PAUSE_AT {pause_at!r}: expected after_flush:N, before_commit:N or after_commit:N")
    return app
