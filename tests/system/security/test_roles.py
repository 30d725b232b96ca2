"""The role matrix: every route of the url_map, GET and POST, for an owner, an
organizer, a judge assigned to the event, a judge who is not, and a signed-out visitor, answered
as ``organizer/permissions.py`` says; a route without a rule fails here and is refused to all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer import create_app
from organizer.accounts import service as accounts
from organizer.core import staff
from organizer.core.models import AuditEntry, Event, Organizer, Role
from organizer.core.permissions import RULES, Need
from tests.system.security.walk import routes

PASSWORD = "role matrix pw"
#: who may pass each rule, with the judge assigned to the event ("judge") and one who is not
ALLOWED: dict[Need, set[str]] = {
    Need.PUBLIC: {"owner", "organizer", "judge", "other judge", "signed out"},
    Need.SIGNED_IN: {"owner", "organizer", "judge", "other judge"},
    Need.OWNER: {"owner"},
    Need.ORGANIZER: {"owner", "organizer"},
    Need.EVENT_STAFF: {"owner", "organizer", "judge"},
    Need.EVENT_SEATING: {"owner", "organizer"},  # until the event lets its judges seat
}
NAMES = {"owner": "Olive", "organizer": "Otto", "judge": "Jude", "other judge": "Jill"}
#: a request that ends the walker's own session (the walker signs in again after it)
SIGNS_OUT = {"auth.sign_out", "accounts.sign_out_everywhere", "accounts.end_session", "accounts.change_password"}


@pytest.fixture
def matrix_app(demo_db: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "roles", "DATABASE_URL": f"sqlite:///{demo_db}",
                      "WTF_CSRF_ENABLED": False, "SIGN_IN_MAX_FAILURES": 10_000})
    with Session(app.extensions["db_engine"], expire_on_commit=False) as db:
        made = {role: accounts.create_organizer(db, name, PASSWORD, role=Role.JUDGE if "judge" in role else Role(role))
                for role, name in NAMES.items()}
        event = db.exec(select(Event)).one()
        assert made["judge"].id is not None
        staff.assign_judge(db, event, made["judge"].id, "test")
    yield app
    app.extensions["db_engine"].dispose()


def _signed_in(app: Flask, who: str) -> FlaskClient:
    client = app.test_client()
    if who != "signed out":
        response = client.post("/sign-in", data={"name": NAMES[who], "password": PASSWORD})
        assert response.status_code == 302, response.get_data(as_text=True)
    return client


def test_every_endpoint_has_a_rule(matrix_app: Flask) -> None:
    missing = {rule.endpoint for rule in matrix_app.url_map.iter_rules()} - set(RULES)
    assert not missing, f"add these endpoints to organizer/permissions.py RULES: {sorted(missing)}"


def test_an_endpoint_without_a_rule_is_refused_to_everyone(matrix_app: Flask) -> None:
    matrix_app.add_url_rule("/forgotten", "forgotten", lambda: "open")
    assert _signed_in(matrix_app, "owner").get("/forgotten").status_code == 403
    assert _signed_in(matrix_app, "signed out").get("/forgotten").status_code == 403


@pytest.mark.parametrize("who", ["owner", "organizer", "judge", "other judge", "signed out"])
def test_every_route_answers_each_role_as_its_rule_says(matrix_app: Flask, ids: dict[str, str], who: str) -> None:
    client = _signed_in(matrix_app, who)
    values = {**ids, "account_id": "1", "session_id": "999999"}
    checked = 0
    for route in routes(matrix_app, values, include_public=True):
        if route.endpoint == "static":
            continue
        need = RULES[route.endpoint]
        response = client.open(route.path, method=route.method, data={"name": "Matrix", "role": "judge"})
        location = response.headers.get("Location", "")
        to_sign_in = response.status_code in (301, 302, 303) and "/sign-in" in location
        if who in ALLOWED[need]:
            assert response.status_code != 403, f"{who} refused {route} ({need})"
            if route.endpoint not in SIGNS_OUT and need is not Need.PUBLIC:
                assert not to_sign_in, f"{who} sent to sign in by {route}"
        elif who == "signed out":
            assert to_sign_in, f"{route} ({need}) answered {response.status_code} to a signed-out visitor"
        else:
            assert response.status_code == 403, f"{who} got {response.status_code} from {route} ({need})"
        checked += 1
        if who != "signed out" and client.get("/").status_code != 200:
            client = _signed_in(matrix_app, who)  # that request ended the session (or disabled account 1)
    assert checked >= 70


def test_an_event_may_let_its_judges_change_the_seating(matrix_app: Flask, ids: dict[str, str]) -> None:
    judge = _signed_in(matrix_app, "judge")
    swap = f"/events/{ids['event_id']}/rounds/{ids['number']}/swap"
    assert judge.post(swap, data={"first": "1", "second": "2"}).status_code == 403
    assert judge.post(f"/events/{ids['event_id']}/staff/seating", data={"judges_may_seat": "1"}).status_code == 403
    organizer = _signed_in(matrix_app, "organizer")
    assert organizer.post(f"/events/{ids['event_id']}/staff/seating", data={"judges_may_seat": "1"}).status_code == 302
    assert judge.post(swap, data={"first": "1", "second": "2"}).status_code != 403
    assert _signed_in(matrix_app, "other judge").post(swap, data={"first": "1", "second": "2"}).status_code == 403


def test_the_audit_log_names_the_actor_and_role(matrix_app: Flask, ids: dict[str, str]) -> None:
    judge = _signed_in(matrix_app, "judge")
    assert judge.post(f"/events/{ids['event_id']}/players/{ids['player_id']}/check-in",
                      data={"checked_in": "0"}).status_code in (200, 302)
    with Session(matrix_app.extensions["db_engine"]) as db:
        entry = db.exec(select(AuditEntry).where(AuditEntry.actor == "Jude")).one()
        assert entry.role == Role.JUDGE
        assert db.exec(select(Organizer).where(Organizer.name == "demo")).one().role == Role.OWNER
