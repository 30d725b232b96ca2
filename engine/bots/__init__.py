"""Bots for every game mode, behind one small interface (see :mod:`engine.bots.basic`).

- :mod:`engine.bots.basic`: the interface, the random, easy, normal (heuristic) and strong bots,
  :func:`make_bot` and :func:`play_game`;
- :mod:`engine.bots.turns` (standard and solo play) and :mod:`engine.bots.draft` (draft picks):
  the normal bot's choices;
- :mod:`engine.bots.knowledge`: what a seat knows; :mod:`engine.bots.paths`: fast path gains;
- :mod:`engine.bots.search`: the strong bot's search."""

from .basic import (
    BOTS,
    DEFAULT_PLAYOUTS,
    LEVEL_LABELS,
    LEVELS,
    Bot,
    EasyBot,
    HeuristicBot,
    RandomBot,
    StrongBot,
    UnknownBotError,
    make_bot,
    play_game,
)

__all__ = [
    "BOTS", "DEFAULT_PLAYOUTS", "LEVELS", "LEVEL_LABELS", "Bot", "EasyBot", "HeuristicBot", "RandomBot", "StrongBot",
    "UnknownBotError", "make_bot", "play_game",
]
