"""The Arboretum rules engine: cards, arboretums, paths, scoring, whole games and bots.

Pure Python with no web or database dependency; every game is its parameters, its seed and its
list of actions."""

from .arboretum import Arboretum, Cell
from .cards import Card, Edition, choose_species, edition_species, make_deck, species_colour, species_count
from .errors import (
    ActionParseError,
    ArboretumError,
    ArboretumShapeError,
    CardError,
    CaseError,
    DuplicateCardError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    PlacementError,
)
from .paths import Path, PathFinder, best_path

__all__ = [
    "ActionParseError", "Arboretum", "ArboretumError", "ArboretumShapeError", "Card", "CardError",
    "CaseError", "Cell", "DuplicateCardError", "Edition", "GameOverError", "IllegalActionError",
    "NotYourTurnError", "Path", "PathFinder", "PlacementError", "best_path", "choose_species",
    "edition_species", "make_deck", "species_colour", "species_count",
]
