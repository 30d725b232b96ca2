"""The strong bot does not assume that everyone plays like the normal bot, reads a draft's passing,
and says what it compared (engine.bots.search, engine.bots.reading)."""

from __future__ import annotations

import random
from typing import cast

from engine.bots import HeuristicBot, StrongBot
from engine.bots.reading import pickers, tastes, weighted_hand
from engine.bots.search import OPPONENTS, Reason, determinize, opponent_slips
from engine.cards import Card
from engine.draft import DraftState
from engine.games import Game


def test_each_deal_draws_the_other_seats_from_a_mix_and_the_bot_plays_itself_straight() -> None:
    rng = random.Random(3)
    drawn = [opponent_slips(4, 2, rng, OPPONENTS) for _ in range(300)]
    assert all(slips[2] == 0.0 for slips in drawn)
    rates = {rate for slips in drawn for seat, rate in enumerate(slips) if seat != 2}
    assert rates == {rate for rate, _ in OPPONENTS} and len(rates) > 1
    assert drawn == [opponent_slips(4, 2, random.Random(3), OPPONENTS) for _ in range(1)] + drawn[1:]


def _draft_after(players: int, picks: int, seed: int) -> DraftState:
    state = Game("draft", players, seed=seed).new_initial_state()
    assert isinstance(state, DraftState)
    rng = random.Random(seed)
    bot = HeuristicBot()
    for _ in range(picks):
        for seat in state.awaited_seats():
            state.apply_action(bot.choose(state, seat, rng), seat)
    return state


def test_a_seat_is_read_by_what_it_took_and_the_good_cards_it_passed_on() -> None:
    state = _draft_after(3, 1, seed=5)
    # in the first round seat 2 hands its hand on to seat 0
    taken = next(card for card in state.arboretums[2].cards())
    passed = [card for card in state.hands[0] if card.value >= 5 and card.species != taken.species]
    assert passed  # the deal of seed 5 gives seat 0 good cards of other species
    read = tastes(state, 0)
    assert read.by_seat[2][taken.species] == 1.0
    assert all(read.by_seat[2][card.species] < 0 for card in passed)
    assert read.by_seat[0] == {}
    # seat 1 handed its hand to seat 2, not to seat 0: seat 0 knows only what it planted
    assert all(value > 0 for value in read.by_seat[1].values())


def test_hands_are_dealt_away_from_the_species_the_pickers_collect() -> None:
    pool = [Card(name, value) for name in ("Oak", "Maple") for value in range(1, 9)]
    collector = {"Oak": 4.0}
    oaks = plain = 0
    for trial in range(400):
        rng = random.Random(trial)
        shuffled = rng.sample(pool, len(pool))  # the caller's pool comes shuffled
        oaks += sum(c.species == "Oak" and c.value >= 6 for c in weighted_hand(list(shuffled), 4, [collector], rng))
        plain += sum(c.species == "Oak" and c.value >= 6 for c in weighted_hand(list(shuffled), 4, [], rng))
    assert oaks < 0.6 * plain


def test_the_hands_dealt_keep_every_card_the_seat_knows() -> None:
    state = _draft_after(4, 2, seed=8)
    for seat in range(4):
        assert len(pickers(state, seat)) == 2
        read = tastes(state, seat)
        det = cast(DraftState, determinize(state, seat, random.Random(1), read=read))
        assert sorted(map(str, det.hands[seat])) == sorted(map(str, state.hands[seat]))
        assert sorted(map(str, sum(det.hands, []) + det.deck + det.out)) == \
            sorted(map(str, sum(state.hands, []) + state.deck + state.out))


def test_a_searched_move_tells_what_it_compared_in_numbers() -> None:
    state = _draft_after(3, 17, seed=4)
    bot = StrongBot(iterations=30, seconds=None)
    seat = state.awaited_seats()[0]
    action = bot.choose(state, seat, random.Random(2))
    reason = bot.last_reason
    assert isinstance(reason, Reason)
    assert reason.action == str(action) and reason.playouts > 0 and reason.candidates >= 2
    assert reason.runner_up is not None and reason.runner_up != reason.action
    assert 0.0 <= reason.wins <= 1.0 and reason.runner_up_wins is not None and 0.0 <= reason.runner_up_wins <= 1.0
    assert 0 < reason.points < 60 and reason.opponents_mixed
    assert all(other != seat and species for other, species in reason.collecting)


def test_an_early_move_names_the_rules_best_and_next_best() -> None:
    state = _draft_after(3, 1, seed=4)
    bot = StrongBot(iterations=30, seconds=None)
    bot.choose(state, 0, random.Random(2))
    reason = bot.last_reason
    assert isinstance(reason, Reason) and reason.playouts == 0
    assert reason.runner_up is not None and reason.runner_up.split(" at ")[0] != reason.action.split(" at ")[0]
