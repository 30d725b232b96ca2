"""The Arboretum rules engine: cards, arboretums, paths, scoring, whole games and bots.

Pure Python with no web or database dependency; every game is its parameters, its seed and its
list of actions."""

from .arboretum import Arboretum, Cell
from .cards import Card, Edition, choose_species, edition_species, make_deck, species_colour, species_count
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

__all__ = [
    "SIMULTANEOUS", "TERMINAL", "Action", "ActionParseError", "Arboretum", "ArboretumError",
    "ArboretumShapeError", "Card", "CardError", "CaseError", "Cell", "Discard", "DraftState", "Draw",
    "DuplicateCardError", "Edition", "FaceUpHand", "Game", "GameOverError", "GameSetupError", "Give",
    "IllegalActionError", "NotYourTurnError", "Path", "PathFinder", "Phase", "Pick", "PlacementError", "Play",
    "PlayerScore", "Progress", "PublicMove", "ScoreCase", "Seat", "SeatView", "SoloState", "SpeciesScore", "StaleActionError",
    "StandardState", "State", "TableScore", "best_path", "choose_species", "edition_species",
    "make_deck", "parse_action", "parse_case", "parse_case_text", "replay", "score_table",
    "species_colour", "species_count",
]
