"""A bot put into an empty or abandoned seat counts as an opponent in the standings, but has no
standings row of its own."""

from __future__ import annotations

from sqlmodel import Session, select

from organizer.core.models import Seat
from organizer.rounds import results
from organizer.rounds import service as rounds
from organizer.scoring import event_standings
from tests.fixtures.organizer import add_players, create_event


def test_a_two_player_table_with_a_bot_counts_for_the_person(session: Session) -> None:
    event = create_event(session, name="Bot Night", preferred_table_size=2, round_formats=["standard"])
    people = add_players(session, event, 4)
    rnd = rounds.propose_round(session, event, "test", seed=3)
    rounds.publish_round(session, event, rnd, "test")
    assert rnd.id is not None
    views = rounds.tables_of(session, rnd.id)
    assert [len(v.seats) for v in views] == [2, 2]
    # the second seat of table 1 was abandoned and a bot took it over
    seat = session.exec(select(Seat).where(Seat.id == views[0].seats[1].seat.id)).one()
    left = seat.player_id
    seat.player_id, seat.is_bot = None, True
    session.add(seat)
    session.commit()
    session.expire_all()
    views = rounds.tables_of(session, rnd.id)
    for view, scores in zip(views, ((25, 31), (18, 12)), strict=True):
        entries = [results.SeatEntry(s.seat.player_id, points, 5)  # type: ignore[arg-type]
                   for s, points in zip(view.seats, scores, strict=True)]
        result = results.save_result(session, event, rnd, view, results.Submission("totals", entries), 0, "test")
        results.confirm_by_organizer(session, event, view, result, result.version, None, "test")

    rows = {row.player_id: row for row in event_standings.standings_for(session, event)}
    assert set(rows) == {p.id for p in people}  # every person, and no row for the bot
    alone = views[0].seats[0].seat.player_id
    assert rows[alone].tournament_points == 0 and rows[alone].games == 1  # lost 25 to the bot's 31
    assert rows[left].games == 0
    winner, loser = (s.seat.player_id for s in views[1].seats)
    assert rows[winner].tournament_points == 1 and rows[loser].tournament_points == 0
