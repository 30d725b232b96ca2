"""The bots' moves, pinned: a few seeded games whose whole logs must not change.

The benchmark figures (docs/performance.md: normal against easy over 1,000 games, the strong bot's
rows) hold only for the bots that played them, so a change made for speed must leave every
decision as it was. Each game below is played to its end and its log (every seat's every
action, in order) compared with the one recorded when the figures were measured. A change that
means to play differently updates these digests, and says so next to the benchmark it
invalidates. Standard 3 and 4 players' strong bot is left out: its budget per game is a tuning
knob (engine.bots.search.PLAYOUT_SHARE), and the normal bot it plays with is pinned here."""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.bots import make_bot, play_game
from engine.games import Game

GAMES = [
    ("standard", 4, "2018", ("heuristic", "heuristic", "heuristic", "heuristic"), 7, "fa66502f8661e259"),
    ("standard", 4, "2010", ("heuristic", "easy", "easy", "easy"), 8, "61c9a27b8408e0da"),
    ("standard", 3, "2018", ("easy", "heuristic", "heuristic"), 9, "eeb66f1005836826"),
    ("standard", 2, "2018", ("heuristic", "easy"), 10, "cd02d2bd59e06055"),
    ("draft", 3, "2018", ("heuristic", "easy", "heuristic"), 11, "b6dde70f6d5468c5"),
    ("solo", 1, "2018", ("heuristic", "random"), 12, "d6c6bf2db7195764"),
    # the strong bot at a fixed small budget: its playouts are the normal bot's games, the other
    # seats drawn from engine.bots.search.OPPONENTS, the draft's hidden hands dealt by what the
    # others collect (engine.bots.reading); the solo game's only other seat is Q
    ("standard", 2, "2018", ("strong:4", "heuristic"), 13, "c51fe4b14f0369a2"),
    ("draft", 3, "2018", ("strong:4", "heuristic", "heuristic"), 14, "a340ce34e2f7c2cb"),
    ("solo", 1, "2018", ("strong:4", "random"), 15, "de0bb4add99f6195"),
]


@pytest.mark.parametrize("mode,players,edition,lineup,seed,digest", GAMES)
def test_the_same_seed_plays_the_pinned_game(mode: str, players: int, edition: str, lineup: tuple[str, ...],
                                             seed: int, digest: str) -> None:
    state = Game(mode, players, seed=seed, edition=edition).new_initial_state()
    play_game(state, [make_bot(name) for name in lineup], random.Random(seed))
    log = ";".join(f"{seat}:{action!r}" for seat, action in state.history)
    assert hashlib.sha256(log.encode()).hexdigest()[:16] == digest


@pytest.mark.parametrize("mode,players,edition", [("standard", 4, "2010"), ("standard", 3, "2018"), ("solo", 1, "2018")])
def test_playouts_sharing_path_tables_play_as_playouts_with_their_own(mode: str, players: int, edition: str) -> None:
    """The strong bot's playouts share the path tables of every arboretum they reach (kept by the
    line of cards planted into it since the decision). Each candidate of several deals, played
    out with the search's shared tables and with tables of its own, ends in the same game."""
    from engine.bots.search import _heuristic_playout, _planted, determinize, ranked_candidates
    from engine.bots.turns import TableCache
    from engine.game import SIMULTANEOUS
    from engine.standard import StandardState

    state = Game(mode, players, seed=21, edition=edition).new_initial_state()
    rng = random.Random(21)
    bot = make_bot("heuristic")
    while len(state.deck) > 6 * players:  # type: ignore[attr-defined]
        player = state.current_player()
        assert player != SIMULTANEOUS
        state.apply_action(bot.choose(state, player, rng), player)
    seat = state.current_player()
    candidates = ranked_candidates(state, seat)[0][:4]
    shared = TableCache(state.seats)
    for _ in range(3):
        det = determinize(state, seat, rng)
        seed = rng.getrandbits(32)
        for action in candidates:
            logs = []
            for tables in (shared, TableCache(state.seats)):
                trial = det.clone()
                assert isinstance(trial, StandardState)
                trial.apply_action(action, seat)
                tables.restart()
                _planted(trial, trial.history[-1], tables)
                _heuristic_playout(trial, random.Random(seed), tables)
                logs.append(trial.history)
            assert logs[0] == logs[1]
    assert len(shared.tables) > state.seats  # the lines really were shared
