"""A judge's list of events holds only the events they are assigned to (the others would only
answer 403 to them); organizers see every event."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.accounts import service as accounts
from organizer.core import staff
from organizer.core.models import Role
from tests.fixtures.organizer import PASSWORD, create_event, sign_in


def test_a_judge_sees_only_the_events_they_judge(client: FlaskClient, session: Session) -> None:
    accounts.create_organizer(session, "Olive", PASSWORD)  # the first account: the owner
    judge = accounts.create_organizer(session, "Jude", PASSWORD, role=Role.JUDGE)
    judged = create_event(session, name="Tuesday Club Night")
    create_event(session, name="Regional Final")
    assert judge.id is not None
    staff.assign_judge(session, judged, judge.id, "test")

    sign_in(client, "Jude")
    page = client.get("/").text
    assert "Tuesday Club Night" in page and "Regional Final" not in page

    owner = client.application.test_client()
    sign_in(owner, "Olive")
    everything = owner.get("/").text
    assert "Tuesday Club Night" in everything and "Regional Final" in everything
