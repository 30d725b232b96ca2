"""Standings page over stored results, and a second round seated from them."""

from __future__ import annotations

import re
from itertools import combinations

from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, Player, Round
from organizer.rounds import service as round_service
from tests.fixtures.organizer import HX, add_players, create_event


def enter_and_confirm(client: FlaskClient, event: Event, session: Session, number: int, points_by_player: dict[int, int]) -> None:
    rnd = session.exec(select(Round).where(Round.event_id == event.id, Round.number == number)).one()
    assert rnd.id is not None
    for view in round_service.tables_of(session, rnd.id):
        form = {"mode": "totals", "version": "0"}
        for seat_view in view.seats:
            assert seat_view.seat.player_id is not None
            form[f"points_{seat_view.seat.id}"] = str(points_by_player[seat_view.seat.player_id])
            form[f"species_{seat_view.seat.id}"] = "5"
        base = f"/events/{event.id}/rounds/{number}/tables/{view.table.number}"
        assert client.post(base + "/result", data=form).status_code == 302
        assert client.post(base + "/confirm", data={"seat": "organizer", "version": "1"}).status_code == 200


def standings_names(html: str) -> list[str]:
    return re.findall(r'<strong class="standing-name">([^<]+)</strong>', html)


def test_standings_follow_results_and_round_two_avoids_repeats(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 8)
    ids = [p.id for p in players]
    page = signed_in.get(f"/events/{event.id}/standings").text
    assert len(standings_names(page)) == 8  # everyone listed with 0 before any result
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "42"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    points = {pid: 10 * (i + 1) for i, pid in enumerate(ids)}  # Player 08 scores most
    enter_and_confirm(signed_in, event, session, 1, points)
    page = signed_in.get(f"/events/{event.id}/standings").text
    names = standings_names(page)
    rnd1 = session.exec(select(Round)).one()
    assert rnd1.id is not None
    tables1 = [[s.seat.player_id for s in v.seats] for v in round_service.tables_of(session, rnd1.id)]
    # Each table's top scorer wins it: the two winners share first place (1.00 point each).
    winners = {max(t, key=lambda pid: points[pid]) for t in tables1}
    by_name = {p.name: p.id for p in players}
    assert {by_name[n] for n in names[:2]} == winners
    assert page.count(">1.00<") == 2
    assert "Provisional" not in page
    signed_in.post(f"/events/{event.id}/rounds/1/close")
    assert signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "42"}).status_code == 302
    rnd2 = session.exec(select(Round).where(Round.number == 2)).one()
    assert rnd2.id is not None
    tables2 = [[s.seat.player_id for s in v.seats] for v in round_service.tables_of(session, rnd2.id)]
    met = {frozenset(pair) for t in tables1 for pair in combinations(t, 2)}
    repeats = [pair for t in tables2 for pair in combinations(t, 2) if frozenset(pair) in met]
    # 8 players at two tables of 4 after one round: 2 from each old table must meet again at best.
    assert len(repeats) == 4
    # Swiss: both round-1 winners sit at table 1.
    assert winners <= set(tables2[0])
    review = signed_in.get(f"/events/{event.id}/rounds/2").text
    assert "Players meeting again" in review
    # The proposal shows the standings it was made from: the two winners ranked 1 and 2.
    assert sorted(re.findall(r"#(\d) · 1\.00</span>", review)) == ["1", "2"]


def test_provisional_and_disputed_results_are_flagged(signed_in: FlaskClient, session: Session, event: Event) -> None:
    add_players(session, event, 4)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "1"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id)[0]
    form = {"mode": "totals", "version": "0"}
    for i, seat_view in enumerate(view.seats):
        form[f"points_{seat_view.seat.id}"] = str(30 + i)
        form[f"species_{seat_view.seat.id}"] = "4"
    signed_in.post(f"/events/{event.id}/rounds/1/tables/1/result", data=form)
    page = signed_in.get(f"/events/{event.id}/standings").text
    assert "Provisional: 1 result is not confirmed yet" in page
    assert page.count(">1.00<") == 1
    signed_in.post(f"/events/{event.id}/rounds/1/tables/1/dispute", data={"version": "1", "note": "wrong"})
    page = signed_in.get(f"/events/{event.id}/standings").text
    assert "1 disputed result is left out" in page
    assert ">1.00<" not in page


