"""Public names of the game state machines (see :mod:`engine.game`)."""

from .actions import ACTION_TYPES, DECK, SHARED_DISCARD, Action, Discard, Draw, Give, Pick, Play, parse_action
from .draft import DraftState
from .errors import GameSetupError, StaleActionError
from .game import GAME_MODES, MODES, SIMULTANEOUS, TERMINAL, Game, State, replay
from .solo import SoloState
from .standard import StandardState
from .views import (
    DraftView,
    Drawn,
    FaceUpHand,
    Phase,
    Pile,
    Planted,
    Progress,
    PublicMove,
    Reveal,
    SeatInfo,
    SeatView,
    TurnView,
)

__all__ = [
    "ACTION_TYPES", "Action", "DECK", "Discard", "DraftState", "DraftView", "Draw", "Drawn", "FaceUpHand", "GAME_MODES",
    "Game", "GameSetupError", "Give", "MODES", "Phase", "Pick", "Pile", "Planted", "Play", "Progress", "PublicMove",
    "Reveal", "SHARED_DISCARD", "SIMULTANEOUS", "SeatInfo", "SeatView", "SoloState", "StaleActionError", "StandardState",
    "State", "TERMINAL", "TurnView", "parse_action", "replay",
]
