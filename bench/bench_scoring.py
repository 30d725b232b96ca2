"""Scoring speed as a user meets it: whole ``arboretum score`` processes over score-case files.

Run: .venv/bin/python bench/bench_scoring.py [--tables 3000] [--repeat 5]

Writes ``--tables`` generated four-player tables of the standard game (full 7-card hands,
arboretums of about 13 cards, up to 20: ``tests/engine/score_cases.py``) as case files into a
temporary folder, then times, as separate processes from start to exit (wall clock, median of
``--repeat`` runs):

- ``arboretum score`` on one case (the start-up time);
- ``arboretum score`` on all the cases (shared among processes, one a core, as the command does
  for many files), and in one process (``--jobs 1``), and ``python -m engine score`` likewise;
- ``bench/simple_scorer.py`` on the same files: a straightforward depth-first-search scorer, the
  yardstick (its totals and winners are checked against the engine's).

The machine has other work on it? Then the medians move; run it on a quiet machine."""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.engine.score_cases import write_cases  # noqa: E402


def wall(command: list[str], repeat: int) -> tuple[float, str]:
    """Median wall time of running ``command`` to its end, and its output."""
    times, output = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        output = done.stdout
    return statistics.median(times), output


def outcomes(lines: str) -> list[tuple[list[int], list[str]]]:
    return [([p["total"] for p in r["players"]], r["winners"]) for r in map(json.loads, lines.splitlines())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    arboretum = shutil.which("arboretum", path=str(Path(sys.executable).parent)) or "arboretum"
    folder = Path(tempfile.mkdtemp(prefix="bench-scoring-"))
    try:
        cases = [str(p) for p in write_cases(folder, args.tables)]
        start_up, _ = wall([arboretum, "score", cases[0]], args.repeat * 3)
        command, ours = wall([arboretum, "score", *cases], args.repeat)
        single, alone = wall([arboretum, "score", "--jobs", "1", *cases], args.repeat)
        module, _ = wall([sys.executable, "-m", "engine", "score", "--jobs", "1", *cases], args.repeat)
        simple, theirs = wall([sys.executable, str(ROOT / "bench" / "simple_scorer.py"), *cases], args.repeat)
    finally:
        shutil.rmtree(folder)
    assert outcomes(ours) == outcomes(theirs), "the engine and the simple scorer disagree on a total or winner"
    assert ours == alone, "shared among processes, the command printed something else"
    n = args.tables
    print(f"arboretum score, one case (start-up):        {start_up * 1e3:6.0f} ms")
    print(f"arboretum score, {n} four-player tables: {command:6.2f} s  ({command / n * 1e6:.0f} µs a table)")
    print(f"the same in one process (--jobs 1):        {single:6.2f} s  ({single / n * 1e6:.0f} µs a table)")
    print(f"python -m engine score --jobs 1, the same: {module:6.2f} s  ({module / n * 1e6:.0f} µs a table)")
    print(f"simple DFS scorer, the same:               {simple:6.2f} s  ({simple / n * 1e6:.0f} µs a table)")
    print(f"arboretum score is {simple / command:.1f}x as fast as the simple scorer ({simple / single:.1f}x in one process)")


if __name__ == "__main__":
    main()
