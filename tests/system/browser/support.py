"""Helpers for the browser suite: the devices and the page checks every page gets (axe,
text that must not show, touch targets), and a club evening's steps (first run, an event, its
players checked in, a round seated and published)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.system.browser.conftest import PHONE, TABLET, shot

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core-4.14.1.min.js"


DEVICES = {"phone": PHONE, "tablet": TABLET}


def _device(browser: Browser, viewport: dict[str, int]) -> Page:
    # bypass_csp: the app's Content-Security-Policy (rightly) refuses the injected axe script
    context = browser.new_context(viewport=viewport, has_touch=True, device_scale_factor=1, bypass_csp=True)
    context.set_default_timeout(15_000)
    # axe-core in every page the context opens, parsed once per document instead of sent in
    context.add_init_script(path=str(AXE))
    return context.new_page()


#: htmx marks an element (or its indicator) with these classes from the request's start to the
#: swap's settling: a fragment the page asks for as it loads (hx-trigger="load") is in place once
#: none is left. The condition a check needs, where Playwright's "networkidle" waits 500 ms more.
SETTLED = """() => document.readyState === 'complete'
  && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"""


def settle(page: Page) -> None:
    """Wait for the page and the fragments it loads with it."""
    page.wait_for_function(SETTLED)


def with_axe(page: Page) -> None:
    """axe-core in the page: there already from a context of ``_device``, added otherwise."""
    if page.evaluate("() => typeof axe === 'undefined'"):
        page.add_script_tag(path=str(AXE))


def _sign_in(page: Page, base: str) -> None:
    page.goto(base + "/sign-in")
    page.fill("input[name=name]", "demo")
    page.fill("input[name=password]", "demo")
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(lambda url: "/sign-in" not in url)


def signed_in_cookies(browser: Browser, base: str) -> list[Any]:
    """The cookies of one sign-in as the demo's organizer, for each context of a module that
    browses signed in (added where the test signed in): a sign-in is two page loads and a password
    check, and no test that shares one signs out."""
    context = browser.new_context()
    _sign_in(context.new_page(), base)
    cookies = context.cookies()
    context.close()
    return list(cookies)


AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')}`);
}"""


SMALL_TARGETS = """() => {
  const found = [];
  const targets = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]';
  for (const e of document.querySelectorAll(targets)) {
    if (!e.checkVisibility({visibilityProperty: true})) continue;
    let box = e.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (e.type === 'checkbox' || e.type === 'radio') {
      const label = e.closest('label') || (e.id && document.querySelector(`label[for="${e.id}"]`));
      if (label) box = label.getBoundingClientRect();
    }
    if (e.tagName === 'A' && getComputedStyle(e).display === 'inline') {
      // WCAG 2.5.5's exception: a link inside a sentence
      const around = (e.parentElement ? e.parentElement.textContent : '').trim().length;
      if (around > e.textContent.trim().length + 2) continue;
    }
    if (box.width < 43.5 || box.height < 43.5)
      found.push(`${e.outerHTML.slice(0, 90)} (${Math.round(box.width)}x${Math.round(box.height)})`);
  }
  return found;
}"""


#: species codes under ``least`` px (a card's code must read without colour, on a phone too)
SMALL_CODES = """(least) => [...document.querySelectorAll('.cell.planted .code, .card-face .code, .species-code, .code')]
  .filter(e => e.checkVisibility({visibilityProperty: true}) && !e.closest('.visually-hidden, .sr'))
  .map(e => [e.textContent.trim(), parseFloat(getComputedStyle(e).fontSize)])
  .filter(([code, size]) => code && size < least).map(([code, size]) => `${code} at ${size} px`)"""
#: the least size of a species code, in CSS px
CODE_PX = 12


