"""A document of flowing lists (tables that run over pages) mixed with pages drawn by hand.

Lists use platypus so a 500-row table breaks across pages with its header repeated; scorepads,
score sheets and slips are whole pages drawn on the canvas. Both share one canvas that numbers
the pages "n of N" once the total is known."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import getAscentDescent
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from organizer.core.translate import _
from organizer.printing.fonts import BOLD, REGULAR, register_fonts, safe_text
from organizer.printing.layout import INK, MARGIN, MUTED, PRODUCER, RULE, SHADE, fit_lines, paper_size, split_lines
from organizer.printing.paged import PagedTable

PageDrawer = Callable[[Canvas, float, float], None]

TITLE = ParagraphStyle("title", fontName=BOLD, fontSize=18, leading=22, textColor=INK, spaceAfter=2)
SUBTITLE = ParagraphStyle("subtitle", fontName=REGULAR, fontSize=10, leading=13, textColor=MUTED, spaceAfter=8)
HEADING = ParagraphStyle("heading", fontName=BOLD, fontSize=13, leading=16, textColor=INK, spaceBefore=8, spaceAfter=4)
BODY = ParagraphStyle("body", fontName=REGULAR, fontSize=9.5, leading=12, textColor=INK)
CELL = ParagraphStyle("cell", fontName=REGULAR, fontSize=9.5, leading=11.5, textColor=INK)
CELL_BOLD = ParagraphStyle("cellbold", parent=CELL, fontName=BOLD)
#: Header cells that may wrap (player names over columns): white on the dark header row.
CELL_HEAD = ParagraphStyle("cellhead", parent=CELL, fontName=BOLD, fontSize=8.5, leading=10, textColor=colors.white)
NOTE = ParagraphStyle("note", fontName=REGULAR, fontSize=8, leading=10, textColor=MUTED, spaceBefore=6)


#: The size of a cell's note under its text (markup's "small").
NOTE_SIZE = 7


@lru_cache(maxsize=64)
def ascent(font: str, size: float) -> float:
    return float(getAscentDescent(font, size)[0])


def para(text: object, style: ParagraphStyle = BODY) -> Paragraph:
    """A paragraph of plain text: names are escaped, never read as markup."""
    return Paragraph(escape(safe_text(text)), style)


def markup(fragments: list[tuple[str, str]], style: ParagraphStyle = CELL) -> Paragraph:
    """A paragraph from (kind, text) pieces, kind one of "", "b", "small", "br", all text escaped."""
    out: list[str] = []
    for kind, text in fragments:
        safe = escape(safe_text(text, strip=False))
        if kind == "b":
            out.append(f"<b>{safe}</b>")
        elif kind == "small":
            out.append(f'<font size="{NOTE_SIZE}" color="#6b6b6b">{safe}</font>')
        elif kind == "br":
            out.append("<br/>")
        else:
            out.append(safe)
    return Paragraph("".join(out), style)


class CellText(Flowable):
    """A table cell's text drawn straight on the canvas: one line, shrunk a little to fit the
    column, else two lines at a readable size (:func:`layout.fit_lines`), then an optional small
    grey note wrapped below it (as ``markup`` would show them).

    A Paragraph parses markup and breaks lines each time a table measures or draws it; over the
    thousands of cells of a big event's lists that was most of their time."""

    def __init__(self, text: str, font: str = REGULAR, note: str | None = None, size: float = CELL.fontSize,
                 leading: float = CELL.leading, min_size: float = 7.5) -> None:
        super().__init__()
        self._text, self._font, self._note = text, font, note
        self._size, self._leading, self._min_size = size, leading, min_size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self._lines, self._used = fit_lines(self._text, self._font, self._size, availWidth, self._min_size)
        self._notes = split_lines(safe_text(self._note), REGULAR, NOTE_SIZE, availWidth) if self._note else ()
        self.width, self.height = availWidth, self._leading * (len(self._lines) + len(self._notes))
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        baseline = self.height - ascent(self._font, self._used)
        canvas.setFillColor(INK)
        canvas.setFont(self._font, self._used)
        for index, line in enumerate(self._lines):
            if index:
                baseline -= self._leading
            canvas.drawString(0, baseline, line)
        if self._notes:
            canvas.setFillColor(MUTED)
            canvas.setFont(REGULAR, NOTE_SIZE)
            for line in self._notes:
                baseline -= self._leading
                canvas.drawString(0, baseline, line)


def list_style(numeric_columns: tuple[int, ...] = (), zebra: bool = True,
               bold_first_column: bool = False) -> list[tuple[Any, ...]]:
    """A list's look: dark header row, ruled rows, figures right-aligned, optional zebra."""
    style: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, 0), BOLD, 8.5),
        ("FONT", (0, 1), (-1, -1), REGULAR, 9.5),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("BACKGROUND", (0, 0), (-1, 0), INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, RULE),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]
    if bold_first_column:
        style.append(("FONT", (0, 1), (0, -1), BOLD, 9.5))
    for column in numeric_columns:
        style.append(("ALIGN", (column, 0), (column, -1), "RIGHT"))
    if zebra:
        style.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, SHADE]))
    return style


