"""A replay says why a bot moved: what the strong bot compared, in numbers, in the reader's words."""

from __future__ import annotations

import random

from flask import Flask

from engine.bots import HeuristicBot, StrongBot
from engine.bots.search import Reason
from engine.games import Game
from engine.standard import StandardState
from organizer.live.replay import EXPLAIN_PLAYOUTS, action_words, explain, reason_words


def _late_position() -> tuple[StandardState, int]:
    state = Game("standard", 2, seed=14).new_initial_state()
    assert isinstance(state, StandardState)
    rng = random.Random(14)
    while len(state.deck) > 6 or state.current_player() != 1 or state.phase != "discard":
        player = state.current_player()
        state.apply_action(HeuristicBot().choose(state, player, rng), player)
    return state, 1


def test_the_strong_bot_s_move_says_what_it_compared_in_how_many_futures() -> None:
    state, seat = _late_position()
    bot = StrongBot(iterations=EXPLAIN_PLAYOUTS, seconds=None)
    played = bot.choose(state, seat, random.Random(f"arboretum-live-bot:{state.game.seed}:{state.version}:{seat}"))
    reason = bot.last_reason
    assert isinstance(reason, Reason) and reason.runner_up is not None
    text = explain(state, seat, str(played), "strong")
    told = action_words(str(played), state.names)
    assert text.startswith(f"The strong bot compared {reason.candidates} moves in {reason.playouts} sampled futures "
                           f"of this game: {told} won ")
    assert f"The next best, {action_words(reason.runner_up, state.names)}, " in text
    assert "a mix of careful and careless players" in text
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


OAK = Reason("play Oak 5 at 1,0", 0.7, "discard Maple 2", 0.6, 40, wins=0.62, points=24.25, runner_up_wins=0.55,
             runner_up_points=22.95, candidates=6, opponents_mixed=True)


def test_the_reason_names_both_moves_and_the_points_between_them() -> None:
    assert reason_words(OAK, ["Ada", "Ben"]) == (
        "The strong bot compared 6 moves in 40 sampled futures of this game: plant Oak 5 at 1, 0 won 62% of them, "
        "with 24.2 points on average. The next best, discard Maple 2, won 55% and scored 1.3 points less. It "
        "played the others as a mix of careful and careless players, not as copies of itself.")


def test_a_move_kept_against_a_better_looking_one_says_why() -> None:
    kept = Reason("play Oak 5 at 1,0", 0.5, "discard Maple 2", 0.6, 8, wins=0.5, points=20.0, runner_up_wins=0.62,
                  runner_up_points=21.0, candidates=4, kept_rating=True)
    assert "The next best, discard Maple 2, did a little better in these few futures (won 62%), but not clearly " \
           "enough to leave the move its rules rate first." in reason_words(kept, ["Ada", "Ben"])


def test_the_draft_reason_says_what_it_read_from_the_passing() -> None:
    read = Reason("pick Oak 5 at 1,0", 0.7, "pick Maple 2 at 0,1", 0.6, 16, wins=0.5, points=25.0,
                  runner_up_wins=0.4, runner_up_points=24.0, candidates=6,
                  collecting=((1, ("Oak", "Maple")), (2, ("Willow",))))
    assert reason_words(read, ["Ada", "Ben", "Cy"]).endswith(
        "It dealt the cards it has not seen by what the others took and passed on: Ben seems to collect Oak and "
        "Maple and Cy seems to collect Willow.")


def test_an_unsearched_move_names_the_rules_choice_and_the_next_best() -> None:
    early = Reason("play Oak 5 at 1,0", 3.2, "discard Maple 2", 2.9, 0)
    assert reason_words(early, ["Ada", "Ben"]) == ("The strong bot plays the early turns by its rules without "
                                                   "searching: they rate plant Oak 5 at 1, 0 best, ahead of discard "
                                                   "Maple 2.")


def test_the_reason_is_told_in_the_reader_s_language(app: Flask) -> None:
    with app.test_request_context(headers={"Accept-Language": "de"}):
        text = reason_words(OAK, ["Ada", "Ben"])
    assert "40" in text and "62" in text and "1,3" in text and "Eiche 5" in text
    assert "sampled" not in text and "points" not in text
