"""The replay of a finished game, step by step (``organizer/live/replay.py``): every hand is
shown face up, Q's and the draft's hidden picks included, on a spectator's screen."""

from __future__ import annotations

import random
from typing import Any

from engine import Game, Pick, State, parse_action
from engine.bots import RandomBot, play_game
from organizer.live.replay import replay_step


def finished(mode: str, players: int, seed: int) -> tuple[Game, list[list[Any]], State]:
    game = Game(mode, players, seed=seed)
    state = play_game(game.new_initial_state(), [RandomBot()] * game.seats, random.Random(seed))
    log: list[list[Any]] = [[seat, str(action), f"n{i}", 0.0] for i, (seat, action) in enumerate(state.history)]
    return game, log, state


def test_a_solo_replay_shows_qs_face_down_hand_at_every_step() -> None:
    game, log, _ = finished("solo", 1, 4)
    step = 20
    page = replay_step(game, log, step, "", "Solo")
    position = game.new_initial_state()
    for seat, text, *_ in log[:step]:
        position.apply_action(parse_action(text), seat)
    q_cards = sorted(str(card) for card in position.hands[1])  # type: ignore[attr-defined]
    assert q_cards and sorted(card.text for card in page.hands[1][1]) == q_cards
    assert page.screen.viewer is None and page.step == step and page.total == len(log)
    assert [move.number for move in page.moves] == list(range(1, len(log) + 1))


def test_a_draft_replay_shows_the_hidden_picks_and_clamps_the_step() -> None:
    game, log, state = finished("draft", 3, 2)
    first_pick = replay_step(game, log, 1, "", "Draft")
    chosen = parse_action(log[0][1])
    assert isinstance(chosen, Pick)
    pending = first_pick.hands[log[0][0]][2]  # the chosen pick, still hidden in play
    assert pending is not None and pending[0].text == str(chosen.card) and pending[1] == (chosen.cell is not None)
    assert all(pending is None for seat, (_, _, pending) in enumerate(first_pick.hands) if seat != log[0][0])
    end, outcome = replay_step(game, log, 10_000, "", "Draft"), state.outcome()
    assert outcome is not None
    assert end.step == end.total == len(log) and end.screen.outcome is not None
    assert [p["total"] for p in end.screen.outcome["players"]] == [p.total for p in outcome.players]
    assert replay_step(game, log, -5, "", "Draft").step == 0
