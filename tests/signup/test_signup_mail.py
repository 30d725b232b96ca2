"""Signing up with the installation's mail server on: the address is confirmed by the e-mail's
link (a page with one button, since mail scanners open links), a player promoted from the
waiting list is told by e-mail and on their page, and so is a person the organizer moves."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes
from email.header import decode_header, make_header
from email.message import Message
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from sqlmodel import Session, select

from organizer.accounts import service as accounts
from organizer.core.models import Player, Signup, SignupSettings
from tests.fixtures.mail import Inbox
from tests.fixtures.organizer import PASSWORD, create_event, make_app, sign_in


@pytest.fixture
def mail_app(database_url: str, tmp_path: Path, smtp_server: tuple[Inbox, int]) -> Iterator[Flask]:
    app = make_app(database_url, tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_server[1], SMTP_SECURITY="none",
                   SMTP_FROM="club@example.org", BASE_URL="https://club.example.org")
    yield app
    app.extensions["db_engine"].dispose()


def _body(raw: bytes) -> tuple[Message, str]:
    message = message_from_bytes(raw)
    part = message.get_payload(decode=True) if not message.is_multipart() else b""
    return message, bytes(part).decode() if isinstance(part, bytes) else ""


def test_confirm_by_link_then_promotion_by_mail(mail_app: Flask, smtp_server: tuple[Inbox, int]) -> None:
    inbox = smtp_server[0]
    with Session(mail_app.extensions["db_engine"], expire_on_commit=False) as session:
        event = create_event(session)
        session.add(SignupSettings(event_id=event.id, open=True, cap=1))
        session.commit()
        client = mail_app.test_client()
        reply = client.post(f"/e/{event.public_code}/sign-up", data={"name": "Ann Lee", "email": "ann@example.org"})
        assert reply.status_code == 303
        assert "Awaiting your e-mail confirmation" in client.get(reply.headers["Location"]).text
        assert session.exec(select(Player)).first() is None  # not counted before the confirmation
        message, body = _body(inbox.messages[-1][2])
        assert inbox.messages[-1][1] == ["ann@example.org"]
        links = re.findall(r"https://club\.example\.org\S+", body)
        confirm_path = urlsplit(next(link for link in links if "/confirm/" in link)).path
        page = client.get(confirm_path)
        assert page.status_code == 200 and "Confirm my e-mail address" in page.text
        assert client.post(confirm_path).status_code == 303
        ann = session.exec(select(Signup).where(Signup.name == "Ann Lee")).one()
        session.refresh(ann)
        assert ann.status == "confirmed"
        client.post(f"/e/{event.public_code}/sign-up", data={"name": "Bo Chen", "email": "bo@example.org"})
        bo = session.exec(select(Signup).where(Signup.name == "Bo Chen")).one()
        client.post(f"/p/{bo.token}/sign-up/confirm/{bo.email_code}")
        assert "waiting list: number 1" in client.get(f"/p/{bo.token}/sign-up").text
        assert client.post(f"/p/{ann.token}/sign-up/withdraw").status_code == 303
        assert "Withdrawn." in client.get(f"/p/{ann.token}", follow_redirects=True).text
        message, body = _body(inbox.messages[-1][2])
        assert inbox.messages[-1][1] == ["bo@example.org"] and "moved up from the waiting list" in body
        assert "moved up from the waiting list" in client.get(f"/p/{bo.token}/sign-up").text
        assert [p.name for p in session.exec(select(Player).where(Player.event_id == event.id))] == ["Bo Chen"]


def _told(inbox: Inbox, address: str) -> tuple[str, str]:
    """The subject and text of the last message, which went to ``address`` alone."""
    assert inbox.messages[-1][1] == [address]
    message, body = _body(inbox.messages[-1][2])
    return str(make_header(decode_header(str(message["Subject"])))), " ".join(body.split())


def test_people_the_organizer_moves_are_told_by_mail_and_on_their_page(mail_app: Flask,
                                                                        smtp_server: tuple[Inbox, int]) -> None:
    inbox = smtp_server[0]
    with Session(mail_app.extensions["db_engine"], expire_on_commit=False) as session:
        accounts.create_organizer(session, "Tess", PASSWORD)
        event = create_event(session)
        session.add(SignupSettings(event_id=event.id, open=True, cap=1, approval=True))
        session.commit()
        organizer, person = mail_app.test_client(), mail_app.test_client()
        assert sign_in(organizer).status_code == 302
        signups = {}
        for name, email in (("Ann Lee", "ann@example.org"), ("Bo Chen", "bo@example.org")):
            person.post(f"/e/{event.public_code}/sign-up", data={"name": name, "email": email})
            found = session.exec(select(Signup).where(Signup.name == name)).one()
            person.post(f"/p/{found.token}/sign-up/confirm/{found.email_code}")
            signups[name] = found
        ann, bo = signups["Ann Lee"], signups["Bo Chen"]
        sent = len(inbox.messages)

        def move(signup: Signup, to: str, seen: str) -> None:
            reply = organizer.post(f"/events/{event.id}/sign-ups/{signup.id}/move", data={"to": to, "from": seen})
            assert reply.status_code == 302, reply.text

        def page(signup: Signup) -> str:
            return " ".join(person.get(f"/p/{signup.token}/sign-up").text.split())

        move(ann, "approve", "approval")
        subject, body = _told(inbox, "ann@example.org")
        assert subject == "You have a place at Spring Open"
        assert "the organizer approved your sign-up: you are now a player of Spring Open." in body
        assert f"https://club.example.org/p/{ann.token}/sign-up" in body
        assert "The organizer approved your sign-up." in page(ann)
        # the one place is taken: approving Bo puts him on the waiting list, and he reads so
        move(bo, "approve", "approval")
        subject, body = _told(inbox, "bo@example.org")
        assert subject == "You are on the waiting list for Spring Open" and "waiting list, number 1" in body
        assert "the places are taken, so you are on the waiting list" in page(bo)
        # Ann to the waiting list, Bo made a player
        move(ann, "wait", "confirmed")
        subject, body = _told(inbox, "ann@example.org")
        assert subject == "You are on the waiting list for Spring Open"
        assert "the organizer moved you to the waiting list of Spring Open: you are number 1" in body
        assert "The organizer moved you to the waiting list." in page(ann)
        move(bo, "confirm", "waiting")
        subject, body = _told(inbox, "bo@example.org")
        assert subject == "You have a place at Spring Open" and "the organizer gave you a place" in body
        assert "The organizer gave you a place." in page(bo)
        # Ann refused: told so, and her page says she was not accepted
        move(ann, "refuse", "waiting")
        subject, body = _told(inbox, "ann@example.org")
        assert subject == "Your sign-up for Spring Open" and "did not accept your sign-up for Spring Open" in body
        assert "Not accepted by the organizer." in page(ann)
        assert len(inbox.messages) == sent + 5


def test_the_mail_speaks_the_events_language(mail_app: Flask, smtp_server: tuple[Inbox, int]) -> None:
    from babel.support import Translations

    inbox = smtp_server[0]
    catalogs = Path(__file__).resolve().parents[2] / "organizer" / "core" / "translations"
    german = Translations.load(str(catalogs), ["de"]).gettext
    with Session(mail_app.extensions["db_engine"], expire_on_commit=False) as session:
        accounts.create_organizer(session, "Tess", PASSWORD)
        event = create_event(session, language="de")
        session.add(SignupSettings(event_id=event.id, open=True, approval=True))
        session.commit()
        organizer, person = mail_app.test_client(), mail_app.test_client()
        assert sign_in(organizer).status_code == 302
        person.post(f"/e/{event.public_code}/sign-up", data={"name": "Ann Lee", "email": "ann@example.org"})
        ann = session.exec(select(Signup).where(Signup.name == "Ann Lee")).one()
        person.post(f"/p/{ann.token}/sign-up/confirm/{ann.email_code}")
        organizer.set_cookie("lang", "en")
        assert organizer.post(f"/events/{event.id}/sign-ups/{ann.id}/move",
                              data={"to": "refuse", "from": "approval"}).status_code == 302
        subject, body = _told(inbox, "ann@example.org")
        assert subject == german("Your sign-up for %(event)s") % {"event": "Spring Open"}
        assert " ".join((german("the organizer did not accept your sign-up for %(event)s.")
                         % {"event": "Spring Open"}).split()) in body
