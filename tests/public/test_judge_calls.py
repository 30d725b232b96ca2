"""Calling a judge from a player's own page: the call shows on the round's "needs attention" list,
a judge takes it (the player's page says who) and resolves it; one live call per table, a wait
before a table calls again, one judge per call however many tap at once, and an audit entry for
each step."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.accounts import service as accounts
from organizer.core import guard, staff
from organizer.core.models import AuditEntry, Event, JudgeCall, Role, utcnow
from organizer.public import judge_calls
from tests.fixtures.organizer import HX, PASSWORD, error_beside, sign_in
from tests.public.support import seated_event, table_players


def calls(session: Session) -> list[JudgeCall]:
    session.expire_all()
    return list(session.exec(select(JudgeCall).order_by(JudgeCall.id)).all())  # type: ignore[arg-type]


def attention(client: FlaskClient, event: Event) -> str:
    response = client.get(f"/events/{event.id}/rounds/1/attention", headers=HX)
    assert response.status_code == 200
    return response.text


def test_a_player_calls_and_sees_who_took_it(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    _view, seated = table_players(session, players, 2)
    phone = app.test_client()
    page = phone.get(f"/p/{seated[0].token}").text
    assert "Call a judge to table 2" in page
    assert "judge called" not in attention(signed_in, event)

    sent = phone.post(f"/p/{seated[0].token}/call-judge", data={"note": "<b>Is this   legal?</b>"}, headers=HX)
    assert sent.status_code == 200
    assert "A judge is called to table 2; waiting for one to take it." in sent.text
    assert "Call a judge to table 2" not in sent.text
    listed = attention(signed_in, event)
    assert "judge called" in listed and f"{seated[0].name} calls a judge." in listed
    # the note is the player's text, shown as text
    assert "&lt;b&gt;Is this legal?&lt;/b&gt;" in listed and "<b>Is this" not in listed

    call = calls(session)[0]
    taken = signed_in.post(f"/events/{event.id}/rounds/1/calls/{call.id}/take", headers=HX)
    assert taken.status_code == 200 and "Taken by Tess" in taken.text
    assert "A judge is on the way: Tess took your call." in phone.get(f"/p/{seated[0].token}").text
    # the rest of the table sees the same call
    assert "Tess took your call" in phone.get(f"/p/{seated[1].token}").text

    resolved = signed_in.post(f"/events/{event.id}/rounds/1/calls/{call.id}/resolve", headers=HX)
    assert resolved.status_code == 200 and "judge called" not in resolved.text
    assert [c.status for c in calls(session)] == ["resolved"]
    actions = [(e.action, e.actor) for e in session.exec(select(AuditEntry).where(
        AuditEntry.action.startswith("judge.")).order_by(AuditEntry.id))]  # type: ignore[attr-defined]
    assert actions == [("judge.called", f"player {seated[0].name}"), ("judge.taken", "Tess"), ("judge.resolved", "Tess")]
    log = signed_in.get(f"/events/{event.id}/audit").text
    assert f"{seated[0].name} called a judge to table 2 (Round 1)." in log


def test_one_live_call_per_table_and_a_wait_after(app: Flask, signed_in: FlaskClient, session: Session,
                                                  event: Event) -> None:
    players = seated_event(signed_in, session, event)
    _view, seated = table_players(session, players, 1)
    phone = app.test_client()
    assert phone.post(f"/p/{seated[0].token}/call-judge", data={"note": ""}).status_code == 200
    again = phone.post(f"/p/{seated[1].token}/call-judge", data={"note": "me too"})
    assert again.status_code == 422 and "A judge is already called to your table." in again.text
    assert len(calls(session)) == 1
    # another table calls at the same time
    _view2, other = table_players(session, players, 2)
    assert phone.post(f"/p/{other[0].token}/call-judge", data={}).status_code == 200

    first = calls(session)[0]
    judge_calls.resolve(session, event, first.id or 0, "Ana")
    soon = phone.post(f"/p/{seated[0].token}/call-judge", data={})
    assert soon.status_code == 429 and "you can call again in" in soon.text
    assert int(soon.headers["Retry-After"]) <= judge_calls.CALL_AGAIN_SECONDS
    later = utcnow() + timedelta(seconds=judge_calls.CALL_AGAIN_SECONDS + 1)
    player = session.merge(seated[0])
    judge_calls.call_judge(session, player, "again", now=later)
    assert [c.status for c in calls(session)] == ["resolved", "open", "open"]


def test_a_taken_call_stays_with_the_judge_who_took_it(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    _view, seated = table_players(session, players, 1)
    call = judge_calls.call_judge(session, seated[0], "")
    judge_calls.take(session, event, call.id or 0, "Ana")
    with pytest.raises(guard.StaleChange, match="Ana took it already"):
        judge_calls.take(session, event, call.id or 0, "Ben")
    session.rollback()
    refused = signed_in.post(f"/events/{event.id}/rounds/1/calls/{call.id}/take", headers=HX)
    assert refused.status_code == 409 and "Ana took it already" in refused.text
    assert calls(session)[0].taken_by == "Ana"


def test_bad_calls_change_nothing(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    _view, seated = table_players(session, players, 1)
    phone = app.test_client()
    long = phone.post(f"/p/{seated[0].token}/call-judge", data={"note": "x" * 201}, headers=HX)
    assert long.status_code == 422 and error_beside(long.text, "call-note") == "At most 200 characters."
    assert signed_in.post(f"/events/{event.id}/players/{seated[1].id}/drop", data={"dropped": "1"}).status_code in (200, 302)
    dropped = phone.post(f"/p/{seated[1].token}/call-judge", data={})
    assert dropped.status_code == 422 and "Call a judge" not in dropped.text
    assert calls(session) == []


def test_an_assigned_judge_takes_calls_at_their_event(app: Flask, signed_in: FlaskClient, session: Session,
                                                      event: Event) -> None:
    players = seated_event(signed_in, session, event)
    _view, seated = table_players(session, players, 1)
    call = judge_calls.call_judge(session, seated[0], "")
    judge = accounts.create_organizer(session, "Ana", PASSWORD, role=Role.JUDGE)
    phone = app.test_client()
    sign_in(phone, "Ana")
    assert phone.post(f"/events/{event.id}/rounds/1/calls/{call.id}/take", headers=HX).status_code == 403
    assert judge.id is not None and event.id is not None
    staff.assign_judge(session, event, judge.id, "Tess")
    taken = phone.post(f"/events/{event.id}/rounds/1/calls/{call.id}/take", headers=HX)
    assert taken.status_code == 200 and "Taken by Ana" in taken.text
    assert app.test_client().get(f"/p/{seated[2].token}").text.count("Ana took your call") == 1
