"""Announcements: an organizer's short message on every player's page, the public page and the
projector until it is withdrawn, in the reader's language when a version in it exists; plain text
only, checked beside its fields, organizers only, and an audit entry for each change."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select
from werkzeug.test import TestResponse

from organizer.accounts import service as accounts
from organizer.core import staff
from organizer.core.models import Announcement, AuditEntry, Event, Role
from tests.fixtures.organizer import HX, PASSWORD, error_beside, sign_in
from tests.public.support import seated_event

ENGLISH = "Round 2 starts at 14:30."
GERMAN = "Runde 2 beginnt um 14:30."


def announce(client: FlaskClient, event: Event, **form: str) -> TestResponse:
    data = {"text": ENGLISH, "language": "en", "second_text": GERMAN, "second_language": "de", **form}
    return client.post(f"/events/{event.id}/announcements", data=data)


def test_an_announcement_shows_everywhere_until_withdrawn(app: Flask, signed_in: FlaskClient, session: Session,
                                                          event: Event) -> None:
    players = seated_event(signed_in, session, event)
    phone, public, projector = f"/p/{players[0].token}", f"/e/{event.public_code}", f"/events/{event.id}/projector"
    reader = app.test_client()
    # the public page is cached per change: a new announcement must be a change
    assert ENGLISH not in reader.get(public).text
    assert announce(signed_in, event).status_code == 302
    assert ENGLISH in reader.get(phone).text and GERMAN not in reader.get(phone).text
    assert ENGLISH in reader.get(public).text
    assert ENGLISH in signed_in.get(projector).text
    german = {"Accept-Language": "de"}
    assert GERMAN in reader.get(phone, headers=german).text and ENGLISH not in reader.get(phone, headers=german).text
    assert GERMAN in reader.get(public, headers=german).text
    # a language with no version of its own reads the first one
    assert ENGLISH in reader.get(phone, headers={"Accept-Language": "fr"}).text
    # the player's page poll carries it to a phone already open
    assert ENGLISH in reader.get(f"{phone}/changed?since=x", headers=HX).text

    listed = signed_in.get(f"/events/{event.id}").text
    assert ENGLISH in listed and "Withdraw" in listed
    shown = session.exec(select(Announcement)).one()
    assert signed_in.post(f"/events/{event.id}/announcements/{shown.id}/withdraw").status_code == 302
    for page in (reader.get(phone).text, reader.get(public).text, signed_in.get(projector).text):
        assert ENGLISH not in page
    again = signed_in.post(f"/events/{event.id}/announcements/{shown.id}/withdraw", follow_redirects=True)
    assert "It was withdrawn already." in again.text
    actions = [e.action for e in session.exec(select(AuditEntry).where(
        AuditEntry.action.startswith("announcement.")).order_by(AuditEntry.id))]  # type: ignore[attr-defined]
    assert actions == ["announcement.posted", "announcement.withdrawn"]
    log = signed_in.get(f"/events/{event.id}/audit").text
    assert "Announcement shown." in log and "Announcement withdrawn." in log


def test_the_projector_reads_the_events_language(signed_in: FlaskClient, session: Session, event: Event) -> None:
    event.language = "de"
    session.add(event)
    session.commit()
    assert announce(signed_in, event).status_code == 302
    page = signed_in.get(f"/events/{event.id}/projector").text
    assert GERMAN in page and ENGLISH not in page


def test_a_message_is_text_not_markup(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    attack = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    assert announce(signed_in, event, text=attack, second_text="").status_code == 302
    for page in (app.test_client().get(f"/p/{players[0].token}").text, app.test_client().get(f"/e/{event.public_code}").text,
                 signed_in.get(f"/events/{event.id}/projector").text, signed_in.get(f"/events/{event.id}").text):
        assert "<script>alert(1)" not in page and "<img src=x" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_bad_messages_are_refused_beside_their_fields(signed_in: FlaskClient, session: Session, event: Event) -> None:
    empty = announce(signed_in, event, text="   ")
    assert empty.status_code == 422 and error_beside(empty.text, "a-text") == "Write the message."
    long = announce(signed_in, event, text="x" * 281)
    assert error_beside(long.text, "a-text") == "At most 280 characters."
    same = announce(signed_in, event, second_language="en")
    assert error_beside(same.text, "a-second_language") == "The second version needs another language."
    unknown = announce(signed_in, event, language="xx")
    assert error_beside(unknown.text, "a-language") == "Choose the language the message is written in."
    # what was typed stays in the form
    assert "x" * 281 in long.text
    assert session.exec(select(Announcement)).all() == []


def test_only_organizers_announce(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    judge = accounts.create_organizer(session, "Ana", PASSWORD, role=Role.JUDGE)
    staff.assign_judge(session, event, judge.id, "Tess")
    phone = app.test_client()
    sign_in(phone, "Ana")
    assert announce(phone, event).status_code == 403
    assert "Show the announcement" not in phone.get(f"/events/{event.id}").text
    assert announce(signed_in, event).status_code == 302
    shown = session.exec(select(Announcement)).one()
    assert phone.post(f"/events/{event.id}/announcements/{shown.id}/withdraw").status_code == 403
    assert session.exec(select(Announcement)).one().withdrawn_at is None
