"""bench/: the panel's flat Monte-Carlo bot is an opponent of its own (nothing of engine.bots), plays
legal moves to the end of every panel game, and the panel's report compares the levels on the
same deals and seats."""

import ast
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.games import Game

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_flat_monte_carlo_bot_imports_nothing_of_the_engine_s_bots() -> None:
    tree = ast.parse((BENCH / "flat_mc.py").read_text(encoding="utf-8"))
    imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert imported and not [name for name in imported if name.startswith("engine.bots")]


@pytest.mark.parametrize("mode,players", [("standard", 2), ("draft", 3)])
def test_the_flat_monte_carlo_bot_plays_legal_moves_to_the_end(mode: str, players: int) -> None:
    flat = _load("flat_mc").FlatMonteCarloBot(playouts=2, width=3)
    state = Game(mode, players, seed=3).new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        for seat in state.awaited_seats():
            action = flat.choose(state, seat, rng)
            assert action in state.legal_actions(seat)
            state.apply_action(action, seat)
    assert state.outcome() is not None


def test_the_report_counts_the_games_each_level_won_alone_on_the_same_deals() -> None:
    panel = _load("bench_panel")
    records = [
        {"game": "draft 3p", "level": level, "opponent": "flatmc", "index": index, "seat": index % 3,
         "winners": [index % 3] if won else [(index + 1) % 3], "scores": [20, 21, 22], "cpu": 1.0, "engine": level}
        for index, (normal, strong) in enumerate([(True, True), (False, True), (False, True), (True, False)])
        for level, won in (("normal", normal), ("strong", strong))
    ]
    table = "\n".join(panel.report(records))
    assert "| draft 3p | flatmc | normal | 4 | 50.0% |" in table
    assert "| draft 3p | flatmc | strong | 4 | 75.0% |" in table
    assert "| draft 3p | flatmc | normal / strong | 4 | 50.0% | 75.0% | 1 | 2 | +0.0 ± 0.0 |" in table
