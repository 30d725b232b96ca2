"""The live overview of a big round comes a page of tables at a time, and keeps its page as it
refreshes itself."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.models import Event
from organizer.services import live_overview

from .conftest import add_players


def test_the_overview_pages_through_the_tables(signed_in: FlaskClient, session: Session, event: Event,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    add_players(session, event, 12)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    monkeypatch.setattr(live_overview, "PER_PAGE", 2)
    base = f"/events/{event.id}/rounds/1/live"
    first = signed_in.get(base).text
    assert 'id="live-table-1"' in first and 'id="live-table-2"' in first and 'id="live-table-3"' not in first
    assert "Tables 1–2 of 3" in first
    second = signed_in.get(base + "?page=2").text
    assert 'id="live-table-3"' in second and 'id="live-table-1"' not in second
    assert f'hx-get="{base}?page=2" hx-trigger="every 5s"' in second  # the refresh stays on page 2
