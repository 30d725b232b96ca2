"""Seating rounds: propose, review, swap, publish, close; table pages."""

from __future__ import annotations

import csv
import html
import io
import re
import zipfile

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import AuditEntry, Event, GameTable, Round, RoundStatus, Seat
from organizer.rounds import service
from organizer.rounds.history import history_before
from tests.fixtures.organizer import HX, add_players, error_beside


def seats_by_table(session: Session, rnd: Round) -> list[list[int]]:
    session.expire_all()
    assert rnd.id is not None
    return [[s.seat.player_id for s in view.seats] for view in service.tables_of(session, rnd.id)]  # type: ignore[misc]


def propose(client: FlaskClient, event: Event, seed: str = "") -> object:
    return client.post(f"/events/{event.id}/rounds/propose", data={"seed": seed})


def test_round_one_seats_checked_in_players_reproducibly(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 10)
    add_players_late = add_players(session, event, 0)
    assert add_players_late == []
    players[9].checked_in = False
    session.add(players[9])
    session.commit()
    page = signed_in.get(f"/events/{event.id}/rounds").text
    assert "9 players checked in and ready for round 1" in page
    response = propose(signed_in, event, "1234")
    assert response.status_code == 302  # type: ignore[attr-defined]
    rnd = session.exec(select(Round)).one()
    assert (rnd.number, rnd.status, rnd.seed, rnd.format) == (1, "proposed", 1234, "standard")
    tables = seats_by_table(session, rnd)
    assert sorted(len(t) for t in tables) == [3, 3, 3]  # 9 players, preferred 4: no table of 1 or 2 left over
    assert sorted(p for t in tables for p in t) == sorted(p.id for p in players[:9])
    # Discard and propose again with the same seed: the same tables.
    signed_in.post(f"/events/{event.id}/rounds/1/discard")
    assert session.exec(select(Round)).all() == []
    propose(signed_in, event, "1234")
    again = session.exec(select(Round)).one()
    assert seats_by_table(session, again) == tables


def test_tables_show_start_player_dealer_and_species(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 8)
    propose(signed_in, event, "7")
    rnd = session.exec(select(Round)).one()
    tables = session.exec(select(GameTable).order_by(GameTable.number)).all()
    assert [len(t.species) for t in tables] == [10, 10]  # 4 players, 2018 standard game: all 10 species
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert page.count("start player</span>") == 2 and page.count("dealer</span>") == 2
    assert "Blue Spruce" in page
    first_table = seats_by_table(session, rnd)[0]
    from organizer.core.models import Player

    names = [session.get(Player, pid).name for pid in first_table]  # type: ignore[union-attr]
    table_page = signed_in.get(f"/events/{event.id}/rounds/1/tables/1").text
    seat_items = re.findall(r"<li><strong>([^<]+)</strong>\s*(.*?)</li>", table_page, re.S)
    assert [name for name, _ in seat_items] == names
    assert "start player" in seat_items[0][1] and "dealer" in seat_items[-1][1]


def test_three_player_tables_get_eight_species(signed_in: FlaskClient, session: Session) -> None:
    from tests.fixtures.organizer import create_event

    event = create_event(session, preferred_table_size=3, edition="2010")
    add_players(session, event, 6)
    propose(signed_in, event)
    for table in session.exec(select(GameTable)).all():
        assert len(table.species) == 8
        assert "Blue Spruce" not in table.species  # 2010 species only


def test_swap_players_between_tables(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 8)
    propose(signed_in, event, "99")
    rnd = session.exec(select(Round)).one()
    before = seats_by_table(session, rnd)
    a, b = before[0][0], before[1][2]
    response = signed_in.post(f"/events/{event.id}/rounds/1/swap", data={"first": a, "second": b}, headers=HX)
    assert response.status_code == 200 and response.text.lstrip().startswith('<div id="round-tables">')
    after = seats_by_table(session, rnd)
    assert after[0][0] == b and after[1][2] == a
    assert session.exec(select(AuditEntry).where(AuditEntry.action == "round.swapped")).one()


