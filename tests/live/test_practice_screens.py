"""What the practice form, the end of a game and the replay say: the form offers only
the choices the chosen game uses, the end of a game starts with the reader's own result, and the
draft's bonus column appears in drafts only."""

from __future__ import annotations

import html as html_module
import re

import pytest
from flask import Flask
from sqlmodel import Session

from engine import Game
from organizer.core.models import PracticeGame
from organizer.live import log as live_log
from organizer.live import practice as service
from tests.live.practice_games import finished_practice
from tests.live.support import sqlite_app, sqlite_session  # noqa: F401


def text_of(html: str) -> str:
    """The page's words, as a reader sees them (tags dropped, spaces folded)."""
    return " ".join(html_module.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def outcome_of(row: PracticeGame) -> object:
    state = live_log.replay(Game.from_json(row.game), row.action_log, row.log_version, 0.0).state
    assert state.is_terminal()
    return state.outcome()


def test_the_form_explains_each_game_bot_level_and_edition(sqlite_app: Flask) -> None:
    page = text_of(sqlite_app.test_client().get("/practice").text)
    assert "Q plants it by a fixed rule" in page and "more points than Q" in page
    assert "Normal (plays to win)" in page and "Strong (thinks about a second a move)" in page
    assert "2010 edition" in page and "different species" in page
    assert ".." not in page  # the old "any size).." typo, or any like it


def test_solo_ignores_the_seat_choices_it_does_not_use(sqlite_app: Flask, sqlite_session: Session) -> None:
    client = sqlite_app.test_client()
    response = client.post("/practice", data={"mode": "solo", "players": "9", "bot_1": "chess", "bot_3": "x",
                                              "edition": "2018", "name": "Robin"})
    assert response.status_code == 302
    token = response.headers["Location"].rsplit("/", 1)[1]
    row = service.find(sqlite_session, token)
    assert row is not None and row.seat_kinds == ["human", "q"]


def test_bot_seats_are_named_and_levels_checked(sqlite_app: Flask, sqlite_session: Session) -> None:
    client = sqlite_app.test_client()
    refused = client.post("/practice", data={"mode": "standard", "players": "3", "bot_1": "easy", "bot_2": "clever"})
    assert refused.status_code == 422
    assert "Choose one of: easy, normal, strong, random." in html_module.unescape(refused.text)
    response = client.post("/practice", data={"mode": "standard", "players": "3", "bot_1": "easy",
                                              "bot_2": "strong", "edition": "2018"})
    row = service.find(sqlite_session, response.headers["Location"].rsplit("/", 1)[1])
    assert row is not None
    assert list(service.game_of(row).names) == ["Player", "Easy bot 1", "Strong bot 2"]


@pytest.mark.parametrize("seed", [3, 8])
def test_the_end_of_a_solo_game_says_whether_you_beat_q(sqlite_app: Flask, sqlite_session: Session,
                                                         seed: int) -> None:
    row = finished_practice(sqlite_session, "solo", seed=seed)
    outcome = outcome_of(row)
    you, q = outcome.players  # type: ignore[attr-defined]
    page = text_of(sqlite_app.test_client().get(f"/practice/{row.token}").text)
    if outcome.winners == (0,):  # type: ignore[attr-defined]
        assert f"You beat Q: {you.total} points to {q.total}." in page
    elif you.total > q.total:
        assert f"Q wins: you have more points ({you.total} to {q.total}) but points in fewer species" in page
    else:
        assert f"Q wins: {q.total} points to your {you.total}." in page
    assert "To beat Q you need more points than Q and points in at least as many species." in page
    assert "Bonus" not in page


@pytest.mark.parametrize("mode,players,bots", [("standard", 4, ("random", "easy", "random")),
                                               ("draft", 3, ("random", "random"))])
def test_the_end_of_a_game_puts_your_result_first(sqlite_app: Flask, sqlite_session: Session, mode: str,
                                                   players: int, bots: tuple[str, ...]) -> None:
    row = finished_practice(sqlite_session, mode, players, bots)
    outcome = outcome_of(row)
    mine = outcome.players[0].total  # type: ignore[attr-defined]
    place = outcome.ranks[0]  # type: ignore[attr-defined]
    shared = list(outcome.ranks).count(place) > 1  # type: ignore[attr-defined]
    page = text_of(sqlite_app.test_client().get(f"/practice/{row.token}").text)
    sentence = f"You: {mine} points, {'shared ' if shared else ''}place {place} of {players}."
    assert sentence in page
    # the sentence comes before the table
    assert page.index(sentence) < page.index("Place Player")
    assert ("Bonus" in page) == (mode == "draft")
    # one row per player in the ranking, in order of place
    ranking = re.search(r'<table class="list ranking">.*?</table>', sqlite_app.test_client().get(
        f"/practice/{row.token}").text, re.S)
    assert ranking is not None
    places = [int(p) for p in re.findall(r'<td class="num">(\d+)</td>\s*<th scope="row">', ranking.group(0))]
    assert places == sorted(outcome.ranks)  # type: ignore[attr-defined]


def test_the_replay_shows_the_same_end(sqlite_app: Flask, sqlite_session: Session) -> None:
    row = finished_practice(sqlite_session, "solo", seed=5)
    client = sqlite_app.test_client()
    page = client.get(f"/replay/practice/{row.token}")
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Final scores" in text and ("You beat Q" in text or "Q wins" in text)
    species = next(iter(outcome_of(row).species))  # type: ignore[attr-defined]
    step = row.log_version
    assert f'?step={step}&amp;path={species.replace(" ", "%20")}' in page.text
    shown = client.get(f"/replay/practice/{row.token}?step={step}&path={species}")
    assert shown.status_code == 200 and 'class="shown"' in shown.text


def test_the_replay_of_your_game_puts_your_result_first(sqlite_app: Flask, sqlite_session: Session) -> None:
    row = finished_practice(sqlite_session, "standard", 2, ("random",), seed=6)
    outcome = outcome_of(row)
    page = text_of(sqlite_app.test_client().get(f"/replay/practice/{row.token}").text)
    assert f"You: {outcome.players[0].total} points" in page  # type: ignore[attr-defined]
    assert "(you)" in page


@pytest.mark.parametrize(("mode", "players", "bots"), [("solo", 1, ()), ("standard", 2, ("random",)),
                                                       ("draft", 3, ("random", "random"))])
def test_an_end_screen_says_the_game_is_over_once(sqlite_app: Flask, sqlite_session: Session, mode: str,
                                                  players: int, bots: tuple[str, ...]) -> None:
    row = finished_practice(sqlite_session, mode, players, bots, seed=8)
    page = text_of(sqlite_app.test_client().get(f"/practice/{row.token}").text)
    ends = page.count("The game is over.") + page.count("The draft is over.")
    assert ends == 1, page


def test_the_draft_s_points_say_why_a_player_without_the_right_scores_2(sqlite_app: Flask,
                                                                        sqlite_session: Session) -> None:
    for seed in range(3, 30):
        row = finished_practice(sqlite_session, "draft", 3, ("random", "random"), seed=seed)
        outcome = outcome_of(row)
        flat = [(p.name, name) for p in outcome.players  # type: ignore[attr-defined]
                for name, s in p.species.items() if not s.right and s.points == 2]
        if flat:
            break
    else:
        raise AssertionError("no draft gave flat points")
    html = sqlite_app.test_client().get(f"/practice/{row.token}").text
    assert html.count('class="flat"') == len(flat)
    assert "no right to score it, but at least one path of it: in the draft that still scores 2 points, flat." in (
        text_of(html))
    standard = finished_practice(sqlite_session, "standard", 2, ("random",), seed=8)
    page = sqlite_app.test_client().get(f"/practice/{standard.token}").text
    assert 'class="flat"' not in page and "flat" not in text_of(page)
