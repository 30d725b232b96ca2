"""An owner signs another account out everywhere from the accounts page, as that account's own
"sign out everywhere" does; the account's actions look like buttons."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.accounts import service as accounts
from organizer.core.models import Role
from tests.fixtures.organizer import PASSWORD, sign_in


def test_an_owner_signs_another_account_out_everywhere(client: FlaskClient, session: Session) -> None:
    accounts.create_organizer(session, "Olive", PASSWORD)
    jude = accounts.create_organizer(session, "Jude", PASSWORD, role=Role.JUDGE)
    phone, laptop = client.application.test_client(), client.application.test_client()
    sign_in(phone, "Jude")
    sign_in(laptop, "Jude")
    assert phone.get("/").status_code == 200
    sign_in(client, "Olive")
    page = client.get("/organizers").text
    assert f'action="/organizers/{jude.id}/sign-out"' in page
    answer = client.post(f"/organizers/{jude.id}/sign-out", follow_redirects=True)
    assert "Jude is signed out of 2 sessions." in answer.text
    for device in (phone, laptop):
        assert device.get("/").status_code == 302  # back to the sign-in page
    assert client.get("/").status_code == 200  # the owner's own session goes on
    sign_in(phone, "Jude")
    assert phone.get("/").status_code == 200  # the account itself still signs in


def test_account_actions_look_like_buttons(client: FlaskClient, session: Session) -> None:
    accounts.create_organizer(session, "Olive", PASSWORD)
    accounts.create_organizer(session, "Jude", PASSWORD, role=Role.JUDGE)
    sign_in(client, "Olive")
    page = client.get("/organizers").text
    for label in ("Set role", "Reset link", "Disable", "Sign out everywhere"):
        button = re.search(r'<button class="([^"]*)"[^>]*>' + label, page)
        assert button and "quiet" not in button.group(1).split(), label
