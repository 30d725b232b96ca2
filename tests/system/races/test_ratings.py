"""Two rounds of two events closed at the same instant: each close replays the club's ratings
from its event on, reading the ratings stored before it. The stored ratings after both equal a
full replay of every settled result, whatever order the closes were served in: neither replay
is lost under the other. Reproduces "a rating misses a result settled at the same time"."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext

import pytest
from sqlmodel import Session, col, select

import organizer.club  # noqa: F401  # the club's receivers, as in the app
from organizer.club import ratings, receivers
from organizer.core import signals
from organizer.core.models import Event, GameTable, RatingPoint, Result, Round
from organizer.rounds import results
from organizer.rounds import service as rounds
from organizer.rounds.submission import SeatEntry, Submission
from tests.system.faults.harness import Client
from tests.system.races.harness import (
    DEMO_EVENT,
    RaceServer,
    fetch_form,
    run_trials,
    server_errors,
    simultaneously,
    submit,
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


@contextmanager
def _one_replay(session: Session, event_id: int) -> Iterator[Callable[[], None]]:
    """While a reopened round's results change, the ratings' replay each change asks for is
    held back and made once at the end. Each replay runs from the event on and reads nothing
    an earlier one wrote, so when every change asked for one (checked), the last alone decides
    what is stored: one replay leaves what six leave. The league figures, which decide whether
    a change asks, are stored at every change as in the app. The caller calls the function it
    is given after every change."""
    asked: list[int] = []
    changes = [0]

    def hold(_sender: object, **_values: object) -> int:
        asked.append(changes[0])
        return 0

    def changed() -> None:
        changes[0] += 1

    signals.results_settled.disconnect(receivers.follow_ratings)
    signals.results_settled.connect(hold)
    try:
        yield changed
    finally:
        signals.results_settled.disconnect(hold)
        signals.results_settled.connect(receivers.follow_ratings)
    assert asked == list(range(changes[0])), f"changes {changes[0]}, replays asked after {asked}"
    ratings.follow_quietly(session, [event_id])


def _settle_round_one(session: Session, event_id: int, salt: int) -> None:
    """Round 1 reopened if closed, every table given new figures and confirmed: ready to close.
    Through the services in this process (the club's receivers are connected here as in the
    app), not the pages: only the two closes race, and what they read is the same."""
    session.expire_all()
    event = session.get(Event, event_id)
    rnd = rounds.get_round(session, event_id, 1)
    assert event is not None and rnd is not None and rnd.id is not None
    reopened = rnd.status == "finished"
    if reopened:
        rounds.reopen_round(session, event, rnd, "race")
    with _one_replay(session, event_id) if reopened else nullcontext(lambda: None) as changed:
        for view in rounds.tables_of(session, rnd.id):
            entries = [SeatEntry(s.seat.player_id or 0, 20 + ((salt + view.table.number) * 7 + index * 13) % 20,
                                 3 + (salt + view.table.number + index) % 5)
                       for index, s in enumerate(view.seats)]
            version = view.result.version if view.result is not None else 0
            results.save_result(session, event, rnd, view, Submission("totals", entries), version, "race")
            changed()
            view = rounds.tables_of(session, rnd.id, view.table.number)[0]
            assert view.result is not None
            results.confirm_by_organizer(session, event, view, view.result, view.result.version, None, "race")
            changed()


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
            _settle_round_one(session, one, index)
            _settle_round_one(session, two, 1000 + index)
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
