"""Export as JSON and CSV; a JSON export imported back gives an identical event."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import zipfile

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, col, select

from organizer.core.models import Event, Seat
from tests.exchange.support import _changed, demo
from tests.finals.support import played_finals


def test_json_round_trip_gives_an_identical_event(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    exported = client.get(f"/events/{event.id}/export.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    data = json.loads(exported.text)
    assert data["format"] == "arboretum-event" and len(data["players"]) == 12
    assert "token" not in exported.text  # private seat links never leave the database
    upload = {"file": (io.BytesIO(exported.data), "event.json")}
    response = client.post("/events/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 302
    events = session.exec(select(Event).order_by(Event.id)).all()
    assert len(events) == 2
    again = json.loads(client.get(f"/events/{events[1].id}/export.json").text)
    assert again == data
    # The copy works like the original: same standings, new seat tokens.
    assert client.get(f"/events/{events[1].id}/standings").text.count(">1.00<") == \
        client.get(f"/events/{event.id}/standings").text.count(">1.00<")
    tokens = [s.token for s in session.exec(select(Seat)).all()]
    assert len(set(tokens)) == len(tokens) == 24


def test_the_event_s_language_and_time_zone_go_there_and_back(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    event.language, event.time_zone = "de", "Europe/Berlin"
    session.add(event)
    session.commit()
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    assert (data["event"]["language"], data["event"]["time_zone"]) == ("de", "Europe/Berlin")
    response = client.post("/events/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "event.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    copy = session.exec(select(Event).order_by(Event.id)).all()[-1]
    assert copy.id != event.id and (copy.language, copy.time_zone) == ("de", "Europe/Berlin")
    # an export from before these settings existed: English and UTC
    for key in ("language", "time_zone"):
        del data["event"][key]
    response = client.post("/events/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "old.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    old = session.exec(select(Event).order_by(Event.id)).all()[-1]
    assert old.id != copy.id and (old.language, old.time_zone) == ("en", "UTC")


def test_bad_imports_change_nothing(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    cases = [
        (b"not json", "not valid JSON"),
        (json.dumps({"hello": 1}).encode(), "Not an event export"),
        (json.dumps({**data, "version": 99}).encode(), "version 99"),
        (json.dumps({**data, "players": data["players"][:-1]}).encode(), "unknown player"),
        (json.dumps({**data, "event": {**data["event"], "preferred_table_size": 5}}).encode(), "4, 3 or 2"),
        (json.dumps({**data, "rounds": [{"number": 1}]}).encode(), "damaged or incomplete"),
    ]
    for content, message in cases:
        response = client.post("/events/import", data={"file": (io.BytesIO(content), "x.json")},
                               content_type="multipart/form-data")
        assert response.status_code == 422, message
        assert message in response.text, message
    assert len(session.exec(select(Event)).all()) == 1


def test_csv_export(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    response = client.get(f"/events/{event.id}/export.zip")
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(response.data))
    assert sorted(archive.namelist()) == ["players.csv", "results.csv", "standings.csv"]
    players = list(csv.DictReader(io.StringIO(archive.read("players.csv").decode())))
    assert len(players) == 12 and players[0]["name"] == "Ada Moss"
    results = list(csv.DictReader(io.StringIO(archive.read("results.csv").decode())))
    assert len(results) == 12
    assert {r["result_status"] for r in results} == {"confirmed", "disputed", ""}
    assert sum(r["start_player"] == "True" for r in results) == 3
    standings = list(csv.DictReader(io.StringIO(archive.read("standings.csv").decode())))
    assert standings[0]["rank"] == "1" and len(standings) == 12


def test_import_refuses_what_the_forms_refuse_naming_the_item(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    seat = ("rounds", 0, "tables", 0, "result", "seats", 1)
    cases = [
        (("players", 2, "name"), "   ", "Player 3 (no name): Enter the player's name."),
        (("players", 4, "name"), "x" * 81, "Player 5 (" + "x" * 81 + "): Keep the name to 80 characters"),
        (("players", 0, "email"), "ada at home", "Player 1 (Ada Moss): “ada at home” is not an e-mail address."),
        (("event", "name"), "", "The event's settings: Give the event a name."),
        (("event", "pick_timer_seconds"), 5, "The event's settings: Leave empty for no timer"),
        (("event", "language"), "xx", "The event's settings: Choose one of the listed languages."),
        (("event", "time_zone"), "Mars/Olympus", "The event's settings: No time zone is called “Mars/Olympus”"),
        (("event", "language"), 7, "The event's settings: the language must be text, not 7."),
        ((*seat, "species_count"), -1, "Round 1, table 1, seat 2: Species in the arboretum: a whole number from 0"),
        ((*seat, "points"), -4, "Round 1, table 1, seat 2: Points: the total must be the scorepad's sum"),
        ((*seat, "scorepad", data["rounds"][0]["tables"][0]["species"][0]), 1,
         f"Round 1, table 1, seat 2: {data['rounds'][0]['tables'][0]['species'][0]}: 0, or 2 to 19"),
        (("rounds", 0, "tables", 2, "species", 0), "Banana", "Round 1, table 3: 'Banana' is not a species"),
    ]
    for path, value, message in cases:
        response = client.post("/events/import", data={"file": (io.BytesIO(_changed(data, path, value)), "x.json")},
                               content_type="multipart/form-data")
        assert response.status_code == 422, message
        assert message in html.unescape(response.text), message
    assert len(session.exec(select(Event)).all()) == 1


def test_the_player_form_refuses_the_same_e_mail(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    response = client.post(f"/events/{event.id}/players", data={"name": "Zed", "club": "", "email": "ada at home"})
    assert response.status_code == 422
    assert "“ada at home” is not an e-mail address." in html.unescape(response.text)


def test_an_event_with_finals_goes_there_and_back(signed_in: FlaskClient, session: Session) -> None:
    """The finals' rounds keep their stage and the cut its seeds, decliners and reasons: the copy
    shows the same final places and names its rounds alike."""
    event, player_of = played_finals(signed_in, session)
    data = json.loads(signed_in.get(f"/events/{event.id}/export.json").text)
    assert [r["stage"] for r in data["rounds"]] == ["swiss", "semi_final", "final"]
    assert data["finals"]["cut_size"] == 8 and len(data["finals"]["seeds"]) == 8
    response = signed_in.post("/events/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "event.json")},
                              content_type="multipart/form-data")
    assert response.status_code == 302, response.text
    copy = session.exec(select(Event).order_by(col(Event.id))).all()[-1]
    assert copy.id != event.id
    again = json.loads(signed_in.get(f"/events/{copy.id}/export.json").text)
    assert again["rounds"] == data["rounds"] and again["finals"] == data["finals"]

    def places(event_id: int | None) -> list[str]:
        page = signed_in.get(f"/events/{event_id}/standings").text
        return re.findall(r'<strong class="finals-name">([^<]+)</strong>', page)

    assert places(copy.id) == places(event.id) and len(places(copy.id)) == 8
    rounds = signed_in.get(f"/events/{copy.id}/rounds").text
    assert "<strong>Semi-finals</strong>" in rounds and "<strong>Final table</strong>" in rounds
    archive = zipfile.ZipFile(io.BytesIO(signed_in.get(f"/events/{event.id}/export.zip").data))
    stages = {row["round"]: row["stage"] for row in csv.DictReader(io.StringIO(archive.read("results.csv").decode()))}
    assert stages == {"1": "swiss", "2": "semi_final", "3": "final"}
    # a damaged cut names what is wrong and imports nothing
    data["finals"]["seeds"][0]["player"] = "Nobody"
    refused = signed_in.post("/events/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "bad.json")},
                             content_type="multipart/form-data")
    assert refused.status_code == 422 and "The finals: unknown player" in html.unescape(refused.text)
    assert session.exec(select(Event).order_by(col(Event.id))).all()[-1].id == copy.id
