"""``arboretum score`` keeps printing the same bytes for the same cases.

The digests in ``score_output_digests.txt`` are of the command's output lines for generated
cases (``score_cases.py``), recorded from the scorer with its path tie-break settled; speeding
the scorer up must not change a byte. Regenerate only for a deliberate change of results:
``python -m tests.engine.test_scoring_output``."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from engine import cli
from engine.case import parse_case
from engine.cli import score_files

from .score_cases import write_cases

DIGESTS = Path(__file__).with_name("score_output_digests.txt")
SETS = (("four-player", 200, 11, False), ("varied", 200, 12, True))


def output_digests() -> list[str]:
    lines = []
    for label, count, seed, varied in SETS:
        with tempfile.TemporaryDirectory() as folder:
            paths = [str(p) for p in write_cases(Path(folder), count, seed, varied)]
            out = io.StringIO()
            score_files(paths, out, io.StringIO())
        for k, line in enumerate(out.getvalue().splitlines()):
            # the error text names the temporary file; the digest must not
            line = line.replace(folder + "/", "")
            lines.append(f"{label} {k} {hashlib.sha256(line.encode()).hexdigest()[:16]}")
    return lines


def test_result_line_is_the_json_of_the_result() -> None:
    # names a JSON writer must escape: quotes, backslashes, control and non-ASCII characters
    case = parse_case({"rules": "standard-2010", "players": [
        {"name": 'Zoë "the \\ oak"\t', "arboretum": [{"x": 0, "y": 0, "card": "Lilac 1"}, {"x": 1, "y": 0, "card": "Lilac 8"}],
         "hand": ["Willow 1", "Willow 2", "Willow 3", "Willow 4", "Willow 5", "Willow 6", "Willow 7"]},
        {"name": "Ōkubo 大", "arboretum": [{"x": 0, "y": -3, "card": "Willow 8"}],
         "hand": ["Poplar 1", "Poplar 2", "Poplar 3", "Poplar 4", "Poplar 5", "Poplar 6", "Poplar 7"]},
    ]})
    result = case.score()
    assert result.players[0].species["Lilac"].points == 5
    assert result.to_json_text() == json.dumps(result.to_json(), ensure_ascii=False)


def test_score_output_is_unchanged() -> None:
    expected = DIGESTS.read_text().splitlines()
    actual = output_digests()
    changed = [a for a, e in zip(actual, expected, strict=True) if a != e]
    assert not changed, f"{len(changed)} case outputs changed, first: {changed[:5]}"


if __name__ == "__main__":
    DIGESTS.write_text("\n".join(output_digests()) + "\n")


def _score_into_file(paths: list[str], target: Path, workers: int) -> tuple[int, str]:
    with open(target, "w", encoding="utf-8") as out:
        status = score_files(paths, out, io.StringIO(), workers)
    return status, target.read_text(encoding="utf-8")


def _cases_with_faults(folder: Path) -> list[str]:
    paths = [str(p) for p in write_cases(folder, 30, 12, varied=True)]
    (folder / "bad.json").write_text("{")
    paths[7:7] = [str(folder / "bad.json"), str(folder / "missing.json")]
    return paths


def test_many_files_shared_among_processes_print_the_same_lines_in_order(tmp_path: Path) -> None:
    paths = _cases_with_faults(tmp_path)
    alone = _score_into_file(paths, tmp_path / "one.jsonl", 1)
    shared = _score_into_file(paths, tmp_path / "three.jsonl", 3)
    assert shared == alone
    assert alone[0] == 1 and len(alone[1].splitlines()) == 32
    # written somewhere without a file descriptor, the lines are the same from one process
    out = io.StringIO()
    assert score_files(paths, out, io.StringIO(), 3) == 1 and out.getvalue() == alone[1]


def test_a_scoring_process_that_breaks_off_before_writing_is_made_good(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A child process that dies while scoring (killed, out of memory) has written nothing: the
    first process scores its share itself, and the output is whole and in order."""
    paths = _cases_with_faults(tmp_path)
    expected = _score_into_file(paths, tmp_path / "one.jsonl", 1)
    parent = os.getpid()
    score_one = cli._score_content

    def dies_in_a_child(path: str, content: bytes | str | OSError) -> tuple[str, bool]:
        if os.getpid() != parent and path == paths[25]:
            os._exit(9)
        return score_one(path, content)

    monkeypatch.setattr(cli, "_score_content", dies_in_a_child)
    assert _score_into_file(paths, tmp_path / "three.jsonl", 3) == expected


def test_the_command_prints_every_line_before_its_process_ends(tmp_path: Path) -> None:
    """A plain ``score`` run ends its own process without the interpreter's teardown: everything
    printed, by every process, reaches the reader, in order, with the status of one process."""
    paths = _cases_with_faults(tmp_path)
    runs = [
        subprocess.run([sys.executable, "-m", "engine", "score", "--jobs", jobs, *paths],
                       capture_output=True, text=True, check=False)
        for jobs in ("1", "3")
    ]
    expected = _score_into_file(paths, tmp_path / "one.jsonl", 1)
    for run in runs:
        assert (run.returncode, run.stdout) == expected
        assert run.stderr == ""


@pytest.mark.parametrize("jobs, read", [("1", 100), ("2", 700_000)], ids=["one process", "a child writing"])
def test_a_reader_that_stops_reading_stops_the_command_quietly(tmp_path: Path, jobs: str, read: int) -> None:
    """``arboretum score *.json | head``: the command stops with status 1 and no traceback, also
    when the reader goes away while a child process is writing its share."""
    paths = [str(p) for p in write_cases(tmp_path, 400, 13)]
    command = [sys.executable, "-m", "engine", "score", "--jobs", jobs, *paths]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        assert len(process.stdout.read(read)) == read
        process.stdout.close()
        errors = process.stderr.read().decode()
        assert process.wait(timeout=60) == 1
    assert errors == ""
