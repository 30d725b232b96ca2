"""A player's link by e-mail, delivered to a real SMTP server the test starts on a free
local port (aiosmtpd), as the installation's ORGANIZER_SMTP_* settings would name one."""

from __future__ import annotations

from collections.abc import Iterator
from email import message_from_bytes
from pathlib import Path

import pytest
from flask import Flask
from sqlmodel import Session

from organizer.core import mail
from tests.fixtures.mail import Inbox, free_port
from tests.fixtures.organizer import add_players, create_event, make_app, sign_in


@pytest.fixture
def mail_app(database_url: str, tmp_path: Path, smtp_server: tuple[Inbox, int]) -> Iterator[Flask]:
    app = make_app(database_url, tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=smtp_server[1], SMTP_SECURITY="none",
                   SMTP_FROM="club@example.org")
    yield app
    app.extensions["db_engine"].dispose()


def test_settings_come_from_the_config() -> None:
    assert mail.settings_from({}) is None
    settings = mail.settings_from({"SMTP_HOST": "mail.example.org", "SMTP_USER": "club@example.org"})
    assert settings is not None and settings.port == 587 and settings.security == "starttls"
    assert settings.sender == "club@example.org"
    assert mail.settings_from({"SMTP_HOST": "h", "SMTP_SECURITY": "ssl"}).port == 465  # type: ignore[union-attr]


def test_organizer_sends_a_player_their_link(mail_app: Flask, smtp_server: tuple[Inbox, int]) -> None:
    from organizer.accounts import service as accounts

    inbox, _ = smtp_server
    with Session(mail_app.extensions["db_engine"], expire_on_commit=False) as session:
        accounts.create_organizer(session, "Tess", "correct horse")
        event = create_event(session)
        ann, bob = add_players(session, event, 2)
        ann.email, bob.email = "ann@example.org", ""
        session.add_all([ann, bob])
        session.commit()
        client = mail_app.test_client()
        sign_in(client)
        link = client.get(f"/events/{event.id}/players/{ann.id}/link").text
        assert "E-mail it to" in link
        sent = client.post(f"/events/{event.id}/players/{ann.id}/send-link")
        assert sent.status_code == 200 and "Sent" in sent.text
        assert len(inbox.messages) == 1
        sender, recipients, content = inbox.messages[0]
        assert sender == "club@example.org" and recipients == ["ann@example.org"]
        message = message_from_bytes(content)
        assert message["Subject"] == "Your page for Spring Open"
        body = message.get_payload(decode=True).decode()  # type: ignore[union-attr]
        assert f"/p/{ann.token}" in body and bob.token not in body
        # no address: nothing sent, said in words
        refused = client.post(f"/events/{event.id}/players/{bob.id}/send-link")
        assert refused.status_code == 422 and "no e-mail address" in refused.text and len(inbox.messages) == 1


def test_an_unreachable_server_is_said_in_words(mail_app: Flask) -> None:
    settings = mail.MailSettings("127.0.0.1", free_port(), security="none", sender="a@example.org", timeout=2)
    from organizer.core.errors import InputError

    with pytest.raises(InputError, match="nothing was sent"):
        mail.send_player_link(settings, "Ann", "ann@example.org", "Spring Open", "http://x/p/abc")
