"""A table played on the devices gets its result from the game: the round's page never sends the
organizer to enter it, and counts it as playing until it ends."""

from __future__ import annotations

import html

from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.core.models import Event
from organizer.rounds import page as round_page
from tests.fixtures.organizer import add_players


def test_the_next_step_skips_tables_playing_on_the_devices(signed_in: FlaskClient, session: Session,
                                                            event: Event) -> None:
    add_players(session, event, 12)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    assert signed_in.post(f"/events/{event.id}/rounds/1/live/tables/1/digital").status_code == 302
    page = html.unescape(signed_in.get(f"/events/{event.id}/rounds/1").text)
    assert "Enter results: Table 2" in page and "Enter results: Table 1" not in page
    assert "2 tables have no result yet." in page and "1 table is playing on the devices." in page
    # every paper table done: the next step is the live tables, not closing the round
    for number in (1, 2, 3):
        signed_in.post(f"/events/{event.id}/rounds/1/live/tables/{number}/digital")
    page = html.unescape(signed_in.get(f"/events/{event.id}/rounds/1").text)
    assert "Enter results" not in page and "3 tables are playing on the devices." in page
    assert f'class="button primary" href="/events/{event.id}/rounds/1/live"' in page


def test_progress_counts_digital_tables_apart() -> None:
    progress = round_page.RoundProgress(4, [2], [3], [1])
    assert progress.confirmed == 1
