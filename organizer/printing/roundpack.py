"""The round pack: seating lists, one pre-filled scorepad per table, and private-link slips."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Spacer, Table

from engine.cards import Edition, edition_species, species_count
from engine.errors import CardError
from organizer.core.translate import _, ngettext, round_name
from organizer.printing.data import RoundPackData, SeatInfo, TableInfo
from organizer.printing.documents import NOTE, SUBTITLE, TITLE, CellText, Story, build, long_list, para, skip_footer
from organizer.printing.errors import PrintingError
from organizer.printing.fonts import BOLD, REGULAR, safe_text
from organizer.printing.layout import (
    INK,
    MUTED,
    RULE,
    check_species,
    check_url,
    draw_fitted,
    draw_name,
    draw_qr,
    paper_size,
    parse_edition,
    split_lines,
)
from organizer.printing.scorepad import ScorepadHeader, draw_scorepad_page

SLIP_COLUMNS = 2
SLIP_ROWS = 4
SLIP_MARGIN = 12 * mm  # room outside the slips for the cut marks
CUT_MARK = 7 * mm


@dataclass(frozen=True)
class Slip:
    number: int  # 1-based, in table then seat order
    table: TableInfo
    seat: SeatInfo


def check_round_pack(data: RoundPackData) -> Edition:
    edition = parse_edition(data.edition)
    paper_size(data.paper)
    if data.game_format not in ("standard", "draft"):
        raise PrintingError(f"unknown game format {data.game_format!r}: expected standard or draft")
    if not safe_text(data.event):
        raise PrintingError("the event has no name")
    if not data.tables:
        raise PrintingError(f"round {data.round_number} has no seating yet: seat the players and publish "
                            "the round before printing its pack")
    seen_tables: set[int] = set()
    seated: dict[str, int] = {}
    for table in data.tables:
        where = f"table {table.number}"
        if table.number in seen_tables:
            raise PrintingError(f"table number {table.number} is used twice in round {data.round_number}")
        seen_tables.add(table.number)
        if not 2 <= len(table.seats) <= 4:
            raise PrintingError(f"{where} has {len(table.seats)} players; a table seats 2 to 4")
        check_url(table.result_url, f"{where} result entry")
        numbers = [seat.seat for seat in table.seats]
        if len(set(numbers)) != len(numbers):
            raise PrintingError(f"{where}: a seat number is used twice ({numbers})")
        if sum(seat.is_start for seat in table.seats) > 1:
            raise PrintingError(f"{where}: more than one start player")
        if sum(seat.is_dealer for seat in table.seats) > 1:
            raise PrintingError(f"{where}: more than one dealer")
        for seat in table.seats:
            name = safe_text(seat.player)
            if not name:
                raise PrintingError(f"{where} seat {seat.seat} has no player name")
            key = seat.player.strip().casefold()
            if key in seated:
                raise PrintingError(f"{seat.player} is seated twice in round {data.round_number} "
                                    f"(tables {seated[key]} and {table.number})")
            seated[key] = table.number
            if table.digital:
                check_url(seat.private_url, f"{where} seat {seat.seat} ({name}) private link")
        species = check_species(edition, table.species, where)
        try:
            wanted = species_count(data.game_format, len(table.seats))
        except CardError as error:
            raise PrintingError(f"{where}: {error}") from None
        if len(species) != wanted:
            raise PrintingError(f"{where}: {len(species)} species in play, a {data.game_format} game for "
                                f"{len(table.seats)} players uses {wanted}")
    return edition


#: Letters that do not decompose into a base letter and an accent but are filed with one.
_FILED_AS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe",
                           "ß": "ss", "þ": "th", "ð": "d"})


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical as people expect: "Ångström" with the A's, "Łukasz" with the L's, case ignored."""
    folded = unicodedata.normalize("NFKD", name.strip().casefold()).translate(_FILED_AS)
    return "".join(c for c in folded if not unicodedata.combining(c)), name


def seat_cell(seat: SeatInfo) -> CellText:
    """A name on one line, or two when it is long (never cut or tiny), the start player and dealer below."""
    marks = [text for text, on in ((_("start player"), seat.is_start), (_("dealer"), seat.is_dealer)) if on]
    return CellText(seat.player, BOLD, note=" · ".join(marks) or None)


class QrCode(Flowable):
    """A QR code as a flowable, for the top of a list page."""

    def __init__(self, url: str, side: float) -> None:
        super().__init__()
        self._url, self._side = url, side

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self._side, self._side

    def draw(self) -> None:
        draw_qr(self.canv, self._url, 0, 0, self._side)


