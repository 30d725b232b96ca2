"""The players' screens for a noisy room and in the players' languages: the public
page and a player's own page put what matters now first, say statuses and drops in words, speak
the visitor's language (cached per language), and the link mail speaks the event's language."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.core import translate
from organizer.core.models import Event, Player
from organizer.players import service as player_service
from tests.fixtures.organizer import HX
from tests.public.support import seated_event


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_public_page_says_each_tables_state_in_words_and_marks_a_dropped_player(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    gone = players[2]
    player_service.set_dropped(session, gone, True, "test")  # a mid-round drop at the desk
    session.commit()
    page = _text(app.test_client().get(f"/e/{event.public_code}").text)
    assert "Playing: no result yet" in page
    # the dropped player's seat says so in words, right after the name, and nobody else's does
    assert f"{gone.name} dropped out" in page and page.count("dropped out") == 1


def test_the_public_page_speaks_each_visitors_language_and_caches_it_apart(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    seated_event(signed_in, session, event)
    phone = app.test_client()
    german = phone.get(f"/e/{event.public_code}", headers={**HX, "Accept-Language": "de-DE,de;q=0.9"})
    english = phone.get(f"/e/{event.public_code}", headers={**HX, "Accept-Language": "en"})
    # the event's day (18 April 2026) in each reader's own format, although the second request
    # asks for the same event, stamp and search as the first
    assert "18.04.2026" in german.text and "Apr 18, 2026" not in german.text
    assert "Apr 18, 2026" in english.text and "18.04.2026" not in english.text
    assert "Set-Cookie" not in german.headers and "Set-Cookie" not in english.headers


def test_a_players_page_shows_their_table_and_seat_and_what_to_do_next_first(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    me = players[0]
    page = app.test_client().get(f"/p/{me.token}").text
    text = _text(page)
    table = re.search(r"Table (\d+) Seat (\d+)", text)
    assert table is not None, text[:400]
    nxt = text.index("Next:")
    # where to sit and what to do come before the check-in state, the drop button and the history
    assert table.start() < nxt < text.index("Checked in") < text.index("Drop out of the event")
    assert "after the game" in text[nxt:nxt + 80]
    assert f"{me.name} you" in text  # the player is marked among the table's names


def test_a_dropped_player_reads_it_first_in_words(app: Flask, signed_in: FlaskClient, session: Session,
                                                  event: Event) -> None:
    players = seated_event(signed_in, session, event)
    me = players[1]
    client = app.test_client()
    assert client.post(f"/p/{me.token}/drop").status_code == 200
    text = _text(client.get(f"/p/{me.token}").text)
    assert text.index("You dropped out of this event") < text.index("Table ")
    assert "Drop out of the event" not in text


def test_the_link_mail_is_written_in_the_events_language(app: Flask, signed_in: FlaskClient, session: Session,
                                                          event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    from organizer.core import mail

    players = seated_event(signed_in, session, event, players=4)
    me = players[0]
    me.email = "ann@example.org"
    event.language = "de"
    session.add_all([me, event])
    session.commit()
    app.config["SMTP_HOST"] = "mail.invalid"
    composed: list[tuple[str, str]] = []
    real = mail.player_link_message

    def spy(*args: Any) -> Any:
        composed.append((str(translate.current_locale()), translate.format_date(event.date)))
        return real(*args)

    monkeypatch.setattr(mail, "player_link_message", spy)
    monkeypatch.setattr(mail, "send", lambda settings, message: None)
    sent = signed_in.post(f"/events/{event.id}/players/{me.id}/send-link", headers={"Accept-Language": "en"})
    assert sent.status_code == 200, sent.text
    assert composed == [("de", "18.04.2026")]
    # the organizer's own page stays in their language
    assert "Sent Player 01's link to their e-mail address." in html.unescape(sent.text)


def test_a_player_without_an_address_is_told_in_the_organizers_words(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event, players=4)
    me: Player = players[1]
    me.email = ""
    session.add(me)
    session.commit()
    app.config["SMTP_HOST"] = "mail.invalid"
    refused = signed_in.post(f"/events/{event.id}/players/{me.id}/send-link")
    assert refused.status_code == 422 and f"{me.name} has no e-mail address." in refused.text
