"""Club ratings against openskill called directly on the same tables, in time order."""

from __future__ import annotations

import re
from datetime import date

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.club import ratings
from organizer.core.models import GameTable, Player, RatingPoint, Result, ResultStatus, Round
from organizer.core.translate import format_rating
from tests.club.support import direct, latest, play_event


def test_ratings_match_openskill_on_the_same_tables_in_time_order(session: Session) -> None:
    # created out of date order: the ratings follow the dates, not the ids
    play_event(session, "Later", date(2026, 2, 1), [[[("Ann", 50, 5), ("Bo", 60, 4), ("Cy", 40, 6)]]])
    play_event(session, "Earlier", date(2026, 1, 1), [
        [[("Ann", 70, 5), ("Bo", 60, 4), ("Cy", 60, 3), ("Di", 10, 2)]],
        [[("Ann", 30, 5), ("Di", 45, 4)], [("Bo", 20, 1), ("Cy", 20, 1)]],
    ])
    summary = ratings.recompute(session)
    assert (summary.tables, summary.players, summary.points) == (4, 4, 4 + 3)
    # places by hand: 2018 breaks equal points by species (Bo 4 > Cy 3); equal both ways is shared
    expected = direct([
        (["Ann", "Bo", "Cy", "Di"], [1, 2, 3, 4]),
        (["Ann", "Di"], [2, 1]),
        (["Bo", "Cy"], [1, 1]),
        (["Ann", "Bo", "Cy"], [2, 1, 3]),
    ])
    got = latest(session)
    for name, rating in expected.items():
        assert got[name] == pytest.approx((rating.mu, rating.sigma), abs=1e-9)
    rows = ratings.current_ratings(session)
    assert [r.ordinal for r in rows] == sorted((r.ordinal for r in rows), reverse=True)


def test_2010_ties_are_shared_ranks(session: Session) -> None:
    play_event(session, "Old rules", date(2026, 1, 1), [[[("Ann", 50, 6), ("Bo", 50, 2), ("Cy", 10, 1)]]],
               edition="2010")
    ratings.recompute(session)
    got = latest(session)
    assert got["Ann"] == pytest.approx(got["Bo"])
    expected = direct([(["Ann", "Bo", "Cy"], [1, 1, 3])])
    assert got["Cy"] == pytest.approx((expected["Cy"].mu, expected["Cy"].sigma))


def test_unconfirmed_tables_do_not_count(session: Session) -> None:
    play_event(session, "Pending", date(2026, 1, 1), [[[("Ann", 50, 6), ("Bo", 40, 2)]]], status=ResultStatus.ENTERED)
    assert ratings.recompute(session).tables == 0
    assert ratings.current_ratings(session) == []


def test_a_corrected_result_recomputes_what_follows(session: Session) -> None:
    first = play_event(session, "One", date(2026, 1, 1), [[[("Ann", 50, 5), ("Bo", 40, 4)]]])
    play_event(session, "Two", date(2026, 2, 1), [[[("Ann", 30, 5), ("Bo", 40, 4)]]])
    ratings.recompute(session)
    before = latest(session)
    result = session.exec(select(Result).join(GameTable).join(Round).where(Round.event_id == first.id)).one()
    ann = session.exec(select(Player).where(Player.event_id == first.id, Player.name == "Ann")).one()
    result.seats = [{**s, "points": 10} if s["player_id"] == ann.id else s for s in result.seats]
    session.add(result)
    session.commit()
    ratings.recompute(session)
    after = latest(session)
    expected = direct([(["Ann", "Bo"], [2, 1]), (["Ann", "Bo"], [2, 1])])
    assert after["Ann"] == pytest.approx((expected["Ann"].mu, expected["Ann"].sigma))
    assert after != before
    # the same results always give the same ratings
    ratings.recompute(session)
    assert latest(session) == after
    assert session.exec(select(RatingPoint)).all()


def test_history_and_chart(session: Session) -> None:
    play_event(session, "One <b>", date(2026, 1, 1), [[[("Ann", 50, 5), ("Bo", 40, 4)]]])
    play_event(session, "Two", date(2026, 2, 1), [[[("Ann", 60, 5), ("Bo", 40, 4)]]])
    ratings.recompute(session)
    ann = next(r for r in ratings.current_ratings(session) if r.entry.name == "Ann")
    points = ratings.history(session, ann.entry.id or 0)
    assert [p.event_name for p in points] == ["One <b>", "Two"]
    assert points[1].ordinal > points[0].ordinal
    svg = ratings.chart_svg(points)
    assert svg.startswith("<svg") and svg.count("<circle") == 2
    assert "One &lt;b&gt;" in svg and "<b>" not in svg


def test_a_new_player_is_shown_as_new_never_with_a_negative_rating(signed_in: FlaskClient, session: Session) -> None:
    """One lost table puts mu - 3 sigma below zero: a newcomer reads "new" with mu ± sigma,
    unranked, and nothing on the page or the chart reads "-0" or a negative rating."""
    play_event(session, "One", date(2026, 1, 1), [[[("Ann", 50, 5), ("Bo", 40, 4), ("Cy", 45, 4)]]])
    ratings.recompute(session)
    bo = next(r for r in ratings.current_ratings(session) if r.entry.name == "Bo")
    assert bo.ordinal < 0 and bo.new and bo.rank is None
    page = signed_in.get("/club/ratings").text
    row = re.search(r"<tr><td>(.*?)</td><td><a [^>]*>Bo</a></td>\s*<td>(.*?)</td>", page)
    assert row is not None and row.groups() == ("–", "new")
    profile = signed_in.get(f"/club/players/{bo.entry.id}").text
    assert "New: " in profile and "The rating is shown once 5 tables are rated." in profile
    assert not re.search(r"(?<![\w.])[-−]\d", profile.split("<h2>Rating</h2>")[1].split("<h2>")[0])


def test_an_established_rating_is_ranked_and_never_minus_zero(session: Session) -> None:
    play_event(session, "Five", date(2026, 1, 1), [[[("Ann", 50, 5), ("Bo", 40, 4)]]] * ratings.RATED_AFTER)
    ratings.recompute(session)
    rows = ratings.current_ratings(session)
    assert [(r.entry.name, r.rank, r.new) for r in rows] == [("Ann", 1, False), ("Bo", 2, False)]
    assert format_rating(-0.04) == "0.0" and format_rating(-0.06) == "-0.1"
    svg = ratings.chart_svg(ratings.history(session, rows[1].entry.id or 0))
    assert ">-0<" not in svg


def test_tournament_points_print_with_two_decimals_on_the_profile(signed_in: FlaskClient, session: Session) -> None:
    """The second of four beat two of three opponents: 2/3 of a point, "0.67" as on the
    standings, not "0.667"."""
    event = play_event(session, "Four", date(2026, 1, 1), [[[("Ann", 50, 5), ("Bo", 40, 4), ("Cy", 30, 3),
                                                            ("Di", 20, 2)]]])
    bo = session.exec(select(Player).where(Player.event_id == event.id, Player.name == "Bo")).one()
    profile = signed_in.get(f"/club/players/{bo.club_player_id}").text
    assert re.search(r"Four</a></td>\s*<td>Bo</td><td>0.67</td>", profile)
    assert "0.667" not in profile
    standings = signed_in.get(f"/events/{event.id}/standings").text
    assert ">0.67<" in standings
