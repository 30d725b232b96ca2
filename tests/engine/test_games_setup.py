"""Game parameters, the seeded deal, saving as JSON and rebuilding by replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.cards import Edition, edition_species
from engine.errors import CaseError, GameSetupError
from engine.game import SIMULTANEOUS, State
from engine.games import Game, replay


def test_defaults_fill_species_and_names_from_the_seed() -> None:
    game = Game("standard", 3, seed=7)
    assert game.edition == Edition.E2018
    assert len(game.species or ()) == 8
    assert set(game.species or ()) | set(game.left_out or ()) == set(edition_species(Edition.E2018))
    assert game.names == ("Player 1", "Player 2", "Player 3")
    assert game.rules == "standard-2018"
    assert Game("standard", 3, seed=7) == game
    assert Game("standard", 2, seed=1, edition="2010").rules == "standard-2010"


@pytest.mark.parametrize("mode, players, species, rounds, seats", [
    ("standard", 2, 6, 1, 2), ("standard", 3, 8, 1, 3), ("standard", 4, 10, 1, 4),
    ("draft", 2, 7, 3, 2), ("draft", 3, 10, 3, 3), ("draft", 4, 9, 2, 4),
    ("solo", 1, 6, 1, 2),
])
def test_species_rounds_and_seats_per_mode(mode: str, players: int, species: int, rounds: int, seats: int) -> None:
    game = Game(mode, players, seed=3)
    assert len(game.species or ()) == species
    assert game.rounds == rounds
    assert game.seats == seats


def test_solo_names_are_the_player_then_q() -> None:
    assert Game("solo", 1).names == ("Player 1", "Q")
    assert Game("solo", 1, names=("Ada",)).names == ("Ada", "Q")
    assert Game("solo", 1, names=("Ada", "Quentin")).names == ("Ada", "Quentin")


def test_named_species_give_the_same_deal_as_the_drawn_ones() -> None:
    drawn = Game("standard", 2, seed=11)
    named = Game("standard", 2, seed=11, species=drawn.species)
    left_out = Game("standard", 2, seed=11, left_out=drawn.left_out)
    assert named == drawn == left_out
    assert named.new_initial_state().view(0) == drawn.new_initial_state().view(0)


def test_seed_decides_the_deal() -> None:
    a = Game("standard", 4, seed=1, species=edition_species(Edition.E2018)).new_initial_state()
    b = Game("standard", 4, seed=2, species=edition_species(Edition.E2018)).new_initial_state()
    again = Game("standard", 4, seed=1, species=edition_species(Edition.E2018)).new_initial_state()
    assert a.hands == again.hands and a.deck == again.deck
    assert a.hands != b.hands


@pytest.mark.parametrize("kwargs, words", [
    ({"mode": "chess", "players": 2}, "mode 'chess'"),
    ({"mode": "standard", "players": 5}, "5 players"),
    ({"mode": "standard", "players": 1}, "1 players"),
    ({"mode": "draft", "players": 1}, "1 players"),
    ({"mode": "solo", "players": 2}, "2 players"),
    ({"mode": "standard", "players": "2"}, "players '2'"),
    ({"mode": "standard", "players": 2, "seed": "x"}, "seed 'x'"),
    ({"mode": "standard", "players": 2, "seed": 1.5}, "seed 1.5"),
    ({"mode": "standard", "players": 2, "edition": "2020"}, "2020"),
    ({"mode": "standard", "players": 2, "species": ("Oak", "Maple")}, "2 species"),
    ({"mode": "standard", "players": 2, "species": ("Oak", "Maple", "Willow", "Cassia", "Dogwood", "Lilac")}, "'Lilac'"),
    ({"mode": "standard", "players": 2, "edition": "2010", "species": ("Oak",) * 6}, "'Oak'"),
    ({"mode": "standard", "players": 4, "left_out": ("Oak",)}, "leave out"),
    ({"mode": "standard", "players": 2, "species": ("Oak",) * 6, "left_out": ("Oak",)}, "not both"),
    ({"mode": "standard", "players": 2, "names": ("A",)}, "1 names given for 2 seats"),
    ({"mode": "standard", "players": 2, "names": ("A", "A")}, "'A' is used twice"),
    ({"mode": "standard", "players": 2, "names": ("A", " ")}, "non-empty names"),
    ({"mode": "standard", "players": 2, "names": "AB"}, "non-empty names"),
])
def test_bad_parameters_are_refused_with_a_precise_error(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(GameSetupError) as caught:
        Game(**kwargs)
    assert words in str(caught.value)


def play_random(game: Game, seed: int, actions: int | None = None) -> State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (actions is None or state.version < actions):
        player = state.current_player()
        seat = state.awaited_seats()[0] if player == SIMULTANEOUS else player
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return state


@pytest.mark.parametrize("game", [
    Game("standard", 3, seed=5), Game("standard", 2, seed=5, edition="2010"),
    Game("draft", 4, seed=5), Game("solo", 1, seed=5, names=("Ada",)),
    Game("solo", 1, seed=5, q_places="player"),
])
def test_to_json_replays_to_the_same_state(game: Game) -> None:
    for stop in (0, 9, None):
        state = play_random(game, 1, stop)
        saved = json.loads(json.dumps(state.to_json()))
        solo = {"q_places"} if game.mode == "solo" else set()
        assert set(saved) == {"mode", "players", "edition", "seed", "species", "names", "actions"} | solo
        assert all(isinstance(seat, int) and isinstance(text, str) for seat, text in saved["actions"])
        again = replay(saved)
        assert again.to_json() == state.to_json()
        assert again.version == state.version == len(saved["actions"])
        for seat in [None, *range(game.seats)]:
            assert again.view(seat) == state.view(seat)
        assert again.outcome() == state.outcome()
        assert replay(saved).to_json() == saved


def test_a_solo_game_saved_without_q_places_replays_with_the_player_placing() -> None:
    """A save without ``q_places`` is a game where the player chose Q's cells."""
    state = play_random(Game("solo", 1, seed=8, q_places="player"), 3, None)
    saved = json.loads(json.dumps(state.to_json()))
    del saved["q_places"]
    again = replay(saved)
    assert again.game.q_places == "player" and again.to_json()["actions"] == saved["actions"]
    assert again.outcome() == state.outcome()
    assert Game("solo", 1).q_places == "rule" and Game("standard", 2).q_places is None
    with pytest.raises(GameSetupError, match="only the solo game"):
        Game("standard", 2, q_places="rule")
    with pytest.raises(GameSetupError, match="q_places 'Q'"):
        Game("solo", 1, q_places="Q")


