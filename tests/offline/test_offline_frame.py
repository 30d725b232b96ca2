"""The organizer's frame: the top bar's menu holds every place and the language
choice, /favicon.ico answers, and the scripts' messages come translated from the page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from organizer.core.models import Event
from organizer.offline.views import SCRIPT_PLURALS, SCRIPT_STRINGS


def _menu(html: str) -> str:
    found = re.search(r'<details class="site-menu">(.*?)</details>\s*</header>', html, re.S)
    assert found, "no menu in the top bar"
    return found.group(1)


def test_the_menu_holds_every_place_the_language_choice_and_sign_out(signed_in: FlaskClient, event: Event) -> None:
    page = signed_in.get(f"/events/{event.id}/standings").text
    menu = _menu(page)
    for place in ("/club/", "/practice", "/scorepad", "/organizers"):
        assert f'href="{place}' in menu or place in menu, place
    assert ">Accounts</a>" in menu  # reachable without knowing the user name is a link
    for language in ("English", "Deutsch", "Français", "Español", "Nederlands"):
        assert f">{language}</a>" in menu
    assert "Sign out" in menu and "Signed in as Tess" in menu
    # the menu's button is no generic button[type=submit], which tests and scripts look for first
    assert re.search(r'<button[^>]*type="submit"', menu) is None
    # the event's name is in the top bar, linking to its overview
    assert f'class="topbar-event" href="/events/{event.id}">{event.name}</a>' in page


def test_signed_out_pages_offer_sign_in_in_the_menu(client: FlaskClient, organizer_account: Any) -> None:
    page = client.get("/sign-in").text
    menu = _menu(page)
    assert "Sign out" not in menu and 'href="/sign-in"' in menu and ">Deutsch</a>" in menu


def test_favicon_ico_answers_for_everyone(client: FlaskClient) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.mimetype == "image/svg+xml" and answer.data.lstrip().startswith(b"<svg")


def test_the_scripts_strings_come_with_the_page_in_its_language(client: FlaskClient, organizer_account: Any) -> None:
    page = client.get("/sign-in", headers={"Accept-Language": "de"}).text
    assert '<html lang="de">' in page
    block = re.search(r'<script type="application/json" id="page-strings">(.*?)</script>', page, re.S)
    assert block
    strings = json.loads(block.group(1))
    assert strings["_language"] == "de"
    assert set(SCRIPT_STRINGS) <= set(strings)
    for message in SCRIPT_STRINGS:  # the placeholders stay for the script to fill
        assert set(re.findall(r"%\((\w+)\)s", strings[message])) == set(re.findall(r"%\((\w+)\)s", message))
    for one, _other in SCRIPT_PLURALS:
        assert len(strings[one]) == 2 and all("%(count)s" in form for form in strings[one])


def test_the_offline_page_marks_every_sentence_for_translation() -> None:
    html = (Path(__file__).resolve().parents[2] / "static" / "offline" / "offline.html").read_text()
    marked = [" ".join(text.split()) for text in re.findall(r"<(?:h1|p|span)[^>]*data-translate[^>]*>(.*?)</", html, re.S)]
    assert len(marked) == 4
    assert set(marked) - {"Arboretum Organizer"} <= set(SCRIPT_STRINGS)
