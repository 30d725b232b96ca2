"""Hostile imports and exports: the JSON import refuses what the forms refuse and any
stored live game that does not replay, naming the first bad item; deep nesting is a message, not
a 500; CSV cells a spreadsheet would run as formulas are guarded and come back through the CSV
import unchanged; exports are never cached."""

from __future__ import annotations

import csv
import html
import io
import json
import time
import zipfile
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, Player, Round
from organizer.live import tables as live_tables
from organizer.rounds import service as round_service
from tests.exchange.support import _changed, demo


def post_import(client: FlaskClient, content: bytes) -> Any:
    return client.post("/events/import", data={"file": (io.BytesIO(content), "x.json")},
                       content_type="multipart/form-data")


def refused(client: FlaskClient, content: bytes) -> str:
    response = post_import(client, content)
    assert response.status_code == 422, response.status_code
    return html.unescape(response.text)


SEAT = ("rounds", 0, "tables", 0, "result", "seats", 1)
ISSUE_CASES = [
    (("players", 2, "name"), "", "Player 3 (no name): Enter the player's name."),
    (("players", 2, "name"), "\u200b\u3164", "Player 3"),
    (("players", 2, "name"), "x" * 5000, "Keep the name to 80 characters"),
    (("players", 2, "email"), "a@b", "Player 3 (Cleo Birch"),
    (("players", 2, "fixed_table"), 99999, "Player 3 (Cleo Birch): a fixed table must be from 1 to 500, not 99999."),
    (("players", 2, "joined_round"), -3, "Player 3 (Cleo Birch): the round the player joined must be from 1"),
    (("players", 2, "checked_in"), "yes", "Player 3 (Cleo Birch): checked_in must be true or false"),
    (("rounds", 0, "number"), -1, "Round entry 1: a round's number (the event's rounds) must be from 1 to 3, not -1."),
    (("rounds", 0, "status"), "bogus", "Round 1: unknown round status 'bogus'."),
    (("rounds", 0, "seed"), 10**20, "Round 1: the seed must be from 0"),
    ((*SEAT, "points"), -999999, "Round 1, table 1, seat 2: Points"),
    ((*SEAT, "points"), "abc", "Round 1, table 1: points must be a whole number, not 'abc'."),
    (("rounds", 0, "tables", 0, "result", "status"), "bogus", "Round 1, table 1: unknown result status 'bogus'."),
    (("rounds", 0, "tables", 0, "result", "entry_mode"), "bogus", "Round 1, table 1: unknown entry mode 'bogus'."),
    (("rounds", 0, "tables", 1, "species", 0), "Banana", "Round 1, table 2: 'Banana' is not a species"),
    (("rounds", 0, "tables", 1, "number"), 1, "Round 1, table 1: this table appears twice."),
    (("rounds", 0, "tables", 1, "seats", 0, "player"), "Ada Moss", "is seated twice in round 1"),
    (("rounds", 0, "tables", 0, "game"), {"mode": "chess", "players": 4, "seed": 1}, "Round 1, table 1: the live game"),
    (("rounds", 0, "tables", 0, "action_log"), [[0, "pick", "n", 1.0]], "the action log holds moves but"),
    (("audit", 0, "actor"), 7, "Audit entry 1: the actor must be text"),
    (("players", 2, "name"), "Cy\u0000Dorn", "NUL"),
    (("event", "name"), "\ud800", "lone surrogate"),
]


@pytest.mark.parametrize("path,value,message", ISSUE_CASES)
def test_import_refuses_what_the_forms_refuse_naming_the_first_bad_item(app: Flask, session: Session, path: tuple,
                                                                         value: object, message: str) -> None:
    client, event = demo(app, session)
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    if path[-1] == "player" and path[0] == "rounds":
        value = data["rounds"][0]["tables"][0]["seats"][0]["player"]
    text = refused(client, _changed(data, path, value))
    assert message in text, text[text.find('class="error"'):][:300]
    assert len(session.exec(select(Event)).all()) == 1


def _digital_export(app: Flask, session: Session) -> tuple[FlaskClient, dict[str, Any]]:
    """The demo with table 3 played live, dealt and with its first moves in the log."""
    client, event = demo(app, session)
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    view = next(v for v in round_service.tables_of(session, rnd.id) if v.table.number == 3)
    live_tables.make_digital(session, event, rnd, view, "test")
    live_tables.start_round(session, event, rnd)
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    table = data["rounds"][0]["tables"][2]
    assert table["game"] is not None
    return client, data


def test_a_live_game_that_replays_is_imported_and_one_that_does_not_is_refused(app: Flask, session: Session) -> None:
    client, data = _digital_export(app, session)
    assert post_import(client, json.dumps(data).encode()).status_code == 302
    table = ("rounds", 0, "tables", 2)
    garbage = [
        ((*table, "action_log"), [[0, "plant Oak 9 at 5,5", "n1", 1.0]], "Round 1, table 3: the live game does not replay"),
        ((*table, "action_log"), [["0", "x", "n1", 1.0]], "Round 1, table 3: move 1 of the live game is not"),
        ((*table, "game", "players"), 2, "Round 1, table 3: the live game"),
        ((*table, "game", "seed"), "seven", "Round 1, table 3: the live game"),
        ((*table, "game", "started_at"), "noon", "Round 1, table 3: the live game's started_at"),
        ((*table, "game"), [1, 2], "Round 1, table 3: the live game must be a JSON object."),
    ]
    for path, value, message in garbage:
        assert message in refused(client, _changed(data, path, value)), message
    assert len(session.exec(select(Event)).all()) == 2


