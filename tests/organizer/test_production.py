"""The documented production path: gunicorn serving create_app() on the configured database."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from organizer import PROJECT_ROOT


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
                    raise AssertionError("gunicorn did not answer:\n" + (server.stdout.read().decode() if server.stdout else ""))
                time.sleep(0.2)
        assert "Create account and sign in" in body or "Sign in" in body
        assert (tmp_path / "instance" / "secret_key").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)
