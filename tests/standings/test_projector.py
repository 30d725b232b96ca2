"""The projector of a big room: a screenful of names at a time, turning over at each refresh,
and only the top of the standings."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.core.models import Event, utcnow
from organizer.standings import projector
from organizer.standings.projector import projector_screen
from tests.fixtures.organizer import add_players


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
    assert 2 <= page.count("<span>Player") <= 4 and " of 3, the next in 10 s" in page  # 4, 4 and 2 names


def test_the_projector_speaks_the_events_language_whatever_the_device_says(
        signed_in: FlaskClient, session: Session, event: Event) -> None:
    event.language = "de"
    session.add(event)
    session.commit()
    signed_in.set_cookie("lang", "fr")  # the organizer's own choice
    assert '<html lang="fr">' in signed_in.get(f"/events/{event.id}/standings").text
    page = signed_in.get(f"/events/{event.id}/projector").text
    assert '<html lang="de">' in page
    # the panel's refresh (htmx) too
    panel = signed_in.get(f"/events/{event.id}/projector", headers={"HX-Request": "true"})
    assert panel.status_code == 200 and 'id="projector"' in panel.text


def test_a_dropped_player_is_marked_in_words_on_the_projector(signed_in: FlaskClient, session: Session,
                                                              event: Event) -> None:
    players = add_players(session, event, 8)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "7"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    players[3].dropped = True  # a mid-round drop: still seated, still in the standings
    session.add(players[3])
    session.commit()
    screen = projector_screen(session, event)
    assert [name for name, _, dropped in screen.seating if dropped] == [players[3].name]
    page = signed_in.get(f"/events/{event.id}/projector").text
    badge = '<span class="badge projector-dropped">dropped</span>'
    assert page.count(badge) == 2  # beside the name in "find your table" and in the standings
    assert f"{players[3].name} {badge}" in page
