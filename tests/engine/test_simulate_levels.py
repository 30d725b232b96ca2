"""``arboretum simulate --bots`` takes the three levels offered wherever a bot is chosen."""

from __future__ import annotations

import functools
import json

import pytest

from engine import bots
from engine.bots import LEVELS, StrongBot
from organizer.arboretum_command import main


@pytest.fixture
def quick_strong(monkeypatch: pytest.MonkeyPatch) -> None:
    # the strong bot by its level's name, at a small fixed budget: what is tested is that the
    # command takes the name and plays it, not how long a second of search is on this machine
    monkeypatch.setitem(bots.BOTS, "strong", functools.partial(StrongBot, iterations=8, seconds=None))


def test_simulate_accepts_the_three_levels(capsys: pytest.CaptureFixture[str], quick_strong: None) -> None:
    status = main(["simulate", "--mode", "standard", "--players", "3", "--games", "1", "--seed", "5",
                   "--bots", ",".join(LEVELS), "--json"])
    captured = capsys.readouterr()
    assert status == 0 and captured.err == ""
    summary = json.loads(captured.out)
    assert summary["games"] == 1
    assert [(seat["seat"], seat["bot"]) for seat in summary["seats"]] == [(0, "easy"), (1, "normal"), (2, "strong")]
    assert sum(seat["wins"] for seat in summary["seats"]) >= 1


@pytest.mark.parametrize("level", LEVELS)
def test_simulate_plays_solo_and_draft_at_each_level(capsys: pytest.CaptureFixture[str], quick_strong: None,
                                                     level: str) -> None:
    for argv in (["--mode", "solo"], ["--mode", "draft", "--players", "2"]):
        status = main(["simulate", *argv, "--games", "1", "--seed", "1", "--bots", level.upper(), "--json"])
        captured = capsys.readouterr()
        assert status == 0 and captured.err == "", argv
        summary = json.loads(captured.out)
        assert summary["games"] == 1 and summary["seats"][0]["bot"] == level
