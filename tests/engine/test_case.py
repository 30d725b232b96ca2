"""Score cases: the format's forms, and RULES.md §5 bad input named precisely."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.case import parse_case, parse_case_text
from engine.errors import ArboretumError, ArboretumShapeError, CardError, CaseError, DuplicateCardError, PlacementError

from .worked_example import CASE


def with_change(change) -> dict:
    case = copy.deepcopy(CASE)
    change(case)
    return case


def test_cards_as_text_and_objects_read_the_same() -> None:
    as_objects = with_change(lambda c: c["players"][0].update(hand=[
        {"species": t.rsplit(" ", 1)[0], "value": int(t.rsplit(" ", 1)[1])} for t in c["players"][0]["hand"]]))
    assert parse_case(as_objects).score().to_json() == parse_case(CASE).score().to_json()


def test_species_default_to_those_appearing_in_scorepad_order() -> None:
    assert parse_case(CASE).species == (
        "Blue Spruce", "Cassia", "Dogwood", "Jacaranda", "Maple", "Oak", "Royal Poinciana", "Willow")


def test_round_trip_through_to_json() -> None:
    case = parse_case(CASE)
    again = parse_case(json.loads(json.dumps(case.to_json())))
    assert again.score().to_json() == case.score().to_json()


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (lambda c: c["players"][0]["hand"].__setitem__(0, "Jacaranda 9"), CardError, "Talia), hand card 1"),
        (lambda c: c["players"][0]["hand"].__setitem__(0, "Jacaranda 0"), CardError, "value must be 1..8"),
        (lambda c: c["players"][0]["arboretum"][0].update(value=9), CardError, "Talia), arboretum card 1"),
        (lambda c: c["players"][0]["arboretum"][0].update(value="3"), CaseError, "value must be a whole number"),
        (lambda c: c["players"][0]["hand"].__setitem__(0, "Lilac 2"), CardError, "'Lilac' is not a species"),
        (lambda c: c.update(species=["Oak", "Maple", "Cassia", "Willow", "Dogwood", "Jacaranda"]), CardError,
         "not of a species in play"),
        (lambda c: c["players"][1]["hand"].__setitem__(0, "Oak 1"), DuplicateCardError, "Oak 1 appears twice"),
        (lambda c: c["players"][0]["arboretum"][1].update(x=0), PlacementError, "two cards in cell (0, 0)"),
        (lambda c: c["players"][0]["arboretum"][3].update(x=7, y=7), ArboretumShapeError, "Talia's arboretum"),
        (lambda c: c["players"][2]["hand"].pop(), CaseError, "Rina: 6 cards in hand"),
        (lambda c: c["players"][2].update(name="Talia"), CaseError, "'Talia' is used twice"),
        (lambda c: c.update(rules="standard-2019"), CaseError, "rules 'standard-2019'"),
        (lambda c: c.update(players=c["players"][:1]), CaseError, "1 players"),
        (lambda c: c.update(rounds=3), CaseError, "rounds is for the draft only"),
        (lambda c: c["players"][0]["arboretum"][0].pop("x"), CaseError, "x must be a whole number"),
        (lambda c: c["players"][0].update(hand="Oak 3"), CaseError, "hand must be a list"),
        (lambda c: c.update(colour="red"), CaseError, "unknown key(s) colour"),
    ],
)
def test_bad_cases_name_what_is_wrong(change, error: type[ArboretumError], words: str) -> None:
    with pytest.raises(error) as info:
        parse_case(with_change(change))
    assert words in str(info.value)


def test_mixed_editions_and_bad_json() -> None:
    draft = {"rules": "draft", "players": [
        {"name": "A", "arboretum": [{"x": 0, "y": 0, "species": "Royal Poinciana", "value": 1}]},
        {"name": "B", "arboretum": [{"x": 0, "y": 0, "species": "Crabapple", "value": 1}]}]}
    with pytest.raises(CaseError, match="one edition"):
        parse_case(draft)
    with pytest.raises(CaseError, match="not valid JSON"):
        parse_case_text("{")
    with pytest.raises(CaseError, match="JSON object"):
        parse_case([])


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, text=True, check=False)


def test_cli_scores_each_case_on_its_own_line(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(CASE))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(with_change(lambda c: c["players"][1]["hand"].__setitem__(0, "Oak 1"))))
    done = run_cli("score", str(good), str(bad), "-", stdin=json.dumps(CASE))
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["players"][0]["total"] == 19 and lines[0]["winners"] == ["Talia"]
    assert "Oak 1 appears twice" in lines[1]["error"] and "bad.json" in lines[1]["error"]
    assert lines[2] == lines[0]
    assert done.returncode != 0


def test_cli_succeeds_when_every_case_is_good(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(CASE))
    done = run_cli("score", str(good))
    assert done.returncode == 0 and json.loads(done.stdout)["winners"] == ["Talia"]
