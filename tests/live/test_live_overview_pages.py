"""The live overview of a big round comes a page of tables at a time, and keeps its page as it
refreshes itself."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session

from engine import Phase, Progress
from organizer.core.models import Event
from organizer.live import overview as live_overview
from tests.fixtures.organizer import add_players


def test_the_overview_pages_through_the_tables(signed_in: FlaskClient, session: Session, event: Event,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    add_players(session, event, 12)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    monkeypatch.setattr(live_overview, "PER_PAGE", 2)
    base = f"/events/{event.id}/rounds/1/live"
    first = signed_in.get(base).text
    assert 'id="live-table-1"' in first and 'id="live-table-2"' in first and 'id="live-table-3"' not in first
    assert "Tables 1–2 of 3" in first and 'aria-label="Pages of tables"' in first
    second = signed_in.get(base + "?page=2").text
    assert 'id="live-table-3"' in second and 'id="live-table-1"' not in second
    assert f'hx-get="{base}?page=2" hx-trigger="every 5s, pushed"' in second  # the refresh stays on page 2


def test_moving_a_table_onto_the_devices_asks_first_and_comes_back_to_where_it_was_pressed(
        signed_in: FlaskClient, session: Session, event: Event, monkeypatch: pytest.MonkeyPatch) -> None:
    add_players(session, event, 12)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    monkeypatch.setattr(live_overview, "PER_PAGE", 2)
    base = f"/events/{event.id}/rounds/1/live"
    page = signed_in.get(base + "?page=2").text
    form = re.search(r'<form[^>]*action="([^"]*/live/tables/3/digital)"\s+data-confirm="([^"]*)"', page)
    assert form, "the overview's button asks before moving a table onto the devices, as the table's page does"
    assert "Play Table 3 on the players' devices?" in html.unescape(form.group(2))
    assert 'name="back" value="overview"' in page and 'name="page" value="2"' in page
    pressed = signed_in.post(form.group(1), data={"back": "overview", "page": "2"})
    assert pressed.status_code == 302 and pressed.headers["Location"].endswith(base + "?page=2")
    from_table = signed_in.post(f"/events/{event.id}/rounds/1/live/tables/1/digital")  # the table page's form
    assert from_table.status_code == 302
    assert from_table.headers["Location"].endswith(f"/events/{event.id}/rounds/1/tables/1")


def test_every_phase_of_a_game_has_words_on_the_overview() -> None:
    assert set(Phase) <= set(live_overview._PHASES)  # noqa: SLF001
    for phase in Phase:
        progress = Progress(mode="standard", phase=phase, finished=False, awaiting=(0,), actor=0, actor_name="Ada",
                            turn=3, round=None, rounds=None, pick=None, picks_per_round=None, draw_pile=2,
                            cards_in_hands=28)
        told, left = live_overview.describe_progress(progress)
        assert told == f"turn 3, Ada: {live_overview._PHASES[phase]}"  # noqa: SLF001
        assert left == "2 cards in the draw pile"


def test_the_pager_says_whole_sentences_counted_by_ngettext(signed_in: FlaskClient, session: Session,
                                                           event: Event) -> None:
    """Each list's pager line is its own sentence, chosen by the count: one table is
    "1 table", never "Tables 1–1 of 1"; the page links are named after what they list."""
    add_players(session, event, 4)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    page = signed_in.get(f"/events/{event.id}/rounds/1/live").text
    assert re.search(r'role="status">\s*1 table\s*</p>', page)
