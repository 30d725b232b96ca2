"""The event's highlighted button follows its real next step; events are archived and deleted by
organizers (the name typed, a record that outlives the event, refused while a table plays on
the devices); an imported event is marked as a copy."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, EventDeletion, GameTable, Player
from organizer.exchange.event_import import import_event
from organizer.exchange.export import export_event
from organizer.rounds import service as round_service
from tests.fixtures.organizer import add_players, create_event
from tests.rounds.support import totals_form


def _highlighted(client: FlaskClient, page: str) -> str:
    found = re.search(r'<a class="button primary next-step"[^>]*>([^<]*)</a>', client.get(page).text)
    return found.group(1) if found else ""


def test_the_highlighted_button_is_the_next_step(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, round_formats=["standard", "standard"])
    overview = f"/events/{event.id}"
    assert _highlighted(signed_in, overview) == "Add players"
    players = add_players(session, event, 8, checked_in=False)
    assert _highlighted(signed_in, overview) == "Check in players"
    for player in players:
        player.checked_in = True
        session.add(player)
    session.commit()
    assert _highlighted(signed_in, overview) == "Seat round 1"
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    assert _highlighted(signed_in, overview) == "Review and publish round 1"
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    assert _highlighted(signed_in, overview) == "Enter results of round 1"
    rnd = round_service.get_round(session, event.id or 0, 1)
    assert rnd is not None
    for number, view in enumerate(round_service.tables_of(session, rnd.id or 0), start=1):
        form = totals_form(view, [30, 25, 20, 15], [5, 4, 4, 3])
        assert signed_in.post(f"/events/{event.id}/rounds/1/tables/{number}/result", data=form).status_code == 302
    assert _highlighted(signed_in, overview) == "Confirm the results of round 1"
    for number in (1, 2):
        signed_in.post(f"/events/{event.id}/rounds/1/tables/{number}/confirm", data={"version": "1", "seat": "organizer"})
    assert _highlighted(signed_in, overview) == "Close round 1"
    round_page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert re.search(r'data-confirm="Close round 1\?[^"]*"', round_page)  # closing asks first, as reopening does
    signed_in.post(f"/events/{event.id}/rounds/1/close")
    assert _highlighted(signed_in, overview) == "Seat round 2"
    assert _highlighted(signed_in, f"/events/{event.id}/rounds/1") == "Seat round 2"  # the closed round points on
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "4"})
    signed_in.post(f"/events/{event.id}/rounds/2/publish")
    rnd = round_service.get_round(session, event.id or 0, 2)
    assert rnd is not None
    for number, view in enumerate(round_service.tables_of(session, rnd.id or 0), start=1):
        signed_in.post(f"/events/{event.id}/rounds/2/tables/{number}/result",
                       data=totals_form(view, [30, 25, 20, 15], [5, 4, 4, 3]))
        signed_in.post(f"/events/{event.id}/rounds/2/tables/{number}/confirm", data={"version": "1", "seat": "organizer"})
    signed_in.post(f"/events/{event.id}/rounds/2/close")
    assert _highlighted(signed_in, overview) == "Print the final standings"
    assert _highlighted(signed_in, f"/events/{event.id}/rounds/2") == "Print the final standings"


def test_archived_events_leave_the_main_list(signed_in: FlaskClient, session: Session) -> None:
    kept = create_event(session, name="Spring Open")
    create_event(session, name="Club Night")
    assert signed_in.post(f"/events/{kept.id}/archive", data={"archived": "1"}).status_code == 302
    assert "moved to the archive" in signed_in.get("/").text  # the flash, once
    listed = signed_in.get("/").text
    assert "Club Night" in listed and "Spring Open" not in listed and "Archive (1 event)" in listed
    archive = signed_in.get("/events/archive").text
    assert "Spring Open" in archive and "Club Night" not in archive
    signed_in.post(f"/events/{kept.id}/archive", data={"archived": "0"})
    assert "Spring Open" in signed_in.get("/").text
    audit = signed_in.get(f"/events/{kept.id}/audit").text
    assert "Event moved to the archive." in audit and "Event brought back from the archive." in audit


def test_deleting_an_event_asks_for_its_name_and_is_recorded(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, name="Autumn Cup")
    add_players(session, event, 4)
    event_id = event.id
    assert "Type the event’s name to confirm" in signed_in.get(f"/events/{event_id}/delete").text
    wrong = signed_in.post(f"/events/{event_id}/delete", data={"confirm_name": "Autumn"})
    assert wrong.status_code == 422 and "name exactly as shown" in wrong.text
    session.expire_all()
    assert session.get(Event, event_id) is not None
    assert signed_in.post(f"/events/{event_id}/delete", data={"confirm_name": " autumn  cup"}).status_code == 302
    session.expire_all()
    assert session.get(Event, event_id) is None
    assert session.exec(select(Player).where(Player.event_id == event_id)).all() == []
    record = session.exec(select(EventDeletion)).one()
    assert (record.name, record.players, record.actor) == ("Autumn Cup", 4, "Tess")
    assert "Deleted by Tess" in signed_in.get("/events/archive").text


def test_an_event_with_a_table_playing_on_the_devices_is_not_deleted(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, name="Live Night")
    add_players(session, event, 4)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    signed_in.post(f"/events/{event.id}/rounds/1/live/tables/1/digital")
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    assert session.exec(select(GameTable)).one().digital
    refused = signed_in.post(f"/events/{event.id}/delete", data={"confirm_name": "Live Night"})
    assert refused.status_code == 422 and "playing on the players&#39; devices" in refused.text
    session.expire_all()
    assert session.get(Event, event.id) is not None and session.exec(select(EventDeletion)).all() == []


def test_an_imported_event_is_marked_as_a_copy(signed_in: FlaskClient, session: Session) -> None:
    original = create_event(session, name="Summer Open")
    copy = import_event(session, export_event(session, original), None)
    listed = signed_in.get("/").text
    assert listed.count("Summer Open") == 2 and listed.count("imported copy") == 1
    assert "An imported copy" in signed_in.get(f"/events/{copy.id}").text
    assert "An imported copy" not in signed_in.get(f"/events/{original.id}").text
