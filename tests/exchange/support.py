"""Helpers for the export and import tests: the demo event to export, and what changed between
two exports."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event


def demo(app: Flask, session: Session) -> tuple[FlaskClient, Event]:
    assert app.test_cli_runner().invoke(args=["demo"]).exit_code == 0
    client = app.test_client()
    client.post("/sign-in", data={"name": "demo", "password": "demo"})
    event = session.exec(select(Event)).one()
    # Some history worth carrying: a dispute and a dropped player.
    client.post(f"/events/{event.id}/rounds/1/tables/2/dispute", data={"version": "1", "note": "recount please"})
    return client, event


def _changed(data: dict, path: tuple, value: object) -> bytes:
    """A copy of the export with the item at ``path`` (keys and indexes) replaced."""
    copy = json.loads(json.dumps(data))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return json.dumps(copy).encode()
