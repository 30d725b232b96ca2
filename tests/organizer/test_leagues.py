"""League tables on hand-worked examples, and a season read from stored events."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from sqlmodel import Session

from organizer.services import leagues
from organizer.services.errors import InputError
from organizer.services.leagues import EventScore

from .test_ratings import play_event

NAMES = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}
# (event, tournament points, game points, species) per player, worked by hand below
SCORES = {
    1: [EventScore(1, Fraction(3), 40, 5), EventScore(2, Fraction(1), 20, 5), EventScore(3, Fraction(2), 40, 5)],
    2: [EventScore(1, Fraction(2), 35, 5), EventScore(2, Fraction(3), 50, 5)],
    3: [EventScore(1, Fraction(1), 30, 5), EventScore(2, Fraction(2), 30, 5), EventScore(3, Fraction(3), 30, 5)],
    4: [EventScore(3, Fraction(4), 60, 5)],
}


def table(rows: list[leagues.LeagueRow]) -> list[tuple[int | None, str, float]]:
    return [(r.rank, r.name, r.points) for r in rows]


def test_sum_of_points_ties_broken_by_game_points() -> None:
    # Ann 3+1+2 = 6 (game points 100), Cy 1+2+3 = 6 (90), Bo 5, Di 4
    assert table(leagues.rank_league(SCORES, NAMES, "sum")) == [
        (1, "Ann", 6), (2, "Cy", 6), (3, "Bo", 5), (4, "Di", 4)]


def test_best_two_events() -> None:
    # Ann: events 1 and 3 (3+2, game points 80); Bo: 3+2 (85); Cy: 3+2 (60); Di 4
    rows = leagues.rank_league(SCORES, NAMES, "best", best_of=2)
    assert table(rows) == [(1, "Bo", 5), (2, "Ann", 5), (3, "Cy", 5), (4, "Di", 4)]
    ann = rows[1]
    assert (ann.attended, ann.counted, ann.game_points) == (3, 2, 80)


def test_points_per_event_with_minimum_attendance() -> None:
    # Bo 5/2 = 2.5; Ann 6/3 = 2 (game points 100) ahead of Cy 6/3 = 2 (90); Di came once: unranked
    assert table(leagues.rank_league(SCORES, NAMES, "average", min_events=2)) == [
        (1, "Bo", 2.5), (2, "Ann", 2), (3, "Cy", 2), (None, "Di", 4)]


def test_fully_equal_players_share_a_rank() -> None:
    scores = {1: [EventScore(1, Fraction(2), 40, 5)], 2: [EventScore(1, Fraction(2), 40, 5)],
              3: [EventScore(1, Fraction(1), 10, 5)]}
    assert [r.rank for r in leagues.rank_league(scores, NAMES, "sum")] == [1, 1, 3]


def test_season_league_from_stored_events(session: Session) -> None:
    # "beaten" scheme: the share of the table's opponents beaten
    play_event(session, "Jan", date(2026, 1, 10), [[[("Ann", 50, 5), ("Bo", 40, 4), ("Cy", 30, 3)]]])
    play_event(session, "Feb", date(2026, 2, 10), [[[("Ann", 20, 5), ("Bo", 40, 4)]]])
    play_event(session, "Outside", date(2027, 1, 1), [[[("Cy", 90, 5), ("Bo", 40, 4)]]])
    season = leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31)))
    result = leagues.league(session, season.id or 0)
    assert result is not None and [e.name for e in result.events] == ["Jan", "Feb"]
    # Jan: Ann 2/2, Bo 1/2, Cy 0; Feb: Bo 1, Ann 0; the 2027 event is outside the season
    assert table(result.rows) == [(1, "Bo", 1.5), (2, "Ann", 1), (3, "Cy", 0)]
    assert result.rows[0].per_event == {result.events[0].id: 0.5, result.events[1].id: 1.0}
    with pytest.raises(InputError):
        leagues.save_season(session, leagues.SeasonInput("x", date(2026, 2, 1), date(2026, 1, 1)))
