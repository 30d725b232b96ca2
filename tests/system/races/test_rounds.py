"""Races on a round, each fired at the same instant from two organizers'
devices against gunicorn with several worker processes.

- Closing a round while a result of it is corrected: a finished round holds only confirmed
  results. Reproduces "the round ends finished with an unconfirmed result".
- Publishing a proposal while two players are swapped: a published seating never changes; the
  seats at the end are the proposal with the swaps the audit log lists before the publication,
  and none is listed after it. Reproduces "the seating changes after publication".
- Two proposals of the next round at once: no 5xx, exactly one proposed round. Reproduces "two
  proposals at once give a 500 (IntegrityError)".
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import Session, col, select

from organizer.core.models import AuditEntry, Event, GameTable, Player, Result, Round, Seat
from organizer.rounds import service as round_service
from tests.system.faults.harness import Client
from tests.system.races.harness import (
    DEMO_ACCOUNT,
    DEMO_EVENT,
    RaceServer,
    confirm_here,
    correction_form,
    enter_result_here,
    fetch_form,
    figures,
    result_problems,
    run_trials,
    server_errors,
    simultaneously,
    submit,
    table_path,
    without_rounds,
)


@pytest.fixture(scope="module")
def devices(race_server: RaceServer) -> tuple[Client, Client]:
    return race_server.client(), race_server.client()


@pytest.fixture(scope="module")
def event_before_round_one(race_server: RaceServer) -> bytes:
    """The demo event's export without its rounds: 12 players checked in, nothing seated."""
    return without_rounds(race_server.export_event(DEMO_EVENT))


def _rounds(session: Session, event_id: int) -> list[Round]:
    session.expire_all()
    return list(session.exec(select(Round).where(Round.event_id == event_id).order_by(col(Round.number))).all())


def _tables(session: Session, round_id: int) -> list[GameTable]:
    return list(session.exec(select(GameTable).where(GameTable.round_id == round_id)
                             .order_by(col(GameTable.number))).all())


# -- closing a round while a result is corrected --------------------------------------------------

def _confirm_all(session: Session, round_id: int) -> None:
    """Every table of the round has a result confirmed by the organizer (through the results
    service in this process: the set-up, not the race)."""
    for table in _tables(session, round_id):
        assert table.id is not None
        result = session.exec(select(Result).where(Result.table_id == table.id)).first()
        if result is None:
            enter_result_here(session, table.id, table.number)
        if result is None or result.status != "confirmed":
            confirm_here(session, table.id)


def test_closing_a_round_racing_a_correction(race_server: RaceServer, devices: tuple[Client, Client]) -> None:
    closer, corrector = devices
    round_path = f"/events/{DEMO_EVENT}/rounds/1"

    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            rnd = _rounds(session, DEMO_EVENT)[0]
            assert rnd.id is not None
            if rnd.status == "finished":
                event = session.get(Event, DEMO_EVENT)
                assert event is not None
                round_service.reopen_round(session, event, rnd, DEMO_ACCOUNT[0])
            _confirm_all(session, rnd.id)
            table_ids = {t.number: t.id for t in _tables(session, rnd.id)}
        number = 1 + index % len(table_ids)
        close = fetch_form(closer, round_path, "/close")
        correction = correction_form(corrector, table_path(DEMO_EVENT, 1, number))
        replies = simultaneously(lambda: submit(closer, close),
                                 lambda: submit(corrector, correction, **figures(correction, index)))
        problems = server_errors(replies, ["closing", "the correction"])
        with race_server.session() as session:
            rnd = _rounds(session, DEMO_EVENT)[0]
            statuses = {t.number: r.status for t, r in session.exec(
                select(GameTable, Result).join(Result, col(Result.table_id) == GameTable.id)
                .where(GameTable.round_id == rnd.id)).all()}
            if rnd.status == "finished" and set(statuses.values()) != {"confirmed"}:
                problems.append(f"round 1 is finished holding results {statuses} "
                                f"(close answered {replies[0].status}, the correction {replies[1].status})")
            table_id = table_ids[number]
            assert table_id is not None
            problems += result_problems(session, table_id)
        return problems

    run_trials(trial)


# -- publishing while players are swapped ---------------------------------------------------------