BROKEN_WORDS = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!parent || !parent.checkVisibility({visibilityProperty: true})) continue;
    // a web address or a code shown as typed is not a word: it may break anywhere
    if (parent.closest('script, style, .visually-hidden, .url, code')) continue;
    const words = /[^\\s\\-\u2010\u2013\u2014\\/\u00b7,:;()]{2,}/gu;
    let match;
    while ((match = words.exec(node.textContent))) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
      if (lines.size > 1) found.push(`"${match[0]}" in <${parent.tagName.toLowerCase()} class="${parent.className}">`);
    }
  }
  for (const e of document.querySelectorAll('body *')) {
    const style = getComputedStyle(e);
    const clips = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
    if (clips && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1 && e.textContent.trim()
        && e.checkVisibility({visibilityProperty: true}) && !e.closest('.visually-hidden'))
      found.push(`text cut off in <${e.tagName.toLowerCase()} class="${e.className}">: ${e.textContent.trim().slice(0, 40)}`);
  }
  return found.slice(0, 12);
}"""


def _check(page: Page, base: str, path: str, device: str, must_answer: bool = False) -> list[str]:
    try:
        response = page.goto(base + path)
    except PlaywrightError as error:
        if "Download is starting" in str(error):
            return []  # a file to save (a certificate, a PDF), not a page to look at
        raise
    if response is None or response.status != 200 or "text/html" not in response.headers.get("content-type", ""):
        # a route walked with made-up ids may rightly refuse; a player's page listed by hand must not
        return [f"{path} answered {response.status if response else 'nothing'}"] if must_answer else []
    settle(page)
    problems = []
    width = PHONE["width"] if device == "phone" else TABLET["width"]
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    if overflow > 1:
        problems.append(f"{overflow} px wider than the {width} px screen")
    with_axe(page)
    problems += page.evaluate(AXE_RUN)
    problems += [f"tap target too small: {t}" for t in page.evaluate(SMALL_TARGETS)]
    problems += [f"species code too small: {c}" for c in page.evaluate(SMALL_CODES, CODE_PX)]
    problems += [f"broken word: {w}" for w in page.evaluate(BROKEN_WORDS)]
    return [f"{path} on a {device}: {problem}" for problem in problems]


PLAYERS = ["Ada Moss", "Bram Oakley", "Cleo Birch", "Dev Patel", "Esme Rowan", "Finn Alder", "Gia Laurel",
           "Hugo Thorn", "Ines Maple", "Jon Hazel", "Kira Linden", "Léa Ashby"]


CSV = "name,club,email\n" + "\n".join(f"{name},{'Riverside' if i % 2 else 'Hilltop'},p{i}@example.org"
                                      for i, name in enumerate(PLAYERS))


PASSWORD = "correct horse battery"


def sign_in(page: Page, base: str) -> None:
    page.goto(base + "/sign-in")
    page.get_by_label("Name").fill("Tess")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("form.menu-sign-out")).to_be_attached()  # Sign out, in the closed menu


def first_run_and_event(page: Page, base: str) -> str:
    first_run(page, base)
    return new_event(page, base)


def first_run(page: Page, base: str) -> None:
    """The account made on an empty server's first page, signed in."""
    page.goto(base + "/")
    expect(page).to_have_url(re.compile(r"/first-run$"))
    shot(page, "01-first-run")
    page.get_by_label("Your name").fill("Tess")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create account and sign in").click()
    expect(page.locator("form.menu-sign-out")).to_be_attached()  # Sign out, in the closed menu
    shot(page, "02-events-empty")


def new_event(page: Page, base: str) -> str:
    """An event made with the event form (every entry mode on), signed in; its id."""
    page.goto(base + "/events/new")
    page.get_by_label("Event name").fill("Riverside Spring Open")
    page.get_by_label("Date").fill("2026-04-18")
    for mode in ("Totals", "Scorepad", "Scoring assistant"):
        page.get_by_label(re.compile(rf"{mode} \(")).check()
    shot(page, "03-event-form")
    page.get_by_role("button", name="Create event").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/players$"))
    match = re.search(r"/events/(\d+)/players", page.url)
    assert match
    return match.group(1)


def import_and_check_in(page: Page) -> None:
    page.get_by_label("Paste the list").fill(CSV)
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_text("12 players imported.")).to_be_visible()
    for name in PLAYERS:
        expect(page.get_by_role("cell", name=name).first).to_be_visible()
    # Check-in, one tap per player, as players arrive (HTMX swaps each row in place).
    for name in PLAYERS:
        row = page.locator("tr", has_text=name)
        row.get_by_role("button", name="Check in", exact=True).click()
        expect(row.get_by_role("button", name="✓ Checked in")).to_be_visible()
    expect(page.get_by_role("button", name="✓ Checked in")).to_have_count(12)
    page.reload()
    expect(page.get_by_text("12 checked in")).to_be_visible()
    shot(page, "04-players")


def seat_and_publish(page: Page, base: str, event: str) -> None:
    page.goto(f"{base}/events/{event}/rounds")
    page.get_by_role("button", name="Propose seating for round 1").click()
    expect(page).to_have_url(re.compile(rf"/events/{event}/rounds/1$"))
    shot(page, "05-round-proposed")
    page.get_by_role("button", name="Publish round 1").click()
    expect(page.get_by_text("published").first).to_be_visible()
    shot(page, "06-round-published")


def species_of(page: Page) -> list[str]:
    return [s.strip() for s in page.locator(".species-list .species .species-name").all_inner_texts()]


def seats_of(page: Page) -> list[str]:
    return [s.strip() for s in page.locator("ol.seats li strong").all_inner_texts()]


def assistant_case(species: list[str], seats: int) -> tuple[list[str], list[str]]:
    """Per seat: an arboretum (a row of four cards) and a hand of seven, all cards distinct."""
    cards = [f"{s} {v}" for v in range(1, 9) for s in species]
    arboretums, hands = [], []
    for seat in range(seats):
        mine = cards[seat * 11:(seat + 1) * 11]
        arboretums.append("\n".join(f"{x},0 {card}" for x, card in enumerate(mine[:4])))
        hands.append(", ".join(mine[4:]))
    return arboretums, hands
