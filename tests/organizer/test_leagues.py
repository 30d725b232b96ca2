"""League tables on hand-worked examples, and a season read from stored events."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from sqlalchemy import delete
from sqlmodel import Session, select

from organizer.models import ClubPlayer, GameTable, LeagueTally, Player, Result, ResultStatus, Round, Season, utcnow
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


def _league_table(session: Session, season_id: int) -> list[tuple[int | None, str, float, int]]:
    found = leagues.league(session, season_id)
    assert found is not None
    return [(r.rank, r.name, r.points, r.game_points) for r in found.rows]


def test_stored_figures_give_the_same_league_and_a_correction_is_seen_before_they_are_stored_again(
        session: Session) -> None:
    jan = play_event(session, "Jan", date(2026, 1, 10), [[[("Ann", 50, 5), ("Bo", 40, 4), ("Cy", 30, 3)]],
                                                         [[("Ann", 10, 5), ("Cy", 40, 4)], [("Bo", 40, 4), ("Di", 40, 3)]]])
    play_event(session, "Feb", date(2026, 2, 10), [[[("Ann", 20, 5), ("Bo", 40, 4)]]])
    season_id = leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31))).id or 0
    # saving the season stored both events' figures
    assert {t.event_id for t in session.exec(select(LeagueTally)).all()} == {jan.id, jan.id + 1}
    stored = _league_table(session, season_id)
    session.execute(delete(LeagueTally))
    session.commit()
    leagues._TALLIES.clear()
    # Jan: Ann 1 + 0, Bo 1/2 + 1 (ahead on species), Cy 0 + 1, Di 0; Feb: Bo 1, Ann 0
    assert stored == _league_table(session, season_id) == [
        (1, "Bo", 2.5, 120), (2, "Ann", 1, 80), (3, "Cy", 1, 70), (4, "Di", 0, 40)]
    assert leagues.store_tallies(session) == 2
    assert leagues.store_tallies(session) == 0  # nothing changed since

    # Ann's Jan round 2 corrected (as the results service does: a new version): the stored
    # figures no longer hold, and the league says so at once
    result = session.exec(select(Result).join(GameTable).join(Round)
                          .where(Round.event_id == jan.id, Round.number == 2, GameTable.number == 1)).one()
    ann = session.exec(select(Player).where(Player.event_id == jan.id, Player.name == "Ann")).one()
    result.seats = [{**s, "points": 90} if s["player_id"] == ann.id else s for s in result.seats]
    result.version += 1
    result.updated_at = utcnow()
    session.add(result)
    session.commit()
    # Ann now 1 + 1 + 0 (game points 50 + 90 + 20), Cy 0 + 0
    corrected = [(1, "Bo", 2.5, 120), (2, "Ann", 2, 160), (3, "Cy", 0, 70), (4, "Di", 0, 40)]
    assert _league_table(session, season_id) == corrected
    assert leagues.store_tallies(session) == 1
    assert _league_table(session, season_id) == corrected
    # a dispute leaves the table out, stored figures or not: Ann 1 (70), Cy 0 (30), Di 0 (40)
    result.status = ResultStatus.DISPUTED
    session.add(result)
    session.commit()
    assert _league_table(session, season_id) == [(1, "Bo", 2.5, 120), (2, "Ann", 1, 70), (3, "Di", 0, 40),
                                                  (4, "Cy", 0, 30)]


def test_league_page_shows_one_page_and_finds_by_name(session: Session) -> None:
    tables = [[(f"Player {i:02d}", 60 - i, 4), (f"Player {i + 1:02d}", 59 - i, 4)] for i in range(0, 60, 2)]
    play_event(session, "Big", date(2026, 3, 1), [tables])
    season_id = leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31))).id or 0
    first = leagues.league_page(session, season_id)
    assert first is not None and len(first.league.rows) == 60
    assert (first.page.total, first.page.pages, len(first.rows)) == (60, 2, 50)
    second = leagues.league_page(session, season_id, 2)
    assert second is not None and [r.name for r in second.rows] == [r.name for r in first.league.rows[50:]]
    found = leagues.league_page(session, season_id, search="  player 1")
    assert found is not None and found.page.total == 10
    # a found player keeps their place in the whole league
    ranks = {r.name: r.rank for r in first.league.rows}
    assert [r.name for r in found.rows] == [r.name for r in first.league.rows if r.name.startswith("Player 1")]
    assert all(r.rank == ranks[r.name] for r in found.rows)
    assert leagues.league_page(session, 999) is None


def test_a_ranked_league_is_kept_only_while_nothing_it_reads_changed(session: Session) -> None:
    from organizer.services import registry

    play_event(session, "Jan", date(2026, 1, 10), [[[("Ann", 50, 5), ("Cy", 40, 4)]]])
    play_event(session, "Feb", date(2026, 2, 10), [[[("Ann", 20, 5), ("Cyril", 40, 4)]]])
    season_id = leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31))).id or 0
    assert _league_table(session, season_id) == [(1, "Ann", 1, 70), (2, "Cyril", 1, 40), (3, "Cy", 0, 40)]
    assert _league_table(session, season_id) == [(1, "Ann", 1, 70), (2, "Cyril", 1, 40), (3, "Cy", 0, 40)]
    # Cyril was Cy: the merge moves a link, no result changes, and the league follows
    entries = {e.name: e.id for e in session.exec(select(ClubPlayer)).all()}
    registry.merge(session, entries["Cy"] or 0, entries["Cyril"] or 0)
    assert _league_table(session, season_id) == [(1, "Cy", 1, 80), (2, "Ann", 1, 70)]
    # a rule changed: ranked again
    season = session.get(Season, season_id)
    assert season is not None
    leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31), "average", 0, 3),
                        season)
    assert _league_table(session, season_id) == [(None, "Ann", 0.5, 70), (None, "Cy", 0.5, 80)]


def test_figures_stored_at_the_same_moment_by_another_request_leave_the_league_right(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqlalchemy import delete as real_delete
    from sqlalchemy import false

    jan = play_event(session, "Jan", date(2026, 1, 10), [[[("Ann", 50, 5), ("Bo", 40, 4)]]])
    season_id = leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31))).id or 0
    result = session.exec(select(Result).join(GameTable).join(Round).where(Round.event_id == jan.id)).one()
    result.seats = [{**s, "points": 60 - s["points"]} for s in result.seats]  # Bo wins now
    result.version += 1
    result.updated_at = utcnow()
    session.add(result)
    session.commit()
    # as if another request had stored the rows between this one's delete and insert: the unique
    # key refuses the insert; nothing breaks, nothing half-written stays
    monkeypatch.setattr(leagues, "delete", lambda model: real_delete(model).where(false()))
    assert leagues.store_tallies(session) == 0
    assert _league_table(session, season_id) == [(1, "Bo", 1, 20), (2, "Ann", 0, 10)]
    monkeypatch.undo()
    assert leagues.store_tallies(session) == 1
    assert _league_table(session, season_id) == [(1, "Bo", 1, 20), (2, "Ann", 0, 10)]
