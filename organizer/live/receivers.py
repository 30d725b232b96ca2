"""The live tables' receivers of :mod:`organizer.core.signals`, connected when
:mod:`organizer.live` is imported: a published round deals its digital tables, a table's page
learns how its game stands."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from organizer.core import signals
from organizer.core.models import Event, Round
from organizer.live import tables as live_tables
from organizer.live.overview import describe_progress
from organizer.rounds.service import TableSeating


@signals.round_published.connect
def deal_published_round(session: Session, *, event: Event, round: Round, **_: Any) -> None:
    live_tables.start_round(session, event, round)


@signals.table_game_asked.connect
def table_game(session: Session, *, event: Event, round: Round, view: TableSeating, **_: Any) -> dict[str, Any]:
    """A started digital table's game as stored, for its page: progress, cards left, who is
    awaited, the number of moves and the log's version (read only: a GET plays nothing)."""
    replayed = live_tables.TableGame(event, round, view).load(session)
    progress = replayed.state.progress()
    described, left = describe_progress(progress)
    names = list(replayed.state.names)
    return {"started": True, "progress": described, "left": left, "awaited": [names[s] for s in progress.awaiting],
            "moves": len(view.table.action_log or []), "finished": progress.finished, "version": replayed.version}
