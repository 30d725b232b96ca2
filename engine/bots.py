"""Bots for every game mode, behind one small interface.

A bot is anything with a ``name`` and ``choose(state, seat, rng) -> Action`` returning one of
``state.legal_actions(seat)``. Bots are stateless between calls: everything they use is read from
the state at the moment of choosing, and only what ``seat`` may see (the seat's own hand or hand
in front of it, every arboretum, the face-up discard piles, the size of the draw pile and of the
other hands, the species in play and the public log of a turn-based game; never another seat's
hand, the draw pile's order, Q's hand or another seat's undisclosed draft pick). All randomness
comes from ``rng``, so a seeded game is the same game every time.

- :class:`RandomBot` picks uniformly among the legal actions.
- :class:`HeuristicBot` plays to win: see :mod:`engine.bots_turns` (standard and solo) and
  :mod:`engine.bots_draft` (draft)."""

from __future__ import annotations

import random
from typing import Protocol, TypeVar, runtime_checkable

from .actions import Action
from .draft import DraftState
from .errors import ArboretumError, GameOverError, NotYourTurnError
from .game import SIMULTANEOUS, State
from .standard import StandardState

S = TypeVar("S", bound=State)


@runtime_checkable
class Bot(Protocol):
    name: str

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """One of ``state.legal_actions(seat)``."""
        ...


class UnknownBotError(ArboretumError):
    """A bot name that is not one of :data:`BOTS`."""


class RandomBot:
    """Uniform over ``state.legal_actions(seat)``."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        # The state's random_action is documented as exactly rng.choice(legal_actions(seat))
        # without building the list: the same choice, several times faster. It raises
        # GameOverError on a finished game.
        player = state.current_player()
        if player == SIMULTANEOUS:
            return state.random_action(rng, seat)
        if player >= 0 and player != seat:
            raise NotYourTurnError(f"seat {seat}: it is seat {player}'s turn")
        return state.random_action(rng)


class HeuristicBot:
    """Plays to win: keeps the high cards of the species it means to score (and its 1s against
    other seats' 8s), denies the others' rights, builds long rising and same-species paths, ends
    paths on 8s (never in the draft, where an 8 at the end costs 2), plants every draft pick, and
    in the solo game feeds Q cards that build Q no path."""

    name = "heuristic"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        if state.is_terminal():
            raise GameOverError("the game is over: there is no action to choose")
        if isinstance(state, DraftState):
            from .bots_draft import choose_pick

            return choose_pick(state, seat, rng)
        if not isinstance(state, StandardState):
            raise ArboretumError(f"the heuristic bot does not know the {state.mode} game")
        from .bots_turns import choose_turn_action

        return choose_turn_action(state, seat, rng)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str) -> Bot:
    """A new bot by name; raises :class:`UnknownBotError` naming the choices."""
    if not isinstance(name, str) or name.strip().lower() not in BOTS:
        raise UnknownBotError(f"unknown bot {name!r}: expected one of {', '.join(BOTS)}")
    bot: Bot = BOTS[name.strip().lower()]()
    return bot


def play_game(state: S, bots: list[Bot], rng: random.Random) -> S:
    """Play ``state`` to the end with one bot per seat (Q, the solo game's seat 1, never acts)
    and return it. In the draft every seat picks in seat order; the picks stay hidden from the
    other bots because the bots read only what their seat may see."""
    while not state.is_terminal():
        player = state.current_player()
        if player == SIMULTANEOUS:
            for seat in state.awaited_seats():
                state.apply_action(bots[seat].choose(state, seat, rng), seat)
        else:
            state.apply_action(bots[player].choose(state, player, rng), player)
    return state
