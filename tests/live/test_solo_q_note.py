"""Where Q put a card and why is said in the reader's language: the engine gives it as data
(QPlacement, and the cards around it with engine.placement), the solo screen puts it in words
with the catalogs: the cards it lies next to and the paths it raises, never grid coordinates."""

from __future__ import annotations

import html
import re
from pathlib import Path

from babel.support import Translations
from flask import Flask

from engine import Arboretum, Card
from engine.views import QPlacement, QReason
from organizer.live.view import q_placement_words
from tests.fixtures.organizer import HX
from tests.live.practice_games import practice_state
from tests.live.support import NONCE, STAMP, form_of, sqlite_app, sqlite_session  # noqa: F401

NOTE = re.compile(r'<p class="q-note muted"( lang="[^"]*")?>([^<]*)</p>')


def _arboretum(*cells: tuple[int, int, str]) -> Arboretum:
    return Arboretum.from_cells({(x, y): Card.parse(text) for x, y, text in cells})


def test_each_reason_has_its_sentence_by_neighbours_and_paths_never_coordinates() -> None:
    oak = Card("Oak", 3)
    assert q_placement_words(QPlacement(oak, (0, 0), QReason.FIRST), _arboretum((0, 0, "Oak 3"))) == (
        "Q planted Oak 3 (★): Q's first card.")
    q = _arboretum((0, 0, "Willow 8"), (1, 0, "Oak 3"))
    assert q_placement_words(QPlacement(oak, (1, 0), QReason.NO_GAIN), q) == (
        "Q planted Oak 3 (★) next to Willow 8: no spot raises Q's paths, so Q took the first free spot (top row "
        "first, then from the left).")
    # Oak 3 below Oak 1 and left of Oak 4: Q's Oak path 1-3-4, 3 cards, starting on a 1
    q = _arboretum((0, -1, "Oak 1"), (0, 0, "Oak 3"), (1, 0, "Oak 4"), (1, 1, "Willow 5"), (0, 1, "Willow 2"))
    assert q_placement_words(QPlacement(oak, (0, 0), QReason.RAISES, (("Oak", 4),)), q) == (
        "Q planted Oak 3 (★) next to Oak 1, Oak 4, Willow 2, raising Q's Oak path to 3 cards (4 points).")
    # one card raising two species: Willow 2-3-5 runs through it as well
    assert q_placement_words(QPlacement(oak, (0, 0), QReason.RAISES, (("Oak", 4), ("Willow", 3))), q) == (
        "Q planted Oak 3 (★) next to Oak 1, Oak 4, Willow 2, raising Q's Oak path to 3 cards (4 points), "
        "Willow path to 4 cards (4 points).")


def _give_once(app: Flask, language: str) -> tuple[str, QPlacement]:
    """A solo game started and played to its first gift through the pages in ``language``."""
    client = app.test_client()
    headers = {"Accept-Language": language}
    url = client.post("/practice", data={"mode": "solo", "edition": "2018"}, headers=headers).headers["Location"]
    token = url.rsplit("/", 1)[1]
    page = client.get(url, headers=headers).text
    for _step in range(4):  # two draws, a plant, the gift to Q
        state = practice_state(app, token)
        page = client.post(f"{url}/act", headers={**HX, **headers}, data={
            "nonce": NONCE.search(page).group(1), "stamp": STAMP.search(page).group(1),  # type: ignore[union-attr]
            **form_of(state.legal_actions(0)[0])}).text
    placement = practice_state(app, token).view(0).turns.q_placement
    assert placement is not None
    return page, placement


def test_the_solo_screen_says_it_in_the_reader_s_language(sqlite_app: Flask) -> None:
    page, placement = _give_once(sqlite_app, "en")
    english = NOTE.search(page)
    assert english is not None and english.group(1) is None, "the note is no longer marked as English text"
    assert html.unescape(english.group(2)) == f"Q planted {placement.card} (★): Q's first card."
    page, placement = _give_once(sqlite_app, "de")
    german = NOTE.search(page)
    assert german is not None and german.group(1) is None
    # the card is named as the German edition names its species, as everywhere else on the screen
    catalogs = Path(__file__).resolve().parents[2] / "organizer" / "core" / "translations"
    species = Translations.load(str(catalogs), ["de"]).gettext(placement.card.species)
    assert f"{species} {placement.card.value}" in html.unescape(german.group(2))
