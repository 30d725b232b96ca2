"""Scoring speed as a user meets it: whole ``arboretum score`` processes over score-case files.

Run: .venv/bin/python bench/bench_scoring.py [--tables 3000] [--repeat 5]

Writes ``--tables`` generated four-player tables of the standard game (full 7-card hands,
arboretums of about 13 cards, up to 20: ``tests/engine/score_cases.py``) as case files into a
temporary folder, then times, as separate processes from start to exit (median of ``--repeat``
runs, wall clock and the processor time of the process and its children):

- ``arboretum score`` on one case (the start-up time);
- ``arboretum score`` on all the cases (shared among processes, one a core, as the command does
  for many files), and in one process (``--jobs 1``), and ``python -m engine score`` likewise;
- ``bench/simple_scorer.py`` on the same files: a straightforward depth-first-search scorer, the
  yardstick (its totals and winners are checked against the engine's).

Every command writes its lines to a file, as a user scoring thousands of tables would.

The command and the yardstick are run in turns, so a change of load on the machine falls on both;
the ratio is given as the median of the runs' ratios, with the lowest and highest.

Python keeps its compiled bytecode as an installed command does (a pycache folder of its own in the
temporary folder, even where PYTHONDONTWRITEBYTECODE is set), and every command is run once before
the timed runs, so no run pays for compiling the modules.

The machine has other work on it? Then the wall-clock medians move (the processor times less so);
run it on a quiet machine and give ``uptime`` with the figures."""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class Timer:
    """Runs commands to their end with one environment, keeping each run's wall and processor time."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.walls: dict[str, list[float]] = {}
        self.cpus: dict[str, list[float]] = {}
        self.outputs: dict[str, str] = {}

    def run(self, label: str, command: list[str], output: Path) -> None:
        # the output goes to a file, as a user's "> results.jsonl": captured through a pipe, this
        # bench's own process would read and decode megabytes on the cores the command shares
        with open(output, "wb") as sink:
            cpu = _children_cpu()
            start = time.perf_counter()
            subprocess.run(command, stdout=sink, check=True, cwd=ROOT, env=self.env)
            self.walls.setdefault(label, []).append(time.perf_counter() - start)
            self.cpus.setdefault(label, []).append(_children_cpu() - cpu)
        self.outputs[label] = output.read_text(encoding="utf-8")

    def wall(self, label: str) -> float:
        return statistics.median(self.walls[label])

    def cpu(self, label: str) -> float:
        return statistics.median(self.cpus[label])

    def ratios(self, slow: str, fast: str) -> list[float]:
        return sorted(s / f for s, f in zip(self.walls[slow], self.walls[fast], strict=True))


def outcomes(lines: str) -> list[tuple[list[int], list[str]]]:
    return [([p["total"] for p in r["players"]], r["winners"]) for r in map(json.loads, lines.splitlines())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    arboretum = shutil.which("arboretum", path=str(Path(sys.executable).parent)) or "arboretum"
    folder = Path(tempfile.mkdtemp(prefix="bench-scoring-"))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    timer = Timer(env)
    try:
        cases = [str(p) for p in write_cases(folder, args.tables)]
        commands = {
            "start-up": [arboretum, "score", cases[0]],
            "command": [arboretum, "score", *cases],
            "single": [arboretum, "score", "--jobs", "1", *cases],
            "module": [sys.executable, "-m", "engine", "score", "--jobs", "1", *cases],
            "simple": [sys.executable, str(ROOT / "bench" / "simple_scorer.py"), *cases],
        }
        for command in commands.values():  # compiles and caches the bytecode; not timed
            subprocess.run(command, capture_output=True, check=True, cwd=ROOT, env=env)
        output = folder / "output.jsonl"
        for _ in range(args.repeat * 3):
            timer.run("start-up", commands["start-up"], output)
        for _ in range(args.repeat):
            for label in ("command", "simple", "single", "module"):
                timer.run(label, commands[label], output)
    finally:
        shutil.rmtree(folder)
    ours, theirs, alone = timer.outputs["command"], timer.outputs["simple"], timer.outputs["single"]
    assert outcomes(ours) == outcomes(theirs), "the engine and the simple scorer disagree on a total or winner"
    assert ours == alone, "shared among processes, the command printed something else"
    n = args.tables

    def line(text: str, label: str) -> str:
        wall, cpu = timer.wall(label), timer.cpu(label)
        return f"{text:<44}{wall:6.2f} s  ({wall / n * 1e6:3.0f} µs a table; processor {cpu:4.2f} s)"

    print(f"{'arboretum score, one case (start-up):':<44}{timer.wall('start-up') * 1e3:6.0f} ms"
          f"  (processor {timer.cpu('start-up') * 1e3:.0f} ms)")
    print(line(f"arboretum score, {n} four-player tables:", "command"))
    print(line("the same in one process (--jobs 1):", "single"))
    print(line("python -m engine score --jobs 1, the same:", "module"))
    print(line("simple DFS scorer, the same:", "simple"))
    shared, single = timer.ratios("simple", "command"), timer.ratios("simple", "single")
    print(
        f"arboretum score is {statistics.median(shared):.1f}x as fast as the simple scorer "
        f"(runs {shared[0]:.1f}x to {shared[-1]:.1f}x), {statistics.median(single):.1f}x in one process "
        f"({single[0]:.1f}x to {single[-1]:.1f}x); processor time {timer.cpu('simple') / timer.cpu('single'):.1f}x "
        f"less in one process"
    )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
