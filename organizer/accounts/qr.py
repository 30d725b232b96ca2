"""QR codes shown on pages as inline SVG: an account's one-time link, and likewise a seat's
private link, the public event page and a player's own page."""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup

from organizer.core.translate import _


@lru_cache(maxsize=4096)
def qr_svg(url: str, size_px: int = 168) -> Markup:
    """A QR code of ``url`` as inline SVG (the same encoder as the printed slips), one path."""
    from organizer.printing.qr import qr_modules

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
    label = Markup.escape(_("QR code of %(link)s", link=url))
    return Markup(
        f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" width="{size_px}" '
        f'height="{size_px}" role="img" aria-label="{label}" shape-rendering="crispEdges">'
        f'<rect width="{side}" height="{side}" fill="#fff"/><path fill="#000" d="{"".join(parts)}"/></svg>'
    )
