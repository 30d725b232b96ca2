"""Result entry at the table: totals and scorepad, confirmations, disputes, conflicts, audit."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.errors import InputError
from organizer.core.models import AuditEntry, Confirmation, Event, Result, Round, RoundFormat
from organizer.rounds import results
from organizer.rounds import service as round_service
from tests.fixtures.organizer import HX, add_players, create_event, error_beside
from tests.rounds.support import published_table, scorepad_form, totals_form, url


def stored(session: Session) -> Result:
    session.expire_all()
    return session.exec(select(Result)).one()


def test_totals_entry(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    page = signed_in.get(url(event)).text
    assert "Enter the result" in page and 'name="points_' in page
    response = signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 37, 20], [6, 5, 7, 4]))
    assert response.status_code == 302
    result = stored(session)
    assert [s["points"] for s in result.seats] == [42, 37, 37, 20]
    assert [s["species_count"] for s in result.seats] == [6, 5, 7, 4]
    assert [s["player_id"] for s in result.seats] == [sv.seat.player_id for sv in view.seats]
    assert (result.status, result.version, result.entered_by, result.entry_mode) == ("entered", 1, "Tess", "totals")
    entry = session.exec(select(AuditEntry).where(AuditEntry.action == "result.entered")).one()
    assert entry.new and entry.new["seats"][0]["points"] == 42 and entry.actor == "Tess"
    page = signed_in.get(url(event)).text
    assert "Organizer confirms" in page and "agrees" in page


def test_bad_totals_keep_what_was_typed(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    form = totals_form(view, [42, "lots", -1, 20], [6, 5, 11, 4])
    response = signed_in.post(url(event, "result"), data=form, headers=HX)
    assert response.status_code == 422
    sid = [s.seat.id for s in view.seats]
    assert "whole number from 0 to 300" in error_beside(response.text, f"points_{sid[1]}")
    assert error_beside(response.text, f"points_{sid[2]}")
    assert "0 to 10" in error_beside(response.text, f"species_{sid[2]}")
    assert 'value="lots"' in response.text and 'value="42"' in response.text
    assert session.exec(select(Result)).all() == []


def test_scorepad_adds_up_and_refuses_impossible_scores(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    page = signed_in.get(url(event) + "?mode=scorepad&edit=1").text
    assert page.count('data-sum="') == 40  # 10 species x 4 seats
    rows = [[0] * 10 for _ in range(4)]
    rows[0][0], rows[0][3] = 1, 20
    rows[1][2] = "x"
    response = signed_in.post(url(event, "result"), data=scorepad_form(view, rows, [3, 3, 3, 3]))
    assert response.status_code == 422
    sid = view.seats[0].seat.id
    assert "never scores 1" in error_beside(response.text, f"pad_{sid}_0")
    assert "never scores 1 or more than 19" in error_beside(response.text, f"pad_{sid}_3")
    assert error_beside(response.text, f"pad_{view.seats[1].seat.id}_2")
    assert session.exec(select(Result)).all() == []
    rows = [[0] * 10 for _ in range(4)]
    rows[0][:3] = [19, 7, 2]
    rows[1][5] = 12
    rows[2] = [""] * 10  # empty counts 0
    form = scorepad_form(view, rows, [8, 5, 1, 2])
    assert signed_in.post(url(event, "result"), data=form).status_code == 302
    result = stored(session)
    assert [s["points"] for s in result.seats] == [28, 12, 0, 0]
    species = view.table.species
    assert result.seats[0]["scorepad"][species[0]] == 19 and result.seats[1]["scorepad"][species[5]] == 12
    page = signed_in.get(url(event)).text
    assert "<strong>28</strong>" in page


def test_draft_scorepad_allows_one_and_the_bonus(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, round_formats=["draft"], entry_modes=["scorepad"])
    view = published_table(signed_in, session, event, players=2)
    assert len(view.table.species) == 7
    # a draft table plays on the devices; the organizer takes it back to paper first
    assert signed_in.post(url(event, "paper"), data={"version": view.table.log_version}).status_code == 302
    rows = [[1, 15, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0, 0]]
    response = signed_in.post(url(event, "result"), data=scorepad_form(view, rows, [2, 1], bonus=[3, 2]))
    assert response.status_code == 422
    assert "bonus is 3" in error_beside(response.text, f"bonus_{view.seats[1].seat.id}")
    response = signed_in.post(url(event, "result"), data=scorepad_form(view, rows, [2, 1], bonus=[3, ""]))
    assert response.status_code == 302
    assert [s["points"] for s in stored(session).seats] == [19, 2]


def test_mode_not_allowed_by_the_event(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session, entry_modes=["scorepad"])
    view = published_table(signed_in, session, event)
    assert 'name="pad_' in signed_in.get(url(event)).text  # the allowed mode is offered
    response = signed_in.post(url(event, "result"), data=totals_form(view, [10, 2, 3, 4], [1, 1, 1, 1]))
    assert response.status_code == 422 and "does not allow totals entry" in response.text
    assert session.exec(select(Result)).all() == []


def test_every_player_confirms(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4]))
    for index, seat_view in enumerate(view.seats):
        response = signed_in.post(url(event, "confirm"), data={"seat": seat_view.seat.id, "version": 1}, headers=HX)
        assert response.status_code == 200 and response.text.lstrip().startswith('<div id="table-result">')
        expected = "confirmed" if index == len(view.seats) - 1 else "entered"
        assert stored(session).status == expected
    # A repeated tap changes nothing.
    signed_in.post(url(event, "confirm"), data={"seat": view.seats[0].seat.id, "version": 1})
    assert len(session.exec(select(AuditEntry).where(AuditEntry.action == "result.confirmed_by_player")).all()) == 4


def test_stale_confirmation_is_refused(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4]))
    signed_in.post(url(event, "result"), data=totals_form(view, [43, 37, 30, 20], [6, 5, 7, 4], version=1))
    response = signed_in.post(url(event, "confirm"), data={"seat": view.seats[0].seat.id, "version": 1})
    assert response.status_code == 422 and "changed since you opened it; nothing was saved" in response.text
    assert session.exec(select(AuditEntry).where(AuditEntry.action == "result.confirmed_by_player")).all() == []


def test_dispute_then_organizer_corrects_and_confirms(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4]))
    response = signed_in.post(url(event, "dispute"), data={"version": 1, "note": " "})
    assert response.status_code == 422 and "Say briefly what is wrong" in response.text
    signed_in.post(url(event, "dispute"), data={"version": 1, "note": "Cy had 33, not 30"})
    result = stored(session)
    assert result.status == "disputed" and result.dispute_note == "Cy had 33, not 30"
    assert "Disputed: Cy had 33, not 30" in signed_in.get(url(event)).text
    # A player cannot confirm a disputed result; the organizer corrects it.
    response = signed_in.post(url(event, "confirm"), data={"seat": view.seats[0].seat.id, "version": 1})
    assert response.status_code == 422
    edit_page = signed_in.get(url(event) + "?edit=1").text
    assert f'name="points_{view.seats[2].seat.id}" inputmode="numeric" pattern="[0-9]*" value="30"' in edit_page
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 33, 20], [6, 5, 7, 4], version=1))
    result = stored(session)
    assert (result.status, result.version, result.seats[2]["points"]) == ("entered", 2, 33)
    signed_in.post(url(event, "confirm"), data={"seat": "organizer", "version": 2})
    assert stored(session).status == "confirmed"
    corrected = session.exec(select(AuditEntry).where(AuditEntry.action == "result.corrected")).one()
    assert corrected.old and corrected.old["seats"][2]["points"] == 30
    assert corrected.new and corrected.new["seats"][2]["points"] == 33
    audit_page = signed_in.get(f"/events/{event.id}/audit").text
    for action in ("result.entered", "result.disputed", "result.corrected", "result.confirmed"):
        assert action in audit_page


def test_two_tablets_one_stored_result_and_an_audit_entry(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    first = totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4])
    second = totals_form(view, [40, 37, 30, 20], [6, 5, 7, 4])  # both forms opened before any save
    assert signed_in.post(url(event, "result"), data=first).status_code == 302
    response = signed_in.post(url(event, "result"), data=second, headers=HX)
    assert response.status_code == 409
    assert "was <strong>not</strong> saved" in response.text
    assert 'value="40"' in response.text  # what the second tablet typed is still on its screen
    result = stored(session)
    assert result.version == 1 and result.seats[0]["points"] == 42
    refused = session.exec(select(AuditEntry).where(AuditEntry.action == "result.conflict_refused")).one()
    assert refused.new and refused.new["seats"][0]["points"] == 40
    # Two corrections of version 1: the second is refused too.
    assert signed_in.post(url(event, "result"), data=totals_form(view, [43, 37, 30, 20], [6, 5, 7, 4], 1)).status_code == 302
    assert signed_in.post(url(event, "result"), data=totals_form(view, [44, 37, 30, 20], [6, 5, 7, 4], 1)).status_code == 409
    assert stored(session).seats[0]["points"] == 43


def test_results_only_while_published(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 4)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id)[0]
    response = signed_in.post(url(event, "result"), data=totals_form(view, [10, 2, 3, 4], [1, 1, 1, 1]))
    assert response.status_code == 422 and "is proposed" in response.text
    assert "Results can be entered once the round is published" in signed_in.get(url(event)).text


@pytest.mark.parametrize("action", ["confirm", "dispute"])
def test_confirm_or_dispute_without_result_is_404(signed_in: FlaskClient, session: Session, event: Event, action: str) -> None:
    published_table(signed_in, session, event)
    assert signed_in.post(url(event, action), data={"version": 1}).status_code == 404


def test_close_round_after_all_confirmed(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4]))
    response = signed_in.post(f"/events/{event.id}/rounds/1/close")
    assert "result not confirmed at table 1" in response.text
    signed_in.post(url(event, "confirm"), data={"seat": "organizer", "version": 1})
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code == 302
    session.expire_all()
    assert session.exec(select(Round)).one().status == "finished"


def test_tablets_submitting_at_the_same_instant(app: Any, signed_in: FlaskClient, session: Session, event: Event) -> None:
    """Several tablets press "Save" together: one result is stored, every other entry is refused
    and kept in the audit log; none is lost and none overwrites another."""
    import threading

    from tests.fixtures.organizer import sign_in

    view = published_table(signed_in, session, event)
    clients = [app.test_client() for _ in range(6)]
    for client in clients:
        assert sign_in(client).status_code == 302
    barrier = threading.Barrier(len(clients))
    statuses: list[int] = []

    def submit(index: int, client: FlaskClient) -> None:
        form = totals_form(view, [50 + index, 37, 30, 20], [6, 5, 7, 4])
        barrier.wait()
        statuses.append(client.post(url(event, "result"), data=form).status_code)

    threads = [threading.Thread(target=submit, args=(i, c)) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(statuses) == [302] + [409] * (len(clients) - 1)
    result = stored(session)
    assert result.version == 1
    refused = session.exec(select(AuditEntry).where(AuditEntry.action == "result.conflict_refused")).all()
    entered = session.exec(select(AuditEntry).where(AuditEntry.action == "result.entered")).all()
    assert len(refused) == len(clients) - 1 and len(entered) == 1
    typed = {e.new["seats"][0]["points"] for e in refused if e.new} | {result.seats[0]["points"]}
    assert typed == {50 + i for i in range(len(clients))}  # every tablet's figures are kept somewhere


def test_disputes_are_listed_for_the_organizer(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4]))
    assert "Disputed results wait for you" not in signed_in.get(f"/events/{event.id}").text
    signed_in.post(url(event, "dispute"), data={"version": 1, "note": "Bo's Oak path was 9"})
    page = signed_in.get(f"/events/{event.id}").text
    assert "Disputed results wait for you" in page and "Round 1, Table 1</a>: Bo&#39;s Oak path was 9" in page


def test_reopen_a_closed_round_to_correct_a_result(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4]))
    signed_in.post(url(event, "confirm"), data={"seat": "organizer", "version": 1})
    signed_in.post(f"/events/{event.id}/rounds/1/close")
    # the confirmation made version 2
    refused = signed_in.post(url(event, "result"), data=totals_form(view, [43, 37, 30, 20], [6, 5, 7, 4], 2))
    assert refused.status_code == 422 and "is finished" in refused.text
    assert "Reopen round 1" in signed_in.get(f"/events/{event.id}/rounds/1").text
    assert signed_in.post(f"/events/{event.id}/rounds/1/reopen").status_code == 302
    assert signed_in.post(url(event, "result"), data=totals_form(view, [43, 37, 30, 20], [6, 5, 7, 4], 2)).status_code == 302
    assert stored(session).seats[0]["points"] == 43
    assert signed_in.post(f"/events/{event.id}/rounds/1/reopen").status_code == 422  # already open
    grid = signed_in.get(f"/events/{event.id}/rounds/1?part=grid", headers=HX)
    assert grid.text.lstrip().startswith('<div id="round-grid"') and 'hx-trigger="every 15s"' in grid.text


def test_reopen_refused_once_a_later_round_exists(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4]))
    signed_in.post(url(event, "confirm"), data={"seat": "organizer", "version": 1})
    signed_in.post(f"/events/{event.id}/rounds/1/close")
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "2"})
    response = signed_in.post(f"/events/{event.id}/rounds/1/reopen")
    assert response.status_code == 422 and "Round 2 already exists" in response.text


# -- figures no finished game can give, and figures that are only unlikely ---------------------------

def _names(view: round_service.TableSeating) -> list[str]:
    return [s.player.name if s.player else "" for s in view.seats]


def test_totals_that_cannot_be_true_are_refused_naming_the_player(signed_in: FlaskClient, session: Session,
                                                                  event: Event) -> None:
    view = published_table(signed_in, session, event)
    names, sids = _names(view), [s.seat.id for s in view.seats]
    cases = [
        ([1, 20, 22, 18], [3, 5, 5, 4], f"points_{sids[0]}", "a total of 1 cannot happen"),
        ([25, 20, 22, 18], [0, 5, 5, 4], f"species_{sids[0]}", "at least 1 species"),
        ([0, 20, 22, 18], [0, 5, 5, 4], f"species_{sids[0]}", "at least 1 species"),
        ([25, 20, 22, 18], [1, 5, 5, 4], f"points_{sids[0]}", "25 points cannot come from 1 species"),
    ]
    for points, species, field, why in cases:
        response = signed_in.post(url(event, "result"), data=totals_form(view, points, species))
        assert response.status_code == 422, (points, species)
        message = error_beside(response.text, field)
        assert names[0] in message and why in message, message
    assert session.exec(select(Result)).all() == []
    assert signed_in.post(url(event, "result"), data=totals_form(view, [0, 2, 19, 18], [1, 1, 1, 4])).status_code == 302


def test_scorepad_species_in_the_arboretum_at_least_the_species_scored(signed_in: FlaskClient, session: Session,
                                                                       event: Event) -> None:
    view = published_table(signed_in, session, event)
    rows = [[0] * 10 for _ in range(4)]
    rows[0][:4] = [5, 6, 7, 8]
    rows[1][0], rows[2][1], rows[3][2] = 12, 14, 10
    response = signed_in.post(url(event, "result"), data=scorepad_form(view, rows, [2, 5, 5, 5]))
    assert response.status_code == 422
    message = error_beside(response.text, f"species_{view.seats[0].seat.id}")
    assert _names(view)[0] in message and "scores in 4 species" in message
    assert session.exec(select(Result)).all() == []
    assert signed_in.post(url(event, "result"), data=scorepad_form(view, rows, [4, 5, 5, 5])).status_code == 302


def test_draft_figures_the_rules_allow_are_accepted(signed_in: FlaskClient, session: Session) -> None:
    """A draft player may discard every pick (0 species, 0 points) and a species may score 1; the
    standard game's limits refuse the same figures."""
    event = create_event(session, round_formats=["draft"], entry_modes=["totals", "scorepad"])
    view = published_table(signed_in, session, event, players=3)
    form = totals_form(view, [1, 0, 14], [1, 0, 6])
    submission = results.parse_totals(view, form, RoundFormat.DRAFT)
    assert [seat.points for seat in submission.seats] == [1, 0, 14]
    rows = [[1] + [0] * 9, [0] * 10, [14] + [0] * 9]
    assert results.parse_scorepad(view, RoundFormat.DRAFT, scorepad_form(view, rows, [1, 0, 6], bonus=[0, 0, 0]))
    with pytest.raises(InputError) as refused:
        results.parse_totals(view, form, RoundFormat.STANDARD)
    assert set(refused.value.errors) == {f"points_{view.seats[0].seat.id}", f"species_{view.seats[1].seat.id}"}


