"""The bot levels against a panel of opponents the strong bot's search does not model.

Run: .venv/bin/python bench/bench_panel.py --game "draft 3p" --levels normal,strong
         --opponents flatmc --games 60 --save bench/rows/panel.jsonl [--resume]
     .venv/bin/python bench/bench_panel.py --report bench/rows/panel.jsonl

Game ``i`` of a game's rows is dealt from ``engine.simulate.game_seed(SEED, i)``; the tested level
sits in seat ``i mod players`` and the opponent in every other seat; the bots draw from
``bot_seed(SEED, i)``. So every level meets the same deals from the same seats, and a level's
row can be compared with another's game by game (the report counts the games only one of the
two won). The panel: ``random``, ``easy``, ``normal`` (the engine's levels) and ``flatmc``, the
independent flat Monte-Carlo bot of ``bench/flat_mc.py``. The strong bot plays at its default
budget without the live tables' time cap (the figures do not depend on the machine's load).

Each finished game is appended to the ``--save`` file as one JSON line (resumable with
``--resume``; a line names the engine's code hash, and files of different engine code are not
merged). One process: the machine is shared."""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from flat_mc import FlatMonteCarloBot  # noqa: E402

from engine.bots import Bot, StrongBot, make_bot, play_game  # noqa: E402
from engine.games import Game  # noqa: E402
from engine.simulate import bot_seed, game_seed  # noqa: E402

SEED = 2035
GAMES = {"standard 2p": ("standard", 2), "standard 4p": ("standard", 4), "draft 3p": ("draft", 3),
         "draft 4p": ("draft", 4)}


def wilson(wins: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def bot(name: str) -> Bot:
    if name == "flatmc":
        return FlatMonteCarloBot()
    if name == "strong":
        return StrongBot(seconds=None)
    if name == "strong-plain":  # every playout seat exactly the normal bot, hands dealt uniformly
        return StrongBot(seconds=None, opponents=(), read_draft=False)
    if name == "strong-mix":  # the mixed opponents without the draft's reading
        return StrongBot(seconds=None, read_draft=False)
    return make_bot(name)


#: the strong bot's own modules: games without a strong bot do not depend on them, so their rows
#: stay comparable across changes to the search
STRONG_ONLY = {"engine/bots/search.py", "engine/bots/basic.py", "engine/bots/reading.py"}


def engine_hash(level: str, opponent: str) -> str:
    """What a row's games depend on: the engine's code (without the strong bot's modules when
    no seat is strong) and the flat Monte-Carlo bot's."""
    import hashlib

    import engine

    package = Path(engine.__file__).resolve().parent
    strong = level.startswith("strong") or opponent.startswith("strong")
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package.parent).as_posix()
        if strong or name not in STRONG_ONLY:
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update((ROOT / "bench" / "flat_mc.py").read_bytes())
    return digest.hexdigest()[:16]


def play(game: str, level: str, opponent: str, index: int) -> dict[str, Any]:
    mode, players = GAMES[game]
    state = Game(mode, players, seed=game_seed(SEED, index)).new_initial_state()
    seat = index % players
    lineup = [bot(level) if s == seat else bot(opponent) for s in range(players)]
    started = time.process_time()
    play_game(state, lineup, random.Random(bot_seed(SEED, index)))
    outcome = state.outcome()
    assert outcome is not None
    return {"game": game, "level": level, "opponent": opponent, "index": index, "seat": seat,
            "winners": list(outcome.winners), "scores": [p.total for p in outcome.players],
            "cpu": round(time.process_time() - started, 2)}


