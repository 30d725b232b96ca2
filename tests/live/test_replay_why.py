"""A replay says why a bot moved: the strong bot's expected result against the next best."""

from __future__ import annotations

import random

from engine.bots import HeuristicBot, StrongBot
from engine.games import Game
from engine.standard import StandardState
from organizer.live.replay import EXPLAIN_PLAYOUTS, action_words, explain


def _late_position() -> tuple[StandardState, int]:
    state = Game("standard", 2, seed=14).new_initial_state()
    assert isinstance(state, StandardState)
    rng = random.Random(14)
    while len(state.deck) > 6 or state.current_player() != 1 or state.phase != "discard":
        player = state.current_player()
        state.apply_action(HeuristicBot().choose(state, player, rng), player)
    return state, 1


def test_the_strong_bot_s_move_says_its_expected_result_against_the_next_best() -> None:
    state, seat = _late_position()
    bot = StrongBot(iterations=EXPLAIN_PLAYOUTS, seconds=None)
    played = bot.choose(state, seat, random.Random(f"arboretum-live-bot:{state.game.seed}:{state.version}:{seat}"))
    text = explain(state, seat, str(played), "strong")
    told = action_words(str(played), state.names)
    assert text.startswith(f"The strong bot: {told}: expected result ") and " against " in text
    assert "cut the search short" not in text
    other = next(a for a in state.legal_actions(seat) if a != played)
    assert f"prefers {told}" in explain(state, seat, str(other), "strong")
    assert explain(state, seat, str(played), "heuristic") == "The normal bot: the move it rates best."


def test_an_action_is_told_in_the_reader_s_words() -> None:
    names = ["Ada", "Ben"]
    assert action_words("draw deck", names) == "draw from the draw pile"
    assert action_words("draw discard 1", names) == "take the top card of the discard pile of Ben"
    assert action_words("play Oak 3 at 0,-1", names) == "plant Oak 3 at 0, -1"
    assert action_words("discard Jacaranda 8", names) == "discard Jacaranda 8"
    assert action_words("no such thing", names) == "no such thing"
