"""Export as JSON and CSV; a JSON export imported back gives an identical event."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.models import Event, Seat


def demo(app: Flask, session: Session) -> tuple[FlaskClient, Event]:
    assert app.test_cli_runner().invoke(args=["demo"]).exit_code == 0
    client = app.test_client()
    client.post("/sign-in", data={"name": "demo", "password": "demo"})
    event = session.exec(select(Event)).one()
    # Some history worth carrying: a dispute and a dropped player.
    client.post(f"/events/{event.id}/rounds/1/tables/2/dispute", data={"version": "1", "note": "recount please"})
    return client, event


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


def test_bad_imports_change_nothing(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    cases = [
        (b"not json", "not JSON"),
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
