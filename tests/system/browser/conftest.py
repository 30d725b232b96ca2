"""A real Chromium (Debian's ``chromium``, never a downloaded browser) driven by Playwright
against the production server (gunicorn) on a loopback port and a temporary SQLite database.

Skipped, with the reason, when Chromium or Playwright is missing. Every test saves screenshots
of the pages it visits into ``tests/system/browser/screenshots/`` (ignored by git)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.system.faults.harness import ServerProcess

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}
#: The screenshots are for people to look over: a JPEG reads as well and Chromium encodes it in
#: half the CPU time of a PNG, which for a full page of text is most of the screenshot's cost.
SHOT_FORMAT: dict[str, Any] = {"type": "jpeg", "quality": 80}
#: Whether the page reaches below the screen (measured as Playwright measures a full page): one
#: that does not is all in the screen's own capture, which spares Chromium laying it out again.
TALLER = """() => Math.max(document.body.scrollHeight, document.documentElement.scrollHeight,
  document.body.offsetHeight, document.documentElement.offsetHeight, document.body.clientHeight,
  document.documentElement.clientHeight) > window.innerHeight"""

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
except ImportError:  # pragma: no cover - the test extras install it
    sync_playwright = None  # type: ignore[assignment]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = ""
    if sync_playwright is None:
        reason = "Playwright is not installed (pip install -e '.[test]')"
    elif not Path(CHROMIUM).exists():
        reason = f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    for item in items:
        if "tests/system/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


# Package scope, not session: Playwright's sync API allows one running instance per thread, and
# tests/test_browser.py starts its own after this package is done.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    SCREENSHOTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_device(browser: Browser) -> Iterator[Any]:
    """Open a device (a browser context of its own: cookies, screen size, touch)."""
    contexts: list[BrowserContext] = []

    def open_device(viewport: dict[str, int], touch: bool = True, **options: Any) -> Page:
        context = browser.new_context(viewport=viewport, has_touch=touch, accept_downloads=True,
                                      device_scale_factor=1, **options)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        # Which address failed: the console only says that something did.
        # A 5xx is a fault whatever asked for it: htmx logs a failed swap only as
        # "htmx:responseError" (which a 422 refusal also gives), so the status is checked here.
        page.on("response", lambda response: errors.append(f"{response.status} {response.url}")
                if response.status == 404 or response.status >= 500 else None)
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield open_device
    for context in contexts:
        context.close()


def shot(page: Page, name: str) -> Path:
    """A full-page screenshot named after the page and the device width; the page must fit the
    screen's width (wide tables scroll inside their own box, the page never sideways)."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    path = SCREENSHOTS / f"{name}-{width}.jpg"
    page.screenshot(path=str(path), full_page=page.evaluate(TALLER), **SHOT_FORMAT)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"{name} at {width} px is {overflow} px wider than the screen"
    return path


def no_js_errors(page: Page) -> None:
    # The console's bare "Failed to load resource" also covers Chromium's own /favicon.ico probe
    # on pages without an icon link; a 404 of the page's own requests is listed with its address.
    # htmx logs a poll it aborted on purpose (hx-sync: a tap replaces the poll in flight) as an
    # error, with its afterRequest; a 422 is a refusal shown on the screen (a tap on a screen the
    # poll had just replaced, say). Both are the design working, not a fault.
    expected = ("Failed to load resource: the server responded with a status of 404",
                "Failed to load resource: the server responded with a status of 422",
                "htmx:sendAbort", "htmx:afterRequest", "htmx:responseError")
    errors = [e for e in page.js_errors  # type: ignore[attr-defined]
              if "favicon" not in e and not e.startswith(expected)]
    assert not errors, f"JavaScript errors on {page.url}: {errors}"


@pytest.fixture
def empty_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """The production server on an empty database, as a club installs it."""
    with ServerProcess(f"sqlite:///{tmp_path / 'organizer.sqlite3'}", tmp_path / "instance", workers=2,
                       threads=4) as server:
        yield server
