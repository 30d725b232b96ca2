"""The blank scorepad and its command-line subcommand."""

from __future__ import annotations

import argparse
import io

import pytest

from engine.cards import Edition, edition_species
from organizer.printing import PrintingError, blank_scorepad
from organizer.printing.cli import add_scorepad_command, write_pdf
from tests.printing.support import A4_POINTS, LETTER_POINTS, all_text, has_colour, is_pdf, page_sizes, render


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("edition", ["2018", "2010"])
def test_blank_scorepad_lists_every_species_in_scorepad_order_and_one_column_per_player(players: int, edition: str) -> None:
    pdf = blank_scorepad(players, edition, "a4")
    assert is_pdf(pdf)
    text = all_text(pdf)
    positions = [text.index(name) for name in edition_species(Edition(edition))]
    assert positions == sorted(positions), "species must be printed in scorepad order"
    for n in range(1, players + 1):
        assert f"Player {n}" in text
    assert f"Player {players + 1}" not in text
    assert "Total" in text and "Place" in text
    assert f"{edition} edition" in text


def test_2018_scorepad_has_the_species_tie_break_and_2010_says_ties_are_shared() -> None:
    text_2018 = all_text(blank_scorepad(4, "2018", "a4"))
    assert "Species in arboretum (tie-break)" in text_2018
    assert "most species in their arboretum" in text_2018
    text_2010 = all_text(blank_scorepad(4, "2010", "a4"))
    assert "Species in arboretum" not in text_2010
    assert "Ties for the highest total are shared (2010 rules)" in text_2010


def test_paper_sizes_are_a4_and_us_letter() -> None:
    (a4,) = page_sizes(blank_scorepad(3, "2018", "a4"))
    (letter,) = page_sizes(blank_scorepad(3, "2018", "letter"))
    assert a4 == pytest.approx(A4_POINTS, abs=0.5)
    assert letter == pytest.approx(LETTER_POINTS, abs=0.5)
    assert page_sizes(blank_scorepad(3, "2018", " Letter "))[0] == pytest.approx(LETTER_POINTS, abs=0.5)


def test_species_swatches_are_printed_in_their_colours() -> None:
    image = render(blank_scorepad(2, "2010", "a4"), 0, dpi=60)
    for hex_value in ("#e8c31c", "#7d4fa6", "#2e6b34", "#cf2e2e"):  # Cassia, Jacaranda, Willow, Myrtle
        assert has_colour(image, hex_value), hex_value


@pytest.mark.parametrize(
    ("players", "edition", "paper", "message"),
    [
        (0, "2018", "a4", "2, 3 or 4 players, not 0"),
        (5, "2018", "a4", "2, 3 or 4 players, not 5"),
        (True, "2018", "a4", "2, 3 or 4 players"),
        (4, "2012", "a4", "unknown edition '2012'"),
        (4, "2018", "a3", "unknown paper 'a3'"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(players: int, edition: str, paper: str, message: str) -> None:
    with pytest.raises(PrintingError, match=message):
        blank_scorepad(players, edition, paper)
    assert issubclass(PrintingError, ValueError)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arboretum")
    add_scorepad_command(parser.add_subparsers(dest="command", required=True))
    return parser


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    return int(args.handler(args))


def test_cli_writes_the_scorepad_file(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "scorepad.pdf"
    assert _run(["scorepad", "--players", "3", "--edition", "2010", "--paper", "letter", "-o", str(target)]) == 0
    pdf = target.read_bytes()
    assert is_pdf(pdf)
    assert "Crabapple" in all_text(pdf) and "Player 3" in all_text(pdf)
    assert page_sizes(pdf)[0] == pytest.approx(LETTER_POINTS, abs=0.5)
    assert f"wrote {target}" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["scorepad.pdf"], "no temporary file left behind"


def test_cli_dash_writes_the_pdf_to_standard_output(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    sink = io.BytesIO()

    class FakeStdout:
        buffer = sink

    monkeypatch.setattr("sys.stdout", FakeStdout())
    assert _run(["scorepad", "-o", "-"]) == 0
    assert is_pdf(sink.getvalue())
    assert "Player 4" in all_text(sink.getvalue())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "five"], "--players 'five': expected 2, 3 or 4"),
        (["--players", "1"], "a scorepad is for 2, 3 or 4 players, not 1"),
        (["--edition", "2020"], "unknown edition '2020': expected 2018 or 2010"),
        (["--paper", "legal"], "unknown paper 'legal': expected a4 or letter"),
    ],
)
def test_cli_refuses_bad_values_and_writes_nothing(argv: list[str], message: str, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "out.pdf"
    assert _run(["scorepad", *argv, "-o", str(target)]) == 2
    assert message in capsys.readouterr().err
    assert not target.exists()


def test_cli_reports_a_missing_folder(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert _run(["scorepad", "-o", str(tmp_path / "nowhere" / "x.pdf")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_write_pdf_replaces_an_existing_file_whole(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "pad.pdf"
    target.write_bytes(b"old")
    write_pdf(b"%PDF-new", str(target))
    assert target.read_bytes() == b"%PDF-new"
