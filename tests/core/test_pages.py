"""Every page answers as a whole page, and as just its fragment for HTMX, on the demo event."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event
from tests.fixtures.organizer import HX

PAGES = {
    "/": 'id="event-list"',
    "/events/new": 'id="event-form"',
    "/events/{id}": 'id="event-overview"',
    "/events/{id}/edit": 'id="event-form"',
    "/events/{id}/players": 'id="players-panel"',
    "/events/{id}/rounds": 'id="round-list"',
    "/events/{id}/rounds/1": 'id="round-tables"',
    "/events/{id}/rounds/1/tables/1": 'id="table-result"',
    "/events/{id}/rounds/1/tables/3": 'id="table-result"',
    "/events/{id}/rounds/1/tables/3?mode=scorepad": 'data-sum=',
    "/events/{id}/rounds/1/tables/3?mode=assistant": 'name="case_file"',
    "/events/{id}/standings": 'id="standings"',
    "/events/{id}/audit": "<ol class=\"audit-entries\"",
    "/events/{id}/projector": 'id="projector"',
    "/organizers": 'id="accounts-panel"',
}


@pytest.fixture
def demo_client(app: Flask, session: Session) -> tuple[FlaskClient, int]:
    assert app.test_cli_runner().invoke(args=["demo"]).exit_code == 0
    client = app.test_client()
    assert client.post("/sign-in", data={"name": "demo", "password": "demo"}).status_code == 302
    event = session.exec(select(Event)).one()
    assert event.id is not None
    return client, event.id


@pytest.mark.parametrize("path", list(PAGES))
def test_page_and_fragment(demo_client: tuple[FlaskClient, int], path: str) -> None:
    client, event_id = demo_client
    url = path.format(id=event_id)
    page = client.get(url)
    assert page.status_code == 200, url
    assert page.text.lstrip().startswith("<!doctype html>")
    assert PAGES[path] in page.text
    assert 'class="topbar"' in page.text or "/projector" in url
    fragment = client.get(url, headers=HX)
    assert fragment.status_code == 200
    assert "<html" not in fragment.text and 'class="topbar"' not in fragment.text
    assert PAGES[path] in fragment.text


def test_demo_standings_rank_the_confirmed_and_entered_tables(demo_client: tuple[FlaskClient, int]) -> None:
    client, event_id = demo_client
    page = client.get(f"/events/{event_id}/standings").text
    assert "Provisional: 1 result is not confirmed yet" in page
    assert page.count(">1.00<") == 2  # the winners of tables 1 and 2


def test_projector_shows_seating_clock_and_standings(demo_client: tuple[FlaskClient, int]) -> None:
    client, event_id = demo_client
    page = client.get(f"/events/{event_id}/projector").text
    assert 'hx-trigger="every 10s"' in page
    assert "<span>Ada Moss</span>" in page and "Round 1 of 3" in page
    assert 'class="clock"' not in page
    response = client.post(f"/events/{event_id}/rounds/1/clock", data={"minutes": "0"})
    assert response.status_code == 422 and "1 to 300" in response.text
    assert client.post(f"/events/{event_id}/rounds/1/clock", data={"minutes": "50"}).status_code == 302
    fragment = client.get(f"/events/{event_id}/projector", headers=HX).text
    assert fragment.lstrip().startswith('<div id="projector"')
    assert 'class="clock" data-deadline=' in fragment
    assert "49:5" in fragment or "50:00" in fragment
    assert "Ends at" in client.get(f"/events/{event_id}/rounds/1").text
    client.post(f"/events/{event_id}/rounds/1/clock", data={"stop": "1"})
    assert 'class="clock"' not in client.get(f"/events/{event_id}/projector").text
