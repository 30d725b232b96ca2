"""The public page and a player's page keep seats and places apart: a table lists its seats as
"Seat 1", "Seat 2"... and, once it has a result, each player's points with their place at the
table, so nobody reads a seat number as a placing. A draft round names no start player and no
dealer anywhere (round page, table page, player page): everyone picks at once."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.core.models import Event
from tests.fixtures.organizer import create_event
from tests.public.support import seated_event, table_players


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(page)))


def test_a_table_s_seats_and_places_read_apart(app: Flask, signed_in: FlaskClient, session: Session,
                                               event: Event) -> None:
    players = seated_event(signed_in, session, event)
    view, seated = table_players(session, players, 1)
    form = {"mode": "totals", "version": "0"}
    # the first seat scores least, the third most: seat numbers and places differ
    for seat, points in zip(view.seats, [25, 30, 41, 12], strict=True):
        form[f"points_{seat.seat.id}"], form[f"species_{seat.seat.id}"] = str(points), "3"
    assert signed_in.post(f"/events/{event.id}/rounds/1/tables/1/result", data=form).status_code == 302
    page = _text(app.test_client().get(f"/e/{event.public_code}").text)
    table = page.split("Table 1")[1].split("Table 2")[0]
    assert f"Seat 1 {seated[0].name} 25 points place 3" in table
    assert f"Seat 2 {seated[1].name} 30 points place 2" in table
    assert f"Seat 3 {seated[2].name} 41 points place 1" in table
    assert f"Seat 4 {seated[3].name} 12 points place 4" in table
    # a table still playing: seats only, no place
    playing = page.split("Table 2")[1].split("Results round by round")[0]
    assert "Seat 1" in playing and "place" not in playing
    german = _text(app.test_client().get(f"/e/{event.public_code}", headers={"Accept-Language": "de"}).text)
    assert f"Platz 1 {seated[0].name} 25 Punkte Rang 3" in german


def test_a_draft_round_names_no_start_player_or_dealer(app: Flask, signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, round_formats=["draft", "standard"])
    players = seated_event(signed_in, session, event)
    round_page = _text(signed_in.get(f"/events/{event.id}/rounds/1").text)
    table_page = _text(signed_in.get(f"/events/{event.id}/rounds/1/tables/1").text)
    for page in (round_page, table_page):
        assert "start player" not in page and "dealer" not in page.replace("no start player or dealer", "")
    _view, seated = table_players(session, players, 1)
    for player in (seated[0], seated[-1]):
        mine = _text(app.test_client().get(f"/p/{player.token}").text)
        assert "You start the game" not in mine and "You deal" not in mine
        assert "In the draft everyone picks at once" in mine


def test_a_standard_round_still_names_them(app: Flask, signed_in: FlaskClient, session: Session,
                                           event: Event) -> None:
    players = seated_event(signed_in, session, event)
    assert "start player" in signed_in.get(f"/events/{event.id}/rounds/1").text
    _view, seated = table_players(session, players, 1)
    assert "You start the game." in app.test_client().get(f"/p/{seated[0].token}").text
    assert "You deal." in app.test_client().get(f"/p/{seated[-1].token}").text
