"""Sign-in, first run, the CLI command and rate limiting."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select
from werkzeug.security import check_password_hash

from organizer.models import Organizer

from .conftest import HX, PASSWORD, error_beside, sign_in

PROTECTED_GETS = ["/", "/events/new", "/events/1", "/events/1/edit", "/events/1/players",
                  "/events/round-formats?rounds=2", "/events/1/rounds", "/events/1/rounds/1",
                  "/events/1/rounds/1/tables/1", "/events/1/standings", "/events/1/audit",
                  "/events/1/rounds/1/tables/1/case.json", "/events/1/projector",
                  "/events/1/export.json", "/events/1/export.zip", "/events/1/players/1", "/events/1/players/1/edit", "/organizers"]
PROTECTED_POSTS = ["/events/new", "/events/1/edit", "/events/1/players", "/events/1/players/import",
                   "/events/1/players/1/check-in", "/events/1/players/1/drop",
                   "/events/1/players/1/fixed-table", "/events/1/players/1/remove", "/events/1/rounds/propose",
                   "/events/1/rounds/1/swap", "/events/1/rounds/1/publish", "/events/1/rounds/1/discard",
                   "/events/1/rounds/1/close", "/events/1/rounds/1/tables/1/result",
                   "/events/1/rounds/1/tables/1/confirm", "/events/1/rounds/1/tables/1/dispute",
                   "/events/1/rounds/1/clock", "/events/import", "/events/1/players/1/edit",
                   "/events/1/rounds/1/tables/1/species", "/events/1/rounds/1/reopen", "/organizers", "/organizers/password"]


def test_first_run_creates_the_first_account_and_signs_in(client: FlaskClient, session: Session) -> None:
    assert client.get("/sign-in").headers["Location"] == "/first-run"
    page = client.get("/first-run")
    assert "No organizer account exists yet" in page.text
    response = client.post("/first-run", data={"name": "Ann", "password": "long enough", "confirm": "long enough"})
    assert response.status_code == 302
    organizer = session.exec(select(Organizer)).one()
    assert organizer.name == "Ann"
    assert organizer.password_hash != "long enough"
    assert check_password_hash(organizer.password_hash, "long enough")
    assert client.get("/").status_code == 200
    # Once an account exists, the first-run page is gone.
    assert client.get("/first-run").headers["Location"] == "/sign-in"


def test_first_run_validation_keeps_the_name(client: FlaskClient, session: Session) -> None:
    response = client.post("/first-run", data={"name": "Ann", "password": "short", "confirm": "short"})
    assert response.status_code == 422
    assert "at least 8 characters" in error_beside(response.text, "password")
    assert 'value="Ann"' in response.text
    response = client.post("/first-run", data={"name": "Ann", "password": "long enough", "confirm": "different!"})
    assert "differ" in error_beside(response.text, "confirm")
    assert session.exec(select(Organizer)).all() == []


@pytest.mark.parametrize("path", PROTECTED_GETS)
def test_pages_need_sign_in(client: FlaskClient, organizer_account: Organizer, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/sign-in")


@pytest.mark.parametrize("path", PROTECTED_POSTS)
def test_changes_need_sign_in(client: FlaskClient, organizer_account: Organizer, path: str) -> None:
    response = client.post(path, data={"name": "x"})
    assert response.status_code == 302 and response.headers["Location"].startswith("/sign-in")
    response = client.post(path, data={"name": "x"}, headers=HX)
    assert response.status_code == 401 and response.headers["HX-Redirect"].startswith("/sign-in")


def test_sign_in_wrong_password_then_right(client: FlaskClient, organizer_account: Organizer) -> None:
    response = sign_in(client, password="wrong")
    assert response.status_code == 422
    assert "Wrong name or password" in response.text
    assert 'value="Tess"' in response.text
    response = sign_in(client, name="tess")  # names are not case-sensitive
    assert response.status_code == 302 and response.headers["Location"] == "/"


def test_sign_in_returns_to_the_page_asked_for_but_never_off_site(client: FlaskClient, organizer_account: Organizer) -> None:
    response = client.post("/sign-in?next=/events/new", data={"name": "Tess", "password": PASSWORD})
    assert response.headers["Location"] == "/events/new"
    client.post("/sign-out")
    response = client.post("/sign-in?next=//evil.example/x", data={"name": "Tess", "password": PASSWORD})
    assert response.headers["Location"] == "/"


def test_sign_out(signed_in: FlaskClient) -> None:
    assert signed_in.get("/").status_code == 200
    signed_in.post("/sign-out")
    assert signed_in.get("/").status_code == 302


def test_sign_in_is_rate_limited_per_name(client: FlaskClient, organizer_account: Organizer) -> None:
    for _ in range(5):
        assert sign_in(client, password="guess").status_code == 422
    response = sign_in(client)  # even the right password is refused for a while
    assert response.status_code == 422
    assert "Too many failed sign-ins" in response.text


def test_rate_limit_window_passes(app: Flask, client: FlaskClient, organizer_account: Organizer) -> None:
    app.config["SIGN_IN_WINDOW_MINUTES"] = 0
    for _ in range(6):
        sign_in(client, password="guess")
    assert sign_in(client).status_code == 302


def test_cli_creates_an_organizer(app: Flask, session: Session) -> None:
    runner = app.test_cli_runner()
    result = runner.invoke(args=["create-organizer", "Quinn", "--password", "twelve chars"])
    assert result.exit_code == 0, result.output
    assert "Quinn created" in result.output
    quinn = session.exec(select(Organizer).where(Organizer.name == "Quinn")).one()
    assert check_password_hash(quinn.password_hash, "twelve chars")
    again = runner.invoke(args=["create-organizer", "quinn", "--password", "twelve chars"])
    assert again.exit_code != 0 and "already exists" in again.output
    short = runner.invoke(args=["create-organizer", "Rae", "--password", "short"])
    assert short.exit_code != 0 and "at least 8" in short.output


def test_cli_prompts_for_the_password(app: Flask, session: Session) -> None:
    runner = app.test_cli_runner()
    result = runner.invoke(args=["create-organizer", "Pat"], input="secret pw1\nsecret pw1\n")
    assert result.exit_code == 0, result.output
    assert session.exec(select(Organizer).where(Organizer.name == "Pat")).one()


def test_cli_password_from_environment_and_reset(app: Flask, session: Session) -> None:
    runner = app.test_cli_runner()
    assert runner.invoke(args=["create-organizer", "Lee"], env={"ORGANIZER_PASSWORD": "from the env"}).exit_code == 0
    result = runner.invoke(args=["create-organizer", "Lee", "--reset", "--password", "a new secret"])
    assert result.exit_code == 0, result.output
    session.expire_all()
    lee = session.exec(select(Organizer).where(Organizer.name == "Lee")).one()
    assert check_password_hash(lee.password_hash, "a new secret")


def test_db_upgrade_command_is_idempotent(app: Flask, tmp_path: Path) -> None:
    result = app.test_cli_runner().invoke(args=["db-upgrade"])
    assert result.exit_code == 0 and "up to date" in result.output
