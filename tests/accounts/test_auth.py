"""Sign-in, first run, the CLI commands, and sign-in throttling that cannot lock the real person
out."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select
from werkzeug.security import generate_password_hash

from organizer.accounts import service as accounts
from organizer.core.errors import InputError
from organizer.core.models import AccountSession, Organizer, Role, SignInAttempt
from tests.fixtures.organizer import HX, PASSWORD, error_beside, sign_in

PROTECTED_GETS = ["/", "/events/new", "/events/1", "/events/1/edit", "/events/1/players",
                  "/events/round-formats?rounds=2", "/events/1/rounds", "/events/1/rounds/1",
                  "/events/1/rounds/1/tables/1", "/events/1/standings", "/events/1/audit",
                  "/events/1/rounds/1/tables/1/case.json", "/events/1/projector", "/events/1/staff",
                  "/events/1/export.json", "/events/1/export.zip", "/events/1/players/1", "/events/1/players/1/edit",
                  "/organizers"]
PROTECTED_POSTS = ["/events/new", "/events/1/edit", "/events/1/players", "/events/1/players/import",
                   "/events/1/players/1/check-in", "/events/1/players/1/drop",
                   "/events/1/players/1/fixed-table", "/events/1/players/1/remove", "/events/1/rounds/propose",
                   "/events/1/rounds/1/swap", "/events/1/rounds/1/publish", "/events/1/rounds/1/discard",
                   "/events/1/rounds/1/close", "/events/1/rounds/1/tables/1/result",
                   "/events/1/rounds/1/tables/1/confirm", "/events/1/rounds/1/tables/1/dispute",
                   "/events/1/rounds/1/clock", "/events/import", "/events/1/players/1/edit",
                   "/events/1/rounds/1/tables/1/species", "/events/1/rounds/1/reopen", "/organizers", "/organizers/password",
                   "/organizers/1/disable", "/organizers/sessions/end-all", "/events/1/staff/judges"]


def _address(client: FlaskClient, address: str) -> FlaskClient:
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_first_run_creates_the_owner_and_signs_in(client: FlaskClient, session: Session) -> None:
    assert client.get("/sign-in").headers["Location"] == "/first-run"
    page = client.get("/first-run")
    assert "No account exists yet" in page.text and "owner" in page.text
    response = client.post("/first-run", data={"name": "Ann", "password": "long enough", "confirm": "long enough"})
    assert response.status_code == 302
    organizer = session.exec(select(Organizer)).one()
    assert organizer.name == "Ann" and organizer.role == Role.OWNER
    assert organizer.password_hash != "long enough"
    assert accounts.verify_password(organizer.password_hash, "long enough")
    assert client.get("/").status_code == 200
    assert client.get("/organizers").status_code == 200  # an owner manages accounts
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


def test_sign_out_ends_the_session_on_the_server(signed_in: FlaskClient, session: Session) -> None:
    assert signed_in.get("/").status_code == 200
    copied = signed_in.get_cookie("session")
    assert copied is not None
    signed_in.post("/sign-out")
    assert signed_in.get("/").status_code == 302
    assert session.exec(select(AccountSession)).one().ended_at is not None
    replay = signed_in.application.test_client()
    replay.set_cookie("session", copied.value)
    assert replay.get("/").status_code == 302, "a cookie copied before sign-out still works"


def test_an_old_werkzeug_hash_still_signs_in_and_is_replaced_by_argon2(client: FlaskClient, session: Session,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "HASH_METHOD", "argon2")
    old = Organizer(name="Vera", password_hash=generate_password_hash("an old secret", method="pbkdf2:sha256:1000"),
                    role=Role.ORGANIZER)
    session.add(old)
    session.commit()
    assert sign_in(client, "Vera", "an old secret").status_code == 302
    session.expire_all()
    renewed = session.exec(select(Organizer).where(Organizer.name == "Vera")).one()
    assert renewed.password_hash.startswith("$argon2")
    assert accounts.verify_password(renewed.password_hash, "an old secret")
    assert not accounts.verify_password(renewed.password_hash, "wrong")


# --- throttling -------------------------------------------------------------------------


def test_waits_grow_per_name_and_address_and_say_when(client: FlaskClient, organizer_account: Organizer) -> None:
    _address(client, "203.0.113.7")
    for _ in range(3):  # the free failures
        response = sign_in(client, password="guess")
        assert response.status_code == 422 and "try again in" not in response.text
    response = sign_in(client, password="guess")
    assert response.status_code == 422 and "You may try again in 15 seconds" in response.text
    response = sign_in(client)  # even the right password is not checked while the wait runs
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.text and "try again in" in response.text
    assert 10 <= int(response.headers["Retry-After"]) <= 15
    # Another address is a different pair: the person signing in elsewhere is not slowed.
    other = _address(client.application.test_client(), "198.51.100.9")
    assert sign_in(other).status_code == 302


def test_the_window_passes(app: Flask, client: FlaskClient, organizer_account: Organizer) -> None:
    app.config["SIGN_IN_WINDOW_MINUTES"] = 0
    for _ in range(6):
        sign_in(client, password="guess")
    assert sign_in(client).status_code == 302


def _known_device(app: Flask, address: str) -> FlaskClient:
    """A browser that signed in as Tess before (it holds the device cookie), now signed out."""
    device = _address(app.test_client(), address)
    assert sign_in(device).status_code == 302
    assert device.get_cookie("arboretum_device") is not None
    device.post("/sign-out")
    return device


def test_six_wrong_passwords_do_not_lock_out_a_known_device(app: Flask, organizer_account: Organizer) -> None:
    device = _known_device(app, "192.0.2.10")
    attacker = _address(app.test_client(), "192.0.2.10")  # the same venue router
    for _ in range(6):
        assert sign_in(attacker, password="guess").status_code in (422, 429)
    assert sign_in(attacker).status_code == 429, "the guesser is slowed down"
    assert sign_in(device).status_code == 302, "the real person's known device is not"


def test_twenty_wrong_names_from_one_address_do_not_block_a_known_device(app: Flask,
                                                                         organizer_account: Organizer) -> None:
    app.config["SIGN_IN_MAX_FAILURES"] = 1  # the address-wide limit is then 10: twenty is well past it
    device = _known_device(app, "192.0.2.20")
    guesser = _address(app.test_client(), "192.0.2.20")
    for attempt in range(20):
        assert sign_in(guesser, f"guess{attempt}", "password1").status_code in (422, 429)
    assert sign_in(guesser, "guess3", "password1").status_code == 429, "each guessed name waits"
    assert sign_in(device).status_code == 302, "a known device there is not slowed"


def _backdate_failures(session: Session, by: timedelta) -> None:
    """As if ``by`` had passed since every failure so far: the waits the guesser sits out."""
    for attempt in session.exec(select(SignInAttempt)).all():
        attempt.at = attempt.at - by
        session.add(attempt)
    session.commit()


def test_guesses_from_many_addresses_never_keep_the_person_out_of_a_new_browser(
        app: Flask, session: Session, organizer_account: Organizer) -> None:
    """Eleven addresses, 31 failures at the name, then one guess from each every time its wait runs
    out: the person, on a browser never used before at an address of their own, signs in with the
    right password every time, while each guesser's address is refused."""
    guessers = [_address(app.test_client(), f"198.18.0.{n}") for n in range(1, 12)]
    failures = 0
    for guesser in guessers:
        for _ in range(3):
            if failures < 31:
                assert sign_in(guesser, password=f"guess{failures}").status_code == 422
                failures += 1
    assert failures == 31
    for wave in range(6):
        for guesser in guessers:
            assert sign_in(guesser, password=f"wave{wave}").status_code in (422, 429)
        assert all(sign_in(guesser).status_code == 429 for guesser in guessers), "every guesser waits"
        owner = _address(app.test_client(), f"203.0.113.{wave + 1}")
        assert sign_in(owner).status_code == 302, f"the person is let in on a new browser (wave {wave})"
        owner.post("/sign-out")
        _backdate_failures(session, timedelta(minutes=15))


