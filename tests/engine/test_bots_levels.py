"""The three levels (easy, normal, strong) and the strong bot's search: legal in every mode, the
same decision from the same seed, blind to the cards its seat cannot see."""

from __future__ import annotations

import random

import pytest

from engine.bots import LEVELS, Bot, EasyBot, HeuristicBot, RandomBot, StrongBot, make_bot, play_game
from engine.bots.search import determinize, search
from engine.game import SIMULTANEOUS, State
from engine.games import Game

from .helpers import shuffle_hidden

MODES = [("standard", 2, "2018"), ("standard", 4, "2010"), ("draft", 3, "2018"), ("solo", 1, "2018")]


def small_strong() -> StrongBot:
    # the default horizon: searched in the last turns only, where a playout is short
    return StrongBot(iterations=8, seconds=None)


def test_levels_by_name() -> None:
    assert LEVELS == ("easy", "normal", "strong")
    assert isinstance(make_bot("normal"), HeuristicBot) and isinstance(make_bot("heuristic"), HeuristicBot)
    assert isinstance(make_bot("easy"), EasyBot) and isinstance(make_bot("Strong"), StrongBot)


@pytest.mark.parametrize("mode,players,edition", MODES)
def test_every_level_plays_whole_games_with_legal_actions(mode: str, players: int, edition: str) -> None:
    seats = players + 1 if mode == "solo" else players
    lineup: list[Bot] = [small_strong(), EasyBot(), HeuristicBot(), RandomBot()][:seats]
    state = Game(mode, players, seed=3, edition=edition).new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        player = state.current_player()
        for seat in state.awaited_seats() if player == SIMULTANEOUS else [player]:
            action = lineup[seat % len(lineup)].choose(state, seat, rng)
            assert action in state.legal_actions(seat)
            state.apply_action(action, seat)
    assert state.outcome() is not None


def _positions(mode: str, players: int, seed: int) -> list[tuple[State, int]]:
    seats = players + 1 if mode == "solo" else players
    state = Game(mode, players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_terminal():
        player = state.current_player()
        for seat in state.awaited_seats() if player == SIMULTANEOUS else [player]:
            if seat == 0 and step % 7 == 3:
                out.append((state.clone(), seat))
            state.apply_action(HeuristicBot().choose(state, seat, rng) if seat == 0 else
                               RandomBot().choose(state, seat, rng), seat)
            step += 1
    assert seats
    return out


@pytest.mark.parametrize("mode,players", [("standard", 3), ("standard", 2), ("draft", 3), ("solo", 1)])
def test_the_strong_bot_reads_only_its_seat_s_view(mode: str, players: int) -> None:
    """Every hidden card dealt anew (same public history): the same seed, the same decision and
    the same expected results."""
    shuffler = random.Random(5)
    for state, seat in _positions(mode, players, seed=31)[:4]:
        chosen, reason = search(state, seat, random.Random(8), 12, None, 3, 10**6)
        for _ in range(2):
            other = shuffle_hidden(state, seat, shuffler)
            again, again_reason = search(other, seat, random.Random(8), 12, None, 3, 10**6)
            assert again == chosen and again_reason == reason


@pytest.mark.parametrize("mode,players", [("standard", 3), ("draft", 3), ("solo", 1)])
def test_a_deal_agrees_with_everything_the_seat_sees(mode: str, players: int) -> None:
    for state, seat in _positions(mode, players, seed=12)[:8]:
        det = determinize(state, seat, random.Random(1))
        mine, theirs = state.view(seat), det.view(seat)
        assert theirs.seats == mine.seats and theirs.hand == mine.hand and theirs.phase == mine.phase
        assert theirs.turns == mine.turns or mine.turns is None or (
            theirs.turns is not None and (theirs.turns.piles, theirs.turns.draw_pile, theirs.turns.drawn)
            == (mine.turns.piles, mine.turns.draw_pile, mine.turns.drawn))
        assert sorted(map(str, det.legal_actions(seat))) == sorted(map(str, state.legal_actions(seat)))
        every = sorted(str(c) for cards in det.zones().values() for c in cards)  # type: ignore[attr-defined]
        assert every == sorted(str(c) for cards in state.zones().values() for c in cards)


def test_the_search_is_anytime_and_falls_back_on_the_heuristic() -> None:
    state, seat = _positions("standard", 2, seed=4)[3]
    heuristic = HeuristicBot().choose(state, seat, random.Random(0))
    assert StrongBot(iterations=0, seconds=None).choose(state, seat, random.Random(0)) == heuristic
    quick = StrongBot(iterations=10_000, seconds=0.01, horizon=10**6).choose(state, seat, random.Random(0))
    assert quick in state.legal_actions(seat)


def test_easy_slips_now_and_then_but_stays_plausible() -> None:
    positions = _positions("standard", 2, seed=9)
    differs = 0
    for state, seat in positions:
        best = HeuristicBot().choose(state, seat, random.Random(0))
        for draw in range(4):
            action = EasyBot().choose(state, seat, random.Random(draw))
            assert action in state.legal_actions(seat)
            differs += action != best
    assert 0 < differs < len(positions) * 4 * 0.6


def test_strong_bot_games_are_the_same_from_the_same_seed() -> None:
    games = []
    for _ in range(2):
        state = Game("standard", 2, seed=6).new_initial_state()
        play_game(state, [small_strong(), HeuristicBot()], random.Random(6))
        games.append(state.to_json())
    assert games[0] == games[1]


def test_longer_playouts_get_fewer_of_the_budget_s_playouts() -> None:
    """The budget counts two-player playouts: games whose playouts are longer play fewer at the
    horizon's start, and the whole budget once the end is near; standard 3 and 4 players, whose
    last playouts are far shorter than their first, more than the whole budget at the end."""
    from engine.bots.search import cards_left, default_horizon, playouts_for

    cases = (("standard", 2, False, False), ("standard", 3, True, True), ("standard", 4, True, True),
             ("draft", 3, True, False), ("solo", 1, False, False))
    for mode, players, fewer, more in cases:
        state = Game(mode, players, seed=2).new_initial_state()
        rng = random.Random(2)
        counts: dict[int, int] = {}
        while not state.is_terminal():
            if cards_left(state) <= default_horizon(state):
                counts[cards_left(state)] = playouts_for(state, 60)
            player = state.current_player()
            for seat in state.awaited_seats() if player == SIMULTANEOUS else [player]:
                state.apply_action(HeuristicBot().choose(state, seat, rng), seat)
        first, last = counts[max(counts)], counts[min(counts)]
        assert (last > 60 if more else last == 60) and (first < 60 if fewer else first == 60)
        assert list(counts.values()) == sorted(counts.values())  # never fewer as the end nears


def test_four_players_last_turns_get_playouts_in_proportion_to_the_game_left() -> None:
    """Standard 4 players' last playouts are short, so their decisions play more of them in
    proportion to how little is left (3 players: with its square root), up to three budgets."""
    from engine.bots.search import playouts_for

    four = Game("standard", 4, seed=3).new_initial_state()
    assert [playouts_for(four, 60, left=left) for left in (24, 12, 8, 4)] == [36, 72, 108, 180]
    three = Game("standard", 3, seed=3).new_initial_state()
    assert [playouts_for(three, 60, left=left) for left in (18, 8, 2)] == [51, 76, 153]