def test_unlikely_totals_are_saved_once_confirmed(signed_in: FlaskClient, session: Session, event: Event) -> None:
    view = published_table(signed_in, session, event)
    form = totals_form(view, [75, 20, 22, 18], [6, 5, 5, 4])
    response = signed_in.post(url(event, "result"), data=form)
    assert response.status_code == 422
    assert 'name="confirm_unlikely"' in response.text and "Yes, these figures are right" in response.text
    message = error_beside(response.text, f"points_{view.seats[0].seat.id}")
    assert _names(view)[0] in message and "more than twice" in message
    assert session.exec(select(Result)).all() == []
    assert signed_in.post(url(event, "result"), data={**form, "confirm_unlikely": "yes"}).status_code == 302
    assert session.exec(select(Result)).one().seats[0]["points"] == 75


def test_nothing_about_a_closed_round_changes_until_it_is_reopened(signed_in: FlaskClient, session: Session,
                                                                   event: Event) -> None:
    """Disputes, confirmations and corrections of a closed round's result are refused, and the
    result, its confirmations and the audit log stay as they were; reopened, it may be disputed."""
    view = published_table(signed_in, session, event)
    signed_in.post(url(event, "result"), data=totals_form(view, [42, 37, 30, 20], [6, 5, 7, 4]))
    signed_in.post(url(event, "confirm"), data={"seat": "organizer", "version": 1})
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code == 302
    before = stored(session)
    version, entries = before.version, len(session.exec(select(AuditEntry)).all())
    confirmations = len(session.exec(select(Confirmation)).all())
    tries = [("dispute", {"version": version, "note": "Bo's Oak path was 9"}),
             ("confirm", {"seat": "organizer", "version": version}),
             ("confirm", {"seat": str(view.seats[0].seat.id), "version": version}),
             ("result", totals_form(view, [43, 37, 30, 20], [6, 5, 7, 4], version))]
    for action, data in tries:
        response = signed_in.post(url(event, action), data=data)
        assert response.status_code in (409, 422) and "is finished" in response.text, action
        session.expire_all()
        after = stored(session)
        assert (after.version, after.status, after.seats[0]["points"]) == (version, "confirmed", 42), action
    assert len(session.exec(select(AuditEntry)).all()) == entries
    assert len(session.exec(select(Confirmation)).all()) == confirmations
    assert signed_in.post(f"/events/{event.id}/rounds/1/reopen").status_code == 302
    assert signed_in.post(url(event, "dispute"), data=tries[0][1]).status_code in (200, 302)
    session.expire_all()
    assert stored(session).status == "disputed"