def read(paths: list[Path]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line cut short by a killed run
    return records


#: the levels compared game by game: the normal bot and the strong bot, the strong bot whose
#: playouts assume every other seat is the normal bot and the one drawing them from a mix
PAIRS = (("normal", "strong"), ("strong-plain", "strong"), ("normal", "strong-plain"))


def report(records: list[dict[str, Any]]) -> list[str]:
    """The panel's table: each level's wins against each opponent, and for the levels compared
    on the same games the games only one of them won."""
    engines: dict[tuple[str, str], set[str]] = defaultdict(set)
    for r in records:
        engines[(r["level"], r["opponent"])].add(r["engine"])
    for key, codes in engines.items():
        if len(codes) > 1:
            raise SystemExit(f"{key}: games of different engine code cannot be merged: {sorted(codes)}")
    rows: dict[tuple[str, str, str], dict[int, dict[str, Any]]] = defaultdict(dict)
    for r in records:
        rows[(r["game"], r["opponent"], r["level"])][r["index"]] = r
    out = ["| game | against | level | games | wins | 95 % interval | seat share | mean score (level / others) "
           "| CPU a game |", "|---|---|---|---:|---:|---:|---:|---|---:|"]
    for game, opponent, level in sorted(rows, key=lambda k: (list(GAMES).index(k[0]), k[1], k[2])):
        games = rows[(game, opponent, level)]
        n = len(games)
        wins = sum(r["seat"] in r["winners"] for r in games.values())
        lo, hi = wilson(wins, n)
        mine = sum(r["scores"][r["seat"]] for r in games.values()) / n
        others = [s for r in games.values() for i, s in enumerate(r["scores"]) if i != r["seat"]]
        cpu = sum(r["cpu"] for r in games.values()) / n
        out.append(f"| {game} | {opponent} | {level} | {n} | {wins / n:.1%} | {lo:.1%}–{hi:.1%} | "
                   f"{1 / GAMES[game][1]:.0%} | {mine:.1f} / {sum(others) / len(others):.1f} | {cpu:.1f} s |")
    out.append("")
    out.append("Same deals and seats, two levels compared on the games both played:")
    out.append("")
    out.append("| game | against | levels (A / B) | games | A wins | B wins | won only by A | only by B "
               "| B's score minus A's, a game (± 1 standard error) |")
    out.append("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for first, second in PAIRS:
        for (game, opponent, level), games in sorted(rows.items()):
            if level != second or (game, opponent, first) not in rows:
                continue
            other = rows[(game, opponent, first)]
            both = sorted(set(games) & set(other))
            if not both:
                continue
            b_won = [games[i]["seat"] in games[i]["winners"] for i in both]
            a_won = [other[i]["seat"] in other[i]["winners"] for i in both]
            gains = [games[i]["scores"][games[i]["seat"]] - other[i]["scores"][other[i]["seat"]] for i in both]
            mean = sum(gains) / len(gains)
            spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / max(1, len(gains) - 1) / len(gains))
            out.append(f"| {game} | {opponent} | {first} / {second} | {len(both)} | {sum(a_won) / len(both):.1%} | "
                       f"{sum(b_won) / len(both):.1%} | {sum(a and not b for a, b in zip(a_won, b_won, strict=True))} | "
                       f"{sum(b and not a for a, b in zip(a_won, b_won, strict=True))} | {mean:+.1f} ± {spread:.1f} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), action="append", default=[])
    parser.add_argument("--levels", default="normal,strong")
    parser.add_argument("--opponents", default="random,easy,normal,flatmc")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="the first game index")
    parser.add_argument("--save", default="", metavar="FILE")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--report", nargs="+", default=[], metavar="FILE")
    args = parser.parse_args()
    if args.report:
        print("\n".join(report(read([Path(p) for p in args.report]))))
        return
    path = Path(args.save) if args.save else None
    existing = read([path]) if path else []
    if existing and not args.resume:
        parser.error(f"{path} holds saved games: --resume to add to them")
    for r in existing:
        if r["engine"] != engine_hash(r["level"], r["opponent"]):
            parser.error(f"{path}: its {r['level']} games against {r['opponent']} were played by other engine code")
    done = {(r["game"], r["level"], r["opponent"], r["index"]) for r in existing}
    # game by game, every level and opponent in turn: a run cut short leaves comparable rows
    for index in range(args.first, args.first + args.games):
        for game in args.game or list(GAMES):
            for opponent in args.opponents.split(","):
                for level in args.levels.split(","):
                    if (game, level, opponent, index) in done:
                        continue
                    record = play(game, level, opponent, index)
                    record["engine"] = engine_hash(level, opponent)
                    line = json.dumps(record)
                    print(line, flush=True)
                    if path:
                        with open(path, "a", encoding="utf-8") as out:
                            out.write(line + "\n")


if __name__ == "__main__":
    main()
