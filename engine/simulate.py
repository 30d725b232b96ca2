"""``arboretum simulate``: seeded bot games and their summary.

Game ``i`` of a run with seed ``S`` is dealt from :func:`game_seed` ``(S, i)`` and its bots draw
their randomness from :func:`bot_seed` ``(S, i)``, so a run is the same every time and any single
game can be rebuilt alone (``--out`` writes each game's JSON, which replays with
``engine.games.replay``). Bots are listed per seat and cycle when fewer than the seats; with
``--rotate`` the lineup shifts by one seat each game so no bot is always the start player.
Q, the solo game's second seat, never acts: it "wins" the games the player loses.

A game's length in turns is the number of turns taken (draw 2, play 1, discard or give 1) in the
standard and solo games, and the number of picks (all seats at once) in the draft."""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from .actions import Play
from .bots import Bot, make_bot, play_game
from .draft import DraftState
from .errors import ArboretumError
from .game import State
from .games import MODES, Game

PLAYERS = {"standard": (2, 3, 4), "draft": (2, 3, 4), "solo": (1,)}
Q_NAME = "Q"


class SimulationError(ArboretumError):
    """Simulation parameters that cannot run (mode, player count, bots, number of games)."""


def game_seed(seed: int, index: int) -> int:
    """The deal's seed of game ``index`` of a run seeded ``seed`` (48 bits, stable everywhere)."""
    digest = hashlib.sha256(f"arboretum-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def bot_seed(seed: int, index: int) -> int:
    """The bots' random seed for game ``index`` (independent of the deal)."""
    digest = hashlib.sha256(f"arboretum-simulate-bots:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


@dataclass
class SeatStats:
    seat: int
    bot: str
    scores: list[int] = field(default_factory=list)
    wins: int = 0

    def to_json(self) -> dict[str, Any]:
        games = len(self.scores)
        return {
            "seat": self.seat,
            "bot": self.bot,
            "games": games,
            "wins": self.wins,
            "win_rate": self.wins / games if games else 0.0,
            "mean_score": _mean(self.scores),
            "sd_score": _sd(self.scores),
        }


@dataclass
class Summary:
    mode: str
    players: int
    edition: str
    seed: int
    bots: tuple[str, ...]
    rotate: bool
    games: int = 0
    seats: dict[tuple[int, str], SeatStats] = field(default_factory=dict)
    by_bot: dict[str, SeatStats] = field(default_factory=dict)
    turns: list[int] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, lineup: Sequence[str], totals: Sequence[int], winners: Sequence[int], turns: int, actions: int) -> None:
        self.games += 1
        for seat, (bot, total) in enumerate(zip(lineup, totals, strict=True)):
            for stats in (
                self.seats.setdefault((seat, bot), SeatStats(seat, bot)),
                self.by_bot.setdefault(bot, SeatStats(-1, bot)),
            ):
                stats.scores.append(total)
                stats.wins += seat in winners
        self.turns.append(turns)
        self.actions.append(actions)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "players": self.players,
            "edition": self.edition,
            "seed": self.seed,
            "bots": list(self.bots),
            "rotate": self.rotate,
            "games": self.games,
            "seats": [self.seats[key].to_json() for key in sorted(self.seats)],
            "by_bot": [
                {k: v for k, v in stats.to_json().items() if k != "seat"} for _, stats in sorted(self.by_bot.items())
            ],
            "mean_turns": _mean(self.turns),
            "mean_actions": _mean(self.actions),
        }

    def render(self) -> str:
        """The human summary."""
        seat_word = "the player and Q" if self.mode == "solo" else f"{self.players} players"
        lines = [
            f"{self.games} {self.mode} games, {seat_word}, edition {self.edition}, seed {self.seed}, "
            f"bots {','.join(self.bots)} ({'rotating seats' if self.rotate else 'fixed seats'})",
            "",
            f"{'seat':<5}{'bot':<11}{'games':>7}{'wins':>7}{'win rate':>10}{'mean score':>12}{'sd':>8}",
        ]
        for key in sorted(self.seats):
            row = self.seats[key].to_json()
            lines.append(
                f"{row['seat']:<5}{row['bot']:<11}{row['games']:>7}{row['wins']:>7}{row['win_rate']:>10.1%}"
                f"{row['mean_score']:>12.2f}{row['sd_score']:>8.2f}"
            )
        if len(self.by_bot) > 1 and (self.rotate or len(self.seats) > len(self.by_bot)):
            lines += ["", "by bot (a game counts once per seat the bot held):"]
            for name in sorted(self.by_bot):
                row = self.by_bot[name].to_json()
                lines.append(
                    f"{'':<5}{name:<11}{row['games']:>7}{row['wins']:>7}{row['win_rate']:>10.1%}"
                    f"{row['mean_score']:>12.2f}{row['sd_score']:>8.2f}"
                )
        unit = "picks" if self.mode == "draft" else "turns"
        lines += [
            "",
            f"mean game length: {_mean(self.turns):.1f} {unit} ({_mean(self.actions):.1f} actions)",
            "a shared win counts for every winner" + ("; Q wins every game the player loses" if self.mode == "solo" else ""),
        ]
        if self.seconds > 0:
            lines.append(f"{self.games / self.seconds:.1f} games per second")
        return "\n".join(lines)


