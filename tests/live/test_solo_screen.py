"""The solo screen when Q places its own cards: one "Give" per card, and where Q put the last one."""

from __future__ import annotations

from engine.actions import DECK, Draw, parse_action
from engine.games import Game
from engine.solo import SoloState
from organizer.live.view import build_screen, q_placement_words


def test_the_solo_screen_offers_gifts_and_says_where_q_put_the_last_one() -> None:
    state = Game("solo", 1, seed=3).new_initial_state()
    assert isinstance(state, SoloState)
    for _ in range(2):
        state.apply_action(Draw(DECK))
        state.apply_action(Draw(DECK))
        state.apply_action(state.legal_actions()[0])
        screen = build_screen(state.view(0))
        assert [c.text for c in screen.gifts] == [str(c) for c in state.view(0).hand or ()]
        assert screen.place_verb == "" and not any(cell.legal for g in screen.grids for row in g.rows for cell in row)
        state.apply_action(parse_action(f"give {screen.gifts[0].text}"))
    screen = build_screen(state.view(0))
    note = screen.q_note
    placement = state.view(None).turns.q_placement  # type: ignore[union-attr]
    assert placement is not None and note == q_placement_words(placement, state.arboretums[1])
    assert note.startswith(f"Q planted {placement.card} (★) next to ") and note.endswith(".")
    assert f"{placement.cell[0]}, {placement.cell[1]}" not in note  # the screen shows no coordinates
    # the card Q placed is the one marked in Q's arboretum, and only that one
    marked = [(cell.x, cell.y) for row in screen.grids[1].rows for cell in row if cell.fresh]
    assert marked == [placement.cell] and not any(cell.fresh for row in screen.grids[0].rows for cell in row)
    gentle = Game("solo", 1, seed=3, q_places="player").new_initial_state()
    for action in (Draw(DECK), Draw(DECK)):
        gentle.apply_action(action)
    gentle.apply_action(gentle.legal_actions()[0])
    screen = build_screen(gentle.view(0))
    assert screen.place_verb == "give" and not screen.gifts and screen.q_note == ""
