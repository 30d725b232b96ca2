"""The app factory: configuration, secret key, security headers, error pages, CSRF, assets."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from organizer import PROJECT_ROOT, create_app
from organizer.core import permissions
from organizer.core.db import normalise_url
from organizer.core.pages import render_page
from tests.fixtures.organizer import HX, PASSWORD, make_app


def test_the_secret_key_is_made_once_and_kept_in_the_database_for_every_server(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(tmp_path / "server-a"))
    first = create_app()
    assert len(first.config["SECRET_KEY"]) == 64
    assert not (tmp_path / "server-a" / "secret_key").exists()
    assert create_app().config["SECRET_KEY"] == first.config["SECRET_KEY"]  # a restart signs nobody out
    # another server with its own instance folder, on the same database: the same key
    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(tmp_path / "server-b"))
    assert create_app().config["SECRET_KEY"] == first.config["SECRET_KEY"]


def test_an_instance_folders_key_becomes_the_databases_so_nobody_is_signed_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept = "k" * 64
    (tmp_path / "instance").mkdir()
    (tmp_path / "instance" / "secret_key").write_text(kept + "\n")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(tmp_path / "instance"))
    assert create_app().config["SECRET_KEY"] == kept
    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(tmp_path / "other"))
    assert create_app().config["SECRET_KEY"] == kept


def test_without_migrations_the_key_is_kept_in_the_instance_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("ORGANIZER_AUTO_MIGRATE", "0")
    first = create_app()
    key_file = tmp_path / "instance" / "secret_key"
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    assert key_file.read_text().strip() == first.config["SECRET_KEY"] == create_app().config["SECRET_KEY"]


def test_default_database_is_sqlite_in_the_instance_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app()
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'organizer.sqlite3'}"
    assert (tmp_path / "organizer.sqlite3").exists()


def test_instance_secrets_are_not_committed() -> None:
    ignore = (PROJECT_ROOT / ".gitignore").read_text()
    assert "instance/*" in ignore and "!instance/.gitkeep" in ignore


def test_plain_postgres_urls_use_psycopg3() -> None:
    assert normalise_url("postgres://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalise_url("postgresql+psycopg://u:p@h/db") == "postgresql+psycopg://u:p@h/db"


def test_templates_and_static_files_live_at_the_top_level(app: Flask) -> None:
    assert Path(app.template_folder or "") == PROJECT_ROOT / "templates"
    assert Path(app.static_folder or "") == PROJECT_ROOT / "static"


def test_security_headers_and_cookie_flags(client: FlaskClient, organizer_account: object) -> None:
    response = client.post("/sign-in", data={"name": "Tess", "password": PASSWORD})
    headers = response.headers
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie


def test_https_deployments_get_secure_cookies(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path, HTTPS=True)
    assert app.config["SESSION_COOKIE_SECURE"] is True
    response = app.test_client().get("/sign-in")
    assert "Strict-Transport-Security" in response.headers


def test_unknown_page_gets_a_friendly_404(signed_in: FlaskClient) -> None:
    response = signed_in.get("/events/9999")
    assert response.status_code == 404
    assert "There is nothing at this address" in response.text
    assert "<html" in response.text


def test_htmx_errors_go_to_the_message_area(signed_in: FlaskClient) -> None:
    response = signed_in.get("/events/9999", headers=HX)
    assert response.status_code == 404
    assert response.headers["HX-Retarget"] == "#messages"
    assert "<html" not in response.text


def test_a_crash_shows_a_friendly_page_not_a_traceback(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("kaput")

    # every page needs its rule; this one is open to anyone
    monkeypatch.setitem(permissions.RULES, "boom", permissions.Need.PUBLIC)

    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert "Something went wrong" in response.text
    assert "kaput" not in response.text and "Traceback" not in response.text


def test_csrf_is_enforced_on_every_form(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    response = client.post("/first-run", data={"name": "Mallory", "password": "x" * 10, "confirm": "x" * 10})
    assert response.status_code == 400
    assert "form has expired" in response.text
    page = client.get("/first-run").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token
    response = client.post("/first-run", data={"csrf_token": token.group(1), "name": "Ann",
                                               "password": "x" * 10, "confirm": "x" * 10})
    assert response.status_code == 302
    # HTMX requests carry the token in a header set on <body>.
    page = client.get("/").text
    header_token = re.search(r'X-CSRFToken&#34;: &#34;([^&]+)&#34;', page) or re.search(r'"X-CSRFToken": "([^"]+)"', page)
    assert header_token
    no_token = client.post("/events/new", headers=HX, data={"name": "x"})
    assert no_token.status_code == 400
    with_token = client.post("/events/new", headers={**HX, "X-CSRFToken": header_token.group(1)}, data={"name": ""})
    assert with_token.status_code == 422


def test_page_helper_returns_the_fragment_for_htmx(app: Flask) -> None:
    with app.test_request_context("/", headers=HX):
        body, status = render_page("events/index.html", "events/event_list.html", events=[])
        assert status == 200 and body.lstrip().startswith('<div id="event-list">')
    with app.test_request_context("/"):
        body, _ = render_page("events/index.html", "events/event_list.html", events=[])
        assert body.lstrip().startswith("<!doctype html>") and 'id="event-list"' in body


def test_htmx_is_vendored_with_its_version_noted(client: FlaskClient, organizer_account: object) -> None:
    vendor = PROJECT_ROOT / "static" / "core" / "vendor"
    scripts = list(vendor.glob("htmx-*.min.js"))
    assert len(scripts) == 1
    version = re.match(r"htmx-(.+)\.min\.js", scripts[0].name)
    assert version and version.group(1) in (vendor / "README.md").read_text()
    page = client.get("/sign-in").text
    assert f"/static/core/vendor/{scripts[0].name}" in page
    assert "https://" not in page  # no CDN
    assert client.get(f"/static/core/vendor/{scripts[0].name}").status_code == 200


def test_env_database_url_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(tmp_path / "inst"))
    monkeypatch.setenv("DATABASE_URL", url)
    assert create_app().config["DATABASE_URL"] == url
    assert os.path.exists(tmp_path / "elsewhere.sqlite3")


def test_sqlite_write_ahead_log_is_opt_in(tmp_path: Path) -> None:
    from sqlalchemy import text

    from organizer.core.db import enable_sqlite_wal, make_engine

    plain = make_engine(f"sqlite:///{tmp_path / 'plain.sqlite3'}")
    wal = make_engine(f"sqlite:///{tmp_path / 'wal.sqlite3'}")
    enable_sqlite_wal(wal)
    with plain.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "delete"
        assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
    with wal.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL: every commit durable
    plain.dispose()
    wal.dispose()


def test_a_database_out_of_reach_at_start_stops_the_start_rather_than_make_a_key_of_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy.exc import OperationalError

    from tests.system.faults.harness import free_port

    monkeypatch.setenv("ORGANIZER_INSTANCE_PATH", str(tmp_path / "instance"))
    with pytest.raises(OperationalError):
        create_app({"AUTO_MIGRATE": False,
                    "DATABASE_URL": f"postgresql+psycopg://arboretum:secret@127.0.0.1:{free_port()}/organizer"})
    assert not (tmp_path / "instance" / "secret_key").exists()
