"""The documented production path: gunicorn serving create_app() on the configured database."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from organizer import PROJECT_ROOT

#: starts gunicorn: the complete tier
pytestmark = pytest.mark.system


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_gunicorn_serves_the_app(database_url: str, tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "ORGANIZER_INSTANCE_PATH": str(tmp_path / "instance")}
    gunicorn = Path(sys.executable).parent / "gunicorn"
    # The command the README documents (with a loopback port).
    server = subprocess.Popen([str(gunicorn), "--preload", "-w", "2", "-b", f"127.0.0.1:{port}", "organizer:create_app()"],
                              cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/first-run", timeout=2) as response:
                    body = response.read().decode()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    server.kill()
                    raise AssertionError(
                        "gunicorn did not answer:\n" + (server.stdout.read().decode() if server.stdout else "")) from None
                time.sleep(0.2)
        assert "Create account and sign in" in body or "Sign in" in body
        # Workers forked from the preloaded app must not share its database connections:
        # many requests at once, each reading the database, all answered properly.
        statuses: list[int] = []

        def fetch() -> None:
            for _ in range(10):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/first-run", timeout=30) as response:
                    statuses.append(response.status)

        threads = [threading.Thread(target=fetch) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert statuses == [200] * 60
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