def test_swap_refusals(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 8)
    players[0].fixed_table = 1
    session.add(players[0])
    session.commit()
    propose(signed_in, event, "5")
    rnd = session.exec(select(Round)).one()
    tables = seats_by_table(session, rnd)
    assert players[0].id in tables[0]
    response = signed_in.post(f"/events/{event.id}/rounds/1/swap", data={"first": players[0].id, "second": tables[1][0]})
    assert response.status_code == 422
    assert "Player 01 is fixed to table 1" in error_beside(response.text, "swap")
    response = signed_in.post(f"/events/{event.id}/rounds/1/swap", data={"first": "", "second": ""})
    assert "Choose two players" in response.text
    assert seats_by_table(session, rnd) == tables
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    response = signed_in.post(f"/events/{event.id}/rounds/1/swap", data={"first": tables[0][1], "second": tables[1][1]})
    assert response.status_code == 422 and "only change before publishing" in response.text


def test_fixed_table_is_respected(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 12)
    players[5].fixed_table = 3
    session.add(players[5])
    session.commit()
    propose(signed_in, event)
    rnd = session.exec(select(Round)).one()
    assert players[5].id in seats_by_table(session, rnd)[2]


def test_publish_then_close_needs_confirmed_results(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 4)
    propose(signed_in, event)
    assert signed_in.post(f"/events/{event.id}/rounds/1/publish").status_code == 302
    session.expire_all()
    assert session.exec(select(Round)).one().status == "published"
    assert signed_in.post(f"/events/{event.id}/rounds/1/publish").status_code == 422
    response = signed_in.post(f"/events/{event.id}/rounds/1/close")
    assert response.status_code == 422 and "no result yet at table 1" in response.text
    response = propose(signed_in, event)
    assert "Round 1 is still published" in response.text  # type: ignore[attr-defined]


def test_too_few_players_and_bad_seed(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 1)
    response = signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": ""}, headers=HX)
    assert response.status_code == 422 and "at least 2 are needed" in response.text
    response = signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "abc"})
    assert "whole number" in error_beside(response.text, "seed")
    assert session.exec(select(Round)).all() == []


def test_late_entry_waits_for_its_round(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 5)
    players[4].joined_round = 2
    session.add(players[4])
    session.commit()
    propose(signed_in, event)
    rnd = session.exec(select(Round)).one()
    seated = [p for t in seats_by_table(session, rnd) for p in t]
    assert players[4].id not in seated and len(seated) == 4


def test_draft_round_tables_are_digital_with_draft_species(signed_in: FlaskClient, session: Session) -> None:
    from tests.fixtures.organizer import create_event

    event = create_event(session, round_formats=["draft", "standard"])
    add_players(session, event, 4)
    propose(signed_in, event)
    table = session.exec(select(GameTable)).one()
    assert table.digital and len(table.species) == 9
    assert len({s.token for s in session.exec(select(Seat)).all()}) == 4


def test_unknown_round_and_table_are_404(signed_in: FlaskClient, event: Event) -> None:
    assert signed_in.get(f"/events/{event.id}/rounds/3").status_code == 404
    assert signed_in.get(f"/events/{event.id}/rounds/1/tables/1").status_code == 404


def test_the_table_chooses_its_species(signed_in: FlaskClient, session: Session) -> None:
    from tests.fixtures.organizer import create_event

    event = create_event(session, preferred_table_size=2)
    add_players(session, event, 2)
    propose(signed_in, event, "4")
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    url = f"/events/{event.id}/rounds/1/tables/1/species"
    page = signed_in.get(f"/events/{event.id}/rounds/1/tables/1").text
    assert "Pick exactly 6 species" in page
    wanted = ["Blue Spruce", "Cassia", "Cherry Blossom", "Dogwood", "Jacaranda", "Willow"]
    response = signed_in.post(url, data={"species": wanted[:5]}, headers=HX)
    assert response.status_code == 422 and "Choose exactly 6 species" in error_beside(response.text, "species")
    response = signed_in.post(url, data={"species": wanted[:5] + ["Lilac"]})
    assert response.status_code == 422
    assert signed_in.post(url, data={"species": wanted}, headers=HX).status_code == 200
    session.expire_all()
    assert session.exec(select(GameTable)).one().species == wanted
    assert session.exec(select(AuditEntry).where(AuditEntry.action == "table.species")).one().new == {"species": wanted}


def test_players_checked_in_after_the_proposal_are_pointed_out(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 5, checked_in=False)
    for player in players[:4]:
        signed_in.post(f"/events/{event.id}/players/{player.id}/check-in", data={"checked_in": "1"})
    propose(signed_in, event, "3")
    assert "Checked in but not in this proposal" not in signed_in.get(f"/events/{event.id}/rounds/1").text
    signed_in.post(f"/events/{event.id}/players/{players[4].id}/check-in", data={"checked_in": "1"})
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert "Checked in but not in this proposal: Player 05" in page


