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
    from .games import (
        SIMULTANEOUS,
        TERMINAL,
        Action,
        Discard,
        DraftState,
        Draw,
        FaceUpHand,
        Game,
        Give,
        Phase,
        Pick,
        Play,
        Progress,
        PublicMove,
        SeatView,
        SoloState,
        StandardState,
        State,
        parse_action,
        replay,
    )
    from .paths import Path, PathFinder, best_path
    from .scoring import PlayerScore, Seat, SpeciesScore, TableScore, score_table

#: the module each public name lives in
_HOMES: dict[str, str] = {
    **dict.fromkeys(("Arboretum", "Cell",), "arboretum"),
    **dict.fromkeys(
        (
            "Card", "Edition", "choose_species", "edition_species", "make_deck", "species_code", "species_colour",
            "species_count",
        ),
        "cards",
    ),
    **dict.fromkeys(("ScoreCase", "parse_case", "parse_case_text",), "case"),
    **dict.fromkeys(
        (
            "ActionParseError", "ArboretumError", "ArboretumShapeError", "CardError", "CaseError",
            "DuplicateCardError", "GameOverError", "GameSetupError", "IllegalActionError", "NotYourTurnError",
            "PlacementError", "StaleActionError",
        ),
        "errors",
    ),
    **dict.fromkeys(
        (
            "SIMULTANEOUS", "TERMINAL", "Action", "Discard", "DraftState", "Draw", "FaceUpHand", "Game", "Give",
            "Phase", "Pick", "Play", "Progress", "PublicMove", "SeatView", "SoloState", "StandardState", "State",
            "parse_action", "replay",
        ),
        "games",
    ),
    **dict.fromkeys(("Path", "PathFinder", "best_path",), "paths"),
    **dict.fromkeys(("PlayerScore", "Seat", "SpeciesScore", "TableScore", "score_table",), "scoring"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


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
