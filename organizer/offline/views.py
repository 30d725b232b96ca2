"""A table tablet without a connection: the service worker and the web app manifest.

Both are served from the app's root rather than ``/static/``: a service worker controls only the
pages under the path it is served from, and the judge's pages are all over the app. The worker's
text is ``static/offline/sw.js`` with the list of the app shell's files and a version made from
their contents put in, so a deploy that changes a script or a style replaces the cached shell.
Both answers are public (they hold no event data) and revalidated on every load."""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, send_from_directory, url_for

from organizer.core.i18n import current_language
from organizer.core.templating import HTMX_SCRIPT
from organizer.core.translate import N_, gettext, ngettext

bp = Blueprint("offline", __name__)

#: What a table page needs to be drawn without a connection (beside the page itself).
SHELL = ("core/organizer.css", "core/organizer.js", "rounds/assistant.css", "rounds/assistant.js", HTMX_SCRIPT,
         "offline/page.js", "offline/offline.html", "core/favicon.svg", "offline/icons/icon-192.png")


#: What the scripts say (organizer.js, offline/page.js, offline/offline.html), by their English
#: text: every page renders them translated into a JSON block (base.html, ``page_strings``), which
#: page.js also keeps on the device for the offline page, a static file without a server to ask.
SCRIPT_STRINGS = (
    N_("The server could not be reached. Check the connection; what you typed is still here."),
    N_("The server took too long to answer. Try again; what you typed is still here."),
    N_("Saved on this tablet, not sent yet: %(label)s. It is sent when the connection returns."),
    N_("Saved on this tablet, not sent yet: %(label)s. It is sent when the connection returns, "
       "and the engine scores it then."),
    N_("Sent and saved: %(label)s."),
    N_("The server refused it."),
    N_("Sign in again to send it."),
    N_("The server answered %(status)s; it is tried again later."),
    N_("Entered as %(name)s: sign in as them to send it, or drop it."),
    N_("another account"),
    N_("Not sent: the table changed meanwhile. %(name)s saved version %(version)s."),
    N_("Not sent: the table changed meanwhile. %(name)s saved version %(version)s (%(figures)s)."),
    N_("Someone"),
    N_("It may be this very entry: it reached the server but the answer was lost. Compare, then drop yours if so."),
    N_("Not sent: %(reason)s"),
    N_("Not sent yet."),
    N_("Not sent yet; the engine scores it when it is sent."),
    N_("not sent yet"),
    N_("conflict"),
    N_("refused"),
    N_("Yours (%(mode)s, made from version %(version)s): %(figures)s"),
    N_("Open the table"),
    N_("Send mine over it"),
    N_("Try again"),
    N_("Drop mine, keep theirs"),
    N_("Drop it"),
    N_("Drop the entry for %(label)s? It was never saved on the server."),
    N_("Results kept on this tablet"),
    N_("Not sent yet: this table's entry is kept on this tablet and is sent when the connection returns. "
       "Saving again replaces it."),
    N_("Not sent yet: this table's entry is kept on this tablet and is sent when the connection returns; "
       "the engine scores it then, so no score is shown until then. Saving again replaces it."),
    N_("Event %(event)s · round %(round)s"),
    N_("Event %(event)s · round %(round)s · table %(table)s"),
    N_("No connection"),
    N_("This page is not kept on this tablet, and the server cannot be reached. Results saved while "
       "offline stay here and are sent when the connection returns."),
    N_("The round and table pages kept on this tablet:"),
    N_("Reconnecting… the game goes on as soon as the connection returns."),
)
#: Their plurals: the English singular and plural, the script choosing by the number.
SCRIPT_PLURALS = (
    ("%(count)s not sent yet", "%(count)s not sent yet"),
    ("%(count)s result entered on this tablet is not sent yet and will be lost. Sign out anyway?",
     "%(count)s results entered on this tablet are not sent yet and will be lost. Sign out anyway?"),
)
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def page_strings() -> dict[str, Any]:
    """The scripts' strings in the page's language, their ``%(name)s`` placeholders left for the
    script to fill; a plural is a pair, [one, other] (every language we ship has two forms)."""
    strings: dict[str, Any] = {"_language": current_language(), "Arboretum Organizer": gettext("Arboretum Organizer")}
    for message in SCRIPT_STRINGS:
        strings[message] = gettext(message, **_placeholders(message))
    for one, other in SCRIPT_PLURALS:
        keep = _placeholders(one + other)
        strings[one] = [ngettext(one, other, 1, **keep), ngettext(one, other, 2, **keep)]
    return strings


def _placeholders(message: str) -> dict[str, str]:
    return {name: f"%({name})s" for name in _PLACEHOLDER.findall(message)}


@cache
def _worker(static_folder: str, shell_urls: tuple[str, ...]) -> str:
    folder = Path(static_folder)
    digest = hashlib.sha256()
    for name in (*SHELL, "offline/sw.js"):
        # the files' names too: moved files are new URLs, which the devices must fetch again
        digest.update(name.encode())
        digest.update((folder / name).read_bytes())
    text = (folder / "offline" / "sw.js").read_text(encoding="utf-8")
    return (text.replace("__SHELL_VERSION__", digest.hexdigest()[:12])
            .replace("__SHELL_FILES__", json.dumps(list(shell_urls))))


@bp.get("/sw.js")
def service_worker() -> Any:
    assert current_app.static_folder is not None
    shell_urls = tuple(url_for("static", filename=name) for name in SHELL)
    return Response(_worker(current_app.static_folder, shell_urls), mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache"})


@bp.get("/favicon.ico")
def favicon() -> Any:
    """Browsers ask for /favicon.ico whatever the page's icon link says: answer with the SVG."""
    assert current_app.static_folder is not None
    return send_from_directory(current_app.static_folder, "core/favicon.svg", mimetype="image/svg+xml", max_age=86400)


@bp.get("/manifest.webmanifest")
def manifest() -> Any:
    icons = [{"src": url_for("static", filename=f"offline/icons/{name}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": purpose}
             for name, size, purpose in (("icon-192", 192, "any"), ("icon-512", 512, "any"),
                                         ("icon-512-maskable", 512, "maskable"))]
    body = {
        "name": "Arboretum Organizer", "short_name": "Arboretum",  # the product's name in every language
        "start_url": url_for("events.index"), "scope": "/", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#2e6b34", "icons": icons,
    }
    return Response(json.dumps(body, indent=1), mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


@bp.app_context_processor
def strings_for_scripts() -> dict[str, Any]:
    return {"page_strings": page_strings}