def _finish(session: Session, rnd: Round) -> None:
    """Mark a round played (its seats then count for the next one) without entering results."""
    rnd.status = RoundStatus.FINISHED
    session.add(rnd)
    session.commit()


def test_review_shows_the_seats_had_and_what_a_swap_does_to_them(
    signed_in: FlaskClient, session: Session, event: Event
) -> None:
    players = add_players(session, event, 4)
    name = {p.id: p.name for p in players}
    propose(signed_in, event, "5")
    first_round = session.exec(select(Round)).one()
    (first,) = seats_by_table(session, first_round)
    _finish(session, first_round)
    propose(signed_in, event, "6")
    second_round = service.get_round(session, event.id or 0, 2)
    assert second_round is not None
    (second,) = seats_by_table(session, second_round)
    # Four players who sat together: each takes a seat new to them.
    assert all(second.index(p) != first.index(p) for p in first)
    page = html.unescape(signed_in.get(f"/events/{event.id}/rounds/2").text)
    assert "Everyone sits in a seat position new to them." in page
    assert page.count("seats before: 1 (start)") == 1 and page.count("seats before: 4 (dealer)") == 1
    assert page.count("seats before: 2<") == 1 and page.count("seats before: 3<") == 1

    # Round 1's start player trades with round 2's and starts again (the four met before: six pairs).
    x, y = first[0], second[0]
    after = [x if p == y else y if p == x else p for p in second]
    repeated = sum(after.index(p) == first.index(p) for p in first)
    assert repeated >= 1
    response = signed_in.post(f"/events/{event.id}/rounds/2/swap", data={"first": x, "second": y}, headers=HX)
    assert response.status_code == 200
    text = html.unescape(response.text)
    plural = "" if repeated == 1 else "s"
    assert f"After this swap: {repeated} repeated seat{plural} (was 0), 6 repeated opponent pairs (was 6)." in text
    assert f"In a seat position they had before: {name[x]} in seat 1 (start)" in text
    # Swapped back without htmx: the message comes with the page it redirects to.
    response = signed_in.post(f"/events/{event.id}/rounds/2/swap", data={"first": x, "second": y},
                              follow_redirects=True)
    assert f"After this swap: 0 repeated seats (was {repeated})" in html.unescape(response.text)

    # The standings export lists every player's seats in the rounds played.
    archive = zipfile.ZipFile(io.BytesIO(signed_in.get(f"/events/{event.id}/export.zip").data))
    rows = list(csv.DictReader(io.StringIO(archive.read("standings.csv").decode())))
    labels = ["1 (start)", "2", "3", "4 (dealer)"]
    assert {row["player"]: row["seats"] for row in rows} == {name[p]: labels[first.index(p)] for p in first}


def test_a_draft_round_counts_who_met_but_no_seat_positions(signed_in: FlaskClient, session: Session) -> None:
    from tests.fixtures.organizer import create_event

    event = create_event(session, round_formats=["draft", "standard"])
    add_players(session, event, 4)
    propose(signed_in, event, "1")
    _finish(session, session.exec(select(Round)).one())
    propose(signed_in, event, "2")
    page = html.unescape(signed_in.get(f"/events/{event.id}/rounds/2").text)
    assert page.count("(draft)</span>") == 4  # "seats before: 3 (draft)": no start player or dealer
    history = history_before(session, event.id or 0, 2)
    assert history.seat_counts == {} and len(history.opponents) == 4


def test_a_seating_refusal_names_the_players(signed_in: FlaskClient, session: Session, event: Event) -> None:
    """Nine players sit at 3-player tables; four fixed to table 1 cannot all sit there, and the
    refusal says who they are, by name (never by database id)."""
    players = add_players(session, event, 9)
    for player in players[:4]:
        player.fixed_table = 1
        session.add(player)
    session.commit()
    response = signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": ""})
    assert response.status_code == 422
    text = html.unescape(response.text)
    assert "players Player 01, Player 02, Player 03, and Player 04 are all fixed to table 1" in text
    assert not re.search(r"players \[?\d", text)
    assert session.exec(select(Round)).all() == []
