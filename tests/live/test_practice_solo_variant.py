"""The solo form offers RULES §4's two ways of placing Q's cards: Q by its rule (the standard)
and the gentler variant where the player places them; each starts its game and plays to the end
through the screen."""

from __future__ import annotations

import html
import random
import re

from flask import Flask
from sqlmodel import Session, select

from organizer.core.models import PracticeGame
from tests.fixtures.organizer import HX, error_beside
from tests.live.practice_games import play_to_the_end, practice_state, start
from tests.live.support import NONCE, STAMP, form_of, sqlite_app, sqlite_session  # noqa: F401


def _stored_rule(app: Flask, url: str) -> str | None:
    with Session(app.extensions["db_engine"]) as db:
        row = db.exec(select(PracticeGame).where(PracticeGame.token == url.rsplit("/", 1)[1])).one()
        return row.game.get("q_places")


def test_the_form_offers_both_ways_q_s_cards_are_placed(sqlite_app: Flask) -> None:
    page = html.unescape(sqlite_app.test_client().get("/practice").text)
    radios = re.findall(r'<input type="radio" name="q_places" value="(\w+)"( checked)?>\s*<span><strong>([^<]+)</strong>',
                        page)
    assert radios == [("rule", " checked", "Q places its own cards (standard)"),
                      ("player", "", "You place Q's cards (gentler)")]
    assert '<fieldset class="field for-solo">' in page and "<legend>Q's cards</legend>" in page
    refused = sqlite_app.test_client().post("/practice", data={"mode": "solo", "q_places": "sideways"})
    assert refused.status_code == 422
    assert error_beside(refused.text, "q_places") == "Choose who places Q's cards: Q itself, or you."
    assert 'name="q_places" value="player">' in refused.text  # the form keeps what was sent


def test_q_places_its_own_cards_by_default(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    url = start(client, mode="solo")
    assert _stored_rule(sqlite_app, url) == "rule"
    token = url.rsplit("/", 1)[1]
    page = client.get(url).text
    for _step in range(3):  # draw twice, plant: then the screen offers one Give per card, no cell
        state = practice_state(sqlite_app, token)
        page = client.post(f"{url}/act", headers=HX, data={
            "nonce": NONCE.search(page).group(1), "stamp": STAMP.search(page).group(1),  # type: ignore[union-attr]
            **form_of(state.legal_actions(0)[0])}).text
    text = html.unescape(page)
    assert "Give Q a card" in text and "Q places it itself, where its paths gain the most." in text
    assert "Give to Q here" not in text
    assert "it plants each one by a fixed rule" in text


def test_the_gentler_variant_lets_the_player_place_q_s_cards(sqlite_app: Flask) -> None:
    client = sqlite_app.test_client()
    url = start(client, mode="solo", q_places="player", name="Robin")
    assert _stored_rule(sqlite_app, url) == "player"
    token = url.rsplit("/", 1)[1]
    page = client.get(url).text
    assert "choose where each one is planted in Q's arboretum (the gentler variant)" in html.unescape(page)
    for _step in range(3):
        state = practice_state(sqlite_app, token)
        page = client.post(f"{url}/act", headers=HX, data={
            "nonce": NONCE.search(page).group(1), "stamp": STAMP.search(page).group(1),  # type: ignore[union-attr]
            **form_of(state.legal_actions(0)[0])}).text
    text = html.unescape(page)
    assert "Choose a card, then tap a highlighted cell of Q's arboretum." in text
    assert 'aria-label="Give to Q here (0, 0)"' in text and "Q places it itself" not in text
    state, end = play_to_the_end(sqlite_app, client, url, random.Random(8))
    assert state.mode == "solo" and state.game.q_places == "player" and "Final scores" in end
    assert "Q planted " not in end  # no rule placed anything: no note of where Q put a card


def test_the_standard_and_draft_forms_ignore_the_solo_choice(sqlite_app: Flask) -> None:
    url = start(sqlite_app.test_client(), mode="standard", players="2", q_places="player")
    assert _stored_rule(sqlite_app, url) is None
