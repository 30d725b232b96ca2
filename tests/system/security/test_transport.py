"""Security headers and cookie flags as a browser receives them from the production server
(gunicorn, real HTTP), sign-in rate limiting shared by every worker, and the first-run secret key."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from sqlmodel import Session, select

from organizer.core.db import make_engine
from organizer.core.models import Organizer
from tests.system.faults.harness import Client, ServerProcess, sign_in

PAGES = ["/", "/events/1", "/events/1/players", "/events/1/rounds", "/events/1/rounds/1",
         "/events/1/rounds/1/tables/2", "/events/1/standings", "/events/1/audit", "/events/new"]


#: an account of the plain server's database that only the rate-limit test signs in with (its
#: failures make it wait, whichever test runs first), with the demo account's password
GUESSED = "Rory"


@pytest.fixture(scope="module")
def demo_file(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("transport") / "demo.sqlite3"
    shutil.copy(demo_template, path)
    return path


@pytest.fixture(scope="module")
def plain_file(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo database of the plain server, with :data:`GUESSED` beside the demo account."""
    path = tmp_path_factory.mktemp("transport-plain") / "demo.sqlite3"
    shutil.copy(demo_template, path)
    engine = make_engine(f"sqlite:///{path}")
    try:
        with Session(engine) as db:
            demo = db.exec(select(Organizer).where(Organizer.name == "demo")).one()
            db.add(Organizer(name=GUESSED, password_hash=demo.password_hash, role=demo.role))
            db.commit()
    finally:
        engine.dispose()
    return path


@pytest.fixture(scope="module")
def plain_server(plain_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The local default (no TLS, no proxy), two workers."""
    with ServerProcess(f"sqlite:///{plain_file}", tmp_path_factory.mktemp("instance-plain"), workers=2) as server:
        yield server


@pytest.fixture(scope="module")
def https_server(demo_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Configured as the README says for production behind a TLS proxy."""
    instance = tmp_path_factory.mktemp("instance-https")
    with ServerProcess(f"sqlite:///{demo_file}", instance, workers=2,
                       env={"ORGANIZER_HTTPS": "1", "ORGANIZER_PROXY_FIX": "1"}) as server:
        yield server


def test_pages_carry_the_security_headers(https_server: ServerProcess) -> None:
    client = Client(https_server.url)
    assert sign_in(client, "demo", "demo").status == 302
    for page in ["/sign-in", *PAGES]:
        reply = client.get(page)
        assert reply.status == 200, f"{page}: {reply.status}"
        headers = reply.headers
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, f"{page}: CSP allows inline code"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["Strict-Transport-Security"].startswith("max-age=")
        assert headers["Cache-Control"] == "no-store", f"{page} may be cached with names and results in it"
        assert "Server: Werkzeug" not in str(headers)


def test_the_session_cookie_is_httponly_samesite_and_secure(https_server: ServerProcess) -> None:
    client = Client(https_server.url)
    reply = sign_in(client, "demo", "demo")
    assert reply.status == 302
    cookies = [c for c in reply.set_cookies if c.startswith("session=")]
    assert cookies, "signing in sets the session cookie"
    flags = [part.strip().lower() for part in cookies[-1].split(";")]
    assert "httponly" in flags
    assert "secure" in flags
    assert "samesite=lax" in flags or "samesite=strict" in flags


def test_plain_http_config_has_no_secure_flag_but_keeps_the_rest(plain_server: ServerProcess,
                                                                  plain_file: Path) -> None:
    """The local default (flask run on a laptop, no TLS): a Secure cookie would never come back."""
    client = Client(plain_server.url)
    reply = sign_in(client, "demo", "demo")
    cookie = [c for c in reply.set_cookies if c.startswith("session=")][-1].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    assert "Strict-Transport-Security" not in reply.headers
    # The signing key was made on first start and kept in the database, not in a file of the server.
    with closing(sqlite3.connect(plain_file)) as database:
        (key,) = database.execute("SELECT value FROM installationsecret WHERE name = 'session_key'").fetchone()
    assert len(key) >= 64
    assert not (plain_server.instance / "secret_key").exists()


def test_sign_in_is_rate_limited_across_workers(plain_server: ServerProcess) -> None:
    """Wrong passwords for one name from one address, spread over two gunicorn workers and fresh
    connections: after the free failures (3) the next attempt must wait, even with the right
    password, and is told for how long."""
    server = plain_server
    for attempt in range(4):
        client = Client(server.url)
        reply = sign_in(client, GUESSED, f"wrong-{attempt}")
        assert reply.status == 422 and "Wrong name or password" in reply.text
    client = Client(server.url)
    reply = sign_in(client, f"{GUESSED.upper()} ", "demo")  # another spelling of the same name counts too
    assert reply.status == 429
    assert "Too many failed sign-ins" in reply.text and "try again in" in reply.text
    assert int(reply.headers["Retry-After"]) > 0
    assert client.get("/").status == 302, "a refused sign-in must not sign in"


def test_many_names_from_one_address_are_limited_but_others_there_get_in(demo_template: Path, tmp_path: Path) -> None:
    """Guessing across account names from one address (a venue's shared Wi-Fi): past ten times the
    per-name free failures (30 by default; lowered here to keep the test short) each guessed name
    waits, and a person whose name was not guessed still signs in there from a new browser."""
    fresh = tmp_path / "demo.sqlite3"  # no other test's failures
    shutil.copy(demo_template, fresh)
    with ServerProcess(f"sqlite:///{fresh}", tmp_path / "instance",
                       env={"ORGANIZER_SIGN_IN_MAX_FAILURES": "1"}) as server:
        client = Client(server.url)
        for attempt in range(11):
            assert sign_in(client, f"guess{attempt % 4}", "password1").status in (422, 429)
        reply = sign_in(client, "guess2", "password1")
        assert reply.status == 429 and "Too many failed sign-ins" in reply.text
        assert sign_in(Client(server.url), "demo", "demo").status == 302
