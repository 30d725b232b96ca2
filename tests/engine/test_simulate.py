"""``arboretum simulate``: summaries, JSON, replayable output, bad arguments."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.games import replay
from engine.simulate import ProgressBar, game_seed, lineup_for, simulate

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["simulate", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "--mode", "standard", "--players", "4", "--games", "4", "--bots", "heuristic,random", "--seed", "3", "--json"
    )
    assert status == 0 and err == ""
    summary = json.loads(out)
    assert out.count("\n") == 1  # one JSON object on one line
    assert summary["games"] == 4
    assert [(s["seat"], s["bot"]) for s in summary["seats"]] == [
        (0, "heuristic"), (1, "random"), (2, "heuristic"), (3, "random")
    ]
    for seat in summary["seats"]:
        assert seat["games"] == 4
        assert seat["win_rate"] == seat["wins"] / 4
        assert seat["mean_score"] >= 0 and seat["sd_score"] >= 0
    # every game has at least one winner; a shared win counts for each winner
    assert sum(s["wins"] for s in summary["seats"]) >= 4
    assert summary["mean_turns"] > 10
    by_bot = {row["bot"]: row for row in summary["by_bot"]}
    assert by_bot["heuristic"]["games"] == 8
    assert by_bot["heuristic"]["wins"] == summary["seats"][0]["wins"] + summary["seats"][2]["wins"]


def test_same_command_same_summary(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("--mode", "draft", "--players", "3", "--games", "3", "--bots", "random", "--seed", "9", "--json")
    first = run(capsys, *argv)[1]
    assert run(capsys, *argv)[1] == first
    assert run(capsys, *argv[:-3], "--seed", "10", "--json")[1] != first


def test_human_summary(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--mode", "draft", "--players", "2", "--games", "4", "--bots", "random,heuristic")
    assert status == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    assert "4 draft games, 2 players" in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("seat"))
    assert "win rate" in lines[header] and "mean score" in lines[header] and "sd" in lines[header]
    assert lines[header + 1].split()[:3] == ["0", "random", "4"]
    assert lines[header + 2].split()[:3] == ["1", "heuristic", "4"]
    assert "mean game length: 14.0 picks" not in out  # two players play three rounds: 21 picks
    assert "mean game length: 21.0 picks" in out


def test_solo_seats_are_the_player_and_q(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--mode", "solo", "--games", "5", "--bots", "random", "--json")
    summary = json.loads(out)
    assert status == 0 and summary["players"] == 1
    player, q = summary["seats"]
    assert (player["seat"], player["bot"], q["seat"], q["bot"]) == (0, "random", 1, "Q")
    assert player["wins"] + q["wins"] == 5  # Q wins exactly the games the player loses


def test_out_replays_to_the_same_outcomes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "games.jsonl"
    status, out, _ = run(
        capsys, "--mode", "standard", "--players", "3", "--games", "4", "--edition", "2010",
        "--bots", "random", "--seed", "5", "--out", str(out_file), "--json",
    )
    assert status == 0
    summary = json.loads(out)
    lines = out_file.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    wins = [0, 0, 0]
    scores = [0, 0, 0]
    for index, line in enumerate(lines):
        saved = json.loads(line)
        assert saved["seed"] == game_seed(5, index) and saved["edition"] == "2010"
        state = replay(saved)
        assert state.is_terminal()
        outcome = state.outcome()
        assert outcome is not None
        for seat in outcome.winners:
            wins[seat] += 1
        for seat, player in enumerate(outcome.players):
            scores[seat] += player.total
    assert [s["wins"] for s in summary["seats"]] == wins
    assert [s["mean_score"] for s in summary["seats"]] == [total / 4 for total in scores]


def test_rotating_seats() -> None:
    assert lineup_for(["heuristic", "random"], 4, 0, rotate=False) == ["heuristic", "random", "heuristic", "random"]
    assert lineup_for(["heuristic", "random", "random"], 3, 1, rotate=True) == ["random", "heuristic", "random"]
    assert lineup_for(["heuristic", "random", "random"], 3, 1, rotate=False) == ["heuristic", "random", "random"]
    summary = simulate("draft", 2, 4, ["heuristic", "random"], seed=1, rotate=True)
    rows = summary.to_json()["seats"]
    assert [(r["seat"], r["bot"], r["games"]) for r in rows] == [
        (0, "heuristic", 2), (0, "random", 2), (1, "heuristic", 2), (1, "random", 2)
    ]


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--mode", "standard", "--players", "5"], "--players 5: a standard game is for 2, 3 or 4 players"),
        (["--mode", "draft", "--players", "1"], "--players 1: a draft game is for 2, 3 or 4 players"),
        (["--mode", "solo", "--players", "2"], "--players 2: the solo game is for 1 player"),
        (["--bots", "heuristic,clever"], "unknown bot 'clever': expected one of random, easy, normal, heuristic, strong"),
        (["--bots", ""], "--bots: name at least one bot"),
        (["--games", "0"], "--games 0: play at least 1 game"),
        (["--mode", "solo", "--bots", "heuristic,random"], "the solo game has one player seat"),
        (["--players", "2", "--bots", "random,random,random"], "3 bots named for 2 seats"),
    ],
)
def test_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert message in err and "Traceback" not in err


def test_unwritable_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "--games", "1", "--out", str(tmp_path / "missing" / "games.jsonl"))
    assert status == 2 and out == ""
    assert "cannot write" in err and "games.jsonl" in err
    status, _, err = run(capsys, "--games", "1", "--out", str(tmp_path))  # a directory
    assert status == 2 and "cannot write" in err


def test_not_a_number_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--games", "many"])
    assert exit_info.value.code == 2
    assert "'many' is not a whole number" in capsys.readouterr().err


def test_progress_bar_only_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    plain, terminal = io.StringIO(), Terminal()
    for stream in (plain, terminal):
        bar = ProgressBar(3, stream)
        for done in (1, 2, 3):
            bar.update(done)
        bar.close()
    assert plain.getvalue() == ""
    assert "3/3 games" in terminal.getvalue()


def test_command_line_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--mode", "solo", "--games", "2", "--json"],  # default bot
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 2 and summary["seats"][0]["bot"] == "heuristic"
    assert result.stderr == ""
