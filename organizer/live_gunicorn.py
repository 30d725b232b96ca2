"""gunicorn settings for the production server, tuned for live tables on a small machine:
``gunicorn -c python:organizer.live_gunicorn 'organizer:create_app()'``.

Every seat's device asks "changed since N?" once a second, so most requests are tiny and
wait on the database, not the CPU: a few processes (about 1.5 per core) with several threads
each keep every core busy while one thread waits; more processes on a 2-core machine only add
switching and database connections. See docs/live.md and the benchmark in
bench/bench_live.py. Override any setting on the command line (``-w``, ``--threads``, ``-b``)."""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

from gunicorn.glogging import Logger

from organizer.core.logs import RedactTokens
from organizer.core.proxy import unsafe_binds

bind = os.environ.get("ORGANIZER_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("ORGANIZER_WORKERS", max(2, (multiprocessing.cpu_count() * 3 + 1) // 2)))
worker_class = "gthread"
threads = int(os.environ.get("ORGANIZER_THREADS", 8))
# keep-alive: a polling phone reuses its connection instead of opening one a second
keepalive = 75
# the app (and its migration) is built once, before the workers fork
preload_app = True
# a request still running after this is killed with its worker; SQLite gives up waiting for a
# lock well before (organizer.core.db.SQLITE_BUSY_TIMEOUT), so the user gets the 503 page
timeout = 30


class RedactingLogger(Logger):  # type: ignore[misc]
    """gunicorn's logs with players' and links' tokens left out of every path."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(existing, RedactTokens) for existing in log.filters):
                log.addFilter(RedactTokens())


logger_class = RedactingLogger


def _proxy_fix_on() -> bool:
    return os.environ.get("ORGANIZER_PROXY_FIX", "").strip().lower() not in ("", "0", "false", "no")


def on_starting(server: Any) -> None:
    """Behind a proxy the server must be reachable only through it: trusting X-Forwarded-For on a
    port anyone can reach would let any client name its own address. A server on another machine
    than its proxy (several servers behind one Caddy) names the proxy in ORGANIZER_PROXY_ADDRESSES:
    then only requests from there have their forwarded headers believed, whoever else connects."""
    unsafe = unsafe_binds(server.cfg.bind)
    if _proxy_fix_on() and unsafe and not os.environ.get("ORGANIZER_PROXY_ADDRESSES", "").strip():
        raise SystemExit(f"ORGANIZER_PROXY_FIX=1 but gunicorn listens on {', '.join(unsafe)}, which others can "
                         "reach directly: bind to 127.0.0.1 or a unix socket behind the proxy, or name the proxy's "
                         "address in ORGANIZER_PROXY_ADDRESSES when it runs on another machine (docs/deployment.md).")


def post_fork(server: Any, worker: Any) -> None:
    """Each worker starts with its own database pool: a connection opened by the parent before
    the fork (the migration's) must never be shared by two processes."""
    app = server.app.wsgi()
    engine = app.extensions.get("db_engine") if hasattr(app, "extensions") else None
    if engine is not None:
        engine.dispose(close=False)