@pytest.mark.parametrize("depth", [100, 100_000])
def test_deeply_nested_json_is_a_message_not_a_500(app: Flask, session: Session, depth: int) -> None:
    client, event = demo(app, session)
    nested = ("[" * depth + "]" * depth).encode()
    assert "nests lists or objects more than 32 levels" in refused(client, nested)
    # the score case upload on the table page
    form = {"mode": "assistant", "version": "0", "case_file": (io.BytesIO(nested), "case.json")}
    event.entry_modes = ["totals", "scorepad", "assistant"]
    session.add(event)
    session.commit()
    response = client.post(f"/events/{event.id}/rounds/1/tables/3/result", data=form, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "nests lists or objects" in html.unescape(response.text)


FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+2", "-3+4", "@SUM(A1)", "'=already quoted", "Ann Lee"]


def test_csv_cells_that_are_formulas_are_guarded_and_round_trip_through_the_csv_import(app: Flask,
                                                                                    session: Session) -> None:
    client, event = demo(app, session)
    formulas = list(FORMULAS)  # each database's run gets the whole list
    for player in session.exec(select(Player).where(Player.event_id == event.id).order_by(Player.id)
                             .limit(len(FORMULAS))).all():
        player.name = formulas.pop(0)
        player.club = "=cmd|' /C calc'!A0"
        session.add(player)
    session.commit()
    names = sorted(p.name for p in session.exec(select(Player)).all())
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/events/{event.id}/export.zip").data))
    for member in archive.namelist():
        for row in csv.reader(io.StringIO(archive.read(member).decode())):
            for cell in row:
                assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (member, cell)
    players_csv = archive.read("players.csv").decode()
    assert "'=HYPERLINK" in players_csv and "''=already quoted" in players_csv
    # The CSV import of another event takes the guard off again: the same names come back.
    other = client.post("/events/new", data={"name": "Copy", "date": "2026-05-01", "edition": "2018", "rounds": "1",
                                             "format_1": "standard", "preferred_table_size": "4",
                                             "point_scheme": "beaten", "tiebreak_1": "game_points",
                                             "tiebreak_2": "opponents_average", "tiebreak_3": "species_count",
                                             "tiebreak_4": "head_to_head", "entry_modes": ["totals"]})
    assert other.status_code == 302
    copy = session.exec(select(Event).where(Event.name == "Copy")).one()
    rows = list(csv.DictReader(io.StringIO(players_csv)))
    text = io.StringIO()
    csv.writer(text).writerows([["name", "club"]] + [[row["name"], row["club"]] for row in rows])
    response = client.post(f"/events/{copy.id}/players/import", data={"csv_text": text.getvalue()})
    assert response.status_code == 302, html.unescape(response.text)[:2000]
    session.expire_all()
    copied = session.exec(select(Player).where(Player.event_id == copy.id)).all()
    assert sorted(p.name for p in copied) == names
    assert {p.club for p in copied} >= {"=cmd|' /C calc'!A0"}


def test_exports_are_never_cached(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    assert event.id is not None
    event.entry_modes = ["totals", "scorepad", "assistant"]
    session.add(event)
    session.commit()
    case = {"rules": "standard-2018", "players": []}
    addresses = [f"/events/{event.id}/export.json", f"/events/{event.id}/export.zip"]
    # a table whose result came from a score case has a case.json
    from organizer.core.models import Result
    result = session.exec(select(Result)).first()
    assert result is not None
    result.score_case = case
    session.add(result)
    session.commit()
    table = next(t for r in json.loads(client.get(addresses[0]).text)["rounds"] for t in r["tables"]
                 if t["result"] and t["result"]["score_case"])
    addresses.append(f"/events/{event.id}/rounds/1/tables/{table['number']}/case.json")
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 200, address
        assert response.headers["Cache-Control"] == "private, no-store", address


def test_import_time_grows_linearly_with_the_players(app: Flask, session: Session) -> None:
    """The time itself is the benchmark's business (bench/); what a test can hold on a machine of
    any speed and load is the shape: eight times the players may cost about eight times the time,
    never the sixty-four times a check of each player against all before it would."""
    client, event = demo(app, session)
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024 * 1024
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    data["rounds"], data["audit"] = [], []

    def import_players(count: int, tag: str) -> float:
        data["players"] = [{**data["players"][0], "name": f"Player {tag}{i}", "email": f"p{tag}{i}@example.org"}
                           for i in range(count)]
        started = time.perf_counter()
        response = post_import(client, json.dumps(data).encode())
        assert response.status_code == 302
        return time.perf_counter() - started

    import_players(200, "w")  # warm up the code paths
    small = min(import_players(500, f"s{n}-") for n in range(2))
    large = import_players(4_000, "l")
    assert large / small < 24, f"500 players {small:.2f} s, 4,000 players {large:.2f} s"
    assert len(session.exec(select(Player)).all()) == 12 + 200 + 2 * 500 + 4_000
