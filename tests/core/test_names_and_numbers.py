"""Hostile names and numbers: names are stored in NFC, names that show nothing are
refused, names equal up to case, width or invisible characters are one player, a NUL anywhere
is a clear 400 (never a 500, on PostgreSQL too), and score fields take plain digits only."""

from __future__ import annotations

import unicodedata

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core import text
from organizer.core.models import Event, Organizer, Player, Result
from tests.fixtures.organizer import HX, PASSWORD, error_beside
from tests.rounds.support import published_table, totals_form, url

INVISIBLE_NAMES = ["\u200b", "\u200b\u200c\u200d", "\u202e", "\u2066\u2069", "\u3164", "\u115f\u1160",
                   "\uffa0", "\u2800", "\ufeff", "\u00ad", "\u3000\u200b", "\u034f", "\ufe0f"]


def players_of(session: Session, event: Event) -> list[Player]:
    session.expire_all()
    return list(session.exec(select(Player).where(Player.event_id == event.id).order_by(Player.id)).all())


def add(client: FlaskClient, event: Event, name: str):  # type: ignore[no-untyped-def]
    return client.post(f"/events/{event.id}/players", data={"name": name, "club": "", "email": ""}, headers=HX)


def test_names_are_stored_in_nfc(signed_in: FlaskClient, session: Session, event: Event) -> None:
    decomposed = "Zoe\u0301 Mu\u0308ller"  # e + combining acute, u + combining diaeresis
    assert add(signed_in, event, decomposed).status_code == 200
    [player] = players_of(session, event)
    assert player.name == "Zoé Müller" == unicodedata.normalize("NFC", decomposed)


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_a_name_of_invisible_characters_is_refused(signed_in: FlaskClient, session: Session, event: Event,
                                                   name: str) -> None:
    response = add(signed_in, event, name)
    assert response.status_code == 422
    assert error_beside(response.text, "name")  # either "Enter the player's name" or "only invisible"
    assert players_of(session, event) == []


@pytest.mark.parametrize("twin", ["ann lee", "ＡＮＮ　ＬＥＥ", "Ann\u200b Lee", "A\u00adnn Lee", "Ann Lee\u2060",
                                  "Ann\u202e Lee", "ANN  LEE"])
def test_names_equal_up_to_case_width_or_invisibles_are_one_player(signed_in: FlaskClient, session: Session,
                                                                   event: Event, twin: str) -> None:
    assert add(signed_in, event, "Ann Lee").status_code == 200
    response = add(signed_in, event, twin)
    assert response.status_code == 422
    assert "Ann Lee is already registered" in error_beside(response.text, "name")
    csv = signed_in.post(f"/events/{event.id}/players/import", data={"csv_text": f"Bo Chen\n{twin}\n"})
    assert csv.status_code == 422 and "Nothing imported" in csv.text
    assert [p.name for p in players_of(session, event)] == ["Ann Lee"]


def test_duplicates_within_one_csv_differ_only_in_width(signed_in: FlaskClient, session: Session, event: Event) -> None:
    response = signed_in.post(f"/events/{event.id}/players/import", data={"csv_text": "Ｂｏ\nbo\u200b\n"})
    assert response.status_code == 422 and "already appears on line 1" in response.text
    assert players_of(session, event) == []


def test_editing_a_player_into_a_twin_is_refused(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add(signed_in, event, "Ann Lee")
    add(signed_in, event, "Bo Chen")
    bo = players_of(session, event)[1]
    response = signed_in.post(f"/events/{event.id}/players/{bo.id}/edit",
                              data={"name": "ａｎｎ ｌｅｅ", "club": "", "email": ""})
    assert response.status_code == 422 and "Ann Lee is already registered" in response.text


@pytest.mark.parametrize("path,data", [
    ("/sign-in", {"name": "Tess\x00", "password": PASSWORD}),
    ("/sign-in", {"name": "Tess", "password": "x\x00"}),
    ("/events/new", {"name": "Cup\x00"}),
    ("/events/EVENT/players", {"name": "Ann\x00Lee", "club": "", "email": ""}),
    ("/events/EVENT/players", {"name": "Ann", "club": "C\x00", "email": ""}),
    ("/events/EVENT/players/import", {"csv_text": "Ann\x00\n"}),
    ("/events/EVENT/players", {"name\x00": "Ann"}),
])
def test_nul_anywhere_in_a_form_is_a_clear_400(signed_in: FlaskClient, session: Session, event: Event, path: str,
                                               data: dict[str, str]) -> None:
    response = signed_in.post(path.replace("EVENT", str(event.id)), data=data)
    assert response.status_code == 400
    assert "NUL character" in response.text
    assert players_of(session, event) == []


def test_nul_in_the_address_or_a_search_is_a_clear_400(signed_in: FlaskClient, event: Event) -> None:
    for address in [f"/events/{event.id}/players?q=a%00b", "/practice/x%00y", f"/events/{event.id}/audit?x%00=1"]:
        response = signed_in.get(address)
        assert response.status_code == 400, address
        assert "NUL character" in response.text


def test_nul_never_reaches_the_database_in_a_json_import(signed_in: FlaskClient, session: Session) -> None:
    # the service check behind the request check: a NUL inside an uploaded file
    assert text.name_problem("Ann\x00", 80, "") is not None and text.text_problem("x\x00") is not None


def test_sign_in_and_first_run_normalise_names(client: FlaskClient, session: Session) -> None:
    response = client.post("/first-run", data={"name": "Ze\u0301lie", "password": PASSWORD, "confirm": PASSWORD})
    assert response.status_code == 302, response.text
    assert session.exec(select(Organizer.name)).one() == "Zélie"
    client.post("/sign-out")
    assert client.post("/sign-in", data={"name": "Zélie", "password": PASSWORD}).status_code == 302


@pytest.mark.parametrize("typed", ["٣", "３", "+5", " 5 ", "5.0", "1_0", "5\n", "-0", "0x5", "²"])
def test_score_fields_take_plain_digits_only_and_say_so(signed_in: FlaskClient, session: Session, event: Event,
                                                        typed: str) -> None:
    view = published_table(signed_in, session, event)
    response = signed_in.post(url(event, "result"), data=totals_form(view, [typed, 37, 37, 20], [6, 5, 7, 4]),
                              headers=HX)
    assert response.status_code == 422
    assert "digits 0-9 only" in error_beside(response.text, f"points_{view.seats[0].seat.id}")
    assert session.exec(select(Result)).all() == []


def test_the_result_form_says_digits_only_before_anything_is_typed(signed_in: FlaskClient, session: Session,
                                                                    event: Event) -> None:
    published_table(signed_in, session, event)
    assert "digits 0-9 only" in signed_in.get(url(event)).text


def test_whole_number_is_ascii_digits() -> None:
    assert text.whole_number("042") == 42
    for bad in ["", "٣", "３", "+5", " 5", "5 ", "5.0", "1_000", "5\n", "-1", "1" * 10]:
        assert text.whole_number(bad) is None, bad
