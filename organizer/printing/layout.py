"""Shared drawing: paper, colours, species look-ups, QR codes, fitted text and page furniture."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from engine.cards import SPECIES_COLOURS, Edition, edition_species
from engine.errors import CardError
from organizer.printing.data import Number
from organizer.printing.errors import PrintingError
from organizer.printing.fonts import BOLD, REGULAR, register_fonts, safe_text
from organizer.printing.qr import qr_rows

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}

INK = colors.HexColor("#1d1d1b")
MUTED = colors.HexColor("#6b6b6b")
RULE = colors.HexColor("#b9b9b9")
SHADE = colors.HexColor("#f0efea")
MARGIN = 15 * mm

PRODUCER = "Arboretum Organizer"

_DARK_RUN = re.compile("1+")


def paper_size(paper: object) -> tuple[float, float]:
    key = str(paper).strip().lower() if isinstance(paper, str) else paper
    if not isinstance(key, str) or key not in PAPERS:
        raise PrintingError(f"unknown paper {paper!r}: expected a4 or letter")
    return PAPERS[key]


def parse_edition(edition: object) -> Edition:
    try:
        return Edition.parse(edition)  # type: ignore[arg-type]
    except CardError:
        raise PrintingError(f"unknown edition {edition!r}: expected 2018 or 2010") from None


def check_species(edition: Edition, species: Iterable[str], where: str) -> tuple[str, ...]:
    """The species given, checked against the edition and put in scorepad order."""
    names = list(species)
    known = edition_species(edition)
    for name in names:
        if name not in known:
            raise PrintingError(f"{where}: species {name!r} is not in the {edition.value} edition")
    if len(set(names)) != len(names):
        raise PrintingError(f"{where}: a species is named twice in {names}")
    if not names:
        raise PrintingError(f"{where}: no species in play")
    return tuple(n for n in known if n in names)


def species_hex(edition: Edition, species: str) -> str:
    for name, _, hex_value in SPECIES_COLOURS[edition]:
        if name == species:
            return hex_value
    raise PrintingError(f"species {species!r} is not in the {edition.value} edition")


@lru_cache(maxsize=256)
def hex_color(hex_value: str) -> colors.Color:
    """The colour of a "#rrggbb" value, parsed once (a score sheet paints a card many times)."""
    return colors.HexColor(hex_value)


@lru_cache(maxsize=256)
def luminance(hex_value: str) -> float:
    """Relative luminance (WCAG) of a colour, to pick legible text on it."""
    color = hex_color(hex_value)

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.red) + 0.7152 * channel(color.green) + 0.0722 * channel(color.blue)


def text_on(hex_value: str) -> colors.Color:
    """Dark text on light colours, white on dark ones (whichever contrasts more)."""
    lum = luminance(hex_value)
    return colors.white if (1.05 / (lum + 0.05)) > ((lum + 0.05) / 0.05) else INK


def needs_border(hex_value: str) -> bool:
    """A colour so light it would vanish on white paper (the 2010 white Crabapple)."""
    return luminance(hex_value) > 0.75


def format_number(value: Number) -> str:
    """An average as people read it: 2, 1.5, 2.33 (never 2.3333333). Tournament points print
    through the core's ``format_points``, as on every page."""
    if isinstance(value, bool):
        raise PrintingError(f"expected a number, got {value!r}")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    as_float = float(value)
    if as_float == int(as_float):
        return str(int(as_float))
    return f"{as_float:.2f}".rstrip("0").rstrip(".")


@lru_cache(maxsize=16384)
def fit_text(text: str, font: str, size: float, width: float, min_size: float = 6.0) -> tuple[str, float]:
    """Shrink the font down to ``min_size`` to fit ``width``; then cut with an ellipsis.

    Cached: a pack fits the same event name, round and species labels on thousands of pages."""
    text = safe_text(text)
    while size > min_size and stringWidth(text, font, size) > width:
        size -= 0.5
    if stringWidth(text, font, size) <= width:
        return text, size
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…", size


@lru_cache(maxsize=16384)
def fit_lines(text: str, font: str, size: float, width: float, min_size: float = 8.0,
              max_lines: int = 2) -> tuple[tuple[str, ...], float]:
    """A name as large as it fits: on one line while it can stay at three quarters of ``size``,
    else wrapped onto up to ``max_lines`` lines (between words, or after a hyphen) at the largest
    size that fits, never below ``min_size``. A name too long even for that takes more lines at
    ``min_size``, and a single word wider than the column is broken between letters: a name on
    paper is never cut short. ("Noah Müller-Lüdenscheid" prints whole on two lines, not cut or at
    5 pt.)"""
    text = safe_text(text)
    one_line_floor = max(min_size, size * 0.75)
    shrunk = size
    while shrunk >= one_line_floor:
        if stringWidth(text, font, shrunk) <= width:
            return (text,), shrunk
        shrunk -= 0.5
    shrunk = size
    while shrunk >= min_size:
        lines = _wrap(text, font, shrunk, width)
        if len(lines) <= max_lines and all(stringWidth(line, font, shrunk) <= width for line in lines):
            return tuple(lines), shrunk
        shrunk -= 0.5
    # more lines at the smallest size; a word wider than the column is broken between letters
    return tuple(_wrap(text, font, min_size, width, break_words=True)), min_size


