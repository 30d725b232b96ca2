"""The live pages give their scripts their words in the page's language: "Reconnecting…" on a
seat's screen and a practice game reads German on a German phone."""

from __future__ import annotations

import json
import re

from flask import Flask
from sqlmodel import Session

from tests.live.practice_games import start
from tests.live.support import live_round, seat_clients

STRINGS = re.compile(r'<script type="application/json" id="page-strings">(.*?)</script>', re.S)
RECONNECTING = "Reconnecting… the game goes on as soon as the connection returns."


def script_strings(page: str) -> dict[str, str]:
    found = STRINGS.search(page)
    assert found, "the page gives its scripts no strings"
    strings: dict[str, str] = json.loads(found.group(1))
    return strings


def test_reconnecting_is_in_the_page_s_language(app: Flask, session: Session) -> None:
    _event, _rnd, views = live_round(session, 2, "draft", table_size=2)
    seat = seat_clients(app, views[0])[0]
    german = seat.client.get(seat.url, headers={"Accept-Language": "de"})
    assert german.status_code == 200
    said = script_strings(german.text)[RECONNECTING]
    assert said.startswith("Verbindung wird wiederhergestellt") and "Reconnecting" not in said
    assert script_strings(seat.client.get(seat.url, headers={"Accept-Language": "fr"}).text)[RECONNECTING] != RECONNECTING
    assert script_strings(seat.client.get(seat.url).text)[RECONNECTING] == RECONNECTING
    phone = app.test_client()
    practice = phone.get(start(phone, mode="solo"), headers={"Accept-Language": "de"})
    assert script_strings(practice.text)[RECONNECTING].startswith("Verbindung wird wiederhergestellt")
