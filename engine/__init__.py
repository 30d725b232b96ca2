"""The Arboretum rules engine: cards, arboretums, paths, scoring, whole games and bots.

Pure Python with no web or database dependency; every game is its parameters, its seed and its
list of actions.

The names below are loaded when first used (PEP 562): ``from engine import Game`` imports the
games, while a command that only scores (``python -m engine score``, ``arboretum score``) imports
only what scoring needs and starts in a fraction of the time."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action, Discard, Draw, Give, Pick, Play, parse_action
    from .arboretum import Arboretum, Cell
    from .cards import (
        Card,
        Edition,
        choose_species,
        edition_species,
        make_deck,
        species_code,
        species_colour,
        species_count,
    )
    from .case import ScoreCase, parse_case, parse_case_text
    from .draft import DraftState
    from .errors import (
        ActionParseError,
        ArboretumError,
        ArboretumShapeError,
        CardError,
        CaseError,
        DuplicateCardError,
        GameOverError,
        GameSetupError,
        IllegalActionError,
        NotYourTurnError,
        PlacementError,
        StaleActionError,
    )
    from .game import SIMULTANEOUS, TERMINAL, State
    from .games import Game, replay
    from .paths import Path, PathFinder, best_path
    from .scoring import PlayerScore, Seat, SpeciesScore, TableScore, score_table
    from .solo import SoloState
    from .standard import StandardState
    from .views import FaceUpHand, Phase, Progress, PublicMove, SeatView

#: where __getattr__ looks for a public name, each module after the modules it imports: a name is
#: found in the first module that has it, having loaded only what its own module needs (the
#: games last: they import every mode)
_MODULES = (
    "errors", "cards", "arboretum", "paths", "scoring", "case", "actions", "views", "game", "standard", "draft", "solo",
    "games",
)


def __getattr__(name: str) -> Any:
    if name in __all__:
        for home in _MODULES:
            module = importlib.import_module(f".{home}", __name__)
            if hasattr(module, name):
                value = getattr(module, name)
                globals()[name] = value  # looked up once
                return value
    raise AttributeError(f"module 'engine' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


#: the public API, the one list of it (the imports above give type checkers the same names)
__all__ = [
    "SIMULTANEOUS", "TERMINAL", "Action", "ActionParseError", "Arboretum", "ArboretumError",
    "ArboretumShapeError", "Card", "CardError", "CaseError", "Cell", "Discard", "DraftState", "Draw",
    "DuplicateCardError", "Edition", "FaceUpHand", "Game", "GameOverError", "GameSetupError", "Give",
    "IllegalActionError", "NotYourTurnError", "Path", "PathFinder", "Phase", "Pick", "PlacementError", "Play",
    "PlayerScore", "Progress", "PublicMove", "ScoreCase", "Seat", "SeatView", "SoloState", "SpeciesScore", "StaleActionError",
    "StandardState", "State", "TableScore", "best_path", "choose_species", "edition_species",
    "make_deck", "parse_action", "parse_case", "parse_case_text", "replay", "score_table",
    "species_code", "species_colour", "species_count",
]
