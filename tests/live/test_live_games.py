"""Whole live games through the HTTP endpoints: drafts for 2, 3 and 4 seats and standard games,
every seat on its own page, every answer checked for hidden cards; the result at the end."""

from __future__ import annotations

import random

import pytest
from flask import Flask
from sqlmodel import Session, select

from organizer.accounts import service as accounts
from organizer.core.models import AuditEntry, Result
from organizer.rounds import service as round_service
from organizer.scoring.event_standings import standings_for
from tests.fixtures.organizer import PASSWORD, sign_in
from tests.live.support import fast_sqlite, live_round, play_whole_game, sqlite_app, sqlite_session  # noqa: F401


def test_whole_four_player_draft_on_each_database(app: Flask, session: Session) -> None:
    fast_sqlite(app)
    check_whole_draft(app, session, 4)


@pytest.mark.parametrize("players", [2, 3])
def test_whole_draft_through_the_seat_pages(sqlite_app: Flask, sqlite_session: Session, players: int) -> None:
    check_whole_draft(sqlite_app, sqlite_session, players)


def check_whole_draft(app: Flask, session: Session, players: int) -> None:
    event, rnd, views = live_round(session, players, "draft", table_size=players)
    assert len(views) == 1 and views[0].table.digital
    state = play_whole_game(app, views[0], random.Random(players))
    assert state.is_terminal() and state.mode == "draft"
    assert state.rounds == (2 if players == 4 else 3)
    outcome = state.outcome()
    assert outcome is not None
    session.expire_all()
    result = session.exec(select(Result).where(Result.table_id == views[0].table.id)).one()
    assert result.status == "confirmed" and result.entry_mode == "digital"
    assert [s["points"] for s in result.seats] == [p.total for p in outcome.players]
    assert result.score_case is not None and result.score_case["rules"] == "draft"
    assert result.score_output == outcome.to_json()
    rows = standings_for(session, event)
    assert {row.player_id for row in rows} == {s.seat.player_id for s in views[0].seats}
    actions = [a.action for a in session.exec(select(AuditEntry).where(AuditEntry.table_id == views[0].table.id)).all()]
    assert "result.entered" in actions and "result.confirmed" in actions


@pytest.mark.parametrize("players,edition", [(2, "2018"), (3, "2010")])
def test_whole_standard_game_on_a_digital_table(sqlite_app: Flask, sqlite_session: Session, players: int,
                                                edition: str) -> None:
    app, session = sqlite_app, sqlite_session
    event, rnd, views = live_round(session, players, "standard", table_size=players, edition=edition)
    client = app.test_client()
    accounts.create_organizer(session, "Tess", PASSWORD)
    sign_in(client)
    view = views[0]
    assert not view.table.digital
    response = client.post(f"/events/{event.id}/rounds/1/live/tables/1/digital")
    assert response.status_code == 302
    session.expire_all()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id)[0]
    assert view.table.digital and view.table.game is not None
    assert view.table.game["edition"] == edition and view.table.game["species"] == view.table.species
    state = play_whole_game(app, view, random.Random(7))
    assert state.mode == "standard" and state.is_terminal()
    session.expire_all()
    result = session.exec(select(Result).where(Result.table_id == view.table.id)).one()
    assert result.status == "confirmed"
    outcome = state.outcome()
    assert outcome is not None
    assert [s["points"] for s in result.seats] == [p.total for p in outcome.players]
    assert result.score_case is not None and len(result.score_case["players"][0]["hand"]) == 7
