"""The score command's fast path (``engine/score_line.py``) prints exactly what the full path
(``parse_case(...).score().to_json_text()``) prints, and leaves every fault to the full path."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.case import parse_case
from engine.errors import ArboretumError
from engine.score_line import score_line

from .score_cases import random_case, varied_case


def full_path(data: Any) -> str | None:
    """The full path's line, or None when it refuses the case."""
    try:
        return parse_case(data).score().to_json_text()
    except ArboretumError:
        return None


def assert_same(data: Any) -> str | None:
    fast = score_line(copy.deepcopy(data))
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
    assert score_line(case) is None


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


@settings(max_examples=300, deadline=None, derandomize=True)
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
    fast = score_line(json.loads(json.dumps(case)))
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
        fast = score_line(copy.deepcopy(case))
        full = full_path(case)
        assert fast is None or fast == full
        if k % 6 in (0, 1, 5):
            assert fast is not None and full is not None
        if k % 6 == 2:
            assert full is None
