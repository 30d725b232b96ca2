"""Who works at an event: judges are assigned per event by its organizers, and the
event says whether its judges may also change the seating."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from organizer.core.errors import InputError
from organizer.core.models import Event, EventJudge, Organizer, Role
from organizer.core.translate import _


@dataclass(frozen=True)
class EventStaff:
    judges: list[Organizer]
    #: judge accounts not assigned yet, for the form
    available: list[Organizer]
    judges_may_seat: bool


def is_judge_of(session: Session, account_id: int, event_id: int) -> bool:
    return session.exec(select(EventJudge.id).where(EventJudge.event_id == event_id,
                                                    EventJudge.organizer_id == account_id)).first() is not None


def events_judged(session: Session, account_id: int) -> list[int]:
    return list(session.exec(select(EventJudge.event_id).where(EventJudge.organizer_id == account_id)).all())


def staff_of(session: Session, event: Event) -> EventStaff:
    assigned = list(session.exec(select(Organizer).join(EventJudge, col(EventJudge.organizer_id) == Organizer.id)
                                 .where(EventJudge.event_id == event.id).order_by(col(Organizer.name))).all())
    ids = {judge.id for judge in assigned}
    judges = session.exec(select(Organizer).where(Organizer.role == Role.JUDGE, col(Organizer.disabled_at).is_(None))
                          .order_by(col(Organizer.name))).all()
    return EventStaff(assigned, [judge for judge in judges if judge.id not in ids], event.judges_may_seat)


def assign_judge(session: Session, event: Event, account_id: int | None, actor: str) -> Organizer:
    account = session.get(Organizer, account_id) if account_id is not None else None
    if account is None or account.role != Role.JUDGE or account.disabled_at is not None:
        raise InputError({"judge": _("Choose a judge's account.")})
    assert event.id is not None and account.id is not None
    if not is_judge_of(session, account.id, event.id):
        session.add(EventJudge(event_id=event.id, organizer_id=account.id, assigned_by=actor[:120]))
        session.commit()
    return account


def unassign_judge(session: Session, event: Event, account_id: int) -> None:
    for row in session.exec(select(EventJudge).where(EventJudge.event_id == event.id,
                                                     EventJudge.organizer_id == account_id)).all():
        session.delete(row)
    session.commit()


def set_judges_may_seat(session: Session, event: Event, allowed: bool) -> None:
    event.judges_may_seat = allowed
    session.add(event)
    session.commit()
