"""Replays of finished digital games, move by move, every hand shown.

A replay shows every hand and hidden draft pick at every step, so it is offered only once the
whole game is over: each lookup below returns None for a game that is not (the page is then a
404, as for a game that does not exist). Pure of Flask: the view builds the URLs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from engine import Game

from ..models import Event, GameTable, Round
from . import live_log, live_seats, live_tables
from . import practice as practice_service
from .live_view import CardFace, Screen, build_screen, face


@dataclass(frozen=True)
class ReplayPage:
    """One step of a replay: the table after ``step`` of ``total`` moves."""

    title: str
    screen: Screen
    #: every seat's hand at this step: (name, cards, its hidden draft pick as text or "")
    hands: list[tuple[str, list[CardFace], str]]
    step: int
    total: int
    #: every move of the game: (number from 1, "Name: action text" with "(bot)"/"(pick timer)")
    moves: list[tuple[int, str]]


def replay_step(game: Game, log: Sequence[Sequence[Any]], step: int | None, path_species: str,
                title: str) -> ReplayPage:
    """The finished game ``game`` with its whole ``log``, shown after ``step`` moves (None: the
    end; out of range: clamped)."""
    total = len(log)
    step = total if step is None else max(0, min(step, total))
    state = live_log.replay(game, log[:step], step, 0.0).state
    names = list(state.names)
    # the whole game is over (the callers checked): a replay may show every hand, Q's too
    hands = [(hand.name, [face(card) for card in hand.cards], "" if hand.pending is None else str(hand.pending))
             for hand in state.face_up_hands()]
    moves = []
    for index, entry in enumerate(log, start=1):
        nonce = str(entry[2])
        note = " (bot)" if nonce.startswith("bot:") else " (pick timer)" if nonce.startswith("timer:") else ""
        moves.append((index, f"{names[entry[0]]}: {entry[1]}{note}"))
    return ReplayPage(title, build_screen(state.view(None), path_species), hands, step, total, moves)


def _finished_log(replayed: live_log.Replayed) -> list[list[Any]] | None:
    if not replayed.state.is_terminal():
        return None
    return [list(entry) for entry in replayed.entries]


def _table_replay(session: Session, table: GameTable, step: int | None, path_species: str,
                  title: str) -> ReplayPage | None:
    if table.game is None or table.log_version == 0:
        return None
    log = _finished_log(live_tables.load_state(session, table))
    if log is None:
        return None
    return replay_step(live_tables.game_of(table), log, step, path_species, title)


def for_seat(session: Session, token: str, step: int | None, path_species: str) -> ReplayPage | None:
    """The replay behind a seat's token, once its table's game is over."""
    ctx = live_seats.seat_context(session, token)
    if ctx is None:
        return None
    title = f"{ctx.event.name} · round {ctx.round.number} · table {ctx.table.number}"
    return _table_replay(session, ctx.table, step, path_species, title)


def for_table(session: Session, event: Event, rnd: Round, number: int, step: int | None,
              path_species: str) -> ReplayPage | None:
    """The replay of table ``number`` of ``rnd``, once its game is over (the organizer's page)."""
    view = live_tables.find_table(session, rnd, number)
    if view is None:
        return None
    return _table_replay(session, view.table, step, path_species, f"{event.name} · round {rnd.number} · table {number}")


def for_practice(session: Session, token: str, step: int | None, path_species: str) -> ReplayPage | None:
    """The replay of a practice game, once it is over."""
    row = practice_service.find(session, token)
    if row is None:
        return None
    replayed = practice_service.load_state(session, row)
    log = _finished_log(replayed)
    if log is None:
        return None
    title = practice_service.MODE_LABELS[replayed.state.mode]
    return replay_step(practice_service.game_of(row), log, step, path_species, title)
