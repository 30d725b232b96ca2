"""The organizer's overview of a round's live tables: each table's progress, and who is holding
it up for how long."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from ..models import Event, Round
from .live_tables import TableGame, start_round
from .rounds import TableView, tables_of


@dataclass(frozen=True)
class AwaitedSeat:
    position: int
    name: str
    seconds: float
    is_bot: bool


@dataclass(frozen=True)
class TableProgress:
    view: TableView
    started: bool
    mode: str
    progress: str
    cards_left: str
    awaited: list[AwaitedSeat]
    finished: bool
    version: int


def _progress(state: Any) -> tuple[str, str]:
    if state.mode == "draft":
        if state.is_terminal():
            return f"finished after {state.rounds} rounds", "0 cards in hands"
        left = sum(len(hand) for hand in state.hands)
        return (f"round {state.round + 1} of {state.rounds}, pick {state.pick + 1} of 7",
                f"{left} cards in hands, {len(state.deck)} undealt")
    if state.is_terminal():
        return f"finished after {state.turn} turns", "draw pile empty"
    return f"turn {state.turn}, {state.names[state.seat]} {state.phase.replace('1', ' (first card)').replace('2', ' (second card)')}", \
        f"{len(state.deck)} cards in the draw pile"


def overview(session: Session, event: Event, rnd: Round, now: float | None = None) -> list[TableProgress]:
    """Every table of the round: progress, and who is holding it up for how long (tables not
    started yet are started, and what bots and the pick timer owe is played, as a seat's visit
    would)."""
    assert rnd.id is not None
    start_round(session, event, rnd)
    now = time.time() if now is None else now
    rows = []
    for view in tables_of(session, rnd.id):
        table = view.table
        if not table.digital or table.log_version == 0:
            rows.append(TableProgress(view, False, rnd.format, "on paper" if not table.digital else "not started",
                                      "", [], view.result is not None, table.log_version))
            continue
        replayed = TableGame(event, rnd, view).settle(session)
        state = replayed.state
        names = list(state.names)
        awaited = [AwaitedSeat(s, names[s], max(0.0, now - replayed.since), view.seats[s].seat.is_bot)
                   for s in state.awaited_seats()]
        progress, left = _progress(state)
        rows.append(TableProgress(view, True, state.mode, progress, left, awaited, state.is_terminal(), replayed.version))
    return rows
