"""Generated score cases: finished four-player tables of the standard game, as score-case JSON.

Used by the output-stability test (``test_scoring_output.py``) and by ``bench/bench_scoring.py``.
The same seed always gives the same cases (only ``random.Random`` with a fixed seed is used)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

SPECIES_2018 = (
    "Blue Spruce", "Cassia", "Cherry Blossom", "Dogwood", "Jacaranda",
    "Maple", "Oak", "Royal Poinciana", "Tulip Poplar", "Willow",
)
SPECIES_2010 = (
    "Cassia", "Crabapple", "Dogwood", "Jacaranda", "Lilac",
    "Magnolia", "Myrtle", "Poinciana", "Poplar", "Willow",
)
NEIGHBOUR_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _grow(rng: random.Random, size: int) -> list[tuple[int, int]]:
    """``size`` cells, each next to an earlier one (how an arboretum grows in play)."""
    cells = [(0, 0)]
    taken = {(0, 0)}
    frontier = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    while len(cells) < size:
        cell = frontier.pop(rng.randrange(len(frontier)))
        if cell in taken:
            continue
        cells.append(cell)
        taken.add(cell)
        x, y = cell
        frontier.extend((x + dx, y + dy) for dx, dy in NEIGHBOUR_STEPS if (x + dx, y + dy) not in taken)
    return cells


def arboretum_sizes(rng: random.Random, players: int = 4, planted: int = 52) -> list[int]:
    """Arboretum sizes of about 13 cards each, between 6 and 20, adding up to at most ``planted``."""
    while True:
        sizes = [min(20, max(6, round(rng.gauss(13, 3)))) for _ in range(players)]
        if sum(sizes) <= planted:
            return sizes


def random_case(rng: random.Random) -> dict[str, Any]:
    """One finished four-player table: full 7-card hands, arboretums of about 13 cards (up to 20)."""
    deck = [(s, v) for s in SPECIES_2018 for v in range(1, 9)]
    rng.shuffle(deck)
    players = []
    for i, size in enumerate(arboretum_sizes(rng)):
        hand, deck = deck[:7], deck[7:]
        planted, deck = deck[:size], deck[size:]
        arboretum = [
            {"x": x, "y": y, "species": s, "value": v} for (x, y), (s, v) in zip(_grow(rng, size), planted, strict=True)
        ]
        players.append({"name": f"Player {i + 1}", "arboretum": arboretum,
                        "hand": [f"{s} {v}" for s, v in hand]})
    return {"rules": "standard-2018", "species": list(SPECIES_2018), "players": players}


def varied_case(rng: random.Random) -> dict[str, Any]:
    """A finished table of any rule set and player count, cards written either way."""
    rules = rng.choice(["standard-2018", "standard-2010", "draft", "solo"])
    players = 2 if rules == "solo" else rng.randint(2, 4)
    count = {"standard-2018": {2: 6, 3: 8, 4: 10}, "standard-2010": {2: 6, 3: 8, 4: 10},
             "draft": {2: 7, 3: 10, 4: 9}, "solo": {2: 6}}[rules][players]
    species = rng.sample(SPECIES_2010 if rules == "standard-2010" else SPECIES_2018, count)
    deck = [(s, v) for s in species for v in range(1, 9)]
    rng.shuffle(deck)
    picks = 7 * (2 if players == 4 else 3)
    entries = []
    for i in range(players):
        hand_size = 0 if rules == "draft" else 7 if rules != "solo" or i == 0 else rng.randint(0, 9)
        hand, deck = deck[:hand_size], deck[hand_size:]
        size = rng.randint(0, min(len(deck), picks if rules == "draft" else 20))
        planted, deck = deck[:size], deck[size:]
        cells = _grow(rng, size) if size else []
        arboretum = [{"x": x, "y": y, "card": f"{s} {v}"} if rng.random() < 0.3 else
                     {"x": x, "y": y, "species": s, "value": v} for (x, y), (s, v) in zip(cells, planted, strict=True)]
        entries.append({"name": f"P{i}", "arboretum": arboretum,
                        "hand": [{"species": s, "value": v} if rng.random() < 0.3 else f"{s} {v}" for s, v in hand]})
    case: dict[str, Any] = {"rules": rules, "players": entries}
    if rng.random() < 0.7:
        case["species"] = species
    return case


def write_cases(folder: Path, count: int, seed: int = 2026, varied: bool = False) -> list[Path]:
    """Write ``count`` case files into ``folder`` (four-player standard tables, or ``varied``
    ones); returns their paths in order."""
    rng = random.Random(seed)
    make = varied_case if varied else random_case
    paths = []
    for k in range(count):
        path = folder / f"case-{k:05d}.json"
        path.write_text(json.dumps(make(rng)), encoding="utf-8")
        paths.append(path)
    return paths
