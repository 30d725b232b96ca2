"""The score command's fast path (``engine/score_line.py``) prints exactly what the full path
(``parse_case(...).score().to_json_text()``) prints, and leaves every fault to the full path."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.case import parse_case, parse_case_text
from engine.errors import ArboretumError
from engine.score_line import score_line
from tests.fixtures.examples import examples

from .score_cases import random_case, varied_case


def full_path(data: Any) -> str | None:
    """The full path's line, or None when it refuses the case."""
    try:
        return parse_case(data).score().to_json_text()
    except ArboretumError:
        return None


def assert_same(data: Any) -> str | None:
    fast = score_line(json.dumps(data))
    if fast is not None:
        assert fast == full_path(data)
    return fast


def test_ordinary_four_player_tables_take_the_fast_path_to_the_same_line() -> None:
    rng = random.Random(7)
    for _ in range(300):
        case = random_case(rng)
        assert assert_same(case) is not None


def test_tables_of_every_rule_set_and_form_give_the_same_line() -> None:
    rng = random.Random(8)
    for _ in range(400):
        assert_same(varied_case(rng))


def test_species_listed_in_any_order_are_scored_in_that_order() -> None:
    rng = random.Random(10)
    for _ in range(50):
        case = random_case(rng)
        rng.shuffle(case["species"])
        assert assert_same(case) is not None


def test_species_not_listed_are_those_appearing() -> None:
    case = random_case(random.Random(9))
    del case["species"]
    assert assert_same(case) is not None
    case["players"][0]["hand"] = case["players"][0]["hand"][:6]  # a fault: the full path names it
    assert score_line(json.dumps(case)) is None


LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10), st.sampled_from([1.0, 2**20, -(2**20), "Oak 3", "Oak", "", " x"]),
    st.sampled_from(["Blue Spruce", "Lilac", "standard-2010", "draft", "card", "x", "y", "species", "value"]),
    st.dictionaries(st.sampled_from(["x", "y", "species", "value", "card", "name"]), st.integers(-1, 3), max_size=5),
    st.lists(st.integers(0, 3), max_size=3),
)


def _places(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _places(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _places(child, (*prefix, index))
    return found


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(st.data())
def test_a_damaged_table_gets_the_full_paths_answer(data: st.DataObject) -> None:
    """Any change the fast path accepts, the full path accepts with the same line; any fault it
    would name, the fast path leaves to it."""
    case = random_case(random.Random(data.draw(st.integers(0, 50), label="table")))
    for _ in range(data.draw(st.integers(1, 3), label="damages")):
        places = [p for p in _places(case) if p]
        place = data.draw(st.sampled_from(places), label="where")
        parent = case
        for key in place[:-1]:
            parent = parent[key]
        how = data.draw(st.sampled_from(["replace", "delete", "duplicate", "move"]), label="how")
        if how == "replace":
            parent[place[-1]] = data.draw(LEAVES, label="value")
        elif how == "delete":
            del parent[place[-1]]
        elif how == "move" and isinstance(parent, dict) and isinstance(parent.get("x"), int):
            parent[data.draw(st.sampled_from(["x", "y"]))] += data.draw(st.sampled_from([-1, 1, 2]))
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[place[-1]]))
    fast = score_line(json.dumps(case))
    if fast is not None:
        assert fast == full_path(case)