def test_a_name_guessed_from_many_addresses_gives_each_new_address_two_tries(
        app: Flask, organizer_account: Organizer) -> None:
    for n in range(11):
        guesser = _address(app.test_client(), f"198.18.1.{n}")
        for attempt in range(3):
            sign_in(guesser, password=f"guess{attempt}")
    newcomer = _address(app.test_client(), "198.18.1.200")
    assert sign_in(newcomer, password="guess-a").status_code == 422
    response = sign_in(newcomer, password="guess-b")
    assert response.status_code == 422 and "15 minutes" in response.text
    assert sign_in(newcomer).status_code == 429, "under pressure the third try waits the longest wait"


def test_thirty_failures_from_a_shared_address_do_not_refuse_the_other_people_there(
        app: Flask, session: Session, organizer_account: Organizer) -> None:
    """A venue's Wi-Fi: one guest fails 30 times and more over many names; every other person
    there signs in from a browser never used before, and the guest's guessed names wait."""
    accounts.create_organizer(session, "Olive", PASSWORD, role=Role.OWNER)
    guest = _address(app.test_client(), "192.0.2.99")
    for attempt in range(34):
        assert sign_in(guest, f"guess{attempt % 12}", "password1").status_code in (422, 429)
    assert sign_in(guest, "guess1", "password1").status_code == 429
    for name in ("Tess", "Olive"):
        newcomer = _address(app.test_client(), "192.0.2.99")
        assert sign_in(newcomer, name).status_code == 302, f"{name} is let in at the shared address"


