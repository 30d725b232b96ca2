"""Names in any script the bundled font covers print as typed; anything else never crashes."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from organizer.printing import PrintingError, StandingsData, StandingsLine, standings_pdf
from organizer.printing.fonts import FONT_DIRS, PLACEHOLDER, covers, safe_text
from tests.fixtures.examples import examples
from tests.printing.support import pages_text

NAMES = ["Zoë Ångström", "Łukasz Wójcik", "Σοφία Παπαδοπούλου", "Дмитрий Орлов", "Şebnem Çelik",
         "Nguyễn Thị Hương", "Ōtsuka Ūta", "Ærøskøbing Þór", "Jiří Dvořák"]


def _standings(names: list[str]) -> bytes:
    rows = tuple(StandingsLine(rank=i + 1, player=name, tournament_points=0, game_points=0, opponents_average=0,
                             species_count=0, games=0) for i, name in enumerate(names))
    return standings_pdf(StandingsData(event="Fonts", after_round=0, rows=rows))


def test_the_font_and_its_licence_ship_with_the_project() -> None:
    # the package's folder when installed from the wheel, the checkout's static/ otherwise
    bundled = next(folder for folder in FONT_DIRS[:2] if folder.is_dir())
    assert (bundled / "DejaVuSans.ttf").is_file() and (bundled / "DejaVuSans-Bold.ttf").is_file()
    assert "Bitstream" in (bundled / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")


def test_latin_greek_and_cyrillic_names_print_and_read_back_exactly() -> None:
    pdf = _standings(NAMES)
    text = pages_text(pdf)[0]
    for name in NAMES:
        assert name in text
    fonts = {str(font["/BaseFont"]) for page in PdfReader(io.BytesIO(pdf)).pages
             for font in page["/Resources"]["/Font"].values()}
    assert any("DejaVuSans" in f for f in fonts), fonts
    assert not any("Helvetica" in f for f in fonts), "no name may fall back to a Latin-1 font"


def test_characters_outside_the_font_become_a_visible_placeholder() -> None:
    assert not covers("李")
    assert safe_text("李小龍 Chen") == f"{PLACEHOLDER * 3} Chen"
    pdf = _standings(["李小龍 Chen", "🜲 alchemist", "Zoë"])
    text = pages_text(pdf)[0]
    assert "??? Chen" in text and "Zoë" in text


def test_text_is_tidied_for_one_line() -> None:
    assert safe_text("Zoe\u0308") == "Zoë", "a decomposed accent is composed"
    assert safe_text("Ana\nMaría\tLópez\x00") == "Ana María López"
    assert safe_text("  Björn  ") == "Björn"
    assert safe_text(None) == ""
    assert safe_text("a\u200bb") == "ab" or covers("\u200b")


@settings(max_examples=examples(30), deadline=None)
@given(names=st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=4))
def test_any_unicode_name_gives_a_pdf_or_a_clear_refusal(names: list[str]) -> None:
    if all(safe_text(n) for n in names):
        assert _standings(names).startswith(b"%PDF-")
    else:
        with pytest.raises(PrintingError, match="has no name"):
            _standings(names)