def test_2010_ties_are_shared_and_2018_ties_use_species(signed_in: FlaskClient, session: Session) -> None:
    for edition in ("2010", "2018"):
        event = create_event(session, name=f"Ed {edition}", edition=edition)
        add_players(session, event, 2)
        signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "1"})
        signed_in.post(f"/events/{event.id}/rounds/1/publish")
        rnd = session.exec(select(Round).where(Round.event_id == event.id)).one()
        assert rnd.id is not None
        view = round_service.tables_of(session, rnd.id)[0]
        form = {"mode": "totals", "version": "0"}
        for i, seat_view in enumerate(view.seats):
            form[f"points_{seat_view.seat.id}"] = "40"
            form[f"species_{seat_view.seat.id}"] = str(4 + i)
        signed_in.post(f"/events/{event.id}/rounds/1/tables/1/result", data=form)
        page = signed_in.get(f"/events/{event.id}/standings").text
        if edition == "2010":
            assert page.count(">0.50<") == 2  # a tie is shared
        else:
            assert page.count(">1.00<") == 1 and page.count(">0.00<") == 1  # more species wins


def test_dropped_player_keeps_a_row(signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = add_players(session, event, 3)
    players[0].dropped = True
    session.add(players[0])
    session.commit()
    page = signed_in.get(f"/events/{event.id}/standings").text
    assert '<tr class="dropped">' in page
    # marked in words, not by colour or a line-through alone, once: only that player
    assert page.count('<span class="badge bad dropped-badge">dropped</span>') == 1
    assert len(standings_names(page)) == 3
    assert isinstance(players[0], Player)


def test_long_standings_are_paged_and_find_a_player_keeps_the_rank(signed_in: FlaskClient, session: Session,
                                                                   event: Event) -> None:
    session.add_all([Player(event_id=event.id, name=f"Player {i:03d}", name_key=f"player {i:03d}") for i in range(150)])
    session.commit()
    page = signed_in.get(f"/events/{event.id}/standings").text
    assert "Players 1–100 of 150" in page
    assert page.count('<td data-label="Rank"') == 100
    second = signed_in.get(f"/events/{event.id}/standings?page=2", headers=HX).text
    assert second.lstrip().startswith('<div id="standings-rows">') and "Players 101–150 of 150" in second
    assert second.count('<td data-label="Rank"') == 50
    found = signed_in.get(f"/events/{event.id}/standings?q=player+149", headers=HX).text
    assert "Player 149" in found and found.count('<td data-label="Rank"') == 1
    assert "No players named" in signed_in.get(f"/events/{event.id}/standings?q=nobody").text


def test_standings_follow_every_change_of_results_and_players(signed_in: FlaskClient, session: Session,
                                                              event: Event) -> None:
    """The rows are computed once per state of the results (a cache): a correction (as many
    results as before) and a late player show at once."""
    from organizer.scoring.event_standings import standings_for

    players = add_players(session, event, 4)
    signed_in.post(f"/events/{event.id}/rounds/propose", data={"seed": "1"})
    signed_in.post(f"/events/{event.id}/rounds/1/publish")
    rnd = session.exec(select(Round)).one()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id)[0]
    seats = [s.seat for s in view.seats]

    def enter(version: int, points: list[int]) -> None:
        form = {"mode": "totals", "version": str(version)}
        for seat, figure in zip(seats, points, strict=True):
            form[f"points_{seat.id}"], form[f"species_{seat.id}"] = str(figure), "4"
        assert signed_in.post(f"/events/{event.id}/rounds/1/tables/1/result", data=form).status_code == 302

    enter(0, [40, 30, 20, 10])
    assert standings_for(session, event)[0].player_id == seats[0].player_id
    enter(1, [10, 20, 30, 40])  # a correction: the same number of results
    assert standings_for(session, event)[0].player_id == seats[3].player_id
    assert standings_for(session, event)[0].game_points == 40
    late = Player(event_id=event.id, name="Late Lee", name_key="late lee", checked_in=True)
    session.add(late)
    session.commit()
    assert [r.player_id for r in standings_for(session, event)][-1] == late.id
    assert len(standings_for(session, event)) == len(players) + 1