def _wrap(text: str, font: str, size: float, width: float, max_lines: int = 0,
          break_words: bool = False) -> list[str]:
    """Greedy lines, breaking at spaces and after hyphens (a double-barrelled name keeps its hyphen);
    with ``max_lines``, the last line takes all that is left; with ``break_words``, a part wider
    than ``width`` is broken between letters."""
    units: list[tuple[str, str]] = []
    for index, word in enumerate(text.split()):
        for part_index, part in enumerate(re.findall(r"[^-]+-*|-+", word)):
            joiner = " " if index and not part_index else ""
            while break_words and len(part) > 1 and stringWidth(part, font, size) > width:
                cut = max(1, max(n for n in range(1, len(part) + 1) if stringWidth(part[:n], font, size) <= width
                                 or n == 1))
                units.append((part[:cut], joiner))
                part, joiner = part[cut:], "\n"
            units.append((part, joiner))
    lines: list[str] = []
    line = ""
    for part, joiner in units:
        if joiner == "\n":  # the rest of a word broken between letters starts its own line
            lines.append(line)
            line = part
            continue
        candidate = line + joiner + part if line else part
        if line and stringWidth(candidate, font, size) > width and not (max_lines and len(lines) == max_lines - 1):
            lines.append(line)
            line = part
        else:
            line = candidate
    return [*lines, line] if line else lines


def draw_name(canvas: Canvas, x: float, middle: float, text: str, width: float, size: float,
              bold: bool = True, min_size: float = 8.0, align: str = "left", max_lines: int = 2) -> float:
    """``text`` fitted by :func:`fit_lines`, its lines centred vertically on ``middle``; returns
    how far below ``middle`` the block ends (to place what follows it)."""
    font = BOLD if bold else REGULAR
    lines, used = fit_lines(text, font, size, width, min_size, max_lines)
    leading = used * 1.12
    baseline = middle + (len(lines) - 1) * leading / 2 - used * 0.35
    canvas.setFont(font, used)
    for line in lines:
        if align == "center":
            canvas.drawCentredString(x + width / 2, baseline, line)
        else:
            canvas.drawString(x, baseline, line)
        baseline -= leading
    return (len(lines) - 1) * leading / 2 + used * 0.35 + used * 0.25


@lru_cache(maxsize=1024)
def split_lines(text: str, font: str, size: float, width: float) -> tuple[str, ...]:
    """``text`` broken into lines of at most ``width``; cached, as the same notes are printed
    on every scorepad and slip."""
    return tuple(simpleSplit(text, font, size, width))


def draw_fitted(
    canvas: Canvas, x: float, y: float, text: str, width: float, size: float = 10, bold: bool = False,
    align: str = "left", min_size: float = 6.0,
) -> None:
    font = BOLD if bold else REGULAR
    shown, used = fit_text(text, font, size, width, min_size)
    canvas.setFont(font, used)
    if align == "center":
        canvas.drawCentredString(x + width / 2, y, shown)
    elif align == "right":
        canvas.drawRightString(x + width, y, shown)
    else:
        canvas.drawString(x, y, shown)


def draw_qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    """A QR code of ``url`` filling the square at (x, y) of side ``size``, quiet zone included.

    Every dark run of a row is one rectangle of a single path, written in module units under
    one transform: a pack of 5,000 codes would otherwise format a million coordinates (and the
    widget's own drawing, one shape per run, costs ~0.1 s a code). One fill of one path shows no
    seam between neighbouring runs."""
    rows = qr_rows(url)
    border = 4
    box = size / (len(rows) + 2 * border)
    runs = [f"{m.start()} {r} {m.end() - m.start()} 1 re" for r, row in enumerate(rows) for m in _DARK_RUN.finditer(row)]
    canvas.saveState()
    canvas.setFillColor(colors.white)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillColor(colors.black)
    # Module (column c, row r) at its place from the top left corner inside the quiet zone.
    canvas.transform(box, 0, 0, -box, x + border * box, y + size - border * box)
    canvas.addLiteral(" ".join(runs) + " f")
    canvas.restoreState()


def check_url(url: object, where: str) -> str:
    if not isinstance(url, str) or not url.strip():
        raise PrintingError(f"{where}: no link given for the QR code")
    if len(url) > 1000:
        raise PrintingError(f"{where}: the link is {len(url)} characters long, too long for a printed QR code")
    return url.strip()


def new_canvas(paper: str, title: str) -> tuple[Canvas, io.BytesIO, float, float]:
    register_fonts()
    width, height = paper_size(paper)
    buffer = io.BytesIO()
    # the stubs type initialFontName as a number; reportlab takes a font's name
    canvas = Canvas(buffer, pagesize=(width, height), pageCompression=1,
                    initialFontName=REGULAR)  # type: ignore[arg-type]
    canvas.setTitle(safe_text(title))
    canvas.setAuthor(PRODUCER)
    canvas.setCreator(PRODUCER)
    return canvas, buffer, width, height


def page_footer(canvas: Canvas, width: float, left: str, page_label: str) -> None:
    canvas.saveState()
    canvas.setFillColor(MUTED)
    draw_fitted(canvas, MARGIN, 9 * mm, left, width - 2 * MARGIN - 40 * mm, size=7.5)
    canvas.setFont(REGULAR, 7.5)
    canvas.drawRightString(width - MARGIN, 9 * mm, safe_text(page_label))
    canvas.restoreState()


def swatch(canvas: Canvas, x: float, y: float, size: float, hex_value: str) -> None:
    canvas.saveState()
    canvas.setFillColor(hex_color(hex_value))
    canvas.setStrokeColor(INK if needs_border(hex_value) else hex_color(hex_value))
    canvas.setLineWidth(0.6)
    canvas.roundRect(x, y, size, size, size * 0.18, stroke=1, fill=1)
    canvas.restoreState()
