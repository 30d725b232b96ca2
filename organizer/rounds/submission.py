"""A table's figures as submitted, typed: what every way of entering a result (the forms, the
scoring assistant, an import, a player's own report) hands to :mod:`organizer.rounds.results`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class SeatEntry:
    player_id: int
    points: int
    species_count: int
    scorepad: dict[str, int] | None = None
    bonus: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"player_id": self.player_id, "points": self.points, "species_count": self.species_count}
        if self.scorepad is not None:
            data["scorepad"] = dict(self.scorepad)
            data["bonus"] = self.bonus
        return data


@dataclass
class Submission:
    mode: str
    seats: list[SeatEntry]
    score_case: dict[str, Any] | None = None
    score_output: dict[str, Any] | None = None
    typed: dict[str, str] = field(default_factory=dict)