def test_clone_is_independent() -> None:
    state = play_random(Game("standard", 2, seed=3), 2, 6)
    copy = state.clone()
    assert copy.to_json() == state.to_json()
    rng = random.Random(0)
    copy.apply_action(copy.random_action(rng))
    assert copy.version == state.version + 1
    assert replay(state.to_json()).view(0) == state.view(0)


def test_a_bad_saved_action_names_its_index() -> None:
    saved = play_random(Game("standard", 2, seed=3), 2, 6).to_json()
    broken = dict(saved, actions=saved["actions"][:3] + [[saved["actions"][3][0], "play Oak 9 at 0,0"]])
    with pytest.raises(CaseError, match=r"actions\[3\]"):
        replay(broken)
    wrong_seat = dict(saved, actions=[[1, saved["actions"][0][1]]])
    with pytest.raises(CaseError, match=r"actions\[0\].*seat 1"):
        replay(wrong_seat)
    with pytest.raises(CaseError, match=r"actions\[1\]"):
        replay(dict(saved, actions=[saved["actions"][0], ["0", "draw deck"]]))


@pytest.mark.parametrize("obj, words", [
    ([], "JSON object"),
    ({"players": 2, "seed": 1}, "'mode'"),
    ({"mode": "standard", "players": 9, "seed": 1}, "9 players"),
    ({"mode": "standard", "players": 2, "seed": 1, "actions": "draw deck"}, "actions must be a list"),
    ({"mode": "standard", "players": 2, "seed": 1, "moves": []}, "unknown key"),
])
def test_bad_saved_games_are_refused(obj: Any, words: str) -> None:
    with pytest.raises(CaseError) as caught:
        replay(obj)
    assert words in str(caught.value)
