"""The projector of a big room: a screenful of names at a time, turning over at each refresh,
and only the top of the standings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.models import Event, utcnow
from organizer.services import projector
from organizer.services.projector import projector_screen

from .conftest import add_players


def test_every_name_comes_round_once_a_screenful_at_a_time(signed_in: FlaskClient, session: Session, event: Event,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    players = add_players(session, event, 10)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "7"})
    assert projector_screen(session, event).seating == []  # a proposal is not shown to the room
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    monkeypatch.setattr(projector, "SEATING_PER_SCREEN", 4)
    monkeypatch.setattr(projector, "STANDINGS_ROWS", 3)
    start = utcnow()
    screens = [projector_screen(session, event, start + timedelta(seconds=projector.REFRESH_SECONDS * i))
               for i in range(3)]
    assert {s.screens for s in screens} == {3}
    assert sorted(s.screen for s in screens) == [1, 2, 3]
    shown = [name for s in sorted(screens, key=lambda s: s.screen) for name, _, _ in s.seating]
    assert shown == sorted(p.name for p in players)
    assert all(len(s.standings.rows) == 3 and set(s.standings.players) == {r.player_id for r in s.standings.rows}
               for s in screens)
    page = signed_in.get(f"/events/{event.id}/projector").text
    assert 2 <= page.count("<li><span>Player") <= 4 and " of 3, the next in 10 s" in page  # 4, 4 and 2 names
