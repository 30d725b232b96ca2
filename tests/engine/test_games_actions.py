"""Actions: text forms that round-trip, and bad text refused with a message naming it."""

from __future__ import annotations

import pytest

from engine.actions import DECK, SHARED_DISCARD, Discard, Draw, Give, Pick, Play, parse_action
from engine.cards import Card
from engine.errors import ActionParseError

OAK3 = Card("Oak", 3)
SPRUCE8 = Card("Blue Spruce", 8)


@pytest.mark.parametrize(
    "action, text",
    [
        (Draw(DECK), "draw deck"),
        (Draw(2), "draw discard 2"),
        (Draw(0), "draw discard 0"),
        (Draw(SHARED_DISCARD), "draw discard"),
        (Play(OAK3, (0, 1)), "play Oak 3 at 0,1"),
        (Play(OAK3, (-1, 0)), "play Oak 3 at -1,0"),
        (Play(SPRUCE8, (-12, -7)), "play Blue Spruce 8 at -12,-7"),
        (Discard(SPRUCE8), "discard Blue Spruce 8"),
        (Give(OAK3, (2, 0)), "give Oak 3 at 2,0"),
        (Pick(OAK3, (0, 1)), "pick Oak 3 at 0,1"),
        (Pick(OAK3, None), "pick Oak 3 discard"),
        (Pick(SPRUCE8), "pick Blue Spruce 8 discard"),
    ],
)
def test_text_form_round_trips(action: object, text: str) -> None:
    assert str(action) == text
    assert parse_action(text) == action


def test_parse_is_lenient_about_spaces_and_verb_case_only() -> None:
    assert parse_action("  Play   Oak 3 at 0, 1 ") == Play(OAK3, (0, 1))
    assert parse_action("DRAW DECK") == Draw(DECK)
    assert parse_action("pick Royal Poinciana 1 at 3 ,-2") == Pick(Card("Royal Poinciana", 1), (3, -2))


def test_cells_given_as_lists_become_tuples() -> None:
    action = Play(OAK3, [4, 5])  # type: ignore[arg-type]
    assert action.cell == (4, 5)
    assert hash(action) == hash(Play(OAK3, (4, 5)))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "draw",
        "draw pile",
        "draw discard two",
        "draw discard -1",
        "play Oak 3",
        "play Oak 3 at 0",
        "play Oak 3 at a,b",
        "play Oak 9 at 0,0",
        "play Oak at 0,0",
        "discard",
        "discard 3",
        "give Oak 3 at",
        "pick Oak 3",
        "pick Oak 3 at",
        "plant Oak 3 at 0,0",
    ],
)
def test_bad_text_is_refused_naming_it(text: str) -> None:
    with pytest.raises(ActionParseError) as caught:
        parse_action(text)
    assert repr(text) in str(caught.value)


def test_non_text_is_refused() -> None:
    with pytest.raises(ActionParseError):
        parse_action(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "build",
    [
        lambda: Draw(-1),
        lambda: Draw("pile"),
        lambda: Draw(True),
        lambda: Play("Oak 3", (0, 0)),  # type: ignore[arg-type]
        lambda: Play(OAK3, (0, 0, 0)),
        lambda: Play(OAK3, ("0", 1)),  # type: ignore[arg-type]
        lambda: Give(OAK3, "0,0"),  # type: ignore[arg-type]
        lambda: Pick(OAK3, (1.5, 0)),  # type: ignore[arg-type]
        lambda: Discard(None),  # type: ignore[arg-type]
    ],
)
def test_malformed_actions_cannot_be_built(build: object) -> None:
    with pytest.raises(ActionParseError):
        build()  # type: ignore[operator]


def test_actions_are_frozen_values() -> None:
    action = Play(OAK3, (0, 0))
    with pytest.raises(AttributeError):
        action.cell = (1, 1)  # type: ignore[misc]
    assert {Play(OAK3, (0, 0)), Play(Card("Oak", 3), (0, 0))} == {action}
