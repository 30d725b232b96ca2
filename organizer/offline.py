"""A table tablet without a connection (issue 15): the service worker and the web app manifest.

Both are served from the app's root rather than ``/static/``: a service worker controls only the
pages under the path it is served from, and the judge's pages are all over the app. The worker's
text is ``static/offline/sw.js`` with the list of the app shell's files and a version made from
their contents put in, so a deploy that changes a script or a style replaces the cached shell.
Both answers are public (they hold no event data) and revalidated on every load."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, url_for

from .templating import HTMX_SCRIPT

bp = Blueprint("offline", __name__)

#: What a table page needs to be drawn without a connection (beside the page itself).
SHELL = ("organizer.css", "organizer.js", "assistant.css", "assistant.js", HTMX_SCRIPT,
         "offline/page.js", "offline/offline.html", "favicon.svg", "icons/icon-192.png")


@cache
def _worker(static_folder: str, shell_urls: tuple[str, ...]) -> str:
    folder = Path(static_folder)
    digest = hashlib.sha256()
    for name in (*SHELL, "offline/sw.js"):
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


@bp.get("/manifest.webmanifest")
def manifest() -> Any:
    icons = [{"src": url_for("static", filename=f"icons/{name}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": purpose}
             for name, size, purpose in (("icon-192", 192, "any"), ("icon-512", 512, "any"),
                                         ("icon-512-maskable", 512, "maskable"))]
    body = {
        "name": "Arboretum Organizer", "short_name": "Arboretum",
        "start_url": url_for("events.index"), "scope": "/", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#2e6b34", "icons": icons,
    }
    return Response(json.dumps(body, indent=1), mimetype="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})
