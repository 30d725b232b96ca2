"""Long names on paper: wrapped onto two lines at a readable size (more lines when they must),
never cut to "Noah Müller-Lüdenschei…" nor shrunk to 5 pt; "find your table" shares its names
evenly between a page's two columns; and every printed species carries its code."""

from __future__ import annotations

import dataclasses
import io
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from organizer.printing import round_pack, score_sheet, standings_pdf
from organizer.printing.fonts import BOLD, register_fonts
from organizer.printing.layout import fit_lines
from organizer.printing.samples import sample_round_pack, sample_score_sheet, sample_standings
from tests.fixtures.examples import examples
from tests.printing.support import all_text, pages_text

LONG = "Noah Müller-Lüdenscheid"
LONGER = "Maximiliane-Henriette von Hohenzollern-Sigmaringen"

register_fonts()

name_parts = st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüéßŁłøÅ", min_size=1, max_size=14)
names = st.lists(name_parts, min_size=1, max_size=4).flatmap(
    lambda words: st.tuples(st.just(words), st.lists(st.sampled_from([" ", "-"]), min_size=len(words) - 1,
                                                     max_size=len(words) - 1)))


@settings(max_examples=examples(300), deadline=None)
@given(names, st.floats(min_value=25, max_value=70))
def test_a_name_keeps_every_letter(parts: tuple[list[str], list[str]], width_mm: float) -> None:
    words, joins = parts
    name = words[0] + "".join(j + w for j, w in zip(joins, words[1:], strict=True))
    lines, size = fit_lines(name, BOLD, 13, width_mm * mm, min_size=8)
    assert size >= 8 and (len(lines) <= 2 or size == 8)  # more than two lines only at the smallest size
    assert all(stringWidth(line, BOLD, size) <= width_mm * mm + 0.01 for line in lines)
    # nothing lost: the lines put together (a space where the break was one) are the name
    assert re.sub(r"\s+", "", "".join(lines)) == re.sub(r"\s+", "", name)


def test_a_double_barrelled_name_breaks_after_its_hyphen_at_a_readable_size() -> None:
    lines, size = fit_lines(LONG, BOLD, 13, 38 * mm, min_size=8)
    assert lines == ("Noah Müller-", "Lüdenscheid") and size == 13


def _with_long_names(pack: object) -> object:
    tables = list(pack.tables)  # type: ignore[attr-defined]
    first = tables[0]
    seats = list(first.seats)
    seats[0] = dataclasses.replace(seats[0], player=LONG)
    seats[1] = dataclasses.replace(seats[1], player=LONGER)
    tables[0] = dataclasses.replace(first, seats=tuple(seats), digital=True)
    return dataclasses.replace(pack, tables=tuple(tables))  # type: ignore[type-var]


def test_round_pack_prints_long_names_whole() -> None:
    text = all_text(round_pack(_with_long_names(sample_round_pack(tables=3)))).replace("\n", " ")  # type: ignore[arg-type]
    # seating list, "find your table", the scorepad's column and the private-link slip
    assert text.count("Lüdenscheid") >= 4
    assert "Sigmaringen" in text
    assert "Lüdenschei…" not in text and "Müller-Lüdenschei…" not in text


VERY_LONG = ("Ana María de los Ángeles Fernández de Córdoba y Figueroa", "Wolfeschlegelsteinhausenbergerdorff Hubert",
             "Siobhán O'Sullivan-MacGillycuddy")


def test_round_pack_never_cuts_a_name_with_an_ellipsis() -> None:
    pack = sample_round_pack(tables=3)
    tables = list(pack.tables)
    seats = list(tables[0].seats)
    for index, name in enumerate(VERY_LONG):
        seats[index] = dataclasses.replace(seats[index], player=name)
    tables[0] = dataclasses.replace(tables[0], seats=tuple(seats), digital=True)
    pages = pages_text(round_pack(dataclasses.replace(pack, tables=tuple(tables))))
    assert not any("…" in page for page in pages[:3])  # seating, "find your table", the first scorepad
    squeezed = "".join(pages[0].split()) + "".join(pages[2].split())
    for name in VERY_LONG:  # every letter, on the seating page and the scorepad
        assert squeezed.count("".join(name.split())) == 2, name


def test_find_your_table_shares_its_names_between_both_columns() -> None:
    pack = sample_round_pack(tables=10)  # 39 players: a little more than one column holds
    pdf = round_pack(pack)
    names = {seat.player for table in pack.tables for seat in table.seats}
    reader = PdfReader(io.BytesIO(pdf))
    lefts: list[float] = []

    def where(text: str, cm: list[float], tm: list[float], *_: object) -> None:
        if text.strip() in names:  # where the text starts on the page: its matrix times the page's
            lefts.append(tm[4] * cm[0] + tm[5] * cm[2] + cm[4])

    reader.pages[1].extract_text(visitor_text=where)
    middle = float(reader.pages[1].mediabox.width) / 2
    left, right = sum(x < middle for x in lefts), sum(x >= middle for x in lefts)
    assert left + right == len(names) == 39
    assert abs(left - right) <= 3, (left, right)


def test_standings_print_long_names_whole() -> None:
    data = sample_standings(players=12)
    rows = list(data.rows)
    rows[0] = dataclasses.replace(rows[0], player=LONGER, club="Spielgemeinschaft Nordrhein-Westfalen e. V.")
    text = all_text(standings_pdf(dataclasses.replace(data, rows=tuple(rows))))
    assert "Sigmaringen" in text and "Westfalen" in text


def test_score_sheet_cards_carry_species_codes() -> None:
    """A greyscale copy tells Oak from Royal Poinciana: each species row and card has its code."""
    data = sample_score_sheet()
    text = all_text(score_sheet(data))
    for species in data.species_in_play:
        from engine.cards import species_code

        assert f"{species_code(species)} {species}" in text