def test_a_reset_link_makes_its_browser_a_known_device(app: Flask, session: Session,
                                                       organizer_account: Organizer) -> None:
    """The way in for a person whose own name is being guessed from their own address."""
    guesser = _address(app.test_client(), "192.0.2.77")
    for attempt in range(4):
        sign_in(guesser, password=f"guess{attempt}")
    assert sign_in(_address(app.test_client(), "192.0.2.77")).status_code == 429
    link = accounts.reset_link(session, organizer_account, "Olive").token
    browser = _address(app.test_client(), "192.0.2.77")
    response = browser.post(f"/welcome/{link}", data={"password": "a new password", "confirm": "a new password"})
    assert response.status_code == 302 and browser.get_cookie("arboretum_device") is not None
    browser.post("/sign-out")
    assert sign_in(browser, password="a new password").status_code == 302


def test_a_known_devices_own_failures_slow_it_down(app: Flask, organizer_account: Organizer) -> None:
    device = _known_device(app, "192.0.2.30")
    for _ in range(4):
        sign_in(device, password="guess")
    assert sign_in(device).status_code == 429


def test_a_disabled_account_cannot_sign_in(client: FlaskClient, session: Session, organizer_account: Organizer) -> None:
    owner = accounts.create_organizer(session, "Olive", PASSWORD, role=Role.OWNER)
    assert owner.role == Role.OWNER
    accounts.disable(session, organizer_account)
    response = sign_in(client)
    assert response.status_code == 422 and "disabled" in response.text
    # the wrong password says nothing about the account's state
    assert "disabled" not in sign_in(client, password="wrong!!!").text


# --- the command line ---------------------------------------------------------------------


def test_cli_creates_accounts(app: Flask, session: Session) -> None:
    runner = app.test_cli_runner()
    result = runner.invoke(args=["create-organizer", "Quinn", "--password", "twelve chars"])
    assert result.exit_code == 0, result.output
    assert "Quinn created" in result.output and "owner" in result.output
    quinn = session.exec(select(Organizer).where(Organizer.name == "Quinn")).one()
    assert accounts.verify_password(quinn.password_hash, "twelve chars") and quinn.role == Role.OWNER
    again = runner.invoke(args=["create-organizer", "quinn", "--password", "twelve chars"])
    assert again.exit_code != 0 and "already exists" in again.output
    short = runner.invoke(args=["create-organizer", "Rae", "--password", "short"])
    assert short.exit_code != 0 and "at least 8" in short.output
    judge = runner.invoke(args=["create-organizer", "Jo", "--password", "twelve chars", "--role", "judge"])
    assert judge.exit_code == 0 and "judge" in judge.output


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
    assert accounts.verify_password(lee.password_hash, "a new secret")


