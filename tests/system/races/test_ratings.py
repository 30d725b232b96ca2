"""Two rounds of two events closed at the same instant: each close replays the club's ratings
from its event on, reading the ratings stored before it. The stored ratings after both equal a
full replay of every settled result, whatever order the closes were served in: neither replay
is lost under the other. Reproduces "a rating misses a result settled at the same time"."""

from __future__ import annotations

import pytest
from sqlmodel import Session, col, select

import organizer.club  # noqa: F401  # the club's receivers, as in the app
from organizer.club import ratings
from organizer.core.models import GameTable, RatingPoint, Result, Round
from tests.system.faults.harness import Client
from tests.system.races.harness import (
    DEMO_EVENT,
    RaceServer,
    enter_fresh_result,
    fetch_form,
    run_trials,
    server_errors,
    simultaneously,
    submit,
    table_path,
)


@pytest.fixture(scope="module")
def devices(race_server: RaceServer) -> tuple[Client, Client]:
    return race_server.client(), race_server.client()


@pytest.fixture(scope="module")
def two_events(race_server: RaceServer) -> tuple[int, int]:
    """Two copies of the demo event (the same players, so the same registry entries), the
    first earlier in time order."""
    export = race_server.export_event(DEMO_EVENT)
    return race_server.import_event(export), race_server.import_event(export)


def _settle_round_one(race_server: RaceServer, session: Session, event_id: int, salt: int) -> None:
    """Round 1 reopened if closed, every table given new figures and confirmed: ready to close."""
    admin = race_server.admin
    session.expire_all()
    rnd = session.exec(select(Round).where(Round.event_id == event_id, Round.number == 1)).one()
    if rnd.status == "finished":
        assert submit(admin, fetch_form(admin, f"/events/{event_id}/rounds/1", "/reopen")).status == 302
    for table in session.exec(select(GameTable).where(GameTable.round_id == rnd.id).order_by(col(GameTable.number))):
        path = table_path(event_id, 1, table.number)
        enter_fresh_result(admin, path, salt + table.number)
        assert submit(admin, fetch_form(admin, path, "/confirm", seat="organizer")).status == 200


def _stored(session: Session) -> dict[tuple[int, int], tuple[float, float, int]]:
    session.expire_all()
    return {(p.club_player_id, p.event_id): (round(p.mu, 9), round(p.sigma, 9), p.tables)
            for p in session.exec(select(RatingPoint)).all()}


def test_two_rounds_closed_at_once_leave_the_ratings_a_full_replay_gives(
        race_server: RaceServer, devices: tuple[Client, Client], two_events: tuple[int, int]) -> None:
    first, second = devices
    one, two = two_events

    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            # new figures at the earlier event every trial: the later one's replay must start
            # from them
            _settle_round_one(race_server, session, one, index)
            _settle_round_one(race_server, session, two, 1000 + index)
        close_one = fetch_form(first, f"/events/{one}/rounds/1", "/close")
        close_two = fetch_form(second, f"/events/{two}/rounds/1", "/close")
        replies = simultaneously(lambda: submit(first, close_one), lambda: submit(second, close_two))
        problems = server_errors(replies, ["closing the earlier event's round", "closing the later one's"])
        if any(reply.status != 302 for reply in replies):
            problems.append(f"a close was refused: {[reply.status for reply in replies]}")
        with race_server.session() as session:
            stored = _stored(session)
            replayed = {(p.club_player_id, p.event_id): (round(p.mu, 9), round(p.sigma, 9), p.tables)
                        for p in ratings.compute(ratings.rated_tables(session))}
            unconfirmed = session.exec(select(Result.id).join(GameTable).join(Round)
                                       .where(col(Round.event_id).in_([one, two]), Result.status != "confirmed")).all()
        if unconfirmed:
            problems.append(f"results left unconfirmed: {unconfirmed}")
        if stored != replayed:
            wrong = sorted(key for key in set(stored) | set(replayed) if stored.get(key) != replayed.get(key))
            problems.append(f"{len(wrong)} stored ratings differ from a full replay, e.g. {wrong[:3]}")
        return problems

    run_trials(trial)