# -- a confirmed result is the staff's to change -----------------------------------------------------

def test_a_players_correction_sent_as_the_organizer_confirms_is_refused(
        app: Any, signed_in: FlaskClient, session: Session, event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    """The organizer's confirmation lands after the player's page was checked and before the
    player's correction is written: the correction is refused, the confirmed figures stand."""
    from organizer.public import self_report
    from tests.public.support import report_form, seated_event, set_players_side, table_players

    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="judge")
    view, seated = table_players(session, players, 1)
    phone = app.test_client()
    assert phone.post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10])).status_code == 200
    parse = results.submission_from_form

    def confirmed_meanwhile(*args: Any, **kwargs: Any) -> Any:
        submission = parse(*args, **kwargs)
        with Session(session.get_bind()) as other:
            tablet_event = other.get(Event, event.id)
            tablet = round_service.tables_of(other, view.table.round_id, view.table.number)[0]
            assert tablet_event is not None and tablet.result is not None
            results.confirm_by_organizer(other, tablet_event, tablet, tablet.result, 1, None, "organizer")
        return submission

    monkeypatch.setattr(self_report.results, "submission_from_form", confirmed_meanwhile)
    sent = phone.post(f"/p/{seated[1].token}/report", data=report_form(view, [10, 30, 20, 40], version=1))
    assert sent.status_code in (409, 422)
    session.expire_all()
    result = stored(session)
    assert (result.status, [s["points"] for s in result.seats]) == ("confirmed", [40, 30, 20, 10])
    assert result.version == 2  # the confirmation made a version of its own
    assert not session.exec(select(AuditEntry).where(AuditEntry.action == "result.corrected")).all()