def test_arboretums_empty_reordered_split_or_far_out_give_the_full_paths_answer() -> None:
    """The checks made over a whole table at once (one cell index for every arboretum, each card
    joined to one listed before it) answer per arboretum, as the full path does."""
    rng = random.Random(11)
    for k in range(120):
        case = random_case(rng)
        players = case["players"]
        seat = k % 4
        planted = players[seat]["arboretum"]
        if k % 6 == 0:
            players[seat]["arboretum"] = []  # an empty arboretum before, between or after others
        elif k % 6 == 1:
            rng.shuffle(planted)  # connected, but not listed in the order it grew
        elif k % 6 == 2:
            planted[-1]["x"] += 5  # one card away from the others
        elif k % 6 == 3:
            for card in planted:  # far from the origin: ints of more than one digit inside
                card["x"] += 2**12
        elif k % 6 == 4:
            for card in planted:  # at the edge of the coordinates the fast path takes
                card["x"] += 1015
                card["y"] -= 1015
        else:
            planted[0], planted[-1] = planted[-1], planted[0]  # the first card listed is not the first planted
        fast = score_line(json.dumps(case))
        full = full_path(case)
        assert fast is None or fast == full
        if k % 6 in (0, 1, 5):
            assert fast is not None and full is not None
        if k % 6 == 2:
            assert full is None


def _full_from_text(raw: bytes) -> str | None:
    try:
        return parse_case_text(raw.decode("utf-8")).score().to_json_text()
    except (ArboretumError, UnicodeDecodeError):
        return None


#: changes to a case's text that the parsed data does not show: (what, replace, by, still ordinary)
TEXT_CHANGES = [
    ("a key given twice, the last kept", b'"value": ', b'"value": 1, "value": ', True),
    ("a key given twice, the last out of range", b'"value": ', b'"value": 3, "value": 1', False),
    ("a key given twice, the first out of range", b'"value": ', b'"value": 9, "value": ', False),
    ("an escaped name", b'"Player 1"', b'"\\u0050layer 1"', True),
    ("an escaped species", b'"Oak"', b'"O\\u0061k"', True),
    ("a float that is a whole number", b'"x": 0', b'"x": 0.0', False),
    ("an exponent", b'"y": 0', b'"y": 0e0', False),
    ("true for one", b'"value": 1', b'"value": true', False),
    ("minus zero", b'"x": 0', b'"x": -0', True),
    ("a leading zero", b'"x": 0', b'"x": 00', False),
    ("Windows line ends", b", ", b",\r\n ", True),
    ("a byte-order mark", b'{"rules"', b'\xef\xbb\xbf{"rules"', False),
    ("bytes that are not UTF-8", b'"Player 2"', b'"Player \xff"', False),
    ("text after the case", b'{"rules"', b'{"rules"', False),
    ("spaces inside a list", b'"hand": [', b'"hand": [ ', True),
    ("a null arboretum", b'"arboretum": []', b'"arboretum": null', True),
    ("null rounds", b'{"rules"', b'{"rounds": null, "rules"', True),
    ("a number too large for 64 bits", b'"x": 0', b'"x": 123456789012345678901234567890', False),
    ("a control character in a name", b'"Player 3"', b'"Player\x013"', False),
]


@pytest.mark.parametrize("what, old, new, ordinary", TEXT_CHANGES, ids=[c[0] for c in TEXT_CHANGES])
def test_a_changed_text_gets_the_full_paths_answer(what: str, old: bytes, new: bytes, ordinary: bool) -> None:
    """The fast path reads the text itself (msgspec): whatever it accepts means what the standard
    library's reading means, and whatever it refuses, the full path answers."""
    rng = random.Random(12)
    tried = 0
    for _ in range(20):
        case = random_case(rng)
        if what == "a null arboretum":
            case["players"][1]["arboretum"] = []
        raw = json.dumps(case).encode()
        if old not in raw:
            continue
        tried += 1
        changed = raw.replace(old, new, 1) + (b" x" if what == "text after the case" else b"")
        fast = score_line(changed)
        full = _full_from_text(changed)
        if fast is not None:
            assert fast == full
        if ordinary:
            assert fast is not None and full is not None
        else:
            assert fast is None
    assert tried


def test_the_fast_path_leaves_typing_extensions_importable() -> None:
    """score_line keeps msgspec from importing typing_extensions (a fifth of the command's start);
    in a fresh process, whatever imports it afterwards still gets it."""
    program = (
        "import sys; import engine.score_line; assert 'typing_extensions' not in sys.modules; "
        "import typing_extensions; print(typing_extensions.__name__)"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "typing_extensions"