def _mean(values: Sequence[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def _sd(values: Sequence[int]) -> float:
    """Sample standard deviation (0 for fewer than two games)."""
    if len(values) < 2:
        return 0.0
    mean = _mean(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))


def lineup_for(bots: Sequence[str], seats: int, index: int, rotate: bool) -> list[str]:
    """The bot names by seat in game ``index``: the list cycles over the seats, shifted by one
    seat per game when rotating."""
    shift = index % seats if rotate else 0
    return [bots[(seat - shift) % seats % len(bots)] for seat in range(seats)]


def check_parameters(mode: str, players: int | None, games: int, bots: Sequence[str]) -> int:
    """Validate a run; returns the player count (solo: 1). Raises :class:`SimulationError`."""
    if mode not in MODES:
        raise SimulationError(f"--mode {mode!r}: expected standard, draft or solo")
    allowed = PLAYERS[mode]
    if players is None:
        players = allowed[0]
    if players not in allowed:
        if mode == "solo":
            raise SimulationError(f"--players {players}: the solo game is for 1 player (Q is the second seat)")
        raise SimulationError(f"--players {players}: a {mode} game is for 2, 3 or 4 players")
    if games < 1:
        raise SimulationError(f"--games {games}: play at least 1 game")
    if not bots:
        raise SimulationError("--bots: name at least one bot")
    for name in bots:
        make_bot(name)  # raises UnknownBotError naming the choices
    if mode == "solo" and len(bots) > 1:
        raise SimulationError(f"--bots {','.join(bots)}: the solo game has one player seat (Q plays itself); name one bot")
    if len(bots) > players and mode != "solo":
        raise SimulationError(f"--bots: {len(bots)} bots named for {players} seats")
    return players


def simulate(
    mode: str,
    players: int | None,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    edition: str = "2018",
    rotate: bool = False,
    on_game: Callable[[int, State], None] | None = None,
    first_index: int = 0,
    q_places: str | None = None,
) -> Summary:
    """Play ``games`` seeded games and summarise them; ``on_game(i, state)`` sees each finished
    game (for ``--out`` and the progress bar). ``first_index`` starts the run at a later game
    (games ``first_index`` .. ``first_index + games - 1``), to split a run across processes.
    ``q_places``: solo only, who places Q's cards ("rule", the default, or "player")."""
    from .cards import Edition
    from .errors import CardError, GameSetupError

    names = [name.strip().lower() for name in bots]
    players = check_parameters(mode, players, games, names)
    instances: dict[str, Bot] = {name: make_bot(name) for name in names}
    player_seats = players
    summary = Summary(mode, players, str(edition), seed, tuple(names), rotate)
    started = time.perf_counter()
    for index in range(first_index, first_index + games):
        lineup = lineup_for(names, player_seats, index, rotate)
        try:
            game = Game(mode, players, seed=game_seed(seed, index), edition=Edition.parse(edition),
                        q_places=q_places if mode == "solo" else None)
        except (GameSetupError, CardError) as exc:
            raise SimulationError(str(exc)) from None
        state = game.new_initial_state()
        seat_bots = [instances[name] for name in lineup]
        if mode == "solo":
            lineup = lineup + [Q_NAME]
            seat_bots.append(seat_bots[0])  # never asked: Q does not act
        play_game(state, seat_bots, random.Random(bot_seed(seed, index)))
        outcome = state.outcome()
        if outcome is None:  # play_game returns only finished games
            raise SimulationError(f"game {index} did not finish")
        summary.add(
            lineup,
            [p.total for p in outcome.players],
            outcome.winners,
            game_turns(state),
            len(state.history),
        )
        if on_game is not None:
            on_game(index - first_index, state)
    summary.seconds = time.perf_counter() - started
    return summary


def game_turns(state: State) -> int:
    """Turns taken (standard, solo) or picks made (draft) in a finished game."""
    if isinstance(state, DraftState):
        return state.reveals
    return sum(1 for _, action in state.history if type(action) is Play)


class ProgressBar:
    """A one-line progress bar, drawn only when ``stream`` is a terminal."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.enabled = stream.isatty()
        self.started = time.perf_counter()
        self.last_draw = 0.0

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < self.total and now - self.last_draw < 0.1:
            return
        self.last_draw = now
        width = 30
        filled = int(width * done / self.total)
        rate = done / (now - self.started) if now > self.started else 0.0
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games {rate:.1f}/s")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 70 + "\r")
            self.stream.flush()


def _int_arg(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _run_simulate(args: argparse.Namespace) -> int:
    err = sys.stderr
    text = args.bots if args.bots is not None else ("heuristic" if args.mode == "solo" else "heuristic,random")
    bots = [name.strip() for name in text.split(",")] if text.strip() else []
    try:
        players = check_parameters(args.mode, args.players, args.games, [b.lower() for b in bots])
    except ArboretumError as exc:
        print(f"arboretum simulate: error: {exc}", file=err)
        return 2
    out: TextIO | None = None
    if args.out:
        try:
            out = open(args.out, "w", encoding="utf-8")
        except OSError as exc:
            print(f"arboretum simulate: error: --out {args.out}: cannot write: {exc.strerror or exc}", file=err)
            return 2
    bar = ProgressBar(args.games, err)

    def on_game(index: int, state: State) -> None:
        if out is not None:
            out.write(json.dumps(state.to_json(), ensure_ascii=False) + "\n")
        bar.update(index + 1)

    try:
        summary = simulate(args.mode, players, args.games, bots, args.seed, args.edition, args.rotate, on_game,
                           q_places=args.q_places)
    except ArboretumError as exc:
        bar.close()
        print(f"arboretum simulate: error: {exc}", file=err)
        return 2
    except OSError as exc:
        bar.close()
        print(f"arboretum simulate: error: --out {args.out}: cannot write: {exc.strerror or exc}", file=err)
        return 2
    except KeyboardInterrupt:
        bar.close()  # the games already written to --out stay there
        raise
    finally:
        if out is not None:
            out.close()
    bar.close()
    try:
        print(json.dumps(summary.to_json()) if args.json else summary.render())
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader (``| head``) went away: say nothing more, like other command-line tools
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


def add_simulate_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``simulate`` on the ``arboretum`` command."""
    parser = subparsers.add_parser(
        "simulate",
        help="play seeded bot games and summarise them",
        description=(
            "Play seeded games between bots and print win rates, score means and spreads per seat "
            "and bot, and the mean game length. Game i of a run is dealt from a seed derived from "
            "--seed and i, so the same command gives the same games."
        ),
    )
    parser.add_argument("--mode", choices=MODES, default="standard", help="game mode (default: standard)")
    parser.add_argument(
        "--players", type=_int_arg, default=None, help="players: 2-4 (standard, draft), 1 (solo); default 2, solo 1"
    )
    parser.add_argument("--games", type=_int_arg, default=100, help="number of games (default: 100)")
    parser.add_argument(
        "--bots",
        default=None,
        help=(
            "bots by seat, comma-separated, cycling over the seats: the levels easy, normal (also called "
            "heuristic), strong, or random (default: heuristic,random; solo: heuristic)"
        ),
    )
    parser.add_argument("--seed", type=_int_arg, default=0, help="the run's seed (default: 0)")
    parser.add_argument("--edition", choices=("2018", "2010"), default="2018", help="card edition (default: 2018)")
    parser.add_argument(
        "--rotate", action="store_true", help="shift the bots one seat per game, so no bot always starts"
    )
    parser.add_argument(
        "--q-places", choices=("rule", "player"), default=None,
        help="solo: Q places its cards by the rule (default) or the player chooses the cell (the gentler variant)",
    )
    parser.add_argument("--out", metavar="GAMES.jsonl", help="write every game's JSON (for replay), one per line")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.set_defaults(handler=_run_simulate)
