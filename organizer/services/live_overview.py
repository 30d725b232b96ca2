"""The organizer's overview of a round's live tables: each table's progress, and who is holding
it up for how long."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlmodel import Session

from engine import Progress

from ..models import Event, Round
from .live_tables import TableGame
from .rounds import TableSeating, tables_of


@dataclass(frozen=True)
class AwaitedSeat:
    position: int
    name: str
    seconds: float
    is_bot: bool


@dataclass(frozen=True)
class TableProgress:
    view: TableSeating
    started: bool
    mode: str
    progress: str
    cards_left: str
    awaited: list[AwaitedSeat]
    finished: bool
    version: int


def describe_progress(progress: Progress) -> tuple[str, str]:
    """How far a table has come, and the cards left, in words."""
    p = progress
    if p.mode == "draft":
        if p.finished:
            return f"finished after {p.rounds} rounds", "0 cards in hands"
        return (f"round {p.round} of {p.rounds}, pick {p.pick} of {p.picks_per_round}",
                f"{p.cards_in_hands} cards in hands, {p.draw_pile} undealt")
    if p.finished:
        return f"finished after {p.turn} turns", "draw pile empty"
    return f"turn {p.turn}, {p.actor_name} {p.phase_text}", f"{p.draw_pile} cards in the draw pile"


def overview(session: Session, event: Event, rnd: Round, now: float | None = None) -> list[TableProgress]:
    """Every table of the round as stored: progress, and who is holding it up for how long
    (read only: the overview is a GET; tables are dealt by POSTs, and what bots and the pick
    timer owe is played by the POST a seat's page sends)."""
    assert rnd.id is not None
    now = time.time() if now is None else now
    rows = []
    for view in tables_of(session, rnd.id):
        table = view.table
        if not table.digital or table.log_version == 0:
            rows.append(TableProgress(view, False, rnd.format, "on paper" if not table.digital else "not started",
                                      "", [], view.result is not None, table.log_version))
            continue
        replayed = TableGame(event, rnd, view).load(session)
        state = replayed.state
        names = list(state.names)
        progress = state.progress()
        awaited = [AwaitedSeat(s, names[s], max(0.0, now - replayed.since), view.seats[s].seat.is_bot)
                   for s in progress.awaiting]
        described, left = describe_progress(progress)
        rows.append(TableProgress(view, True, progress.mode, described, left, awaited, progress.finished,
                                  replayed.version))
    return rows
