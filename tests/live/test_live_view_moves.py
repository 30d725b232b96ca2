"""The seat screen's "what just happened" log and its one-line step: the last moves as
sentences built from the engine's public record, naming no card the seat may not see."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, State
from engine.bots import make_bot
from organizer.live.view import build_screen, recent_moves
from tests.fixtures.examples import examples
from tests.live.support import hidden_from


def play(state: State, moves: int, rng: random.Random) -> None:
    for _move in range(moves):
        if state.is_terminal():
            return
        seat = state.awaited_seats()[0]
        state.apply_action(make_bot("random").choose(state, seat, rng), seat)


@settings(max_examples=examples(60), deadline=None)
@given(mode=st.sampled_from(["standard", "solo"]), players=st.integers(2, 4), seed=st.integers(0, 10_000),
       moves=st.integers(0, 120))
def test_the_log_never_names_a_card_hidden_from_the_seat(mode: str, players: int, seed: int, moves: int) -> None:
    game = Game(mode=mode, players=1 if mode == "solo" else players, seed=seed)
    state = game.new_initial_state()
    play(state, moves, random.Random(seed))
    seats = 1 if mode == "solo" else players
    for seat in range(seats):
        view = state.view(seat)
        lines = recent_moves(state.last_moves(6), view)
        assert len(lines) == len(state.last_moves(6))  # every move is told
        hidden = set(hidden_from(state, seat))
        named = {line.card.text for line in lines if line.card is not None}
        assert not named & hidden, f"seat {seat} was told {sorted(named & hidden)}"
        for line in lines:
            assert line.kind in {"draw_deck", "draw_pile", "draw_own_pile", "draw_solo_pile", "play", "discard", "give"}
            if line.kind in {"draw_pile", "draw_own_pile", "draw_solo_pile"}:
                assert line.card is not None  # it lay face up on the pile: everyone saw it taken
            assert line.mine == (line.name == view.names[seat])


def test_the_seat_that_draws_reads_its_own_cards_and_the_others_only_the_source() -> None:
    game = Game(mode="standard", players=3, seed=4, names=("Rosa", "Sven", "Ines"))
    state = game.new_initial_state()
    play(state, 2, random.Random(1))  # Rosa draws twice
    drawn = [card for _source, card in state.drawn]  # type: ignore[attr-defined]
    mine = recent_moves(state.last_moves(6), state.view(0))
    assert [line.kind for line in mine] == ["draw_deck", "draw_deck"]  # the piles are empty at the start
    assert [line.card.text if line.card else None for line in mine] == [str(card) for card in drawn]
    theirs = recent_moves(state.last_moves(6), state.view(1))
    assert all(line.card is None and line.name == "Rosa" and not line.mine for line in theirs)


def test_each_step_says_what_it_asks() -> None:
    game = Game(mode="standard", players=2, seed=2, names=("Rosa", "Sven"))
    state = game.new_initial_state()
    asked = []
    for _move in range(4):
        asked.append((build_screen(state.view(0)).step, build_screen(state.view(1)).step))
        play(state, 1, random.Random(3))
    assert asked[0] == ("Draw your first card: from the draw pile or the top of a discard pile.",
                        "Rosa draws a first card.")
    assert asked[1][0].startswith("Draw your second card") and asked[1][1] == "Rosa draws a second card."
    assert asked[2][0].startswith("Play a card into your arboretum") and asked[2][1] == "Rosa plays a card."
    assert asked[3][0] == "Discard a card from your hand onto your discard pile."
    assert asked[3][1] == "Rosa discards a card."

    draft = Game(mode="draft", players=3, seed=2).new_initial_state()
    assert build_screen(draft.view(0)).step.startswith("Pick a card to keep")