def test_cli_invite_role_disable(app: Flask, client: FlaskClient, session: Session) -> None:
    runner = app.test_cli_runner()
    assert runner.invoke(args=["create-organizer", "Olive", "--password", "owner secret"]).exit_code == 0
    invited = runner.invoke(args=["invite", "Judge Jo", "--role", "judge", "--base-url", "https://club.example"])
    assert invited.exit_code == 0, invited.output
    link = next(word for word in invited.output.split() if word.startswith("https://club.example/welcome/"))
    path = link.removeprefix("https://club.example")
    assert client.post(path, data={"password": "tablet pw 1", "confirm": "tablet pw 1"}).status_code == 302
    assert runner.invoke(args=["set-role", "Judge Jo", "organizer"]).exit_code == 0
    session.expire_all()
    assert session.exec(select(Organizer).where(Organizer.name == "Judge Jo")).one().role == Role.ORGANIZER
    assert client.get("/").status_code == 200
    assert runner.invoke(args=["disable", "Judge Jo"]).exit_code == 0
    assert client.get("/").status_code == 302, "disabling ends the account's sessions at once"
    listed = runner.invoke(args=["accounts"])
    assert "Judge Jo" in listed.output and "disabled" in listed.output
    assert runner.invoke(args=["enable", "Judge Jo"]).exit_code == 0
    reset = runner.invoke(args=["reset-link", "Judge Jo"])
    assert reset.exit_code == 0 and "/welcome/" in reset.output


def test_db_upgrade_command_is_idempotent(app: Flask, tmp_path: Path) -> None:
    result = app.test_cli_runner().invoke(args=["db-upgrade"])
    assert result.exit_code == 0 and "up to date" in result.output


@pytest.mark.parametrize(("stored", "typed"), [("Émile", "ÉMILE"), ("Émile", "émile"), ("ÅSA", "åsa"),
                                                ("Łukasz", "ŁUKASZ"), ("Ünal", "ünal"), ("Straße", "STRASSE")])
def test_names_match_with_full_unicode_case_folding(client: FlaskClient, session: Session, stored: str,
                                                    typed: str) -> None:
    accounts.create_organizer(session, stored, PASSWORD)
    assert sign_in(client, typed).status_code == 302
    with pytest.raises(InputError, match="already exists"):
        accounts.create_organizer(session, typed, PASSWORD)


def test_the_migration_gives_existing_accounts_their_name_key(tmp_path: Path, sqlite_template: Path) -> None:
    from alembic import command
    from sqlalchemy import text as sql

    from organizer.core.db import alembic_config, make_engine

    path = tmp_path / "old.sqlite3"
    shutil.copy(sqlite_template, path)
    engine = make_engine(f"sqlite:///{path}")
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0012")
    with engine.begin() as c:
        for name in ("Émile", "Ünal", "ÉMILE"):  # the last: one name apart from case, kept apart
            c.execute(sql("INSERT INTO organizer (name, password_hash, role, created_at) "
                          "VALUES (:n, '', 'owner', '2026-01-01')"), {"n": name})
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    with Session(engine) as db:
        found = accounts.find_by_name(db, "ÉMILE")
        assert found is not None and found.name == "Émile"
        assert {a.name: a.name_key for a in db.exec(select(Organizer)).all()}["Ünal"] == "ünal"
    engine.dispose()


def test_a_refresh_after_the_session_ended_leads_back_to_its_page_not_the_fragment(client: FlaskClient) -> None:
    response = client.get("/events/1/rounds/1?part=grid", headers={
        "HX-Request": "true", "HX-Current-URL": "http://venue.local/events/1/rounds/1?page=2"})
    assert response.status_code == 401
    target = response.headers["HX-Redirect"]
    assert target.startswith("/sign-in?next=") and "part" not in target and "rounds/1?page%3D2" in target
