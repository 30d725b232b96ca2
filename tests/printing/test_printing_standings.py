"""Standings after a round and the end-of-event report."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from organizer.core.translate import format_points
from organizer.printing import EventReportData, PrintingError, StandingsData, StandingsLine, event_report, standings_pdf
from organizer.printing.layout import format_number
from organizer.printing.samples import sample_event_report, sample_standings
from tests.printing.support import is_pdf, pages_text


def test_standings_for_500_players_run_over_pages_with_the_header_on_each() -> None:
    data = sample_standings(players=500, after_round=6)
    pdf = standings_pdf(data)
    assert is_pdf(pdf)
    texts = pages_text(pdf)
    assert len(texts) > 5
    for number, text in enumerate(texts, start=1):
        assert "# Player Club Games TP Game pts Opp. TP Species" in text, f"header missing on page {number}"
        assert f"page {number} of {len(texts)}" in text
    everything = " ".join(texts)
    assert "Standings after round 6" in texts[0] and "500 players" in texts[0]
    last_seen = -1
    for row in sorted(data.rows, key=lambda r: r.rank):
        position = everything.index(f"{row.rank} {row.player}", last_seen + 1)
        assert position > last_seen, f"rank {row.rank} out of order"
        last_seen = position
    assert "Ties are broken by total game points, then opponents' average tournament points" in texts[-1]


def test_standing_row_shows_its_numbers_and_a_dropped_player_is_marked() -> None:
    rows = (
        StandingsLine(rank=1, player="Zoë Ångström", tournament_points=Fraction(7, 3), game_points=98,
                    opponents_average=Fraction(3, 2), species_count=17, games=3, club="Łódź Club"),
        StandingsLine(rank=2, player="Łukasz Wójcik", tournament_points=2, game_points=101,
                    opponents_average=1.25, species_count=15, games=3, dropped=True),
    )
    text = pages_text(standings_pdf(StandingsData(event="Cup", after_round=3, rows=rows)))[0]
    assert "1 Zoë Ångström Łódź Club 3 2.33 98 1.5 17" in text
    assert "2 Łukasz Wójcik (dropped) 3 2.00 101 1.25 15" in text


def test_tournament_points_print_as_people_read_them() -> None:
    assert [format_number(v) for v in (2, Fraction(4, 2), Fraction(7, 3), 1.5, 0.0, Fraction(1, 6))] == \
        ["2", "2", "2.33", "1.5", "0", "0.17"]


def test_standings_before_the_first_round() -> None:
    data = sample_standings(players=6, after_round=1)
    text = pages_text(standings_pdf(replace(data, after_round=0)))[0]
    assert "Standings before the first round" in text


def test_event_report_has_final_standings_and_every_table_of_every_round() -> None:
    data = sample_event_report(players=16, rounds=3)
    pdf = event_report(data)
    text = " ".join(pages_text(pdf))
    assert "Spring Open 2026 — Café Łódź: event report" in text
    assert "16 players · 3 rounds · 12 tables played" in text
    winner = data.final_standings[0]
    assert f"1 {winner.player}" in text
    last = -1
    for round_ in data.rounds:
        heading = text.index(f"Round {round_.number} · standard game · 4 tables")
        assert heading > last
        last = heading
        for table in round_.tables:
            for seat in table.seats or ():
                assert (f"{seat.seat} {seat.player} {seat.points} {seat.species_count} {seat.place} "
                        f"{format_points(seat.tournament_points)}") in text


def test_a_long_event_report_keeps_each_tables_seats_on_one_page_under_a_header() -> None:
    data = sample_event_report(players=200, rounds=2)
    texts = pages_text(event_report(data))
    assert len(texts) > 4
    for round_ in data.rounds:
        for table in round_.tables:
            lines = [f"{seat.seat} {seat.player} {seat.points} {seat.species_count} {seat.place} "
                     f"{format_points(seat.tournament_points)}" for seat in table.seats or ()]
            pages = [number for number, text in enumerate(texts) if any(line in text for line in lines)]
            assert len(pages) == 1, f"round {round_.number} table {table.number} is on pages {pages}"
            page = texts[pages[0]]
            assert all(line in page for line in lines)
            assert "Table Seat Player Points Species Place TP" in page


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: replace(d, rows=()), "standings: there are no players yet"),
        (lambda d: replace(d, paper="a5"), "unknown paper 'a5'"),
        (lambda d: replace(d, after_round=-1), "expected a round number, 0 or more"),
        (lambda d: replace(d, rows=(replace(d.rows[0], rank=0),) + d.rows[1:]), "ranks start at 1"),
        (lambda d: replace(d, rows=(replace(d.rows[0], game_points="12"),) + d.rows[1:]), "game points is '12', not a number"),
        (lambda d: replace(d, rows=(replace(d.rows[0], tournament_points=-1),) + d.rows[1:]), "tournament points is negative"),
        (lambda d: replace(d, rows=(replace(d.rows[0], player=""),) + d.rows[1:]), "a player at rank 1 has no name"),
    ],
)
def test_bad_standings_are_refused(change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PrintingError, match=message):
        standings_pdf(change(sample_standings(players=5)))


def _no_result(data: EventReportData) -> EventReportData:
    round_2 = data.rounds[1]
    tables = (replace(round_2.tables[0], seats=None),) + round_2.tables[1:]
    return replace(data, rounds=(data.rounds[0], replace(round_2, tables=tables)) + data.rounds[2:])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: replace(d, rounds=()), "needs at least one round played"),
        (_no_result, "round 2, table 1 has no result yet"),
        (lambda d: replace(d, rounds=(replace(d.rounds[0], tables=()),)), "round 1 has no seating"),
        (lambda d: replace(d, rounds=(d.rounds[0], d.rounds[0])), "a round number appears twice"),
        (lambda d: replace(d, final_standings=()), "final standings: there are no players yet"),
        (lambda d: replace(d, edition="2019"), "unknown edition '2019'"),
    ],
)
def test_bad_event_reports_are_refused(change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PrintingError, match=message):
        event_report(change(sample_event_report(players=8, rounds=3)))

