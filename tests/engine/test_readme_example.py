"""The engine's examples in README.md and docs/engine.md run as written.

Every fenced ``pycon`` or ``python`` block holding ``>>>`` lines is a doctest: its output lines
must be what the code prints. Blocks without prompts are illustrations and are left alone."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the files whose examples are run (one that does not exist is skipped)
DOCUMENTS = ("README.md", "docs/engine.md")
FENCE = re.compile(r"^```(?:pycon|python)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def examples(name: str) -> list[tuple[int, str]]:
    """(line, text) of each doctest block of ``name``."""
    path = ROOT / name
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start()) + 1, match.group(1))
        for match in FENCE.finditer(text)
        if re.search(r"^\s*>>> ", match.group(1), re.MULTILINE)
    ]


ALL = [(name, line, block) for name in DOCUMENTS for line, block in examples(name)]


def test_there_is_an_example_to_run() -> None:
    assert ALL, f"no >>> example in {' or '.join(DOCUMENTS)}"


@pytest.mark.parametrize(("name", "line", "block"), ALL, ids=[f"{name}:{line}" for name, line, _ in ALL])
def test_example_runs_as_written(name: str, line: int, block: str) -> None:
    test = doctest.DocTestParser().get_doctest(block, {}, f"{name}:{line}", name, line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
