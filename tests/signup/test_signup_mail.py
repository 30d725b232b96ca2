"""Signing up with the installation's mail server on: the address is confirmed by the e-mail's
link (a page with one button, since mail scanners open links), and a player promoted from the
waiting list is told by e-mail and on their page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from sqlmodel import Session, select

from organizer.core.models import Player, Signup, SignupSettings
from tests.fixtures.mail import Inbox
from tests.fixtures.organizer import create_event, make_app


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