def test_a_player_cannot_dispute_a_confirmed_result(app: Any, signed_in: FlaskClient, session: Session,
                                                    event: Event) -> None:
    """The player's page shows no dispute form for a confirmed result; posting one anyway changes
    nothing (the round can still close). The organizer can still correct it."""
    from tests.public.support import report_form, seated_event, set_players_side, table_players

    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="judge")
    view, seated = table_players(session, players, 1)
    phone = app.test_client()
    assert phone.post(f"/p/{seated[0].token}/report", data=report_form(view, [40, 30, 20, 10])).status_code == 200
    assert signed_in.post(url(event, "confirm"), data={"seat": "organizer", "version": 1}).status_code == 200
    session.expire_all()
    version = stored(session).version
    sent = phone.post(f"/p/{seated[1].token}/dispute", data={"round": "1", "table": "1", "version": str(version),
                                                             "note": "Bo counted twice"})
    assert sent.status_code == 422 and "confirmed" in sent.text
    session.expire_all()
    assert (stored(session).status, stored(session).version) == ("confirmed", version)
    assert not session.exec(select(AuditEntry).where(AuditEntry.action == "result.disputed")).all()
    corrected = signed_in.post(url(event, "result"), data=totals_form(view, [41, 30, 20, 10], [4] * 4, version))
    assert corrected.status_code == 302
