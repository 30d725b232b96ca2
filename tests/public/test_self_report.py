"""Self-reporting at paper tables: a player of the table enters the result from their
own page, the others confirm or dispute from theirs, with the staff's versions, conflicts and
audit entries; only their own table, only the current round, never for someone else."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import AuditEntry, Confirmation, Event, Result
from organizer.rounds import service as round_service
from tests.fixtures.organizer import HX, create_event
from tests.public.support import assert_no_secrets, report_form, seated_event, secrets_of, set_players_side, table_players


def result_of(session: Session, view: round_service.TableSeating) -> Result | None:
    session.expire_all()
    return session.exec(select(Result).where(Result.table_id == view.table.id)).first()


def test_off_by_default(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    view, seated = table_players(session, players, 1)
    response = app.test_client().post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10]))
    assert response.status_code == 422 and "reported to the organizer" in response.text
    assert result_of(session, view) is None


def test_players_report_and_confirm(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 1)
    phones = [app.test_client() for _ in seated]
    page = phones[0].get(f"/p/{seated[0].token}").text
    assert "Report the result of table 1" in page
    sent = phones[0].post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10]), headers=HX)
    assert sent.status_code == 200, sent.text
    result = result_of(session, view)
    assert result is not None and result.status == "entered" and result.entered_by == f"player {seated[0].name}"
    assert [s["points"] for s in result.seats] == [40, 30, 20, 10]
    entered = session.exec(select(AuditEntry).where(AuditEntry.action == "result.entered")).one()
    assert entered.actor == f"player {seated[0].name}"
    # the reporter's entry is their own agreement; the others tap theirs
    assert {c.seat_id for c in session.exec(select(Confirmation)).all()} == {view.seats[0].seat.id}
    for index in (1, 2, 3):
        page = phones[index].get(f"/p/{seated[index].token}").text
        assert "I agree" in page
        assert_no_secrets(page, secrets_of(session, event), allowed=(seated[index].token,))
        confirmed = phones[index].post(f"/p/{seated[index].token}/confirm",
                                       data={"round": "1", "table": "1", "version": "1"}, headers=HX)
        assert confirmed.status_code == 200
    result = result_of(session, view)
    assert result is not None and result.status == "confirmed"
    actors = {e.actor for e in session.exec(select(AuditEntry).where(AuditEntry.action == "result.confirmed_by_player"))}
    assert actors == {f"player {p.name}" for p in seated}
    # a confirmed result is no longer the players' to change
    # (the confirmation made version 2)
    again = phones[1].post(f"/p/{seated[1].token}/report", data=report_form(view, [10, 2, 3, 4], version=2))
    assert again.status_code == 422
    result = result_of(session, view)
    assert result is not None and result.version == 2


def test_only_their_own_table_and_round(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view1, seated1 = table_players(session, players, 1)
    view2, seated2 = table_players(session, players, 2)
    outsider = app.test_client()
    # a player of table 2 names table 1: nothing changes
    wrong = outsider.post(f"/p/{seated2[0].token}/report", data=report_form(view1, [40, 30, 20, 10]))
    assert wrong.status_code == 422 and result_of(session, view1) is None
    # their own table but a past or future round: nothing changes
    wrong_round = outsider.post(f"/p/{seated2[0].token}/report", data=report_form(view2, [40, 30, 20, 10], round_number=2))
    assert wrong_round.status_code == 422 and result_of(session, view2) is None
    app.test_client().post(f"/p/{seated1[0].token}/report", data=report_form(view1, [40, 30, 20, 10]))
    # confirming table 1's result from table 2: refused, no confirmation for anyone
    refused = outsider.post(f"/p/{seated2[1].token}/confirm", data={"round": "1", "table": "1", "version": "1"})
    assert refused.status_code == 422
    assert len(session.exec(select(Confirmation)).all()) == 1
    # a stale version: the staff's "changed since you opened it"
    stale = app.test_client().post(f"/p/{seated1[1].token}/confirm", data={"round": "1", "table": "1", "version": "7"})
    assert stale.status_code == 422 and "nothing was saved" in stale.text


def test_correction_conflict_and_dispute(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 1)
    first, second = app.test_client(), app.test_client()
    first.post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10]))
    # a second phone that opened the empty form: a conflict, the first entry stays
    conflict = second.post(f"/p/{seated[1].token}/report", data=report_form(view, [41, 30, 20, 10]))
    assert conflict.status_code == 409
    assert session.exec(select(AuditEntry).where(AuditEntry.action == "result.conflict_refused")).one()
    result = result_of(session, view)
    assert result is not None and result.seats[0]["points"] == 40
    disputed = second.post(f"/p/{seated[1].token}/dispute",
                           data={"round": "1", "table": "1", "version": "1", "note": "Ann had 41, secret note"})
    assert disputed.status_code == 200
    result = result_of(session, view)
    assert result is not None and result.status == "disputed"
    assert "secret note" not in app.test_client().get(f"/e/{event.public_code}").text
    assert "secret note" in signed_in.get(f"/events/{event.id}/rounds/1/attention", headers=HX).text
    # the organizer settles it
    signed_in.post(f"/events/{event.id}/rounds/1/tables/1/confirm", data={"seat": "organizer", "version": "1"})
    result = result_of(session, view)
    assert result is not None and result.status == "confirmed"


def test_judge_confirms_mode(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="judge")
    view, seated = table_players(session, players, 1)
    phone = app.test_client()
    assert phone.post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10])).status_code == 200
    assert session.exec(select(Confirmation)).all() == []
    page = phone.get(f"/p/{seated[1].token}").text
    assert "I agree" not in page
    refused = phone.post(f"/p/{seated[1].token}/confirm", data={"round": "1", "table": "1", "version": "1"})
    assert refused.status_code == 422 and session.exec(select(Confirmation)).all() == []
    attention = signed_in.get(f"/events/{event.id}/rounds/1/attention", headers=HX).text
    assert "unconfirmed" in attention


def test_dropped_player_cannot_report(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 1)
    phone = app.test_client()
    assert phone.post(f"/p/{seated[0].token}/drop").status_code == 200
    refused = phone.post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10]))
    assert refused.status_code == 422 and result_of(session, view) is None


def test_reporting_is_rate_limited(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 1)
    phone = app.test_client()
    bad = report_form(view, [400, 30, 20, 10])
    statuses = [phone.post(f"/p/{seated[0].token}/report", data=bad).status_code for _ in range(22)]
    assert statuses[0] == 422 and statuses[-1] == 429


def test_a_player_reports_with_the_scoring_assistant(app: Flask, signed_in: FlaskClient, session: Session) -> None:
    from tests.rounds.support import typed_form

    event = create_event(session, preferred_table_size=2, entry_modes=["totals", "assistant"])
    players = seated_event(signed_in, session, event, players=2)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 1)
    phone = app.test_client()
    assert 'name="arboretum_' in phone.get(f"/p/{seated[1].token}").text
    form = {**typed_form(view), "round": "1", "table": "1"}
    sent = phone.post(f"/p/{seated[1].token}/report", data=form, headers=HX)
    assert sent.status_code == 200, sent.text
    result = result_of(session, view)
    assert result is not None and result.entry_mode == "assistant" and result.score_case is not None
    assert result.entered_by == f"player {seated[1].name}" and result.seats[0]["points"] > 0


HISTORY_ROW = re.compile(r'<tr><td>(\d+)</td><td>(\d+)</td><td class="num">([^<]*)</td><td class="num">([^<]*)</td></tr>')


def history_rows(page: str) -> list[tuple[str, ...]]:
    """The "Your results" table of a player's page: round, table, points, place."""
    table = page.split('class="player-history"', 1)
    return [] if len(table) == 1 else HISTORY_ROW.findall(table[1].split("</table>", 1)[0])


