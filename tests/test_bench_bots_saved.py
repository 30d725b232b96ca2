"""bench/bench_bots.py's saved rows: a long row's games kept as they finish, resumed without
playing a game twice, and merged only when the same engine code played them (cheap bots only:
the strong bot's games belong in bench/, not in the suite)."""

import importlib.util
import json
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine.simulate import simulate

ROW = ("standard", 2, "2018", ["heuristic", "random"])


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "bench_bots.py"
    spec = importlib.util.spec_from_file_location("bench_bots_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=1) as executor:
        yield executor


def play(bench: ModuleType, pool: ThreadPoolExecutor, path: Path, games: int, resume: bool,
         chunk: int = 2) -> list[dict[str, Any]]:
    mode, players, edition, bots = ROW
    result: list[dict[str, Any]] = bench.play_saved(mode, players, edition, bots, games, pool, 1, chunk, path, resume)
    return result


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_saved_games_are_the_plain_runs_games(bench: ModuleType, pool: ThreadPoolExecutor, tmp_path: Path) -> None:
    saved = play(bench, pool, tmp_path / "row.jsonl", 5, resume=False)
    assert [r["game"] for r in saved] == [0, 1, 2, 3, 4]
    assert [r["tested_seat"] for r in saved] == [0, 1, 0, 1, 0]  # rotated one seat a game
    plain = simulate("standard", 2, 5, ["heuristic", "random"], bench.SEED, "2018", rotate=True).to_json()
    heuristic = next(row for row in plain["by_bot"] if row["bot"] == "heuristic")
    assert sum(r["tested_seat"] in r["winners"] for r in saved) == heuristic["wins"]
    assert sum(r["scores"][r["tested_seat"]] for r in saved) / 5 == pytest.approx(heuristic["mean_score"])
    assert all(r["engine"] == bench.engine_hash() for r in saved)
    # a solo row is saved the same way: the player's wins against Q
    solo = bench.play_saved("solo", 1, "2018", ["heuristic"], 4, pool, 1, 2, tmp_path / "solo.jsonl", False)
    plain = simulate("solo", 1, 4, ["heuristic"], bench.SEED, "2018", rotate=True).to_json()
    player = next(row for row in plain["by_bot"] if row["bot"] == "heuristic")
    assert sum(r["tested_seat"] in r["winners"] for r in solo) == player["wins"]
    assert bench.saved_row_line(solo).startswith(f"| solo | normal vs Q | 4 | {player['wins'] / 4:.1%} |")


def test_resume_plays_only_the_missing_games(bench: ModuleType, pool: ThreadPoolExecutor, tmp_path: Path) -> None:
    path = tmp_path / "row.jsonl"
    play(bench, pool, path, 3, resume=False)
    before = lines(path)
    with pytest.raises(bench.SavedGamesError, match="--resume"):
        play(bench, pool, path, 5, resume=False)
    with path.open("a", encoding="utf-8") as out:
        out.write('{"row": "standard 2p 2018", "game": 3, "win')  # a kill in the middle of a write
    saved = play(bench, pool, path, 5, resume=True, chunk=1)
    after = lines(path)
    assert after[:3] == before and len(after) == 5
    assert [r["game"] for r in saved] == [0, 1, 2, 3, 4]
    whole = play(bench, pool, tmp_path / "whole.jsonl", 5, resume=False, chunk=5)
    assert [(r["winners"], r["scores"]) for r in saved] == [(r["winners"], r["scores"]) for r in whole]


def test_a_kill_before_the_first_game_ended_leaves_nothing_to_trip_on(bench: ModuleType, pool: ThreadPoolExecutor,
                                                                       tmp_path: Path) -> None:
    path = tmp_path / "row.jsonl"
    path.write_text('{"row": "standard 2p 2018", "ga', encoding="utf-8")
    assert [r["game"] for r in play(bench, pool, path, 2, resume=True)] == [0, 1]
    assert len(lines(path)) == 2


def test_report_merges_files_of_the_same_engine_only(bench: ModuleType, pool: ThreadPoolExecutor,
                                                     tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    play(bench, pool, whole, 4, resume=False)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("\n".join(lines(whole)[:2]) + "\n", encoding="utf-8")
    second.write_text("\n".join(lines(whole)[1:]) + "\n", encoding="utf-8")  # game 1 in both

    def table(*paths: Path) -> list[str]:
        out: list[str] = []
        bench.report_saved(list(paths), lambda line="": out.append(line))
        return [line for line in out if line.startswith("| standard 2p")]

    assert table(first, second) == table(whole)
    assert "| 4 |" in table(whole)[0]

    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps({**json.loads(line), "engine": "0" * 16}) + "\n" for line in lines(second)),
                     encoding="utf-8")
    with pytest.raises(bench.SavedGamesError, match="different engine code"):
        table(first, other)
    with pytest.raises(bench.SavedGamesError, match="resume with the code that began them"):
        play(bench, pool, other, 6, resume=True)

    clash = tmp_path / "clash.jsonl"
    record = json.loads(lines(whole)[0])
    clash.write_text(json.dumps({**record, "winners": [], "scores": [-1, -1]}) + "\n", encoding="utf-8")
    with pytest.raises(bench.SavedGamesError, match="another result"):
        table(whole, clash)


def test_timing_table_follows_only_and_times_the_capped_bot(bench: ModuleType, pool: ThreadPoolExecutor) -> None:
    """`--rows timing --only solo --capped`: one row, the solo game's, timed with the bot the live
    tables play (its time cap), with the searched decisions' 90th percentile."""
    import argparse

    lines: list[str] = []
    args = argparse.Namespace(rows="timing", only="solo", timing_games=1, capped=True, playouts=60, save="",
                              resume=False, no_solo=False, games=0, strong_games=0, jobs=1, chunk=0)
    bench.levels_table(args, pool, lambda line="": lines.append(line))
    assert any("with its time cap" in line for line in lines)
    start = next(i for i, line in enumerate(lines) if line.startswith("| game | decisions"))
    assert "90th percentile searched" in lines[start]
    rows = [line for line in lines[start + 2:] if line.startswith("| ")]
    assert [row.split(" | ")[0] for row in rows] == ["| solo"]
    cells = rows[0].strip("| ").split(" | ")
    median, p90, maximum = float(cells[3]), float(cells[4]), float(cells[6])
    assert int(cells[2]) > 0 and 0 < median <= p90 <= maximum
