"""The score-case reader and the ``arboretum score`` command fed random and hostile input: the
answer is always a result or an ArboretumError naming the fault, never a crash or a traceback."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine.case import parse_case, parse_case_text
from engine.cli import score_files
from engine.errors import ArboretumError
from tests.engine.worked_example import CASE
from tests.system.hostile.budget import budget
from tests.system.hostile.strategies import json_values

ARBORETUM = [str(Path(sys.executable).parent / "arboretum")]


def read_and_score(data: Any) -> None:
    try:
        case = parse_case(data)
    except ArboretumError as refused:
        assert str(refused), "a refusal names the fault"
        return
    try:
        case.score().to_json()
    except ArboretumError as refused:
        assert str(refused)


@budget(150)
@given(json_values)
def test_any_json_value_is_read_or_refused(data: Any) -> None:
    read_and_score(data)


@budget(150)
@given(st.text(max_size=300))
def test_any_text_is_read_or_refused(text: str) -> None:
    try:
        parse_case_text(text).score()
    except ArboretumError:
        pass


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*prefix, index))
    return found


HOSTILE_LEAVES = st.one_of(
    json_values, st.integers(min_value=-(10**18), max_value=10**18), st.sampled_from([10**9, -(10**9), 2**63, 1.5, True]))


@budget(300)
@given(st.data())
def test_a_valid_case_with_random_damage_is_read_or_refused(data: st.DataObject) -> None:
    """Start from the rulebook's example and damage it: change, delete or duplicate parts."""
    case = copy.deepcopy(CASE)
    for _ in range(data.draw(st.integers(1, 4), label="damages")):
        paths = [p for p in _paths(case) if p]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths), label="where")
        parent = case
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete", "duplicate"]), label="how")
        if action == "replace":
            parent[path[-1]] = data.draw(HOSTILE_LEAVES, label="value")
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
    read_and_score(case)


@budget(100)
@given(st.lists(st.tuples(st.integers(-(10**12), 10**12), st.integers(-(10**12), 10**12)), min_size=1, max_size=8))
def test_far_flung_coordinates_are_refused_quickly(cells: list[tuple[int, int]]) -> None:
    """Huge coordinates must not make the engine build a huge grid."""
    case = copy.deepcopy(CASE)
    for planted, (x, y) in zip(case["players"][0]["arboretum"], cells, strict=False):
        planted["x"], planted["y"] = x, y
    read_and_score(case)


def test_deeply_nested_json_is_refused_not_a_crash() -> None:
    for text in ("[" * 100_000, '{"a":' * 100_000, "[" * 5000 + "]" * 5000):
        try:
            parse_case_text(text)
        except ArboretumError as refused:
            assert "JSON" in str(refused) or "score case" in str(refused)
        else:
            raise AssertionError("a nested list is not a score case")


@budget(60)
@given(st.lists(st.one_of(st.text(max_size=200), json_values.map(json.dumps), st.binary(max_size=200)),
                min_size=1, max_size=4))
def test_the_score_command_answers_every_case_with_a_line(tmp_path_factory: Any, contents: list[Any]) -> None:
    folder = tmp_path_factory.mktemp("cases")
    paths = []
    for index, content in enumerate(contents):
        path = folder / f"case{index}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", errors="surrogatepass")
        paths.append(str(path))
    out = io.StringIO()
    status = score_files([*paths, str(folder / "missing.json")], out, io.StringIO())
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(lines) == len(paths) + 1
    assert all(("error" in line) != ("players" in line) for line in lines)
    assert status == (1 if any("error" in line for line in lines) else 0)


def test_the_installed_command_never_prints_a_traceback(tmp_path: Path) -> None:
    hostile = {
        "binary.json": b"\xff\xfe\x00garbage\x80",
        "nested.json": b"[" * 100_000,
        "huge-number.json": b'{"rules": "standard-2018", "players": [{"name": "a", "arboretum": '
                            b'[{"x": 1e999, "y": 0, "species": "Oak", "value": 1}]}]}',
        "empty.json": b"",
        "valid.json": json.dumps(CASE).encode(),
    }
    for name, content in hostile.items():
        (tmp_path / name).write_bytes(content)
    done = subprocess.run([*ARBORETUM, "score", *sorted(hostile), "-"], cwd=tmp_path, input=b"\x00{",
                          capture_output=True, timeout=60)
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(lines) == len(hostile) + 1
    assert done.returncode == 1
    assert sum("players" in line for line in lines) == 1  # only valid.json scores