def test_a_players_page_lists_their_rounds(app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    """Each round made final where the player sat, with their points and place at the table; a
    proposal is not theirs yet, a disputed result counts for nothing until settled."""
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    phone = app.test_client()
    third = table_players(session, players, 2)[1][2]  # 35 points at table 2, tied first
    for number, points in ((1, [40, 30, 20, 10]), (2, [10, 20, 35, 35])):
        view, seated = table_players(session, players, number)
        assert phone.post(f"/p/{seated[0].token}/report", data=report_form(view, points)).status_code == 200
        signed_in.post(f"/events/{event.id}/rounds/1/tables/{number}/confirm", data={"seat": "organizer", "version": "1"})
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code in (200, 302)
    assert history_rows(phone.get(f"/p/{third.token}").text) == [("1", "2", "35", "1")]
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"}).status_code in (200, 302)
    assert history_rows(phone.get(f"/p/{third.token}").text) == [("1", "2", "35", "1")]  # round 2 is a proposal
    assert signed_in.post(f"/events/{event.id}/rounds/2/publish").status_code in (200, 302)
    mine, seated = next((v, s) for v, s in (table_players(session, players, n) for n in (1, 2)) if third in s)
    assert history_rows(phone.get(f"/p/{third.token}").text) == [("1", "2", "35", "1"),
                                                                  ("2", str(mine.table.number), "–", "–")]
    points = [50 if p is third else 30 for p in seated]
    assert phone.post(f"/p/{third.token}/report", data=report_form(mine, points, round_number=2)).status_code == 200
    assert history_rows(phone.get(f"/p/{third.token}").text)[1] == ("2", str(mine.table.number), "50", "1")
    other = next(p for p in seated if p is not third)
    assert phone.post(f"/p/{other.token}/dispute", data={
        "round": "2", "table": str(mine.table.number), "version": "1", "note": "recount"}).status_code == 200
    assert history_rows(phone.get(f"/p/{third.token}").text)[1] == ("2", str(mine.table.number), "–", "–")
