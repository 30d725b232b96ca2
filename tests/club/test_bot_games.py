"""Games bots played part of, or a person played against bots only, and the club's ratings."""

from __future__ import annotations

from datetime import date

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.club import ratings
from organizer.core.models import AuditEntry, Event, GameTable, Player, Result, ResultStatus, Round, RoundStatus, Seat
from tests.club.support import direct, latest, play_event

FOUR = [("Ann", 50, 5), ("Bo", 40, 4), ("Cy", 30, 3), ("Di", 20, 2)]


def _table(session: Session, event: Event, round_number: int, table_number: int) -> GameTable:
    return session.exec(select(GameTable).join(Round).where(Round.event_id == event.id, Round.number == round_number,
                                                            GameTable.number == table_number)).one()


def _seat(session: Session, table: GameTable, position: int) -> Seat:
    return session.exec(select(Seat).where(Seat.table_id == table.id, Seat.position == position)).one()


def _two_rounds(session: Session, rate_bot_games: bool = False) -> Event:
    event = play_event(session, "Bots night", date(2026, 3, 1), [[FOUR], [FOUR]])
    event.rate_bot_games = rate_bot_games
    session.add(event)
    session.commit()
    return event


def test_a_seat_a_bot_took_over_in_the_live_log_is_left_out(session: Session) -> None:
    event = _two_rounds(session)
    table = _table(session, event, 2, 1)
    # Ann's seat (0) was played by a strong bot for two moves, then given back
    table.digital, table.log_version = True, 5
    table.action_log = [[1, "draw deck", "n1", "t"], [0, "draw deck", "bot:1:0:strong", "t"],
                        [0, "play Oak 3 at 0,0", "bot:2:0:strong", "t"], [2, "draw deck", "n4", "t"]]
    session.add(table)
    session.commit()
    ratings.recompute(session)
    expected = direct([(["Ann", "Bo", "Cy", "Di"], [1, 2, 3, 4]), (["Bo", "Cy", "Di"], [1, 2, 3])])
    got = latest(session)
    for name, rating in expected.items():
        assert got[name] == pytest.approx((rating.mu, rating.sigma), abs=1e-9)
    ann = next(r for r in ratings.current_ratings(session) if r.entry.name == "Ann")
    assert ann.tables == 1
    assert [(u.round_number, u.table_number, u.reason) for u in ratings.unrated_games(session, ann.entry.id or 0)] == \
        [(2, 1, ratings.BOT_SEAT)]


def test_a_bot_in_a_seat_now_or_once_audited_is_left_out(session: Session) -> None:
    event = _two_rounds(session)
    seat = _seat(session, _table(session, event, 1, 1), 1)  # Bo's, round 1: a bot in it still
    seat.is_bot = True
    second = _table(session, event, 2, 1)  # Cy's, round 2: a bot seated, the table back on paper since
    session.add_all([seat, AuditEntry(event_id=event.id or 0, table_id=second.id, actor="Org", action="live.bot_seated",
                                      new={"table": 1, "seat": 3, "player": "Cy", "level": "strong"})])
    session.commit()
    ratings.recompute(session)
    expected = direct([(["Ann", "Cy", "Di"], [1, 3, 4]), (["Ann", "Bo", "Di"], [1, 2, 4])])
    got = latest(session)
    for name, rating in expected.items():
        assert got[name] == pytest.approx((rating.mu, rating.sigma), abs=1e-9)


def _alone_with_bots(session: Session, rate_bot_games: bool) -> Event:
    """Ann at a live table with three bots in empty seats, after a first round with people."""
    event = play_event(session, "Solo night", date(2026, 3, 1), [[FOUR]])
    event.rate_bot_games = rate_bot_games
    ann = session.exec(select(Player).where(Player.event_id == event.id, Player.name == "Ann")).one()
    second = Round(event_id=event.id or 0, number=2, status=RoundStatus.FINISHED)
    session.add_all([event, second])
    session.flush()
    table = GameTable(round_id=second.id or 0, number=1, digital=True)
    session.add(table)
    session.flush()
    session.add_all([Seat(table_id=table.id or 0, player_id=ann.id, position=0)]
                    + [Seat(table_id=table.id or 0, player_id=None, position=i, is_bot=True) for i in (1, 2, 3)])
    session.add(Result(table_id=table.id or 0, status=ResultStatus.CONFIRMED, seats=[
        {"player_id": ann.id, "points": 10, "species_count": 1}]
        + [{"player_id": None, "points": 40 + i, "species_count": 3} for i in (1, 2, 3)]))
    session.commit()
    return event


def test_a_game_against_bots_only_is_left_out_and_marked_on_the_history(signed_in: FlaskClient,
                                                                        session: Session) -> None:
    _alone_with_bots(session, rate_bot_games=False)
    ratings.recompute(session)
    expected = direct([(["Ann", "Bo", "Cy", "Di"], [1, 2, 3, 4])])
    assert latest(session)["Ann"] == pytest.approx((expected["Ann"].mu, expected["Ann"].sigma), abs=1e-9)
    ann = next(r for r in ratings.current_ratings(session) if r.entry.name == "Ann")
    page = signed_in.get(f"/club/players/{ann.entry.id}").text
    assert "Games not rated" in page
    assert "round 2, table 1: not rated, only bots to play against." in page


def test_the_organizer_may_count_games_with_bots(session: Session) -> None:
    """With the event's setting, the bots are opponents with the starting rating: Ann, last
    behind three of them, loses rating she would not have lost without the setting."""
    _alone_with_bots(session, rate_bot_games=True)
    ratings.recompute(session)
    ann = next(r for r in ratings.current_ratings(session) if r.entry.name == "Ann")
    assert ann.tables == 2
    expected = direct([(["Ann", "Bo", "Cy", "Di"], [1, 2, 3, 4]), (["Ann", "x", "y", "z"], [4, 3, 2, 1])])
    assert (ann.mu, ann.sigma) == pytest.approx((expected["Ann"].mu, expected["Ann"].sigma), abs=1e-9)
    assert ratings.unrated_games(session, ann.entry.id or 0) == []


def test_the_event_form_has_the_setting_and_it_travels_in_the_export(signed_in: FlaskClient, session: Session) -> None:
    from organizer.exchange import event_import
    from organizer.exchange.export import export_event
    from tests.fixtures.organizer import event_form

    page = signed_in.get("/events/new").text
    assert 'name="rate_bot_games"' in page and "Ratings count games with bots" in page
    assert signed_in.post("/events/new", data=event_form(rate_bot_games="1")).status_code == 302
    event = session.exec(select(Event)).one()
    assert event.rate_bot_games is True
    data = export_event(session, event)
    assert data["event"]["rate_bot_games"] is True
    del data["event"]["rate_bot_games"]  # a file from before the setting: bots left out
    assert event_import.import_event(session, data, None).rate_bot_games is False