def slip_order(count: int, per_page: int) -> list[list[int | None]]:
    """Which slip goes where so a guillotined stack comes out in order.

    Slip i goes on page i mod P, slot i div P (P pages). Cutting the stack gives one pile per
    slot, each pile already in order from the top sheet down; piling slot 0's pile on slot 1's
    and so on restores the numbering. Unused slots come last, on the last slots."""
    pages = max(1, -(-count // per_page))
    layout: list[list[int | None]] = [[None] * per_page for _ in range(pages)]
    for index in range(count):
        layout[index % pages][index // pages] = index
    return layout


def _draw_slip(canvas: Canvas, x: float, y: float, w: float, h: float, slip: Slip, total: int,
               data: RoundPackData, pile: int) -> None:
    pad = 5 * mm
    qr = min(40 * mm, h - 2 * pad - 4)
    text_width = w - qr - 3 * pad
    top = y + h - pad
    canvas.setFillColor(MUTED)
    draw_fitted(canvas, x + pad, top - 8, data.event, text_width, size=8)
    draw_fitted(canvas, x + pad, top - 19, round_name(data.round_number, data.stage), text_width, size=9)
    canvas.setFillColor(INK)
    draw_fitted(canvas, x + pad, top - 35, _("Table %(table)d · Seat %(seat)d", table=slip.table.number,
                                             seat=slip.seat.seat), text_width, size=13, bold=True)
    # a long name on two or three lines at 9 pt or more, not one line at 7
    below = draw_name(canvas, x + pad, top - 56, slip.seat.player, text_width, size=15, min_size=9, max_lines=3)
    marks = [text for text, on in ((_("Start player"), slip.seat.is_start), (_("Dealer"), slip.seat.is_dealer)) if on]
    if marks:
        draw_fitted(canvas, x + pad, top - 56 - below - 10, " · ".join(marks), text_width, size=9)
    canvas.setFillColor(MUTED)
    canvas.setFont(REGULAR, 7)
    lines = split_lines(_("Scan to open your hand on your phone. This link is yours alone: do not share it."),
                        REGULAR, 7, text_width)
    for index, line in enumerate(lines):
        canvas.drawString(x + pad, y + pad + 6 + (len(lines) - 1 - index) * 8.5, line)
    canvas.setFont(REGULAR, 6.5)
    canvas.drawRightString(x + w - pad, y + pad - 1, _("slip %(number)d of %(total)d · pile %(pile)d",
                                                       number=slip.number, total=total, pile=pile + 1))
    draw_qr(canvas, slip.seat.private_url or "", x + w - pad - qr, top - qr, qr)


def _draw_slip_page(canvas: Canvas, width: float, height: float, slots: list[int | None],
                    slips: list[Slip], data: RoundPackData, page: int, pages: int) -> None:
    w = (width - 2 * SLIP_MARGIN) / SLIP_COLUMNS
    h = (height - 2 * SLIP_MARGIN) / SLIP_ROWS
    left, bottom = SLIP_MARGIN, SLIP_MARGIN
    top, right = height - SLIP_MARGIN, width - SLIP_MARGIN
    for slot, index in enumerate(slots):
        if index is None:
            continue
        column, row = slot % SLIP_COLUMNS, slot // SLIP_COLUMNS
        _draw_slip(canvas, left + column * w, top - (row + 1) * h, w, h, slips[index], len(slips), data, slot)
    # Cut marks in the margin only, so a stack is cut on the same lines whatever is printed.
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.5)
    for column in range(SLIP_COLUMNS + 1):
        x = left + column * w
        canvas.line(x, top + 2 * mm, x, top + 2 * mm + CUT_MARK)
        canvas.line(x, bottom - 2 * mm, x, bottom - 2 * mm - CUT_MARK)
    for row in range(SLIP_ROWS + 1):
        y = top - row * h
        canvas.line(left - 2 * mm, y, left - 2 * mm - CUT_MARK, y)
        canvas.line(right + 2 * mm, y, right + 2 * mm + CUT_MARK, y)
    # Faint guides between slips help a hand cut with scissors; the guillotine follows the marks.
    canvas.setStrokeColor(RULE)
    canvas.setDash(2, 3)
    for column in range(SLIP_COLUMNS + 1):
        canvas.line(left + column * w, bottom, left + column * w, top)
    for row in range(SLIP_ROWS + 1):
        canvas.line(left, top - row * h, right, top - row * h)
    canvas.setDash()
    # Instructions sit between the cut marks, clear of where the blade goes.
    skip_footer(canvas)
    canvas.setFillColor(MUTED)
    canvas.setFont(REGULAR, 7)
    canvas.drawString(left + 3 * mm, height - 7 * mm,
                      safe_text(_("Private-link slips · %(round)s · sheet %(sheet)d of %(sheets)d",
                                  round=round_name(data.round_number, data.stage), sheet=page + 1, sheets=pages)))
    canvas.drawString(left + w + 3 * mm, height - 7 * mm, _("Cut the whole stack on the marks."))
    canvas.drawString(left + 3 * mm, 6 * mm, _("Pile 1 on top of pile 2, on pile 3 ... gives slip order."))
    canvas.drawString(left + w + 3 * mm, 6 * mm,
                      safe_text(_("%(event)s · %(round)s", event=data.event,
                                  round=round_name(data.round_number, data.stage)))[:60])


def round_pack(data: RoundPackData) -> bytes:
    """Seating by table, "find your table", a scorepad per table and private-link slips."""
    edition = check_round_pack(data)
    paper = data.paper.strip().lower()
    tables = sorted(data.tables, key=lambda t: t.number)
    story = Story()
    round_title = _("%(event)s · %(round)s", event=safe_text(data.event), round=round_name(data.round_number, data.stage))
    subtitle = " · ".join(p for p in (data.subtitle, ngettext("%(num)d table", "%(num)d tables", len(tables)),
                                      ngettext("%(num)d player", "%(num)d players", sum(len(t.seats) for t in tables)))
                          if p)

    # Seating by table
    widest = max(len(t.seats) for t in tables)
    usable = paper_size(paper)[0] - 2 * 15 * mm
    table_col = 16 * mm
    seat_col = (usable - table_col) / widest
    rows: list[list[object]] = [list[object]([_("Table")] + [_("Seat %(seat)d", seat=n) for n in range(1, widest + 1)])]
    for table in tables:
        seats = sorted(table.seats, key=lambda s: s.seat)
        label = CellText(str(table.number), BOLD, note=_("digital") if table.digital else None)
        rows.append([label] + [seat_cell(s) for s in seats] + [""] * (widest - len(seats)))
    heading: list[Flowable] = [para(_("Seating: %(round)s", round=round_name(data.round_number, data.stage)), TITLE),
                               para(f"{safe_text(data.event)} · {subtitle}", SUBTITLE)]
    if data.public_url:
        # the event's public page: players scan it to find their table, the clock and the standings
        qr_side = 30 * mm
        caption = para(_("Scan for your table, the round clock and the standings"), NOTE)
        heading = [Table([[heading, [QrCode(check_url(data.public_url, "public page"), qr_side), caption]]],
                         colWidths=[usable - qr_side - 8 * mm, qr_side + 8 * mm],
                         style=[("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                ("RIGHTPADDING", (0, 0), (-1, -1), 0)])]
    story.flow(*heading,
               long_list(rows, [table_col] + [seat_col] * widest),
               para(_("Each table plays in seat order starting with the start player."), NOTE))

    # Find your table: alphabetical, two columns per page
    everyone = sorted(((s.player, t.number, s.seat) for t in tables for s in t.seats), key=lambda r: sort_key(r[0]))
    column_width = (usable - 8 * mm) / 2
    find_rows: list[list[object]] = [[_("Name"), _("Table"), _("Seat")]]
    find_rows += [[CellText(name), str(number), str(seat)] for name, number, seat in everyone]
    story.flow(para(_("Find your table"), TITLE), para(f"{round_title} · {subtitle}", SUBTITLE), Spacer(1, 2),
               long_list(find_rows, [column_width - 30 * mm, 16 * mm, 14 * mm], numeric_columns=(1, 2), balanced=True),
               columns=True)

    # One scorepad per table
    for table in tables:
        in_play = tuple(n for n in edition_species(edition) if n in table.species)
        header = ScorepadHeader(
            event=data.event, round_number=data.round_number, stage=data.stage, table=table.number,
            result_url=check_url(table.result_url, f"table {table.number}"),
            left_out=tuple(n for n in edition_species(edition) if n not in table.species),
            subtitle=data.subtitle,
        )
        seats = sorted(table.seats, key=lambda s: s.seat)

        def draw(canvas: Canvas, width: float, height: float, in_play: tuple[str, ...] = in_play,
                 seats: list[SeatInfo] = seats, header: ScorepadHeader = header) -> None:
            draw_scorepad_page(canvas, paper, edition, in_play, seats, data.game_format, header)

        story.page(draw)

    # Private-link slips of the digital tables
    slips = [Slip(0, t, s) for t in tables if t.digital for s in sorted(t.seats, key=lambda s: s.seat)]
    slips = [Slip(number, slip.table, slip.seat) for number, slip in enumerate(slips, start=1)]
    if slips:
        layout = slip_order(len(slips), SLIP_COLUMNS * SLIP_ROWS)
        for page, slots in enumerate(layout):
            def draw_slips(canvas: Canvas, width: float, height: float, slots: list[int | None] = slots,
                           page: int = page) -> None:
                _draw_slip_page(canvas, width, height, slots, slips, data, page, len(layout))

            story.page(draw_slips)

    return build(story, paper, _("Round pack: %(title)s", title=round_title), _("Round pack · %(title)s", title=round_title))
