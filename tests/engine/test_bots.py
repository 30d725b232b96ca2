"""Bots: legal actions in every mode, seeded determinism, hidden information, strength."""

from __future__ import annotations

import random

import pytest

from engine.arboretum import Arboretum
from engine.bots import BOTS, Bot, HeuristicBot, RandomBot, UnknownBotError, make_bot, play_game
from engine.bots.paths import PathTable
from engine.cards import Card
from engine.errors import ArboretumError, GameOverError, NotYourTurnError
from engine.game import SIMULTANEOUS, State
from engine.games import Game
from engine.paths import EIGHT_BONUS_DRAFT, EIGHT_BONUS_STANDARD, PathFinder
from tests.engine.helpers import shuffle_hidden

CONFIGS = [
    ("standard", 2, "2018"),
    ("standard", 3, "2010"),
    ("standard", 4, "2018"),
    ("draft", 2, "2018"),
    ("draft", 3, "2018"),
    ("draft", 4, "2018"),
    ("solo", 1, "2018"),
]


def checked_game(mode: str, players: int, edition: str, seed: int, bots: list[Bot]) -> State:
    """Play a whole game, checking every bot answer is one of the seat's legal actions."""
    state = Game(mode, players, seed=seed, edition=edition).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        player = state.current_player()
        seats = state.awaited_seats() if player == SIMULTANEOUS else [player]
        for seat in seats:
            action = bots[seat].choose(state, seat, rng)
            assert action in state.legal_actions(seat), f"{bots[seat].name} seat {seat}: {action}"
            state.apply_action(action, seat)
    return state


@pytest.mark.parametrize("mode,players,edition", CONFIGS)
def test_both_bots_play_whole_games_with_legal_actions(mode: str, players: int, edition: str) -> None:
    seats = players + 1 if mode == "solo" else players
    for seed, first in ((11, HeuristicBot()), (12, RandomBot())):
        other = RandomBot() if isinstance(first, HeuristicBot) else HeuristicBot()
        bots: list[Bot] = [first if seat % 2 == 0 else other for seat in range(seats)]
        state = checked_game(mode, players, edition, seed, bots)
        assert state.outcome() is not None


def test_the_heuristic_plants_every_draft_pick() -> None:
    state = play_game(Game("draft", 3, seed=5).new_initial_state(), [HeuristicBot()] * 3, random.Random(5))
    outcome = state.outcome()
    assert all(len(arb) == 21 for arb in state.arboretums)
    assert all(p.bonus == 3 for p in outcome.players)


@pytest.mark.parametrize("mode,players", [("standard", 3), ("draft", 2), ("solo", 1)])
def test_same_seed_same_game(mode: str, players: int) -> None:
    def run() -> dict[str, object]:
        seats = players + 1 if mode == "solo" else players
        bots: list[Bot] = [HeuristicBot(), RandomBot(), HeuristicBot()][:seats]
        state = Game(mode, players, seed=42).new_initial_state()
        return play_game(state, bots, random.Random(7)).to_json()  # type: ignore[no-any-return]

    assert run() == run()


def test_make_bot() -> None:
    assert set(BOTS) == {"random", "heuristic", "easy", "normal", "strong"}
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert isinstance(make_bot("Random"), RandomBot)
    assert all(isinstance(make_bot(name), Bot) for name in BOTS)
    with pytest.raises(UnknownBotError, match="unknown bot 'clever'.*random, easy, normal, heuristic, strong"):
        make_bot("clever")
    assert issubclass(UnknownBotError, ArboretumError) and issubclass(UnknownBotError, ValueError)


def test_bots_refuse_a_finished_game() -> None:
    state = play_game(Game("solo", 1, seed=1).new_initial_state(), [RandomBot(), RandomBot()], random.Random(1))
    for bot in (RandomBot(), HeuristicBot()):
        with pytest.raises(GameOverError):
            bot.choose(state, 0, random.Random(0))


def test_bots_refuse_a_seat_whose_turn_it_is_not() -> None:
    state = Game("standard", 3, seed=2).new_initial_state()
    for bot in (RandomBot(), HeuristicBot()):
        with pytest.raises(NotYourTurnError):
            bot.choose(state, 1, random.Random(0))


def test_random_bot_is_uniform_over_legal_actions() -> None:
    state = Game("standard", 2, seed=3).new_initial_state()
    for _ in range(2):
        state.apply_action(state.legal_actions(0)[0], 0)  # two draws: now a play with many options
    legal = state.legal_actions(0)
    assert len(legal) >= 9
    counts: dict[object, int] = {}
    rng = random.Random(9)
    for _ in range(len(legal) * 60):
        action = RandomBot().choose(state, 0, rng)
        counts[action] = counts.get(action, 0) + 1
    assert set(counts) == set(legal)
    assert max(counts.values()) < 3 * min(counts.values())


# -- the heuristic reads only what its seat may see ------------------------------------------


