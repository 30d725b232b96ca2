"""A finished live table's result: the engine's score, stored once as the table's confirmed
result through the results service."""

from __future__ import annotations

from sqlmodel import Session, select

from organizer.core.errors import InputError
from organizer.core.models import EntryMode, Event, Result, Round, RoundStatus
from organizer.live import log as live_log
from organizer.rounds import results as results_service
from organizer.rounds.service import TableSeating, lock_table

ACTOR = "live table"


def record_result(session: Session, event: Event, rnd: Round, view: TableSeating, replayed: live_log.Replayed) -> None:
    """Store the engine's score as the table's confirmed result, once: checked under the table's
    lock, so of several requests finding the game over at the same instant, the first records
    it and the others find it recorded and change nothing."""
    if session.exec(select(Result.id).where(Result.table_id == view.table.id)).first() is not None:
        return  # the usual case once the game is over, answered without taking a lock
    rnd, view = lock_table(session, rnd, view.table)
    if rnd.status != RoundStatus.PUBLISHED or view.result is not None:
        # recorded already, or typed in by hand: that stands; the TO sees both on the table page
        session.rollback()
        return
    outcome = replayed.state.outcome()
    case = replayed.state.score_case()
    assert outcome is not None and case is not None
    entries = []
    for seat_view, player in zip(view.seats, outcome.players, strict=True):
        entries.append(results_service.SeatEntry(
            seat_view.seat.player_id,  # type: ignore[arg-type]  # None for a bot in an empty seat
            player.total, player.species_in_arboretum,
            {name: s.points for name, s in player.species.items()}, player.bonus))
    submission = results_service.Submission(EntryMode.DIGITAL, entries, score_case=case.to_json(),
                                            score_output=outcome.to_json())
    try:
        result = results_service.save_result(session, event, rnd, view, submission, 0, ACTOR)
    except (results_service.ResultConflict, InputError):
        session.rollback()
        return
    results_service.confirm_by_organizer(session, event, view, result, result.version, None, ACTOR)
