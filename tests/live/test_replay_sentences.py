"""A replay tells each move as a sentence, as the seat screen does: a player's
name, what they did and the card as a chip (species code and number, the species' name for
screen readers), never the engine's action text ("give Oak 7 at 0,-9")."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from sqlmodel import Session

from engine import Draw, Pick, Play, parse_action
from organizer.live import practice as practice_service
from organizer.live.replay import replay_moves
from tests.live.practice_games import finished_practice
from tests.live.support import sqlite_app, sqlite_session  # noqa: F401

ENGINE_TEXT = re.compile(r"\b(draw (deck|discard|\d)|play [A-Z][a-z ]+ \d+ at|pick [A-Z][a-z ]+ \d+|give [A-Z])")


def _moves_list(html: str) -> list[str]:
    listed = re.search(r'<details class="moves">(.*?)</details>', html, re.S)
    assert listed, "the replay lists every move"
    return [re.sub(r"<[^>]+>", "", item) for item in re.findall(r"<li>(.*?)</li>", listed.group(1), re.S)]


def _log(db: Session, token: str) -> list[Any]:
    row = practice_service.find(db, token)
    assert row is not None
    return list(row.action_log)


def test_a_standard_replay_tells_every_move_and_names_the_cards_drawn(sqlite_app: Flask,
                                                                       sqlite_session: Session) -> None:
    row = finished_practice(sqlite_session, "standard", 2, ("random",), name="Robin", seed=5)
    log = _log(sqlite_session, row.token)
    client = sqlite_app.test_client()
    html = client.get(f"/replay/practice/{row.token}?step=1").text
    lines = _moves_list(html)
    assert len(lines) == len(log)
    assert not any(ENGINE_TEXT.search(line) for line in lines), [line for line in lines if ENGINE_TEXT.search(line)]
    first = parse_action(log[0][1])
    assert isinstance(first, Draw)  # the game starts with a draw; the reader is seat 0, Robin
    assert "You drew " in lines[0] or "You took " in lines[0]
    bot = next(i for i, entry in enumerate(log) if entry[0] == 1 and isinstance(parse_action(entry[1]), Draw)
               and parse_action(entry[1]).source == "deck")  # type: ignore[union-attr]
    # the card drawn as a chip: its code and number, then its name for screen readers ("Ja7Jacaranda 7")
    told = " ".join(lines[bot].split())
    assert re.search(r"\d+\. Random bot 1 drew [A-Z][a-z]\d+[A-Z][a-z ]+ \d+ from the draw pile\. \(bot\)", told), told
    play = next(i for i, entry in enumerate(log) if isinstance(parse_action(entry[1]), Play))
    card = parse_action(log[play][1]).card  # type: ignore[union-attr]
    assert f"{card.species} {card.value}" in lines[play] and "planted" in lines[play]  # the chip's name
    # the step's own headline tells the same sentence
    assert re.search(r"Move 1 of \d+: <strong>You (drew|took) ", html)


def test_a_draft_replay_names_each_pick_and_what_it_is_for(sqlite_session: Session) -> None:
    row = finished_practice(sqlite_session, "draft", 3, ("random", "random"), name="Robin", seed=2)
    log = _log(sqlite_session, row.token)
    moves = replay_moves(practice_service.game_of(row), log, reader=0)
    assert [move.number for move in moves] == list(range(1, len(log) + 1))
    for move, entry in zip(moves, log, strict=True):
        pick = parse_action(entry[1])
        assert isinstance(pick, Pick) and move.line.card is not None and move.line.card.text == str(pick.card)
        assert move.line.kind == ("pick_plant" if pick.cell is not None else "pick_discard")
        assert move.line.mine == (entry[0] == 0) and move.by == ("" if entry[0] == 0 else "bot")


def test_the_organizer_s_replay_says_no_one_is_you(sqlite_session: Session) -> None:
    row = finished_practice(sqlite_session, "solo", name="Robin", seed=3)
    moves = replay_moves(practice_service.game_of(row), _log(sqlite_session, row.token), reader=None)
    assert moves and not any(move.line.mine for move in moves)
    assert all(move.line.card is not None for move in moves)  # the game is over: every card is named
