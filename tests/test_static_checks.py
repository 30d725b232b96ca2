"""The checks that keep the code in shape, run with the suite so that `.ci/run` runs them:
`mypy --strict` over the engine and the organizer, and ruff with the project's rule set
(both configured in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    path = Path(sys.executable).parent / name
    found = str(path) if path.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


def test_mypy_strict_engine_and_organizer() -> None:
    run = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff() -> None:
    run = subprocess.run([_tool("ruff"), "check", "engine", "organizer", "tests", "bench"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
