"""Rendering shared by the live seat pages, the practice games and the replays."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import request
from markupsafe import Markup

from .pages import render_page
from .services.live_log import Replayed
from .services.live_view import Screen, build_screen


@dataclass(frozen=True)
class SeatUrls:
    page: str
    act: str
    changed: str
    replay: str | None = None


def selected_card(screen: Screen) -> str:
    """The card the seat had chosen before a refresh (kept through polls and refusals)."""
    wanted = (request.values.get("card") or "").strip()
    return wanted if any(card.text == wanted for card in screen.hand) else ""


def render_seat(replayed: Replayed, seat: int, urls: SeatUrls, title: str, status: int = 200,
                message: str = "", message_kind: str = "error", **extra: Any) -> tuple[str, int]:
    """The seat's screen as a page, or just the ``#live`` fragment for HTMX (polls and forms)."""
    state = replayed.state
    screen = build_screen(state.view(seat), request.args.get("path", ""))
    return render_page("live/seat.html", "live_seat.html", status, screen=screen, urls=urls, title=title,
                       nonce=secrets.token_urlsafe(12), version=replayed.version, selected=selected_card(screen),
                       message=message, message_kind=message_kind, **extra)


def form_stamp() -> int | None:
    try:
        return int(request.form.get("stamp", ""))
    except ValueError:
        return None


@lru_cache(maxsize=4096)
def qr_svg(url: str, size_px: int = 168) -> Markup:
    """A QR code of ``url`` as inline SVG (the same encoder as the printed slips), one path."""
    from .printing.qr import qr_modules

    modules = qr_modules(url)
    count = len(modules)
    quiet = 4
    side = count + 2 * quiet
    parts = []
    for y, row in enumerate(modules):
        x = 0
        while x < count:
            if row[x]:
                start = x
                while x < count and row[x]:
                    x += 1
                parts.append(f"M{start + quiet} {y + quiet}h{x - start}v1h-{x - start}z")
            else:
                x += 1
    label = Markup.escape(url)
    return Markup(
        f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{size_px}" '
        f'height="{size_px}" role="img" aria-label="QR code of {label}" shape-rendering="crispEdges">'
        f'<rect width="{side}" height="{side}" fill="#fff"/><path fill="#000" d="{"".join(parts)}"/></svg>'
    )
