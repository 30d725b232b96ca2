"""A whole club evening in German: a browser that asks for German gets the first run,
a new event, players imported and checked in, round 1 seated and published, a result entered and
confirmed, the standings, the public page and a player's own page — and no page on the way shows
an English string the German catalog translates.

The buttons and labels are found by their German text, taken from the same catalog the app
uses, so the test reads the pages as a German organizer does."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

from babel.messages.pofile import read_po
from babel.support import Translations
from playwright.sync_api import Page, expect

from tests.system.browser.conftest import TABLET, no_js_errors, shot
from tests.system.browser.support import settle
from tests.system.faults.harness import ServerProcess

pytestmark = pytest.mark.browser

TRANSLATIONS = Path(__file__).resolve().parents[3] / "organizer" / "core" / "translations"
PASSWORD = "richtig Pferd Batterie"
# German names and clubs, so no English word reaches the page from the data
PLAYERS = ["Anna Bäcker", "Bernd Öztürk", "Carla Weiß", "Dieter Krämer", "Erika Lindner", "Fritz Vogel",
           "Greta Sommer", "Heinz Adler"]
CSV = "name,club\n" + "\n".join(f"{name},{'Spielkreis Köln' if i % 2 else 'Brettspieltreff Bonn'}"
                                for i, name in enumerate(PLAYERS))


def german() -> Callable[..., str]:
    catalog = Translations.load(str(TRANSLATIONS), ["de"])

    def t(message: str, **values: Any) -> str:
        text = catalog.gettext(message)
        return text % values if values else text

    return t


def english_only_phrases() -> list[re.Pattern[str]]:
    """Phrases of the English source that the German catalog translates and that no German
    translation contains: finding one on a German page means a string escaped translation."""
    with (TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle, locale="de")
    german_text = " ".join(" ".join(m.string) if isinstance(m.string, tuple) else m.string
                           for m in catalog if m.id).casefold()
    phrases: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        source = message.id if isinstance(message.id, str) else message.id[0]
        translated = message.string if isinstance(message.string, str) else message.string[0]
        if translated == source:
            continue
        for piece in re.split(r"%\(\w+\)[sdif]|%%|<[^>]+>|[.:;,!?()“”\"'·→–…✓]", source):
            piece = " ".join(piece.split())
            words = re.findall(r"[A-Za-z]+", piece)
            # a phrase of two or more words, or one long word, that German never uses itself
            if (len(words) >= 2 or (words and len(words[0]) >= 6)) and piece.casefold() not in german_text:
                phrases.add(piece)
    return [re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])") for p in sorted(phrases, key=len, reverse=True)]


def visible_text(page: Page) -> str:
    """What a person reads or hears on the page: its text, labels, placeholders and titles."""
    return page.evaluate("""() => {
      const parts = [document.title, document.body ? document.body.innerText : ''];
      for (const e of document.querySelectorAll('[aria-label], [placeholder], [title], [alt], input[type=submit]'))
        parts.push(e.getAttribute('aria-label') || '', e.getAttribute('placeholder') || '',
                   e.getAttribute('title') || '', e.getAttribute('alt') || '', e.value || '');
      return parts.join('\\n');
    }""")


def no_english(page: Page, phrases: list[re.Pattern[str]], where: str) -> None:
    # "Arboretum" and the species codes are the same in every language
    text = visible_text(page)
    found = sorted({m.group(0) for pattern in phrases for m in [pattern.search(text)] if m})
    assert not found, f"{where} ({page.url}) shows English: {found[:12]}"
    assert page.locator("html").get_attribute("lang") == "de"


def test_a_club_evening_in_german(empty_server: ServerProcess, new_device: Any, browser: Any) -> None:
    t = german()
    if t("Create event") == "Create event":
        pytest.fail("the German catalog is not compiled (docs/translations.md)")
    phrases = english_only_phrases()
    base = empty_server.url
    context = browser.new_context(viewport=TABLET, locale="de-DE", has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.js_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))  # type: ignore[attr-defined]
    page.on("dialog", lambda dialog: dialog.accept())

    # First run: the first account
    page.goto(base + "/")
    expect(page).to_have_url(re.compile(r"/first-run$"))
    no_english(page, phrases, "first run")
    page.get_by_label(t("Your name")).fill("Tess")
    page.get_by_label(t("Password"), exact=True).fill(PASSWORD)
    page.get_by_label(t("Password again")).fill(PASSWORD)
    page.get_by_role("button", name=t("Create account and sign in")).click()
    expect(page).not_to_have_url(re.compile(r"/first-run$"))
    no_english(page, phrases, "events, empty")

    # A new event
    page.goto(base + "/events/new")
    no_english(page, phrases, "event form")
    page.get_by_label(t("Event name")).fill("Herbstturnier Köln")
    page.get_by_label(t("Date"), exact=True).fill("2026-10-03")
    page.get_by_role("button", name=t("Create event")).click()
    expect(page).to_have_url(re.compile(r"/events/\d+/players$"))
    event = re.search(r"/events/(\d+)/", page.url).group(1)  # type: ignore[union-attr]
    no_english(page, phrases, "players, empty")

    # Players imported and all checked in
    page.get_by_label(t("Paste the list")).fill(CSV)
    page.get_by_role("button", name=t("Import")).click()
    for name in PLAYERS:
        expect(page.get_by_text(name).first).to_be_visible()
    page.locator("form.bulk-check-in button[type=submit]").click()  # "Check in all", confirmed in the dialog
    expect(page.locator(".all-checked-in")).to_be_visible()
    no_english(page, phrases, "players, checked in")
    shot(page, "de-04-players")

    # Round 1 seated and published
    page.goto(f"{base}/events/{event}/rounds")
    no_english(page, phrases, "rounds")
    page.get_by_role("button", name=t("Propose seating for round %(number)d", number=1)).click()
    expect(page).to_have_url(re.compile(rf"/events/{event}/rounds/1$"))
    no_english(page, phrases, "round proposed")
    page.get_by_role("button", name=t("Publish round %(number)d", number=1)).click()
    no_english(page, phrases, "round published")
    shot(page, "de-06-round")

    # Table 1's result in totals, confirmed by the organizer
    page.goto(f"{base}/events/{event}/rounds/1/tables/1")
    no_english(page, phrases, "table 1")
    names = [s.strip() for s in page.locator("ol.seats li strong").all_inner_texts()]
    for i, name in enumerate(names):
        page.get_by_label(t("Points of %(name)s", name=name)).fill(str(40 - 5 * i))
        page.get_by_label(t("Species of %(name)s", name=name)).fill(str(6 - i % 2))
    page.get_by_role("button", name=t("Save result")).click()
    expect(page.locator("#stored-result")).to_be_visible()
    no_english(page, phrases, "table 1 entered")
    page.get_by_role("button", name=t("Organizer confirms")).click()
    expect(page.locator("#stored-result h2 .badge.ok")).to_be_visible()
    no_english(page, phrases, "table 1 confirmed")
    shot(page, "de-08-table")

    # The standings, the event's overview and its public page
    public = None
    for path, where in ((f"/events/{event}/standings", "standings"), (f"/events/{event}", "overview"),
                        (f"/events/{event}/audit", "history")):
        page.goto(base + path)
        no_english(page, phrases, where)
        if where == "overview":
            public = page.locator("a[href*='/e/']").first.get_attribute("href")
    assert public
    page.goto(public if public.startswith("http") else base + public)
    settle(page)
    for name in names:
        expect(page.get_by_text(name).first).to_be_visible()
    no_english(page, phrases, "public page")
    shot(page, "de-10-public")
    no_js_errors(page)
    context.close()
