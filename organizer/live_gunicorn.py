"""gunicorn settings for the production server, tuned for live tables on a small machine:
``gunicorn -c python:organizer.live_gunicorn 'organizer:create_app()'``.

Every seat's device asks "changed since N?" once a second, so most requests are tiny: a few
processes (about 1.5 per core) with several threads each keep every core busy while one thread
waits; more processes on a 2-core machine only add switching and database connections.
An unchanged poll is answered from the process's map of table versions, which the database keeps
current (organizer/live/push.py).

``ORGANIZER_WORKER_CLASS=gevent`` serves the seats' streams as well (organizer/live/stream.py): an
idle stream is then a greenlet, not a thread, and each page is told of a change the moment it is
committed. It is not the default until it has been measured on a quiet machine: on the shared
development machine it answered more slowly than the threaded workers (docs/live.md,
docs/performance.md). See also bench/bench_live.py. Override any setting on the command line
(``-w``, ``--threads``, ``-b``); change the worker class with the variable, not ``-k``, so the
patching below matches it."""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

worker_class = os.environ.get("ORGANIZER_WORKER_CLASS", "gthread")
if worker_class == "gevent":
    # Before anything else is imported and before the app is preloaded: every lock, socket and
    # thread the app makes must be gevent's (gunicorn would patch again in each worker, too late
    # for what the preloaded app made).
    from gevent import monkey  # type: ignore[import-untyped]

    monkey.patch_all()

from gunicorn.glogging import Logger  # noqa: E402 - after the patching above

from organizer.core.logs import RedactTokens  # noqa: E402
from organizer.core.proxy import unsafe_binds  # noqa: E402

bind = os.environ.get("ORGANIZER_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("ORGANIZER_WORKERS", max(2, (multiprocessing.cpu_count() * 3 + 1) // 2)))
threads = int(os.environ.get("ORGANIZER_THREADS", 8))
# open connections per gevent worker: every phone's stream and its poll
worker_connections = int(os.environ.get("ORGANIZER_WORKER_CONNECTIONS", 5000))
# keep-alive: a polling phone reuses its connection instead of opening one a second
keepalive = 75
# a restart does not wait on streams (their phones open them again at once), only on requests
graceful_timeout = 10
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
