"""Bots for every game mode, behind one small interface.

A bot is anything with a ``name`` and ``choose(state, seat, rng) -> Action`` returning one of
``state.legal_actions(seat)``. Bots are stateless between calls: everything they use is read from
the state at the moment of choosing, and only what ``seat`` may see (the seat's own hand or hand
in front of it, every arboretum, the face-up discard piles, the size of the draw pile and of the
other hands, the species in play and the public log of a turn-based game; never another seat's
hand, the draw pile's order, Q's hand or another seat's undisclosed draft pick). All randomness
comes from ``rng``, so a seeded game is the same game every time.

- :class:`RandomBot` picks uniformly among the legal actions.
- :class:`HeuristicBot` plays to win: see :mod:`engine.bots.turns` (standard and solo) and
  :mod:`engine.bots.draft` (draft). It is the **normal** level.
- :class:`EasyBot` (**easy**): the heuristic's choice, but now and then one of its next best,
  as a person overlooks the best move.
- :class:`StrongBot` (**strong**): a search over the engine's own games, see
  :mod:`engine.bots.search`.

The levels, weakest first, are :data:`LEVELS`; ``"heuristic"`` stays the normal bot's name in
stored games and commands."""

from __future__ import annotations

import random
from typing import Protocol, TypeVar, runtime_checkable

from ..actions import Action
from ..draft import DraftState
from ..errors import ArboretumError, GameOverError, NotYourTurnError
from ..game import SIMULTANEOUS, State
from ..standard import StandardState

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
            from .draft import choose_pick

            return choose_pick(state, seat, rng)
        if not isinstance(state, StandardState):
            raise ArboretumError(f"the heuristic bot does not know the {state.mode} game")
        from .turns import choose_turn_action

        return choose_turn_action(state, seat, rng)


def _ranked(state: State, seat: int) -> tuple[list[Action], list[float]]:
    if state.is_terminal():
        raise GameOverError("the game is over: there is no action to choose")
    player = state.current_player()
    if player >= 0 and player != seat:
        raise NotYourTurnError(f"seat {seat}: it is seat {player}'s turn")
    from .search import ranked_candidates

    return ranked_candidates(state, seat)


class EasyBot:
    """Makes a person's mistakes: a third of the time it plays not the heuristic's best action but
    one of the next two (never one the heuristic rates far below the best)."""

    name = "easy"
    #: how often it slips, and how far down the heuristic's list it may go
    slip = 0.35
    depth = 3

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        actions, scores = _ranked(state, seat)
        if len(actions) == 1 or rng.random() >= self.slip:
            return actions[0]
        # plausible: within the next few, and not a pick the heuristic would never make
        options = [i for i in range(1, min(self.depth, len(actions))) if scores[i] > -1e8]
        return actions[rng.choice(options)] if options else actions[0]


#: the strong bot's budget: playouts a decision (each a game played to its end by normal bots) in
#: a two-player game, on one core about a quarter of a second in its last turns; the games with
#: longer playouts play fewer where playouts are long, and standard 3 and 4 players more near the
#: end where they are short (engine.bots.search.playouts_for), so a decision stays under a second
#: in every game (bench/bench_bots.py --levels)
DEFAULT_PLAYOUTS = 60


class StrongBot:
    """Determinized flat Monte Carlo (see :mod:`engine.bots.search`). ``iterations``: the budget,
    playouts per decision of a two-player game (fewer in longer games, see
    :func:`engine.bots.search.playouts_for`; deterministic from the seed); ``seconds``: a cap on the time per decision (anytime:
    stopped early it plays the best found so far; the decision then depends on the machine's
    speed); ``horizon``: search in the last that many cards (None: about three turns a seat);
    ``rollout``: how the playouts are played ("heuristic": the normal bot, the other seats now and
    then one of its next best, drawn from ``opponents`` for each deal,
    :data:`engine.bots.search.OPPONENTS`, ``()``: every seat exactly the normal bot; "random");
    ``read_draft``: deal a draft's hidden hands by what the others seem to collect."""

    name = "strong"

    def __init__(self, iterations: int = DEFAULT_PLAYOUTS, seconds: float | None = 0.8, width: int = 6,
                 horizon: int | None = None, rollout: str = "heuristic", margin: float | None = None,
                 opponents: tuple[tuple[float, float], ...] | None = None, read_draft: bool = True) -> None:
        from .search import MARGIN_WEIGHT, OPPONENTS

        self.iterations = iterations
        self.seconds = seconds
        self.width = width
        self.horizon = horizon
        self.rollout = rollout
        self.margin = MARGIN_WEIGHT if margin is None else margin
        self.opponents = OPPONENTS if opponents is None else opponents
        self.read_draft = read_draft
        #: why the last decision was made (for a replay's "why?"); not read by the next decision
        self.last_reason: object | None = None

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        _ranked(state, seat)  # refuses a finished game or a seat whose turn it is not
        from .search import search

        action, reason = search(state, seat, rng, self.iterations, self.seconds, self.width, self.horizon,
                                self.rollout, self.margin, self.opponents, self.read_draft)
        self.last_reason = reason
        return action


#: the levels offered wherever a bot is chosen, weakest first
LEVELS = ("easy", "normal", "strong")
LEVEL_LABELS = {
    "easy": "Easy (misses the best move now and then)",
    "normal": "Normal (plays to win)",
    "strong": "Strong (searches about a second a move)",
}
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot, "easy": EasyBot, "normal": HeuristicBot, "heuristic": HeuristicBot, "strong": StrongBot,
}


def make_bot(name: str) -> Bot:
    """A new bot by name; raises :class:`UnknownBotError` naming the choices. ``strong:N`` is the
    strong bot with a fixed budget of N playouts a decision and no time cap (benchmarks)."""
    if isinstance(name, str) and name.strip().lower().startswith("strong:"):
        count = name.strip()[len("strong:"):]
        if not count.isdigit():
            raise UnknownBotError(f"unknown bot {name!r}: strong:N takes a whole number of playouts")
        return StrongBot(iterations=int(count), seconds=None)
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
