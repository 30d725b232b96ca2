"""Races on an event's finals, each fired at the same instant from two organizers' devices
against gunicorn with several worker processes, from forms fetched at the same finals' version.

- Two organizers make the cut at once (one a cut of 4, the other of 8): exactly one cut is
  made, the other form is refused as stale and changes nothing; one audit entry.
- A seeded player declines while another organizer seats the final table: either the decliner
  is replaced and nothing is seated, or the table is seated with the cut as it was and the
  decline is refused as stale; never a table seated with a player who declined, never both.
"""

from __future__ import annotations

from datetime import date

import pytest
from sqlmodel import Session, col, delete, select

from organizer.core.models import AuditEntry, Event, Finals, GameTable, Player, Round, RoundStage, Seat
from organizer.events import service as events
from organizer.finals import service as finals
from organizer.rounds import results
from organizer.rounds import service as rounds
from organizer.rounds.submission import SeatEntry, Submission
from tests.system.faults.harness import Client
from tests.system.races.harness import RaceServer, fetch_form, run_trials, server_errors, simultaneously, submit

PLAYERS = 9
STALE = "nothing was saved"


@pytest.fixture(scope="module")
def devices(race_server: RaceServer) -> tuple[Client, Client]:
    return race_server.client(), race_server.client()


@pytest.fixture(scope="module")
def event_id(race_server: RaceServer) -> int:
    """An event of nine players whose one Swiss round is played, confirmed and closed, every
    player with a score of their own (so the standings, and the cut, have no tie)."""
    with race_server.session() as session:
        event = events.create_event(session, events.EventInput(name="Finals race", date=date(2026, 11, 27),
                                                               round_formats=["standard"]), None, "race")
        assert event.id is not None
        session.add_all([Player(event_id=event.id, name=f"Finalist {n}", name_key=f"finalist {n}", checked_in=True)
                         for n in range(1, PLAYERS + 1)])
        session.commit()
        first = rounds.propose_round(session, event, "race", 7)
        rounds.publish_round(session, event, first, "race")
        assert first.id is not None
        for view in rounds.tables_of(session, first.id):
            entries = [SeatEntry(s.seat.player_id or 0, 10 + 3 * (s.seat.player_id or 0), 5) for s in view.seats]
            results.save_result(session, event, first, view, Submission("totals", entries), 0, "race")
            view = next(v for v in rounds.tables_of(session, first.id) if v.table.id == view.table.id)
            assert view.result is not None
            results.confirm_by_organizer(session, event, view, view.result, view.result.version, None, "race")
        rounds.close_round(session, event, session.get(Round, first.id) or first, "race")
        return event.id


def _reset(session: Session, event_id: int, cut: int | None) -> None:
    """No finals' round and no cut; then, when ``cut`` is given, the cut made afresh."""
    session.exec(delete(Round).where(col(Round.event_id) == event_id,  # type: ignore[call-overload]
                                     col(Round.stage) != RoundStage.SWISS))
    session.exec(delete(Finals).where(col(Finals.event_id) == event_id))  # type: ignore[call-overload]
    session.commit()
    if cut is not None:
        event = session.get(Event, event_id)
        assert event is not None
        finals.make_cut(session, event, cut, False, None, "race")


def _last_audit_id(session: Session) -> int:
    return max(session.exec(select(AuditEntry.id)).all(), default=None) or 0


def _finals_entries(session: Session, event_id: int, after: int) -> list[AuditEntry]:
    return list(session.exec(select(AuditEntry).where(AuditEntry.event_id == event_id, col(AuditEntry.id) > after,
                                                      col(AuditEntry.action).like("finals.%"))
                             .order_by(col(AuditEntry.id))).all())


def _stale(text: str) -> bool:
    return STALE in text