def _positions(mode: str, players: int, seed: int) -> list[tuple[State, int]]:
    """Seeded positions of a game between heuristic and random bots, with the seat to decide."""
    seats = players + 1 if mode == "solo" else players
    bots: list[Bot] = [HeuristicBot() if seat == 0 else RandomBot() for seat in range(seats)]
    state = Game(mode, players, seed=seed).new_initial_state()
    rng = random.Random(seed)
    positions = []
    step = 0
    while not state.is_terminal():
        player = state.current_player()
        seats_now = state.awaited_seats() if player == SIMULTANEOUS else [player]
        for seat in seats_now:
            if seat == 0 and step % 5 == 2:
                positions.append((state.clone(), seat))
            state.apply_action(bots[seat].choose(state, seat, rng), seat)
            step += 1
    return positions


@pytest.mark.parametrize("mode,players", [("standard", 3), ("standard", 2), ("draft", 3), ("solo", 1)])
def test_heuristic_choice_ignores_hidden_cards(mode: str, players: int) -> None:
    positions = _positions(mode, players, seed=21)
    assert len(positions) >= 4
    shuffler = random.Random(99)
    for state, seat in positions[:12]:
        chosen = HeuristicBot().choose(state, seat, random.Random(1))
        for _ in range(2):
            shuffled = shuffle_hidden(state, seat, shuffler)
            assert HeuristicBot().choose(shuffled, seat, random.Random(1)) == chosen


# -- strength --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode,players,games,at_least",
    [
        # Fixed seeds, so these cannot flake. Each bar is one a bot playing at its seat share
        # would reach with a chance of 4% or less; the heuristic clears them (1,000-game figures
        # in docs/performance.md).
        # seat share 1/2: at least 7 of 8
        ("standard", 2, 8, 7),
        # seat share 1/4: at least 6 of 8 (2010 edition, heuristic seat rotated)
        ("standard", 4, 8, 6),
        # seat share 1/3: at least 7 of 9
        ("draft", 3, 9, 7),
        # seat share 1/4: at least 6 of 8
        ("draft", 4, 8, 6),
        # the random bot wins about 1 solo game in 4: at least 6 of 8
        ("solo", 1, 8, 6),
    ],
)
def test_heuristic_beats_random_bots(mode: str, players: int, games: int, at_least: int) -> None:
    seats = players + 1 if mode == "solo" else players
    wins = 0
    for index in range(games):
        heuristic_seat = 0 if mode == "solo" else index % seats
        bots: list[Bot] = [RandomBot()] * seats
        bots[heuristic_seat] = HeuristicBot()
        edition = "2010" if players == 4 and mode == "standard" else "2018"
        game = Game(mode, players, seed=500 + index, edition=edition)
        state = play_game(game.new_initial_state(), bots, random.Random(index))
        wins += heuristic_seat in state.outcome().winners
    assert wins >= at_least


# -- the incremental path table agrees with PathFinder ---------------------------------------


def test_path_table_matches_path_finder_on_random_grids() -> None:
    species = ["Oak", "Willow", "Maple"]
    for trial in range(60):
        rng = random.Random(trial)
        deck = [Card(name, value) for name in species for value in range(1, 9)]
        rng.shuffle(deck)
        arboretum = Arboretum()
        for card in deck[: rng.randrange(0, 16)]:
            arboretum.place(card, rng.choice(arboretum.legal_cells()))
        new = deck[-1]
        for eight in (EIGHT_BONUS_STANDARD, EIGHT_BONUS_DRAFT):
            table = PathTable(arboretum, eight)
            for name in species:
                path = PathFinder(arboretum).best_path(name, eight)
                assert table.best(name) == (path.points if path else 0)
            for cell in arboretum.legal_cells():
                after = arboretum.copy()
                after.place(new, cell)
                finder = PathFinder(after)
                gains = dict(table.gains(cell, new.value, new.species))
                for name in species:
                    path = finder.best_path(name, eight)
                    expected = path.points if path else 0
                    assert table.best_after(name, cell, new.value, new.species) == expected
                    assert table.best(name) + gains.get(name, 0) == expected


@pytest.mark.parametrize("edition", ["2018", "2010"])
def test_knowledge_from_the_public_log_is_true(edition: str) -> None:
    """Cards a seat remembers another taking from a face-up pile really are in that hand, and
    every card is either seen, remembered or unseen, exactly once."""
    from engine.bots.knowledge import turn_knowledge

    state = Game("standard", 3, seed=8, edition=edition).new_initial_state()
    rng = random.Random(8)
    remembered = 0
    while not state.is_terminal():
        seat = state.current_player()
        know = turn_knowledge(state, seat)
        for other, cards in enumerate(know.known):
            assert set(cards) <= set(state.hands[other])  # type: ignore[attr-defined]
            remembered += len(cards) if other != seat else 0
        planted = [card for arboretum in state.arboretums for card in arboretum.cards()]  # type: ignore[attr-defined]
        assert know.planted == {s: sum(1 << c.value for c in planted if c.species == s) for s in state.species}
        visible = list(know.hand) + [c for pile in know.piles for c in pile] + planted
        everything = visible + [c for cards in know.known for c in cards] + know.unseen
        assert sorted(everything) == sorted(Card(s, v) for s in state.species for v in range(1, 9))
        by_species: dict[str, list[int]] = {}
        for card in know.unseen:
            by_species.setdefault(card.species, []).append(card.value)
        assert know.unseen_values == by_species
        state.apply_action(state.random_action(rng), seat)
    assert remembered > 0
