"""The scorepad page: blank (any club can print it) or pre-filled for one table of a round."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from engine.cards import Edition, edition_species, species_code
from organizer.core.translate import _, round_name, species_name
from organizer.printing.data import SeatInfo
from organizer.printing.errors import PrintingError
from organizer.printing.fonts import BOLD, REGULAR, safe_text
from organizer.printing.layout import (
    INK,
    MARGIN,
    MUTED,
    PAPER_NAMES,
    RULE,
    SHADE,
    draw_fitted,
    draw_name,
    draw_qr,
    fit_lines,
    new_canvas,
    page_footer,
    paper_size,
    parse_edition,
    species_hex,
    split_lines,
    swatch,
    text_on,
)

PLAYER_COUNTS = (2, 3, 4)
STANDARD_SPECIES_COUNT = {2: 6, 3: 8, 4: 10}


@dataclass(frozen=True)
class ScorepadHeader:
    """What is printed above the grid of a pre-filled scorepad."""

    event: str
    round_number: int
    table: int
    result_url: str
    left_out: tuple[str, ...]
    subtitle: str | None = None
    #: the round's stage: a round of the finals is printed by its name ("Final table")
    stage: str = "swiss"


def tie_break_text(edition: Edition, game_format: str) -> str:
    if game_format == "solo":
        return _("You win only if you scored points in at least as many species as Q and your total "
                 "is strictly higher than Q's; otherwise Q wins.")
    if edition is Edition.E2010 and game_format == "standard":
        return _("Ties for the highest total are shared (2010 rules).")
    return _("A tie for the highest total goes to the tied player with the most species in their "
             "arboretum; a tie that remains is shared.")


def rules_reminder(game_format: str) -> str:
    if game_format == "draft":
        return _(
            "Right to score: the highest sum of that species in one's arboretum (ties all score). "
            "With the right, the best path scores 1 per card; +1 per card if 4+ cards all of the species; "
            "+1 if it starts with a 1; 2 FEWER if it ends with an 8. Without the right, any path of the "
            "species scores a flat 2. Planting every pick: +3."
        )
    return _(
        "Right to score: the highest sum of that species in hand (an 8 counts 0 if another player holds "
        "the 1; ties all score). Path: 2+ adjacent cards of rising value, first and last of the species. "
        "Points: 1 per card; +1 per card if 4+ cards all of the species; +1 if it starts with a 1; "
        "+2 if it ends with an 8. Only the best path of each species scores."
    )


def draw_scorepad_page(
    canvas: Canvas,
    paper: str,
    edition: Edition,
    species: tuple[str, ...],
    seats: list[SeatInfo] | int,
    game_format: str = "standard",
    header: ScorepadHeader | None = None,
) -> None:
    """One scorepad on the current page. ``seats`` is a seat list, or a player count when blank."""
    width, height = paper_size(paper)
    columns = seats if isinstance(seats, list) else [None] * seats
    top = height - MARGIN

    # -- title band ------------------------------------------------------------------------
    qr_size = 34 * mm if header else 0
    title_width = width - 2 * MARGIN - (qr_size + 4 * mm if header else 0)
    canvas.setFillColor(INK)
    canvas.setFont(BOLD, 20)
    canvas.drawString(MARGIN, top - 18, _("Arboretum scorepad"))
    canvas.setFont(REGULAR, 10)
    canvas.setFillColor(MUTED)
    if game_format == "draft":
        kind = _("%(edition)s edition · draft (Wonders of the Arboretum)", edition=edition.value)
    else:
        kind = _("%(edition)s edition · standard game", edition=edition.value)
    canvas.drawString(MARGIN, top - 33, kind)
    if header:
        canvas.setFillColor(INK)
        draw_fitted(canvas, MARGIN, top - 54, header.event, title_width, size=14, bold=True)
        canvas.setFont(BOLD, 22)
        draw_fitted(canvas, MARGIN, top - 80, round_name(header.round_number, header.stage), 60 * mm, size=22,
                    bold=True)
        canvas.setFont(BOLD, 22)
        canvas.drawString(MARGIN + 62 * mm, top - 80, _("Table %(table)d", table=header.table))
        canvas.setFillColor(MUTED)
        if header.subtitle:
            draw_fitted(canvas, MARGIN, top - 95, header.subtitle, title_width, size=9)
        qr_x = width - MARGIN - qr_size
        draw_qr(canvas, header.result_url, qr_x, top - qr_size, qr_size)
        canvas.setFillColor(MUTED)
        canvas.setFont(REGULAR, 7)
        canvas.drawCentredString(qr_x + qr_size / 2, top - qr_size - 8, _("Scan to enter this table's result"))
        grid_top = top - qr_size - 18
    else:
        grid_top = top - 48

    # -- the grid ----------------------------------------------------------------------------
    rows: list[tuple[str, str | None, bool]] = [(name, species_hex(edition, name), False) for name in species]
    if game_format == "draft":
        rows.append((_("Planted every pick (+3)"), None, False))
    rows.append((_("Total"), None, True))
    if not (edition is Edition.E2010 and game_format == "standard"):
        rows.append((_("Species in arboretum (tie-break)"), None, False))
    rows.append((_("Place"), None, False))

    footer_lines = split_lines(rules_reminder(game_format), REGULAR, 7.5, width - 2 * MARGIN)
    notes_height = 14 + 10.5 * len(footer_lines) + (12 if header is None or header.left_out else 0) + 24
    grid_bottom = MARGIN + 8 * mm + notes_height
    label_width = 62 * mm
    left = MARGIN
    col_width = (width - 2 * MARGIN - label_width) / len(columns)
    # One size for every name on the pad, so no player looks more important than another; a long
    # name takes two lines rather than shrinking out of sight, and a very long one more lines, the
    # name band growing to hold them all (never cut).
    name_size = min((fit_lines(s.player, BOLD, 13, col_width - 8, 8, 3)[1] for s in columns if s), default=13.0)
    name_lines = max((len(fit_lines(s.player, BOLD, name_size, col_width - 8, 8, 3)[0]) for s in columns if s),
                     default=1)
    name_height = max(20 * mm if header else 16 * mm, 24 + name_lines * name_size * 1.12)
    row_height = min(15 * mm, (grid_top - grid_bottom - name_height) / len(rows))

    y = grid_top - name_height
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.8)
    for index, seat in enumerate(columns):
        x = left + label_width + index * col_width
        canvas.setFillColor(SHADE)
        canvas.rect(x, y, col_width, name_height, stroke=1, fill=1)
        canvas.setFillColor(MUTED)
        canvas.setFont(REGULAR, 7.5)
        seat_label = _("Seat %(seat)d", seat=seat.seat) if seat else _("Player %(number)d", number=index + 1)
        canvas.drawString(x + 4, y + name_height - 10, seat_label)
        if seat:
            canvas.setFillColor(INK)
            draw_name(canvas, x + 4, y + name_height / 2 - 4, seat.player, col_width - 8, size=name_size, min_size=8,
                      max_lines=3)
            badges = [text for text, on in ((_("START"), seat.is_start), (_("DEALER"), seat.is_dealer)) if on]
            bx = x + col_width - 4
            for text in reversed(badges):
                bw = canvas.stringWidth(text, BOLD, 6.5) + 6
                bx -= bw
                canvas.setFillColor(INK)
                canvas.roundRect(bx, y + name_height - 12.5, bw, 9.5, 2, stroke=0, fill=1)
                canvas.setFillColor(colors.white)
                canvas.setFont(BOLD, 6.5)
                canvas.drawString(bx + 3, y + name_height - 9.5, text)
                bx -= 2
        else:
            canvas.setStrokeColor(RULE)
            canvas.line(x + 4, y + 8, x + col_width - 4, y + 8)
            canvas.setStrokeColor(INK)
    canvas.setFillColor(MUTED)
    canvas.setFont(REGULAR, 8)
    canvas.drawString(left, y + 6, _("Species") if header else _("Species (cross out those not in play)"))

    for label, hex_value, is_total in rows:
        y -= row_height
        canvas.setFillColor(SHADE if is_total else colors.white)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(1.4 if is_total else 0.8)
        canvas.rect(left, y, label_width, row_height, stroke=1, fill=1)
        for index in range(len(columns)):
            canvas.rect(left + label_width + index * col_width, y, col_width, row_height, stroke=1, fill=1)
        text_x = left + 4
        if hex_value:
            swatch_size = min(row_height - 6, 9 * mm)
            swatch_y = y + (row_height - swatch_size) / 2
            swatch(canvas, left + 4, swatch_y, swatch_size, hex_value)
            # the species code on its colour: a greyscale copy still tells the species apart
            canvas.setFillColor(text_on(hex_value))
            canvas.setFont(BOLD, swatch_size * 0.42)
            canvas.drawCentredString(left + 4 + swatch_size / 2, swatch_y + swatch_size * 0.34, species_code(label))
            text_x += swatch_size + 6
            label = species_name(label)
        canvas.setFillColor(INK)
        draw_fitted(canvas, text_x, y + row_height / 2 - 4, label, left + label_width - text_x - 4,
                    size=12 if is_total or hex_value else 9.5, bold=is_total or bool(hex_value))

    # -- notes under the grid -----------------------------------------------------------------
    y -= 14
    canvas.setFillColor(INK)
    canvas.setFont(REGULAR, 8.5)
    if header is None:
        counts = ", ".join(_("%(players)d players %(species)d", players=p, species=n)
                           for p, n in STANDARD_SPECIES_COUNT.items())
        canvas.drawString(left, y, safe_text(_("Species in play in the standard game: %(counts)s.", counts=counts)))
        y -= 12
    elif header.left_out:
        draw_fitted(canvas, left, y, _("Set aside before dealing: %(species)s",
                                       species=", ".join(species_name(s) for s in header.left_out)),
                    width - 2 * MARGIN, size=8.5, bold=True)
        y -= 12
    canvas.setFont(REGULAR, 8.5)
    for line in split_lines(tie_break_text(edition, game_format), REGULAR, 8.5, width - 2 * MARGIN):
        canvas.drawString(left, y, line)
        y -= 11
    y -= 2
    canvas.setFillColor(MUTED)
    canvas.setFont(REGULAR, 7.5)
    for line in footer_lines:
        canvas.drawString(left, y, line)
        y -= 10.5


def blank_scorepad(players: int, edition: str, paper: str) -> bytes:
    """A blank scorepad for 2, 3 or 4 players of the standard game, every species listed."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
        raise PrintingError(f"a scorepad is for 2, 3 or 4 players, not {players!r}")
    parsed = parse_edition(edition)
    paper_size(paper)
    paper_key = paper.strip().lower()
    canvas, buffer, width, _height = new_canvas(paper_key, _("Arboretum scorepad, %(players)d players", players=players))
    draw_scorepad_page(canvas, paper_key, parsed, edition_species(parsed), players)
    page_footer(canvas, width, _("Arboretum scorepad · %(players)d players · %(edition)s edition · %(paper)s",
                                 players=players, edition=parsed.value, paper=PAPER_NAMES[paper_key]), "")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
