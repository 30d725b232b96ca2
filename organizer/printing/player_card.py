"""Player cards: one card per player with the QR code of their own page, four to an A4
or Letter page, to cut and hand out at the desk. The card shows the player's name, the event and
the link; no e-mail address and no other player's anything."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm

from organizer.core.translate import _
from organizer.printing.errors import PrintingError
from organizer.printing.fonts import REGULAR, safe_text
from organizer.printing.layout import INK, MARGIN, MUTED, RULE, check_url, draw_fitted, draw_name, draw_qr, new_canvas, paper_size

CARDS_PER_PAGE = 4


@dataclass(frozen=True)
class PlayerCard:
    name: str
    url: str


def player_cards_pdf(event_name: str, cards: Sequence[PlayerCard], paper: str = "A4") -> bytes:
    """A PDF of the cards, two columns by two rows a page, cut lines between them."""
    if not cards:
        raise PrintingError("no players to print a card for")
    paper_size(paper)  # refuses an unknown paper before anything is drawn
    canvas, buffer, width, height = new_canvas(paper, _("%(event)s: player cards", event=event_name))
    card_w, card_h = (width - 2 * MARGIN) / 2, (height - 2 * MARGIN) / 2
    for index, card in enumerate(cards):
        url = check_url(card.url, f"card of {card.name}")
        if index and index % CARDS_PER_PAGE == 0:
            canvas.showPage()
        slot = index % CARDS_PER_PAGE
        x = MARGIN + (slot % 2) * card_w
        y = height - MARGIN - (slot // 2 + 1) * card_h
        canvas.setStrokeColor(RULE)
        canvas.setDash(2, 3)
        canvas.rect(x, y, card_w, card_h, stroke=1, fill=0)
        canvas.setDash()
        inner = card_w - 12 * mm
        canvas.setFillColor(MUTED)
        draw_fitted(canvas, x + 6 * mm, y + card_h - 12 * mm, event_name, inner, size=10)
        canvas.setFillColor(INK)
        draw_name(canvas, x + 6 * mm, y + card_h - 24 * mm, card.name, inner, size=16, min_size=10)
        side = min(inner, card_h - 48 * mm)
        draw_qr(canvas, url, x + (card_w - side) / 2, y + 18 * mm, side)
        canvas.setFillColor(MUTED)
        canvas.setFont(REGULAR, 7)
        canvas.drawCentredString(x + card_w / 2, y + 12 * mm, safe_text(_("Your table, your results, check-in: scan me")))
        draw_fitted(canvas, x + 6 * mm, y + 6 * mm, url, inner, size=6.5)
    canvas.save()
    return buffer.getvalue()
