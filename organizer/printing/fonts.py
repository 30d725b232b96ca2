"""The bundled DejaVu Sans font, registered once with reportlab, and text made safe for it.

reportlab's built-in Helvetica only knows Latin-1, so a name like "Łukasz" or "Σοφία" would print
as black boxes. DejaVu Sans (static/prints/fonts/, Bitstream Vera licence) covers Latin, Greek, Cyrillic
and more; a character it lacks is replaced by a visible placeholder instead of a silent gap."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from organizer.printing.errors import PrintingError

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"

#: Looked in first: the fonts shipped with the project, in the package when installed from the
#: wheel, else in the checkout's static/. The system copy is only a fallback for an installation
#: made without the static files (Debian's fonts-dejavu-core has the same files).
FONT_DIRS: tuple[Path, ...] = (
    Path(__file__).resolve().parents[1] / "static" / "prints" / "fonts",
    Path(__file__).resolve().parents[2] / "static" / "prints" / "fonts",
    Path("/usr/share/fonts/truetype/dejavu"),
)

#: Printed for a character the font has no glyph for (U+FFFD would itself need a glyph).
PLACEHOLDER = "?"


def _find(filename: str) -> Path:
    for folder in FONT_DIRS:
        candidate = folder / filename
        if candidate.is_file():
            return candidate
    searched = ", ".join(str(d) for d in FONT_DIRS)
    raise PrintingError(f"font file {filename} not found (looked in {searched})")


@lru_cache(maxsize=1)
def register_fonts() -> tuple[str, str]:
    """Register the regular and bold faces once per process; returns their names."""
    for name, filename in ((REGULAR, "DejaVuSans.ttf"), (BOLD, "DejaVuSans-Bold.ttf")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(_find(filename))))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
    return REGULAR, BOLD


@lru_cache(maxsize=1)
def _covered() -> frozenset[int]:
    register_fonts()
    font = pdfmetrics.getFont(REGULAR)
    bold = pdfmetrics.getFont(BOLD)
    # Only what both faces can draw, so a name looks the same in a heading and in a table.
    # a TrueType font's face (its glyph table) is missing from reportlab's type stubs
    return frozenset(font.face.charToGlyph) & frozenset(bold.face.charToGlyph)  # type: ignore[attr-defined]


@lru_cache(maxsize=1)
def _covered_chars() -> frozenset[str]:
    return frozenset(map(chr, _covered()))


def covers(char: str) -> bool:
    """Whether the bundled font has a glyph for ``char``."""
    return ord(char) in _covered()


def safe_text(text: object, strip: bool = True) -> str:
    """``text`` as the font can print it on one line.

    Composed form first (a name typed as "e" + combining accent often has a precomposed glyph),
    control characters and line breaks become spaces, and anything still without a glyph becomes
    the placeholder, so the reader sees that something was there."""
    value = unicodedata.normalize("NFC", "" if text is None else str(text))
    if value.isprintable() and _covered_chars().issuperset(value):
        return value.strip() if strip else value  # the usual name: nothing to replace
    covered = _covered()
    out: list[str] = []
    for char in value:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif ord(char) in covered:
            out.append(char)
        elif unicodedata.category(char) in ("Mn", "Cf"):
            continue  # a mark or format character the font lacks: dropping it keeps the letter
        else:
            out.append(PLACEHOLDER)
    joined = "".join(out)
    return joined.strip() if strip else joined
