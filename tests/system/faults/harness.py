"""A real server process on a loopback port and a small cookie-keeping HTTP client, shared by
the fault, security, hostile-input and browser suites (they test the app from outside, as a
browser or a crash sees it)."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from organizer import PROJECT_ROOT

GUNICORN = Path(sys.executable).parent / "gunicorn"
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')
CSRF_HEADER = re.compile(r'"X-CSRFToken": "([^"]+)"')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """gunicorn (the documented production server) serving ``factory`` on its own port.

    ``factory`` defaults to the real app; the fault suite passes ``tests.system.faults.fault_app`` to
    pause a request at a chosen moment so it can be killed exactly there."""

    def __init__(self, database_url: str, instance: Path, *, factory: str = "organizer:create_app()",
                 workers: int = 1, threads: int = 1, env: dict[str, str] | None = None,
                 port: int | None = None, timeout: int = 60, bind_host: str = "127.0.0.1",
                 args: list[str] | None = None, live_config: bool = False) -> None:
        self.database_url = database_url
        self.instance = instance
        self.factory = factory
        self.workers = workers
        self.threads = threads
        self.extra_env = env or {}
        self.port = port or free_port()
        self.timeout = timeout
        self.bind_host = bind_host
        self.args = args or []  # more gunicorn options (a -c config, an access log)
        #: the live server's settings (organizer/live_gunicorn.py) with gevent workers: streams served
        self.live_config = live_config
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = instance / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: float = 30) -> ServerProcess:
        self.instance.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "DATABASE_URL": self.database_url, "ORGANIZER_INSTANCE_PATH": str(self.instance),
               "PYTHONPATH": str(PROJECT_ROOT), **self.extra_env}
        if self.live_config:
            env["ORGANIZER_WORKER_CLASS"] = "gevent"
        config = ["-c", "python:organizer.live_gunicorn"] if self.live_config else ["--threads", str(self.threads)]
        command = [str(GUNICORN), *config, *self.args, "--preload", "-w", str(self.workers),
                   "-b", f"{self.bind_host}:{self.port}", "--timeout", str(self.timeout), self.factory]
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        log.close()
        deadline = time.monotonic() + wait
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/sign-in")
                connection.getresponse().read()
                connection.close()
                return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"server did not start:\n{self.log()}") from None
                time.sleep(0.1)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL to the whole process group: the arbiter and every worker die at once, with no
        chance to finish a request or roll anything back (a power cut, as far as the database
        file can tell)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # gunicorn's quick shutdown
            try:
                self.process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self.kill()  # nothing of a test server is worth waiting for

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *_exc: Any) -> None:
        self.stop()


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes
    set_cookies: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")


class Client:
    """Like a browser without JavaScript: keeps cookies, never follows redirects on its own, and
    can post a form with the CSRF token of the page it last read."""

    def __init__(self, base_url: str, timeout: float = 30) -> None:
        parts = urllib.parse.urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self.csrf_token = ""

    def request(self, method: str, path: str, data: dict[str, Any] | list[tuple[str, str]] | None = None,
                headers: dict[str, str] | None = None, body: bytes | None = None,
                content_type: str | None = None) -> Reply:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if data is not None:
            body = urllib.parse.urlencode(data, doseq=True).encode()
            content_type = "application/x-www-form-urlencoded"
        if content_type:
            headers["Content-Type"] = content_type
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            payload = response.read()
        finally:
            connection.close()
        set_cookies = response.headers.get_all("Set-Cookie") or []
        for raw in set_cookies:
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(raw)
            for name, morsel in cookie.items():
                if morsel["expires"] and "1970" in morsel["expires"] or morsel.value == "":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        reply = Reply(response.status, response.headers, payload, set_cookies)
        if "text/html" in response.headers.get("Content-Type", ""):
            token = CSRF_INPUT.search(reply.text) or CSRF_HEADER.search(reply.text)
            if token:
                self.csrf_token = token.group(1)
        return reply

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, data: dict[str, Any] | list[tuple[str, str]] | None = None, *, csrf: bool = True,
             **kwargs: Any) -> Reply:
        if csrf:
            if not self.csrf_token:
                self.get("/sign-in")
            if isinstance(data, list):
                data = [*data, ("csrf_token", self.csrf_token)]
            else:
                data = {**(data or {}), "csrf_token": self.csrf_token}
        return self.request("POST", path, data=data, **kwargs)


#: a fast password hash for the suites whose subject is not passwords (the server checks whatever
#: method the stored hash names, and an argon2 check is half a second of its time)
CHEAP_HASH = "pbkdf2:sha256:1000"


def add_demo(url: str, cheap_hash: bool = True) -> None:
    """Migrate the database at ``url`` and add the demo event (12 players, round 1 published,
    table 1 confirmed, table 2 entered, table 3 still playing) and the account demo / demo, as
    ``flask --app organizer demo`` does; ``cheap_hash``: its password hashed with
    :data:`CHEAP_HASH`, so signing in costs the tests nothing."""
    from sqlmodel import Session

    from organizer.accounts import service as accounts
    from organizer.core.db import make_engine, upgrade_database
    from organizer.demo import ensure_demo

    engine = make_engine(url)
    upgrade_database(engine)
    method = accounts.HASH_METHOD
    if cheap_hash:
        accounts.HASH_METHOD = CHEAP_HASH
    try:
        with Session(engine) as session:
            ensure_demo(session)
    finally:
        accounts.HASH_METHOD = method
        engine.dispose()


def demo_database(path: Path, cheap_hash: bool = True) -> str:
    """A migrated SQLite file at ``path`` holding the demo (:func:`add_demo`); its URL."""
    url = f"sqlite:///{path}"
    add_demo(url, cheap_hash)
    return url


def first_run(client: Client, name: str = "Tess", password: str = "correct horse") -> None:
    """Create the first organizer account through the first-run page (signs in too)."""
    client.get("/first-run")
    reply = client.post("/first-run", {"name": name, "password": password, "confirm": password})
    assert reply.status == 302, reply.text


def sign_in(client: Client, name: str = "Tess", password: str = "correct horse") -> Reply:
    client.get("/sign-in")
    return client.post("/sign-in", {"name": name, "password": password})
