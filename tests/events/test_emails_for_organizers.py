"""Players' e-mail addresses are for organizers and owners: a judge of the event reads none of
them on any page they may open, not even in the audit log's record of an address changed."""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.accounts import service as accounts
from organizer.core import staff
from organizer.core.models import Player, Role
from organizer.players import service as players
from tests.fixtures.organizer import PASSWORD, add_players, create_event, sign_in
from tests.system.security.walk import routes

OLD, NEW = "ann.private@example.org", "ann.elsewhere@example.net"


def test_a_judge_reads_no_e_mail_address_on_any_page_of_the_event(client: FlaskClient, session: Session) -> None:
    accounts.create_organizer(session, "Olive", PASSWORD)  # the first account: the owner
    judge = accounts.create_organizer(session, "Jude", PASSWORD, role=Role.JUDGE)
    event = create_event(session)
    assert judge.id is not None and event.id is not None
    staff.assign_judge(session, event, judge.id, "test")
    add_players(session, event, 3)
    ann = players.add_player(session, event, "Ann Lee", "", OLD, "Olive")
    players.update_player(session, session.get(Player, ann.id) or ann, "Ann Lee", "", NEW, "Olive")

    sign_in(client, "Jude")
    values = {"event_id": str(event.id), "player_id": str(ann.id), "number": "1", "table": "1"}
    seen = []
    for route in routes(client.application, values, methods={"GET"}):
        response = client.get(route.path)
        if response.status_code == 200:
            seen.append(route.rule)
            assert OLD not in response.text and NEW not in response.text, f"{route} shows an address to a judge"
    assert "/events/<int:event_id>/audit" in seen and "/events/<int:event_id>/players" in seen
    audit = client.get(f"/events/{event.id}/audit").text
    assert "Details of Ann Lee corrected." in audit and "E-mail changed." in audit

    organizer = client.application.test_client()
    sign_in(organizer, "Olive")
    assert OLD in organizer.get(f"/events/{event.id}/audit").text and NEW in organizer.get(f"/events/{event.id}/audit").text
