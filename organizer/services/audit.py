"""The event's audit log as the organizer reads it: newest first, a page at a time, filtered by
round, table and actor (the entries themselves are written where each change happens)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import and_, or_
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, col, func, select

from ..models import AuditEntry, GameTable, Round
from .paging import Page, page_of


@dataclass(frozen=True)
class AuditFilter:
    """What the organizer narrows the log to; None / "" is everything."""

    round: int | None = None
    #: a table's number (in the round when one is chosen, else in any round)
    table: int | None = None
    actor: str = ""


@dataclass(frozen=True)
class AuditPage:
    entries: Sequence[AuditEntry]
    page: Page
    filter: AuditFilter
    #: every actor of the event's log, for the filter's choices
    actors: Sequence[str]
    #: the event's round numbers, for the filter's choices
    rounds: Sequence[int]


def audit_filter(round_text: str | None, table_text: str | None, actor: str | None) -> AuditFilter:
    """The filter as a query string carries it: numbers that are not numbers are left out."""
    return AuditFilter(_number(round_text), _number(table_text), (actor or "").strip()[:120])


def _number(raw: str | None) -> int | None:
    try:
        number = int((raw or "").strip())
    except ValueError:
        return None
    return number if 1 <= number <= 100_000 else None


def _conditions(event_id: int, chosen: AuditFilter) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = [col(AuditEntry.event_id) == event_id]
    if chosen.actor:
        conditions.append(col(AuditEntry.actor) == chosen.actor)
    if chosen.round is None and chosen.table is None:
        return conditions
    tables = select(GameTable.id).join(Round, col(Round.id) == GameTable.round_id).where(Round.event_id == event_id)
    if chosen.round is not None:
        tables = tables.where(Round.number == chosen.round)
    if chosen.table is not None:
        tables = tables.where(GameTable.number == chosen.table)
    of_tables = col(AuditEntry.table_id).in_(tables)
    if chosen.round is not None and chosen.table is None:
        # a round's own entries (proposed, published, closed...) name the round in their values
        round_entry = and_(col(AuditEntry.table_id).is_(None),
                           col(AuditEntry.new)["round"].as_integer() == chosen.round)
        conditions.append(or_(of_tables, round_entry))
    else:
        conditions.append(of_tables)
    return conditions


def audit_page(session: Session, event_id: int, chosen: AuditFilter, number: int | None = None,
               per_page: int = 50) -> AuditPage:
    """One page of the log, newest first (by the order the entries were written)."""
    conditions = _conditions(event_id, chosen)
    total = session.exec(select(func.count()).select_from(AuditEntry).where(*conditions)).one()
    page = page_of(int(total), number, per_page)
    entries = session.exec(select(AuditEntry).where(*conditions).order_by(col(AuditEntry.id).desc())
                           .offset(page.offset).limit(page.per_page)).all()
    actors = session.exec(select(AuditEntry.actor).where(AuditEntry.event_id == event_id).distinct()
                          .order_by(col(AuditEntry.actor))).all()
    rounds = session.exec(select(Round.number).where(Round.event_id == event_id).order_by(col(Round.number))).all()
    return AuditPage(entries, page, chosen, list(actors), [int(r) for r in rounds])


__all__ = ["AuditFilter", "AuditPage", "audit_filter", "audit_page"]
