"""A league counts what the events' standings count, entered results too, and says
"provisional" as they do while any counted result is not confirmed: on its page, its projector
and its PDF."""

from __future__ import annotations

from datetime import date

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.club import leagues
from organizer.core.models import GameTable, Result, ResultStatus, Round
from tests.club.support import play_event
from tests.printing.support import pages_text

NOTE = "Provisional: 1 result is not confirmed yet."


def test_a_league_counting_an_unconfirmed_result_says_provisional_everywhere(signed_in: FlaskClient,
                                                                            session: Session) -> None:
    play_event(session, "Jan", date(2026, 1, 10), [[[("Ann", 50, 5), ("Bo", 40, 4)]]])
    feb = play_event(session, "Feb", date(2026, 2, 10), [[[("Ann", 20, 5), ("Bo", 40, 4)]]],
                     status=ResultStatus.ENTERED)
    season = leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31)))
    page = signed_in.get(f"/seasons/{season.id}").text
    assert NOTE in page
    assert "<td>Bo</td><td>1.00</td>" in page  # Feb's entered result counts, as in its standings
    assert NOTE in signed_in.get(f"/seasons/{season.id}/projector").text
    pdf = signed_in.get(f"/seasons/{season.id}/league.pdf")
    assert "provisional: 1 result not confirmed yet" in pages_text(pdf.data)[0]

    result = session.exec(select(Result).join(GameTable).join(Round).where(Round.event_id == feb.id)).one()
    result.status = ResultStatus.CONFIRMED
    session.add(result)
    session.commit()
    assert "Provisional" not in signed_in.get(f"/seasons/{season.id}").text
    assert "Provisional" not in signed_in.get(f"/seasons/{season.id}/projector").text
    assert "provisional" not in pages_text(signed_in.get(f"/seasons/{season.id}/league.pdf").data)[0]
