"""A big round's page: 50 tables a page with the pager, progress and the next step
counted over the whole round, the grid's refresh and page links keeping their page, and a swap
form that finds a player by name or table number instead of listing everyone."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, Result, Round
from organizer.rounds import service
from organizer.rounds.page import table_statuses
from tests.fixtures.organizer import HX, add_players


def _table_cards(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<article class="card table-card" id="table-(\d+)"', page)]


def _big_round(client: FlaskClient, session: Session, event: Event, publish: bool = True) -> Round:
    add_players(session, event, 204)  # 51 tables of 4
    assert client.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"}).status_code == 302
    if publish:
        assert client.post(f"/events/{event.id}/rounds/1/publish").status_code == 302
    rnd = session.exec(select(Round)).one()
    session.refresh(rnd)
    return rnd


def test_a_big_round_shows_fifty_tables_a_page(signed_in: FlaskClient, session: Session, event: Event) -> None:
    rnd = _big_round(signed_in, session, event)
    assert rnd.id is not None
    last = service.tables_of(session, rnd.id, 51)[0]
    session.add(Result(table_id=last.table.id or 0, status="confirmed",
                       seats=[{"player_id": s.seat.player_id, "points": 10, "species_count": 3} for s in last.seats]))
    session.commit()
    page = html.unescape(signed_in.get(f"/events/{event.id}/rounds/1").text)
    assert _table_cards(page) == list(range(1, 51))
    assert "Tables 1–50 of 51" in page and 'aria-label="Page 2"' in page
    # the round's progress and its next step count every table, not only the page's
    assert "51 tables" in page and "1 of 51 results confirmed." in page and "50 tables have no result yet." in page
    second = html.unescape(signed_in.get(f"/events/{event.id}/rounds/1?page=2").text)
    assert _table_cards(second) == [51] and "Tables 51–51 of 51" in second
    assert "1 of 51 results confirmed." in second
    # a page link (htmx, aimed at the grid) gets the grid only, and the grid's refresh keeps its page
    grid = signed_in.get(f"/events/{event.id}/rounds/1?page=2", headers={**HX, "HX-Target": "round-grid"}).text
    assert grid.lstrip().startswith('<div id="round-grid"') and _table_cards(grid) == [51]
    assert f'hx-get="/events/{event.id}/rounds/1?part=grid&amp;page=2"' in grid
    # past the end is the last page
    assert _table_cards(signed_in.get(f"/events/{event.id}/rounds/1?page=99").text) == [51]


def test_a_small_round_has_no_pager(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 8)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "3"})
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert _table_cards(page) == [1, 2] and "pager" not in page


def test_tables_of_reads_only_the_numbers_asked_for(signed_in: FlaskClient, session: Session, event: Event) -> None:
    rnd = _big_round(signed_in, session, event)
    assert rnd.id is not None
    views = service.tables_of(session, rnd.id, numbers=[3, 51, 7])
    assert [v.table.number for v in views] == [3, 7, 51] and all(len(v.seats) == 4 for v in views)
    assert service.tables_of(session, rnd.id, numbers=[]) == []
    statuses = table_statuses(session, rnd.id)
    assert [t.number for t in statuses] == list(range(1, 52)) and {t.status for t in statuses} == {None}


def test_the_swap_form_finds_players_by_name_or_table(signed_in: FlaskClient, session: Session, event: Event) -> None:
    rnd = _big_round(signed_in, session, event, publish=False)
    assert rnd.id is not None
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert "<select" not in page and 'name="find_first"' in page and 'name="find_second"' in page
    url = f"/events/{event.id}/rounds/1/seated"
    one = service.tables_of(session, rnd.id, 12)[0].seats[2].player
    assert one is not None
    found = signed_in.get(url, query_string={"slot": "first", "find_first": one.name.upper()}, headers=HX).text
    assert found.lstrip().startswith('<div id="picks-first"')
    assert f'<input type="radio" name="first" value="{one.id}" checked>' in found and "(table 12)" in found
    # a table's number lists its players; many matches are cut, saying so
    at_twelve = signed_in.get(url, query_string={"slot": "second", "find_second": "12"}, headers=HX).text
    assert f'name="second" value="{one.id}"' in at_twelve
    many = html.unescape(signed_in.get(url, query_string={"slot": "first", "find_first": "player"}, headers=HX).text)
    assert many.count('type="radio"') == 8 and "More players match" in many
    nobody = html.unescape(signed_in.get(url, query_string={"slot": "first", "find_first": "zz"}, headers=HX).text)
    assert "No player of this round matches “zz”." in nobody
    # without script, Find reloads the round's page with the matches
    reloaded = signed_in.get(f"/events/{event.id}/rounds/1", query_string={"find_first": one.name}).text
    assert f'name="first" value="{one.id}" checked' in reloaded
    assert signed_in.get(url, query_string={"slot": "first", "find_first": one.name}).status_code == 302
    # and the swap posted from page 2 comes back on page 2
    other = service.tables_of(session, rnd.id, 51)[0].seats[0].player
    assert other is not None
    response = signed_in.post(f"/events/{event.id}/rounds/1/swap", headers=HX,
                              data={"first": one.id, "second": other.id, "page": "2"})
    assert response.status_code == 200 and _table_cards(response.text) == [51]
    assert other.name not in response.text.split('id="table-51"')[1] and one.name in response.text
