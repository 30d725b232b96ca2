"""Where Q put a card and why is said in the reader's language: the engine gives it as data
(QPlacement), the solo screen puts it in words with the catalogs."""

from __future__ import annotations

import html
import re
from pathlib import Path

from babel.support import Translations
from flask import Flask

from engine import Card
from engine.views import QPlacement, QReason
from organizer.live.view import q_placement_words
from tests.fixtures.organizer import HX
from tests.live.practice_games import practice_state
from tests.live.support import NONCE, STAMP, form_of, sqlite_app, sqlite_session  # noqa: F401

NOTE = re.compile(r'<p class="q-note muted"( lang="[^"]*")?>([^<]*)</p>')


def test_each_reason_has_its_sentence() -> None:
    oak, willow = Card("Oak", 3), "Willow"
    assert q_placement_words(QPlacement(oak, (0, 0), QReason.FIRST)) == "Q put Oak 3 at 0, 0: Q's first card."
    assert q_placement_words(QPlacement(oak, (2, -1), QReason.NO_GAIN)) == (
        "Q put Oak 3 at 2, -1: no cell adds to Q's paths, so the first free cell (top row, then left).")
    assert q_placement_words(QPlacement(oak, (1, 0), QReason.RAISES, (("Oak", 5),))) == (
        "Q put Oak 3 at 1, 0: it raises Q's best Oak path to 5.")
    assert q_placement_words(QPlacement(oak, (1, 0), QReason.RAISES, (("Oak", 5), (willow, 4)))) == (
        "Q put Oak 3 at 1, 0: it raises Q's best paths: Oak to 5, Willow to 4.")


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
    assert html.unescape(english.group(2)) == f"Q put {placement.card} at 0, 0: Q's first card."
    page, placement = _give_once(sqlite_app, "de")
    german = NOTE.search(page)
    assert german is not None and german.group(1) is None
    # the card is named as the German edition names its species, as everywhere else on the screen
    catalogs = Path(__file__).resolve().parents[2] / "organizer" / "core" / "translations"
    species = Translations.load(str(catalogs), ["de"]).gettext(placement.card.species)
    assert f"{species} {placement.card.value}" in html.unescape(german.group(2))
