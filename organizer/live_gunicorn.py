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

bind = os.environ.get("ORGANIZER_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("ORGANIZER_WORKERS", max(2, (multiprocessing.cpu_count() * 3 + 1) // 2)))
worker_class = "gthread"
threads = int(os.environ.get("ORGANIZER_THREADS", 8))
# keep-alive: a polling phone reuses its connection instead of opening one a second
keepalive = 75
# the app (and its migration) is built once, before the workers fork
preload_app = True


def post_fork(server: Any, worker: Any) -> None:
    """Each worker starts with its own database pool: a connection opened by the parent before
    the fork (the migration's) must never be shared by two processes."""
    app = server.app.wsgi()
    engine = app.extensions.get("db_engine") if hasattr(app, "extensions") else None
    if engine is not None:
        engine.dispose(close=False)