def _propose(race_server: RaceServer, event_id: int) -> None:
    form = fetch_form(race_server.admin, f"/events/{event_id}/rounds", "/propose")
    reply = submit(race_server.admin, form, seed="7")
    assert reply.status == 302, f"propose: {reply.status} {reply.text[:500]}"


def seating_problems(session: Session, event_id: int, round_id: int) -> list[str]:
    """The seats now against the seating the audit log says was published: the proposal with
    the swaps listed before ``round.published``; a swap listed after it is a change."""
    entries = session.exec(select(AuditEntry).where(AuditEntry.event_id == event_id)
                           .order_by(col(AuditEntry.at), col(AuditEntry.id))).all()
    ids = {p.name: p.id for p in session.exec(select(Player).where(Player.event_id == event_id)).all()}
    published: list[list[Any]] | None = None
    problems = []
    for entry in entries:
        new = entry.new or {}
        if entry.action == "round.proposed":
            published = [list(table) for table in new["tables"]]
        elif entry.action == "round.swapped":
            if any(e.action == "round.published" for e in entries if (e.at, e.id or 0) < (entry.at, entry.id or 0)):
                problems.append(f"a swap of {new.get('players')} is logged after the round was published")
                continue
            assert published is not None
            first, second = (ids[name] for name in new["players"])
            published = [[second if p == first else first if p == second else p for p in table] for table in published]
    seats = [[s.player_id for s in session.exec(select(Seat).where(Seat.table_id == t.id)
                                                 .order_by(col(Seat.position))).all()]
             for t in _tables(session, round_id)]
    if seats != published:
        problems.append(f"the seats now {seats} are not the published seating {published}")
    return problems


def test_publishing_racing_a_swap(race_server: RaceServer, devices: tuple[Client, Client],
                                  event_before_round_one: bytes) -> None:
    publisher, swapper = devices

    def trial(index: int) -> list[str]:
        event_id = race_server.import_event(event_before_round_one)
        _propose(race_server, event_id)
        with race_server.session() as session:
            rnd = _rounds(session, event_id)[0]
            assert rnd.id is not None
            tables = [[s.player_id for s in session.exec(select(Seat).where(Seat.table_id == t.id)
                                                         .order_by(col(Seat.position))).all()]
                      for t in _tables(session, rnd.id)]
        first, second = tables[0][index % 4], tables[1 + index % (len(tables) - 1)][(index + 1) % 4]
        round_path = f"/events/{event_id}/rounds/1"
        publish = fetch_form(publisher, round_path, "/publish")
        swap = fetch_form(swapper, round_path, "/swap")
        replies = simultaneously(lambda: submit(publisher, publish),
                                 lambda: submit(swapper, swap, first=str(first), second=str(second)))
        problems = server_errors(replies, ["publishing", "the swap"])
        with race_server.session() as session:
            rnd = _rounds(session, event_id)[0]
            assert rnd.id is not None
            if rnd.status != "published":
                problems.append(f"round 1 is {rnd.status} after publishing answered {replies[0].status}")
            problems += seating_problems(session, event_id, rnd.id)
        return problems

    run_trials(trial)


# -- two proposals at once ------------------------------------------------------------------------

def test_two_proposals_at_once(race_server: RaceServer, devices: tuple[Client, Client],
                               event_before_round_one: bytes) -> None:
    event_id = race_server.import_event(event_before_round_one)
    index_path = f"/events/{event_id}/rounds"

    def trial(index: int) -> list[str]:
        forms = [fetch_form(client, index_path, "/propose") for client in devices]
        replies = simultaneously(*(lambda c=client, f=form: submit(c, f, seed=str(index))
                                   for client, form in zip(devices, forms, strict=True)))
        problems = server_errors(replies, ["one proposal", "the other"])
        with race_server.session() as session:
            rounds = _rounds(session, event_id)
        if [(r.number, r.status) for r in rounds] != [(1, "proposed")]:
            problems.append(f"rounds after two proposals at once: {[(r.number, r.status) for r in rounds]}")
        for rnd in rounds:  # back to no round for the next trial
            form = fetch_form(race_server.admin, f"{index_path}/{rnd.number}", "/discard")
            assert submit(race_server.admin, form).status == 302
        return problems

    run_trials(trial)