def test_two_organizers_make_the_cut_at_once(race_server: RaceServer, devices: tuple[Client, Client],
                                             event_id: int) -> None:
    first, second = devices
    page = f"/events/{event_id}/finals"

    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            _reset(session, event_id, None)
            before = _last_audit_id(session)
        forms = [fetch_form(device, page, "/finals/cut") for device in devices]
        replies = simultaneously(lambda: submit(first, forms[0], cut_size="4"),
                                 lambda: submit(second, forms[1], cut_size="8"))
        problems = server_errors(replies, ("the cut of 4", "the cut of 8"))
        if problems:
            return problems
        statuses = sorted(reply.status for reply in replies)
        if statuses != [302, 422]:
            return [f"answers {statuses}, not one cut made and one refused"]
        refused = next(reply for reply in replies if reply.status == 422)
        if not _stale(refused.text):
            return ["the refused form does not say it was stale"]
        made = 4 if replies[0].status == 302 else 8
        with race_server.session() as session:
            stored = session.exec(select(Finals).where(Finals.event_id == event_id)).all()
            entries = _finals_entries(session, event_id, before)
        if len(stored) != 1 or stored[0].cut_size != made or len(stored[0].seeds) != made:
            return [f"{len(stored)} cuts stored ({[f.cut_size for f in stored]}), the answer said {made}"]
        if stored[0].version != 1:
            return [f"the finals are at version {stored[0].version} after one change"]
        if [e.action for e in entries] != ["finals.cut"] or (entries[0].new or {}).get("cut_size") != made:
            return [f"audit: {[(e.action, (e.new or {}).get('cut_size')) for e in entries]}"]
        return []

    run_trials(trial)


def test_a_player_declines_while_the_final_table_is_seated(race_server: RaceServer, devices: tuple[Client, Client],
                                                           event_id: int) -> None:
    decliner_device, seater = devices
    page = f"/events/{event_id}/finals"

    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            _reset(session, event_id, 4)
            cut = session.exec(select(Finals).where(Finals.event_id == event_id)).one()
            seeded = [int(s["player_id"]) for s in cut.seeds]
            before = _last_audit_id(session)
        declining = seeded[index % len(seeded)]
        decline = fetch_form(decliner_device, page, "/finals/decline", player=str(declining))
        seat = fetch_form(seater, page, "/finals/seat")
        replies = simultaneously(lambda: submit(decliner_device, decline), lambda: submit(seater, seat))
        problems = server_errors(replies, ("the decline", "the seating"))
        if problems:
            return problems
        declined_ok, seated_ok = replies[0].status == 302, replies[1].status == 302
        if declined_ok == seated_ok:
            return [f"answers {[r.status for r in replies]}: not exactly one of the two took effect"]
        loser = replies[1] if declined_ok else replies[0]
        if loser.status != 422 or not _stale(loser.text):
            return [f"the refused form answered {loser.status} without saying it was stale"]
        with race_server.session() as session:
            stored = session.exec(select(Finals).where(Finals.event_id == event_id)).one()
            seated_rounds = session.exec(select(Round).where(Round.event_id == event_id,
                                                             Round.stage != RoundStage.SWISS)).all()
            seated = _seated_players(session, [r.id for r in seated_rounds if r.id is not None])
            entries = [e.action for e in _finals_entries(session, event_id, before)]
            now_seeded = [int(s["player_id"]) for s in stored.seeds]
        if declined_ok:
            if seated_rounds:
                return ["the decline took effect, yet a finals' table was seated"]
            if stored.declined != [declining] or declining in now_seeded or len(now_seeded) != 4:
                return [f"the decline took effect, yet the cut is {now_seeded} with {stored.declined} declined"]
            if entries != ["finals.declined"]:
                return [f"audit: {entries}"]
        else:
            if len(seated_rounds) != 1 or sorted(p for p in seated if p is not None) != sorted(seeded):
                return [f"the seating took effect with {seated}, not the cut {seeded}"]
            if stored.declined or now_seeded != seeded:
                return [f"the seating took effect, yet {stored.declined} declined"]
            if entries != ["finals.seated"]:
                return [f"audit: {entries}"]
        return []

    run_trials(trial)


def _seated_players(session: Session, round_ids: list[int]) -> list[int | None]:
    if not round_ids:
        return []
    return list(session.exec(select(Seat.player_id).join(GameTable, col(GameTable.id) == Seat.table_id)
                             .where(col(GameTable.round_id).in_(round_ids))).all())
