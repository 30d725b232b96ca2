"""gunicorn settings for the production server, tuned for live tables on a small machine:
``gunicorn -c python:organizer.live_gunicorn 'organizer:create_app()'``.

Every seat's phone keeps a stream open for the whole round (organizer/live/push.py) and asks
"changed since N?" once a second besides, so the server holds thousands of mostly idle
connections: gevent's worker gives each one a greenlet (a few kilobytes) instead of a thread. A few
processes (about 1.5 per core) keep every core busy; more on a 2-core machine only add switching
and database connections. See docs/live.md and the benchmark in bench/bench_live.py. Override any
setting on the command line (``-w``, ``-k gthread --threads 8``, ``-b``) or with
``ORGANIZER_WORKER_CLASS=gthread`` (then the pages poll only)."""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

worker_class = os.environ.get("ORGANIZER_WORKER_CLASS", "gevent")
if worker_class == "gevent":
    # Before the app is preloaded: every lock, socket and thread the app makes must be gevent's
    # (gunicorn would patch again in each worker, too late for what the preloaded app made).
    from gevent import monkey  # type: ignore[import-untyped]

    monkey.patch_all()

bind = os.environ.get("ORGANIZER_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("ORGANIZER_WORKERS", max(2, (multiprocessing.cpu_count() * 3 + 1) // 2)))
threads = int(os.environ.get("ORGANIZER_THREADS", 8))
# open connections per gevent worker: every phone's stream and poll
worker_connections = int(os.environ.get("ORGANIZER_WORKER_CONNECTIONS", 5000))
# keep-alive: a polling phone reuses its connection instead of opening one a second
keepalive = 75
# a restart does not wait on the streams (their phones open them again at once), only on requests
graceful_timeout = 10
# the app (and its migration) is built once, before the workers fork
preload_app = True


def post_fork(server: Any, worker: Any) -> None:
    """Each worker starts with its own database pool: a connection opened by the parent before
    the fork (the migration's) must never be shared by two processes."""
    app = server.app.wsgi()
    engine = app.extensions.get("db_engine") if hasattr(app, "extensions") else None
    if engine is not None:
        engine.dispose(close=False)
