"""A bot seat's level goes out in the JSON export and comes back in on import."""

from __future__ import annotations

import html
import io
import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, col, select
from werkzeug.test import TestResponse

from organizer.core.models import Event, GameTable, Round, Seat
from tests.exchange.support import demo


def _upload(client: FlaskClient, data: dict[str, Any]) -> TestResponse:
    return client.post("/events/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "event.json")},
                       content_type="multipart/form-data")


def _levels(session: Session, event_id: int) -> list[tuple[bool, str]]:
    return [(seat.is_bot, seat.bot_level) for seat in session.exec(
        select(Seat).join(GameTable, col(GameTable.id) == Seat.table_id).join(Round, col(Round.id) == GameTable.round_id)
        .where(Round.event_id == event_id).order_by(col(Round.number), col(GameTable.number), col(Seat.position))).all()]


def test_a_bot_seat_s_level_goes_there_and_back(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    assert event.id is not None
    seat = session.exec(select(Seat).order_by(col(Seat.id))).first()
    assert seat is not None
    seat.is_bot, seat.bot_level = True, "strong"
    session.add(seat)
    session.commit()
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    seats = [s for r in data["rounds"] for t in r["tables"] for s in t["seats"]]
    assert sum(s["bot_level"] == "strong" and s["is_bot"] for s in seats) == 1
    assert {s["bot_level"] for s in seats} == {"normal", "strong"}
    assert _upload(client, data).status_code == 302
    copy = session.exec(select(Event).order_by(col(Event.id))).all()[-1]
    assert copy.id is not None and _levels(session, copy.id) == _levels(session, event.id)
    assert (True, "strong") in _levels(session, copy.id)
    # an export from before the levels: every bot seat plays at the normal level
    for s in seats:
        del s["bot_level"]
    assert _upload(client, data).status_code == 302
    old = session.exec(select(Event).order_by(col(Event.id))).all()[-1]
    assert old.id is not None and {level for _bot, level in _levels(session, old.id)} == {"normal"}


def test_an_unknown_level_is_refused_and_nothing_is_imported(app: Flask, session: Session) -> None:
    client, event = demo(app, session)
    data = json.loads(client.get(f"/events/{event.id}/export.json").text)
    for bad in ("genius", 3, None):
        data["rounds"][0]["tables"][0]["seats"][1]["bot_level"] = bad
        response = _upload(client, data)
        assert response.status_code == 422
        text = html.unescape(response.text)
        assert "Round 1, table 1" in text and f"a bot's level must be one of easy, normal, strong, not {bad!r}." in text
    assert len(session.exec(select(Event)).all()) == 1
