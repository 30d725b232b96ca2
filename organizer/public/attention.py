"""What needs the organizer on a round's page: disputed results, tables still without
a result some minutes into the round clock, players' calls for a judge, results not confirmed yet, and players who checked
themselves in since the round was made."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session

from organizer.core.models import Event, ResultStatus, Round, RoundStatus, utcnow
from organizer.public.judge_calls import Call, open_calls
from organizer.public.self_report import self_check_ins_since
from organizer.rounds.page import table_statuses


@dataclass(frozen=True)
class Attention:
    disputed: list[tuple[int, str]]  # table number, note (staff only)
    late: list[int]  # tables without a result past the event's attention minutes
    unconfirmed: list[int]
    self_check_ins: list[str]
    minutes: int
    #: minutes of the clock so far (None: the clock is not running)
    clock_minutes: int | None
    #: players' calls for a judge not resolved yet, oldest first
    calls: list[Call] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.calls or self.disputed or self.late or self.unconfirmed or self.self_check_ins)


def _aware(moment: datetime) -> datetime:
    from datetime import UTC

    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def needs_attention(session: Session, event: Event, rnd: Round, now: datetime | None = None) -> Attention:
    assert event.id is not None and rnd.id is not None
    now = now or utcnow()
    disputed: list[tuple[int, str]] = []
    late: list[int] = []
    unconfirmed: list[int] = []
    clock_minutes = None
    if rnd.clock_started_at is not None:
        clock_minutes = int((now - _aware(rnd.clock_started_at)).total_seconds() // 60)
    if rnd.status != RoundStatus.PROPOSED:
        # the results' statuses as columns: 2,500 tables are counted, not loaded
        for table in table_statuses(session, rnd.id):
            if table.status is None:
                if clock_minutes is not None and clock_minutes >= event.attention_minutes:
                    late.append(table.number)
            elif table.status == ResultStatus.DISPUTED:
                disputed.append((table.number, table.dispute_note))
            elif table.status == ResultStatus.ENTERED:
                unconfirmed.append(table.number)
    checked = self_check_ins_since(session, event.id, _aware(rnd.created_at))
    return Attention(disputed, late, unconfirmed, [p.name for p in checked], event.attention_minutes, clock_minutes,
                     open_calls(session, rnd.id))
