"""Calling a judge: a player calls one to their table from their own page, the call shows on the
round's "needs attention" list, a judge takes it (the player's page says who) and resolves it.

A table has at most one call open or taken at a time, checked under the round's lock; once a call
is resolved the table may call again only after ``CALL_AGAIN_SECONDS``, so one impatient phone
cannot keep the judges' list full. Taking a call locks the call's row: of two judges tapping at
once, one takes it and the other is told who did."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlmodel import Session, col, select

from organizer.core import guard
from organizer.core.errors import InputError
from organizer.core.models import AuditEntry, Event, JudgeCall, Player, Round, utcnow
from organizer.core.translate import _
from organizer.public import self_report

#: seconds after a call was resolved before the same table may call again
CALL_AGAIN_SECONDS = 60
MAX_NOTE = 200
OPEN, TAKEN, RESOLVED = "open", "taken", "resolved"
LIVE = (OPEN, TAKEN)


@dataclass(frozen=True)
class Call:
    id: int
    table: int
    player: str
    note: str
    status: str
    taken_by: str
    called_at: datetime


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _as_call(row: JudgeCall) -> Call:
    assert row.id is not None
    return Call(row.id, row.table_number, row.player_name, row.note, row.status, row.taken_by, _aware(row.called_at))


def open_calls(session: Session, round_id: int) -> list[Call]:
    """The round's calls not resolved yet, oldest first (the order judges answer them in)."""
    rows = session.exec(select(JudgeCall).where(JudgeCall.round_id == round_id, col(JudgeCall.status).in_(LIVE))
                        .order_by(col(JudgeCall.called_at), col(JudgeCall.id))).all()
    return [_as_call(row) for row in rows]


def table_call(session: Session, round_id: int, table_number: int) -> Call | None:
    """The table's call not resolved yet, for the player's page."""
    row = session.exec(select(JudgeCall).where(JudgeCall.round_id == round_id, JudgeCall.table_number == table_number,
                                               col(JudgeCall.status).in_(LIVE))).first()
    return None if row is None else _as_call(row)


class CallTooSoon(self_report.RateLimited):
    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.errors = {"": _("A judge has just been at your table; you can call again in %(seconds)d seconds.",
                             seconds=retry_after)}


def call_judge(session: Session, player: Player, note: str, now: datetime | None = None) -> JudgeCall:
    """The player calls a judge to their table of the current round."""
    note = " ".join(note.split())
    if len(note) > MAX_NOTE:
        raise InputError({"note": _("At most %(num)d characters.", num=MAX_NOTE)})
    seated = self_report._writable(session, player)
    if seated.round is None or seated.round.id is None or seated.view is None:
        raise InputError({"": _("You are not seated in the current round.")})
    table_number = seated.view.table.number
    # the round's lock serialises every call of its tables: "one live call per table" holds
    rnd = guard.lock(session, Round, seated.round.id)
    if rnd is None:
        raise InputError({"": _("You are not seated in the current round.")})
    assert rnd.id is not None
    now = now or utcnow()
    calls = session.exec(select(JudgeCall).where(JudgeCall.round_id == rnd.id, JudgeCall.table_number == table_number)
                         .order_by(col(JudgeCall.id).desc())).all()
    if any(call.status in LIVE for call in calls):
        raise InputError({"": _("A judge is already called to your table.")})
    resolved = [_aware(call.resolved_at) for call in calls if call.resolved_at is not None]
    if resolved and max(resolved) > now - timedelta(seconds=CALL_AGAIN_SECONDS):
        wait = max(resolved) + timedelta(seconds=CALL_AGAIN_SECONDS) - now
        raise CallTooSoon(max(1, math.ceil(wait.total_seconds())))
    call = JudgeCall(event_id=rnd.event_id, round_id=rnd.id, table_number=table_number, player_id=player.id,
                     player_name=player.name, note=note, called_at=now)
    session.add(call)
    session.flush()
    session.add(AuditEntry(event_id=rnd.event_id, table_id=seated.view.table.id, actor=self_report.actor(player),
                           action="judge.called", new={"round": rnd.number, "table": table_number, "note": note,
                                                       "player": player.name}))
    session.commit()
    return call


def _locked_call(session: Session, event: Event, call_id: int) -> JudgeCall:
    call = guard.lock(session, JudgeCall, call_id)
    if call is None or call.event_id != event.id:
        raise InputError({"": _("That call is gone.")})
    return call


def _audit(session: Session, call: JudgeCall, action: str, actor: str, role: str) -> None:
    rnd = session.get(Round, call.round_id)
    session.add(AuditEntry(event_id=call.event_id, actor=actor, role=role, action=action,
                           new={"call": call.id, "round": rnd.number if rnd else 0, "table": call.table_number,
                                "player": call.player_name}))


def take(session: Session, event: Event, call_id: int, judge: str, role: str = "") -> JudgeCall:
    """A judge takes an open call; a call someone else took already stays theirs."""
    call = _locked_call(session, event, call_id)
    if call.status == TAKEN:
        raise guard.StaleChange(_("The call"), _("%(name)s took it already.", name=call.taken_by))
    if call.status != OPEN:
        raise guard.StaleChange(_("The call"), _("It is resolved."))
    call.status, call.taken_by, call.taken_at = TAKEN, judge, utcnow()
    session.add(call)
    _audit(session, call, "judge.taken", judge, role)
    session.commit()
    return call


def resolve(session: Session, event: Event, call_id: int, judge: str, role: str = "") -> JudgeCall:
    """The call is dealt with (by whoever took it, or any judge when it was never taken)."""
    call = _locked_call(session, event, call_id)
    if call.status == RESOLVED:
        raise guard.StaleChange(_("The call"), _("It is resolved."))
    call.status, call.resolved_by, call.resolved_at = RESOLVED, judge, utcnow()
    if not call.taken_by:
        call.taken_by, call.taken_at = judge, call.resolved_at
    session.add(call)
    _audit(session, call, "judge.resolved", judge, role)
    session.commit()
    return call
