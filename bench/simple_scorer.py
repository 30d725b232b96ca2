"""A straightforward scorer, the kind a club member writes in an afternoon: the yardstick
``bench_scoring.py`` holds ``arboretum score`` against (not used by the engine or the tests).

Reads score-case files of the standard game (cards as objects or "Oak 3" text), scores every
species with a depth-first search of the ascending walks from each of its cards, and prints one
JSON line per case (players' totals, species points and paths, winners). It checks nothing.

Run: python bench/simple_scorer.py CASE.json [CASE.json ...]"""

from __future__ import annotations

import json
import sys


def card_of(item):  # type: ignore[no-untyped-def]
    if isinstance(item, str):
        species, value = item.rsplit(" ", 1)
        return species, int(value)
    if "card" in item:
        return card_of(item["card"])
    return item["species"], item["value"]


def best_path(grid, species):  # type: ignore[no-untyped-def]
    best = None  # (points, length, cells)

    def walk(cell, cells, values):  # type: ignore[no-untyped-def]
        nonlocal best
        s, v = grid[cell]
        if len(cells) >= 2 and s == species:
            length = len(cells)
            points = length
            if length >= 4 and all(grid[c][0] == species for c in cells):
                points += length
            if grid[cells[0]][1] == 1:
                points += 1
            if v == 8:
                points += 2
            if best is None or (points, length) > best[:2]:
                best = (points, length, list(cells))
        x, y = cell
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in grid and grid[n][1] > v:
                cells.append(n)
                walk(n, cells, values)
                cells.pop()

    for cell, (s, _) in grid.items():
        if s == species:
            walk(cell, [cell], None)
    return best


def score(case):  # type: ignore[no-untyped-def]
    players = case["players"]
    grids = [{(c["x"], c["y"]): card_of(c) for c in p.get("arboretum") or []} for p in players]
    hands = [[card_of(c) for c in p.get("hand") or []] for p in players]
    species = case.get("species") or sorted({s for g in grids for s, _ in g.values()})
    out = []
    for p in players:
        out.append({"name": p["name"], "total": 0, "species": {}, "bonus": 0})
    for name in species:
        held = [[v for s, v in hand if s == name] for hand in hands]
        claims = []
        for i, values in enumerate(held):
            total = sum(values)
            if 8 in values and any(1 in other for j, other in enumerate(held) if j != i):
                total -= 8
            claims.append(total)
        for i, grid in enumerate(grids):
            right = claims[i] == max(claims)
            found = best_path(grid, name) if right else None
            points = found[0] if found else 0
            cells = [{"x": x, "y": y} for x, y in found[2]] if found else []
            out[i]["species"][name] = {"right": right, "points": points, "path": cells}
            out[i]["total"] += points
    top = max((p["total"], len({s for s, _ in g.values()})) for p, g in zip(out, grids, strict=True))
    winners = [p["name"] for p, g in zip(out, grids, strict=True) if (p["total"], len({s for s, _ in g.values()})) == top]
    return {"players": out, "winners": winners}


def main() -> None:
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as handle:
            print(json.dumps(score(json.load(handle)), ensure_ascii=False))


if __name__ == "__main__":
    main()
