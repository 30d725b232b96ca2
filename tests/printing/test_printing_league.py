"""A season's league table as a PDF, read back as a person would read the paper."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.club import leagues
from organizer.printing import PrintingError
from organizer.printing.league import LeagueData, LeagueLine, league_pdf
from tests.club.support import play_event
from tests.printing.support import is_pdf, pages_text


def test_league_pdf_from_a_season_lists_players_in_rank_order_with_the_rule(
        signed_in: FlaskClient, session: Session) -> None:
    play_event(session, "Jan night", date(2026, 1, 10), [[[("Ann Ångström", 50, 5), ("Bo", 40, 4), ("Cy", 30, 3)]]])
    play_event(session, "Feb night", date(2026, 2, 10), [[[("Ann Ångström", 20, 5), ("Bo", 40, 4)]]])
    season = leagues.save_season(session, leagues.SeasonInput("Club 2026", date(2026, 1, 1), date(2026, 12, 31),
                                                              "average", min_events=2))
    page = signed_in.get(f"/seasons/{season.id}")
    assert f'href="/seasons/{season.id}/league.pdf"' in page.text
    response = signed_in.get(f"/seasons/{season.id}/league.pdf")
    assert response.status_code == 200 and is_pdf(response.data)
    assert response.headers["Cache-Control"] == "private, no-store"
    assert 'filename="club-2026-league.pdf"' in response.headers["Content-Disposition"]
    text = " ".join(pages_text(response.data))
    assert "Club 2026: league" in text and "2026-01-01 – 2026-12-31 · 2 events · 3 players" in text
    assert "Ranked by tournament points per event attended, at least 2 events." in text
    # Bo (0.5 + 1) / 2 = 0.75, Ann (1 + 0) / 2 = 0.5; Cy came once: listed below, unranked
    bo, ann, cy = text.index("1 Bo 0.75 2 2 80 8"), text.index("2 Ann Ångström 0.50 2 2 70 10"), text.index("– Cy 0.00 1 1 30 3")
    assert bo < ann < cy
    assert "fewer events than the rule asks for" in text
    assert "2026-01-10 Jan night" in text and "2026-02-10 Feb night" in text


def test_an_empty_season_gives_a_reason_not_a_file(signed_in: FlaskClient, session: Session) -> None:
    season = leagues.save_season(session, leagues.SeasonInput("Quiet", date(2030, 1, 1), date(2030, 2, 1)))
    response = signed_in.get(f"/seasons/{season.id}/league.pdf")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/seasons/{season.id}")
    assert "No PDF made: There are no results in this season yet" in signed_in.get(f"/seasons/{season.id}").text
    assert signed_in.get("/seasons/999/league.pdf").status_code == 404


def test_five_hundred_players_run_over_pages_with_the_header_on_each() -> None:
    rows = tuple(LeagueLine(i, f"Player {i:03}", Fraction(1000 - i, 3), 5, 4, 200 - i // 3, 30) for i in range(1, 501))
    texts = pages_text(league_pdf(LeagueData("Big", "2026-01-01", "2026-12-31", "sum of tournament points",
                                             (("2026-01-10", "Jan"),), rows)))
    assert len(texts) > 5
    for number, text in enumerate(texts, start=1):
        assert "# Player Points Events Counted Game pts Species" in text, f"header missing on page {number}"
    everything = " ".join(texts)
    assert "1 Player 001 333.00 5 4 200 30" in everything and "500 Player 500 166.67 5 4 34 30" in everything


def test_bad_data_is_refused_before_drawing() -> None:
    line = LeagueLine(1, "Ann", 2, 1, 1, 10, 3)
    data = LeagueData("S", "2026-01-01", "2026-12-31", "sum", (), (line,))
    with pytest.raises(PrintingError, match="negative"):
        league_pdf(LeagueData(data.season, data.first_day, data.last_day, data.rule, (),
                              (LeagueLine(1, "Ann", -1, 1, 1, 10, 3),)))
    with pytest.raises(PrintingError, match="paper"):
        league_pdf(LeagueData(data.season, data.first_day, data.last_day, data.rule, (), (line,), "a3"))  # type: ignore[arg-type]
