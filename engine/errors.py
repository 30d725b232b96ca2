"""The engine's exceptions: every refusal is a ``ValueError`` subclass whose message
names what is wrong and where, and nothing is changed when one is raised."""

from __future__ import annotations


class ArboretumError(ValueError):
    """Base class of every rule or input violation the engine reports."""


class CardError(ArboretumError):
    """A card that cannot exist here: bad text, value outside 1..8, species not in play."""


class DuplicateCardError(ArboretumError):
    """The same card appears twice at one table."""


class PlacementError(ArboretumError):
    """A card placed on an occupied cell, or not orthogonally adjacent to the arboretum."""


class ArboretumShapeError(ArboretumError):
    """An arboretum given as a whole that is not one orthogonally connected group."""


class IllegalActionError(ArboretumError):
    """An action that breaks the rules of the game in its current state."""


class NotYourTurnError(IllegalActionError):
    """A seat acted while the game awaits another seat (or no seat at all)."""


class GameOverError(IllegalActionError):
    """An action on a game that has already ended."""


class CaseError(ArboretumError):
    """A score case (or saved game) that is malformed or breaks RULES.md §5."""


class ActionParseError(ArboretumError):
    """Action text that does not read as an action."""


class GameSetupError(CaseError):
    """Game parameters that cannot make a game (mode, player count, species, names, seed)."""


class StaleActionError(IllegalActionError):
    """An action chosen in a situation that has passed (a resent form, a double tap)."""
