"""Organizer accounts in the browser: add a judge's account, change one's own password."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlmodel import Session, select
from werkzeug.security import check_password_hash

from organizer.models import Organizer

from .conftest import HX, PASSWORD, error_beside, sign_in


def test_accounts_page_lists_and_adds(signed_in: FlaskClient, session: Session) -> None:
    page = signed_in.get("/organizers")
    assert page.status_code == 200 and "Tess" in page.text and 'id="accounts-panel"' in page.text
    response = signed_in.post("/organizers", data={"name": "Judge Jo", "password": "tablet pw 1", "confirm": "tablet pw 1"})
    assert response.status_code == 302
    jo = session.exec(select(Organizer).where(Organizer.name == "Judge Jo")).one()
    assert check_password_hash(jo.password_hash, "tablet pw 1")
    judge = signed_in.application.test_client()
    assert sign_in(judge, "Judge Jo", "tablet pw 1").status_code == 302


def test_bad_new_account(signed_in: FlaskClient, session: Session) -> None:
    response = signed_in.post("/organizers", data={"name": "tess", "password": "short", "confirm": "x"}, headers=HX)
    assert response.status_code == 422
    assert "already exists" in error_beside(response.text, "name")
    assert "at least 8" in error_beside(response.text, "password")
    assert 'value="tess"' in response.text
    assert len(session.exec(select(Organizer)).all()) == 1


def test_change_own_password(signed_in: FlaskClient, session: Session) -> None:
    response = signed_in.post("/organizers/password", data={"current": "wrong", "new_password": "a new secret",
                                                             "new_confirm": "a new secret"})
    assert response.status_code == 422 and "not your current password" in error_beside(response.text, "current")
    response = signed_in.post("/organizers/password", data={"current": PASSWORD, "new_password": "a new secret",
                                                             "new_confirm": "different"})
    assert "differ" in error_beside(response.text, "new_confirm")
    assert signed_in.post("/organizers/password", data={"current": PASSWORD, "new_password": "a new secret",
                                                         "new_confirm": "a new secret"}).status_code == 302
    session.expire_all()
    assert check_password_hash(session.exec(select(Organizer)).one().password_hash, "a new secret")


def test_accounts_need_sign_in(client: FlaskClient, organizer_account: Organizer) -> None:
    assert client.get("/organizers").status_code == 302
    assert client.post("/organizers", data={"name": "Eve", "password": "x" * 10, "confirm": "x" * 10}).status_code == 302
    assert client.post("/organizers/password", data={}).status_code == 302
