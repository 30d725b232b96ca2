"""League tables on hand-worked examples, and a season read from stored events."""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction

import pytest
from flask.testing import FlaskClient
from sqlalchemy import delete
from sqlmodel import Session, col, select

from organizer.club import leagues
from organizer.club.leagues import EventScore
from organizer.core.errors import InputError
from organizer.core.models import ClubPlayer, GameTable, LeagueTally, Player, Result, ResultStatus, Round, Season, utcnow
from tests.club.support import play_event

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
    from organizer.club import registry

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


LEAGUE_ROW = re.compile(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td>\s*<td>(\d+)</td><td>(\d+)</td>"
                        r"<td>([^<]*)</td><td>(\d+)</td></tr>")


def league_rows(client: FlaskClient, season_id: int) -> list[tuple[str, str, str, str]]:
    """The league page as the organizer reads it: rank, player, points, game points."""
    page = client.get(f"/seasons/{season_id}")
    assert page.status_code == 200
    return [(rank, name, points, game) for rank, name, points, _events, _counted, game, _species
            in LEAGUE_ROW.findall(page.text)]


def test_a_result_corrected_after_its_round_closed_shows_in_the_league_and_its_figures_stay_stored(
        signed_in: FlaskClient, session: Session) -> None:
    from organizer.players import service as player_service
    from organizer.rounds import service as rounds
    from tests.fixtures.organizer import create_event
    from tests.rounds.support import totals_form

    event = create_event(session, name="Club night", date=date(2026, 3, 5), point_scheme="beaten")
    typed = {"Ann": 50, "Bo": 40, "Cy": 30, "Di": 20, "Ed": 45, "Flo": 35, "Gus": 25, "Hal": 15}
    for index, name in enumerate(typed):
        player = player_service.add_player(session, event, name, "", "", "t")
        player.fixed_table = 1 + index // 4  # Ann to Di at table 1
        player_service.set_checked_in(session, player, True, "t")
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "1"}).status_code == 302
    assert signed_in.post(f"/events/{event.id}/rounds/1/publish").status_code == 302
    rnd = session.exec(select(Round).where(Round.event_id == event.id)).one()
    views = rounds.tables_of(session, rnd.id or 0)
    names = [[s.player.name for s in view.seats if s.player] for view in views]
    assert sorted(names[0]) == ["Ann", "Bo", "Cy", "Di"]
    for number, view in enumerate(views, start=1):
        table = f"/events/{event.id}/rounds/1/tables/{number}"
        form = totals_form(view, [typed[n] for n in names[number - 1]], [4] * 4)
        assert signed_in.post(f"{table}/result", data=form).status_code == 302
        signed_in.post(f"{table}/confirm", data={"seat": "organizer", "version": 1})
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code == 302
    season_id = leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31))).id or 0
    # "beaten": the share of the table's opponents beaten
    second_table = [("Ed", "1.00", "45"), ("Flo", "0.67", "35"), ("Gus", "0.33", "25"), ("Hal", "0.00", "15")]
    assert [row[1:] for row in league_rows(signed_in, season_id)] == [
        ("Ann", "1.00", "50"), second_table[0], ("Bo", "0.67", "40"), second_table[1], ("Cy", "0.33", "30"),
        second_table[2], ("Di", "0.00", "20"), second_table[3]]

    # Di's 20 was Ann's and Ann's 50 was Di's: the round is reopened and the result corrected
    assert signed_in.post(f"/events/{event.id}/rounds/1/reopen").status_code == 302
    typed["Ann"], typed["Di"] = 20, 50
    table = f"/events/{event.id}/rounds/1/tables/1"
    corrected = signed_in.post(f"{table}/result", data=totals_form(views[0], [typed[n] for n in names[0]], [4] * 4, 2))
    assert corrected.status_code == 302
    now = [("Di", "1.00", "50"), second_table[0], ("Bo", "0.67", "40"), second_table[1], ("Cy", "0.33", "30"),
           second_table[2], ("Ann", "0.00", "20"), second_table[3]]
    assert [row[1:] for row in league_rows(signed_in, season_id)] == now
    # the same POST stored the new figures: the league reads them, nothing is left to score
    assert leagues.store_tallies(session, [event.id]) == 0
    stored = {p.name: t.game_points for t, p in session.exec(
        select(LeagueTally, Player).join(Player, col(Player.id) == LeagueTally.player_id)).all()}
    assert stored == typed
    # confirmed, then disputed after all: the table is left out of the league at once, and out of
    # the stored figures
    signed_in.post(f"{table}/confirm", data={"seat": "organizer", "version": 3})
    assert leagues.store_tallies(session, [event.id]) == 0
    assert signed_in.post(f"{table}/dispute", data={"version": 4, "note": "Bo counted twice"}).status_code == 200
    assert [row[1:] for row in league_rows(signed_in, season_id)] == second_table
    assert leagues.store_tallies(session, [event.id]) == 0
    # settled by the organizer as entered, and the round closed again: the corrected figures stand
    signed_in.post(f"{table}/confirm", data={"seat": "organizer", "version": 4})
    assert [row[1:] for row in league_rows(signed_in, season_id)] == now
    assert leagues.store_tallies(session, [event.id]) == 0
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code == 302
    assert [row[1:] for row in league_rows(signed_in, season_id)] == now


def test_results_of_a_round_in_play_leave_the_stored_figures_to_its_closing(
        signed_in: FlaskClient, session: Session) -> None:
    """Entries and corrections while a round is played do not store the league figures at each
    request (a round of a big event has thousands): the league scores the event from its
    results until the round closes, and the closing stores them."""
    from organizer.rounds import service as rounds
    from tests.fixtures.organizer import add_players
    from tests.rounds.support import totals_form

    event = play_event(session, "Jan", date(2026, 1, 10), [[[("Ann", 50, 5), ("Bo", 40, 4)]]])
    season_id = leagues.save_season(session, leagues.SeasonInput("2026", date(2026, 1, 1), date(2026, 12, 31))).id or 0
    stamps = set(session.exec(select(LeagueTally.stamp)).all())
    for player in session.exec(select(Player).where(Player.event_id == event.id)).all():
        player.checked_in = True
        session.add(player)
    add_players(session, event, 2)  # with Ann and Bo: one table of four in round 2
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "1"}).status_code == 302
    assert signed_in.post(f"/events/{event.id}/rounds/2/publish").status_code == 302
    view = rounds.tables_of(session, session.exec(select(Round).where(Round.number == 2)).one().id or 0)[0]
    table = f"/events/{event.id}/rounds/2/tables/1"
    for version, points in enumerate(([10, 20, 30, 40], [11, 20, 30, 40]), start=0):
        assert signed_in.post(f"{table}/result", data=totals_form(view, points, [4] * 4, version)).status_code == 302
        assert set(session.exec(select(LeagueTally.stamp)).all()) == stamps  # not stored again
    signed_in.post(f"{table}/confirm", data={"seat": "organizer", "version": 2})
    assert signed_in.post(f"/events/{event.id}/rounds/2/close").status_code == 302
    assert set(session.exec(select(LeagueTally.stamp)).all()) != stamps
    assert leagues.store_tallies(session, [event.id or 0]) == 0
    assert {r.name for r in (leagues.league(session, season_id) or pytest.fail()).rows} == {"Ann", "Bo"}
