"""One live game over its stored log, whoever's it is: an event table (:mod:`organizer.live.tables`) or a
practice game (:mod:`organizer.live.practice`).

A :class:`LiveGame` is the row (model and id), the engine's game and who plays each seat when
it is due (a person, or a bot kind). It loads the replayed state (from this process's cache
when its version is current), settles whatever bots and the pick timer owe the game, and
applies a seat's action through :mod:`organizer.live.log`'s compare-and-set. Reading (:meth:`LiveGame.load`,
:meth:`LiveGame.owes`) never writes; writing (:meth:`LiveGame.settle`, :meth:`LiveGame.act`)
happens on POSTs only, so no GET changes a game. What differs between an
event table and a practice game are three hooks: why a seat may not act now, whether bots and
the timer may change the game now, and what happens when the game is over."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import select
from sqlmodel import Session, SQLModel

from engine import Game
from organizer.live import log as live_log


def pick_time_up(timer_seconds: int | None, replayed: live_log.Replayed, now: float) -> bool:
    """The pick timer rule: in a draft that is not over, the seats still choosing have run out
    of time once ``timer_seconds`` have passed since the situation they choose in began."""
    if not timer_seconds:
        return False
    state = replayed.state
    return state.mode == "draft" and not state.is_terminal() and now - replayed.since >= timer_seconds


class LiveGame:
    """A game stored as parameters plus an action log in one row of ``model``."""

    def __init__(self, model: type[SQLModel], kind: str, row_id: int | None, game: Game, started_at: float,
                 players: live_log.SeatPlayers = (), pick_timer_seconds: int | None = None) -> None:
        assert row_id is not None
        self.model = model
        #: the replay cache's name for the model ("table", "practice")
        self.kind = kind
        self.row_id = row_id
        self.game = game
        self.started_at = started_at
        #: who plays each seat when it is due: None for a person, else a bot kind
        self.players = tuple(players)
        self.pick_timer_seconds = pick_timer_seconds

    # -- hooks ------------------------------------------------------------------------------

    def refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not act now (the message for its screen), or None."""
        return None

    def open_for_play(self) -> bool:
        """Whether bots and the pick timer may change the game now."""
        return True

    def on_finish(self, session: Session, replayed: live_log.Replayed) -> None:
        """Called whenever the game is found over (more than once: it must be idempotent)."""

    def written_with(self) -> dict[str, Any]:
        """Further columns stored with a seat's action."""
        return {}

    # -- the stored log ---------------------------------------------------------------------

    def _load(self, session: Session) -> Any:
        key = live_log.cache_key(session, self.kind, self.row_id)

        def load(stored: live_log.StoredLog) -> live_log.Replayed:
            return live_log.CACHE.get(key, self.game, stored.log, stored.version, self.started_at)

        return load

    def load(self, session: Session, version: int | None = None) -> live_log.Replayed:
        """The replayed state, from the cache when its version is current. ``version``: the row's
        log version as read in this request (else it is asked for, one cheap query)."""
        if version is None:
            version = int(session.execute(
                select(self.model.log_version).where(self.model.id == self.row_id)  # type: ignore[attr-defined]
            ).scalar_one())
        cached = live_log.CACHE.peek(live_log.cache_key(session, self.kind, self.row_id), version, self.game,
                                     self.started_at)
        if cached is not None:
            return cached
        stored = live_log.read_log(session, self.model, self.row_id)
        assert stored is not None
        replayed: live_log.Replayed = self._load(session)(stored)
        return replayed

    def timed_out(self, replayed: live_log.Replayed, now: float) -> list[int]:
        """The seats the pick timer plays for now."""
        return list(replayed.state.awaited_seats()) if pick_time_up(self.pick_timer_seconds, replayed, now) else []

    def owes(self, replayed: live_log.Replayed, now: float) -> bool:
        """Whether bots or the pick timer owe the game a move now (read only: a page shown by a
        GET says so, and its script sends the POST that plays it, :meth:`settle`)."""
        state = replayed.state
        if state.is_terminal() or not self.open_for_play():
            return False
        bot_due = any(s < len(self.players) and self.players[s] for s in state.awaited_seats())
        return bot_due or bool(self.timed_out(replayed, now))

    def settle(self, session: Session, version: int | None = None) -> live_log.Replayed:
        """The state after whatever bots and the pick timer owe the game now, with
        :meth:`on_finish` called if it is over. It writes, so only POSTs call it: the deal, a bot
        seated, the seat page's tick (a person's action plays the bots due with it)."""
        replayed = self.load(session, version)
        due = any(self.players) or bool(self.timed_out(replayed, time.time()))
        if due and self.open_for_play() and not replayed.state.is_terminal():
            settled = live_log.settle_bots(session, self.model, self.row_id, self._load(session), self.players,
                                           self.game.seed, self.timed_out)
            if settled is not None:
                replayed = settled
        if replayed.state.is_terminal():
            self.on_finish(session, replayed)
        return replayed

    def act(self, session: Session, seat: int, action_text: str, nonce: str, stamp: int | None) -> live_log.Applied:
        """``seat`` acts (and the bots then due with it). Raises live_log.ActionRefused with the
        message for the screen; nothing is stored then."""
        refused = self.refusal(seat)
        if refused is not None:
            raise live_log.ActionRefused(refused)
        applied = live_log.submit(session, self.model, self.row_id, self._load(session), seat, action_text, nonce,
                                  stamp, self.players, self.game.seed, values=self.written_with)
        if applied.replayed.state.is_terminal():
            self.on_finish(session, applied.replayed)
        return applied
