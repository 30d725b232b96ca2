"""The ratings follow every settled result by themselves, as a full replay would give them."""

from __future__ import annotations

from datetime import date

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.club import ratings
from organizer.core.models import Event, RatingPoint, Round
from tests.club.support import latest, play_event


def stored(session: Session) -> list[tuple[int, int, int, float, float, int]]:
    session.expire_all()
    return sorted((p.club_player_id, p.event_id, p.sequence, round(p.mu, 9), round(p.sigma, 9), p.tables)
                  for p in session.exec(select(RatingPoint)).all())


def test_a_closed_round_and_a_correction_move_the_ratings_without_a_recompute(
        signed_in: FlaskClient, session: Session) -> None:
    from organizer.players import service as player_service
    from organizer.rounds import service as rounds
    from tests.fixtures.organizer import create_event
    from tests.rounds.support import totals_form

    event = create_event(session, name="Club night", date=date(2026, 3, 5))
    typed = {"Ann": 50, "Bo": 40, "Cy": 30, "Di": 20}
    for name in typed:
        player = player_service.add_player(session, event, name, "", "", "t")
        player_service.set_checked_in(session, player, True, "t")
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "1"}).status_code == 302
    assert signed_in.post(f"/events/{event.id}/rounds/1/publish").status_code == 302
    rnd = session.exec(select(Round).where(Round.event_id == event.id)).one()
    (view,) = rounds.tables_of(session, rnd.id or 0)
    names = [s.player.name for s in view.seats if s.player]
    table = f"/events/{event.id}/rounds/1/tables/1"
    assert signed_in.post(f"{table}/result", data=totals_form(view, [typed[n] for n in names], [4] * 4)).status_code == 302
    signed_in.post(f"{table}/confirm", data={"seat": "organizer", "version": 1})
    assert ratings.current_ratings(session) == []  # a round in play: nothing settled yet
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code == 302
    after_close = latest(session)
    assert set(after_close) == set(typed)
    assert after_close["Ann"][0] > after_close["Di"][0]
    # the round reopened and Ann's and Di's totals swapped: the ratings follow the correction
    assert signed_in.post(f"/events/{event.id}/rounds/1/reopen").status_code == 302
    typed["Ann"], typed["Di"] = 20, 50
    assert signed_in.post(f"{table}/result", data=totals_form(view, [typed[n] for n in names], [4] * 4, 2)).status_code == 302
    signed_in.post(f"{table}/confirm", data={"seat": "organizer", "version": 3})
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code == 302
    after_correction = latest(session)
    assert after_correction["Di"][0] > after_correction["Ann"][0]
    followed = stored(session)
    ratings.recompute(session)  # the repair tool finds nothing to repair
    assert stored(session) == followed


def test_following_event_by_event_gives_what_a_full_replay_gives(session: Session) -> None:
    """Events settled out of date order, one corrected in the middle: each follow replays from
    the earliest settled event, and the stored points equal a full recompute's."""
    third = play_event(session, "Three", date(2026, 3, 1), [[[("Ann", 30, 5), ("Bo", 40, 4), ("Cy", 45, 4)]]])
    ratings.follow(session, [third.id or 0])
    first = play_event(session, "One", date(2026, 1, 1), [[[("Ann", 50, 5), ("Bo", 40, 4)]]])
    ratings.follow(session, [first.id or 0])
    second = play_event(session, "Two", date(2026, 2, 1), [[[("Bo", 50, 5), ("Cy", 40, 4), ("Di", 10, 1)]]])
    ratings.follow(session, [second.id or 0])
    followed = stored(session)
    ratings.recompute(session)
    assert stored(session) == followed
    # a date moved: the order changes, and following the event puts it right
    moved = session.get(Event, first.id)
    assert moved is not None
    moved.date = date(2026, 4, 1)
    session.add(moved)
    session.commit()
    ratings.follow(session, [moved.id or 0])
    followed = stored(session)
    ratings.recompute(session)
    assert stored(session) == followed


def test_an_event_date_changed_on_the_form_reorders_the_ratings(signed_in: FlaskClient, session: Session) -> None:
    from tests.fixtures.organizer import event_form

    first = play_event(session, "One", date(2026, 1, 1), [[[("Ann", 50, 5), ("Bo", 40, 4)]]])
    play_event(session, "Two", date(2026, 2, 1), [[[("Ann", 30, 5), ("Bo", 40, 4)]]])
    ratings.recompute(session)
    before = latest(session)
    assert signed_in.post(f"/events/{first.id}/edit", data=event_form(name="One", date="2026-03-01", version="1")
                          ).status_code == 302
    after = latest(session)
    # Ann's win now comes last: she ends higher than when her loss came last
    assert after["Ann"][0] > before["Ann"][0]
    followed = stored(session)
    ratings.recompute(session)
    assert stored(session) == followed


def test_a_merge_in_the_registry_moves_the_ratings_with_it(session: Session) -> None:
    """"Ann" and "Ann Lee" were one person: merged, her two events' tables are one history."""
    from organizer.club import registry

    play_event(session, "One", date(2026, 1, 1), [[[("Ann", 50, 5), ("Bo", 40, 4)]]])
    play_event(session, "Two", date(2026, 2, 1), [[[("Ann Lee", 50, 5), ("Bo", 40, 4)]]])
    ratings.recompute(session)
    ids = {r.entry.name: r.entry.id or 0 for r in ratings.current_ratings(session)}
    registry.merge(session, ids["Ann"], ids["Ann Lee"])
    assert {r.entry.name: r.tables for r in ratings.current_ratings(session)} == {"Ann": 2, "Bo": 2}
    followed = stored(session)
    ratings.recompute(session)
    assert stored(session) == followed
