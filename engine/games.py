"""Public names of the game state machines (see :mod:`engine.game`)."""

from .actions import ACTION_TYPES, DECK, SHARED_DISCARD, Action, Discard, Draw, Give, Pick, Play, parse_action
from .draft import DraftState
from .errors import GameSetupError, StaleActionError
from .game import MODES, SIMULTANEOUS, TERMINAL, Game, State, replay
from .solo import SoloState
from .standard import StandardState

__all__ = [
    "ACTION_TYPES", "Action", "DECK", "Discard", "DraftState", "Draw", "Game", "GameSetupError", "Give", "MODES",
    "Pick", "Play", "SHARED_DISCARD", "SIMULTANEOUS", "SoloState", "StaleActionError", "StandardState", "State", "TERMINAL",
    "parse_action", "replay",
]