def list_table(rows: list[list[Any]], widths: list[float], numeric_columns: tuple[int, ...] = (),
               zebra: bool = True, bold_first_column: bool = False) -> Table:
    """A table whose header row repeats on every page it runs onto (for lists of a page or so;
    :func:`long_list` for any length)."""
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle(list_style(numeric_columns, zebra, bold_first_column)))
    return table


def long_list(rows: list[list[Any]], widths: list[float], numeric_columns: tuple[int, ...] = (),
              zebra: bool = True, style: Sequence[tuple[Any, ...]] = (),
              groups: Sequence[int] | None = None, balanced: bool = False) -> PagedTable:
    """A list table of any length, looking as :func:`list_table` with ``style`` added, laid
    out a frame at a time; ``groups``: the first row of each run of rows kept on one page;
    ``balanced``: a page of two columns shares its last rows out evenly between them."""
    return PagedTable(rows, widths, list_style(numeric_columns, zebra) + list(style), groups, balanced=balanced)


def skip_footer(canvas: Canvas) -> None:
    """Leave the current page without the running footer (slips use the margins for cut marks)."""
    canvas.skip_footer = True  # type: ignore[attr-defined]  # read by NumberedCanvas.save


class FullPage(Flowable):
    """A whole page drawn by ``drawer(canvas, width, height)`` in page coordinates."""

    def __init__(self, drawer: PageDrawer) -> None:
        super().__init__()
        self._drawer = drawer

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.width, self.height = availWidth, availHeight
        return availWidth, availHeight

    def draw(self) -> None:
        # The "full" template's frame is the whole page with no padding, so the origin here is
        # the page's own.
        self._drawer(self.canv, self.width, self.height)


def _numbered_canvas(footer: str) -> type[Canvas]:
    class NumberedCanvas(Canvas):
        """Holds every page until the end so each can say "page n of N"."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            # Otherwise every page names Helvetica (Latin-1 only) as its starting font.
            kwargs["initialFontName"] = REGULAR
            super().__init__(*args, **kwargs)
            self._saved: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._saved.append(dict(self.__dict__))
            self._startPage()  # type: ignore[attr-defined]  # reportlab's own reset, not in the stubs
            self.skip_footer = False

        def save(self) -> None:
            total = len(self._saved)
            for number, state in enumerate(self._saved, start=1):
                self.__dict__.update(state)
                if state.get("skip_footer"):
                    super().showPage()
                    continue
                width = self._pagesize[0]  # type: ignore[attr-defined]
                self.saveState()
                self.setFillColor(MUTED)
                self.setFont(REGULAR, 7.5)
                self.drawString(MARGIN, 9 * mm, footer)
                self.drawRightString(width - MARGIN, 9 * mm, _("page %(number)d of %(total)d", number=number, total=total))
                self.restoreState()
                super().showPage()
            super().save()

    return NumberedCanvas


class Story:
    """Collects list content and hand-drawn pages in reading order."""

    def __init__(self) -> None:
        self.items: list[Flowable] = []
        self._mode: str | None = None
        self.first_mode: str | None = None

    def _switch(self, mode: str) -> None:
        if self._mode is None:
            self.first_mode = mode
        elif self._mode != mode or mode == "full":
            self.items.append(NextPageTemplate(mode))
            self.items.append(PageBreak())
        self._mode = mode

    def flow(self, *flowables: Flowable, columns: bool = False, new_page: bool = False) -> None:
        mode = "columns" if columns else "list"
        if new_page and self._mode == mode:
            self.items.append(PageBreak())
        self._switch(mode)
        self.items.extend(flowables)

    def page(self, drawer: PageDrawer) -> None:
        self._switch("full")
        self.items.append(FullPage(drawer))


def build(story: Story, paper: str, title: str, footer: str) -> bytes:
    register_fonts()
    width, height = paper_size(paper)
    buffer = io.BytesIO()
    doc = BaseDocTemplate(buffer, pagesize=(width, height), title=safe_text(title), author=PRODUCER,
                          creator=PRODUCER, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                          bottomMargin=MARGIN + 4 * mm, pageCompression=1)
    body_height = height - 2 * MARGIN - 4 * mm
    column_gap = 8 * mm
    column_width = (width - 2 * MARGIN - column_gap) / 2
    templates = {
        "list": PageTemplate("list", [Frame(MARGIN, MARGIN + 4 * mm, width - 2 * MARGIN, body_height, id="body")]),
        "columns": PageTemplate("columns", [
            Frame(MARGIN, MARGIN + 4 * mm, column_width, body_height, id="left"),
            Frame(MARGIN + column_width + column_gap, MARGIN + 4 * mm, column_width, body_height, id="right"),
        ]),
        "full": PageTemplate("full", [Frame(0, 0, width, height, 0, 0, 0, 0, id="page")]),
    }
    first = story.first_mode or "list"
    ordered = [templates[first]] + [t for name, t in templates.items() if name != first]
    doc.addPageTemplates(ordered)
    doc.build(list(story.items) or [Spacer(1, 1)], canvasmaker=_numbered_canvas(safe_text(footer)))
    return buffer.getvalue()
