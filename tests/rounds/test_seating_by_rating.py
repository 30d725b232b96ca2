"""Round 1 seated by rating: the strongest players spread across the tables in snake
order, fixed tables kept, the option off leaving today's shuffle as it was."""

from __future__ import annotations

from datetime import date

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.club import ratings
from organizer.core.errors import InputError
from organizer.core.models import ClubPlayer, Event, Player, RatingPoint
from organizer.exchange import event_import
from organizer.exchange import export as exchange
from organizer.players import service as player_service
from organizer.rounds import seating_ranks
from organizer.rounds import service as rounds
from organizer.rounds.seating import SeatingPlayer, propose_seating
from tests.fixtures.organizer import create_event, event_form


def _ranked(count: int, fixed: dict[int, int] | None = None) -> list[SeatingPlayer]:
    """Players 101, 102, ... ranked 0, 1, ... (101 the strongest)."""
    fixed = fixed or {}
    return [SeatingPlayer(101 + rank, rank, fixed.get(101 + rank)) for rank in range(count)]


def test_eight_rated_players_at_two_tables_are_dealt_in_snake_order() -> None:
    # Worked by hand: ranks 0..7 dealt to tables 1, 2, 2, 1, 1, 2, 2, 1.
    #   table 1: ranks 0, 3, 4, 7 (sum 14)    table 2: ranks 1, 2, 5, 6 (sum 14)
    tables = propose_seating(_ranked(8), 1, 4, seed=5, by_rating=True)
    assert [sorted(t) for t in tables] == [[101, 104, 105, 108], [102, 103, 106, 107]]
    top_two_tables = {next(n for n, t in enumerate(tables) if p in t) for p in (101, 102)}
    assert len(top_two_tables) == 2


def test_the_spread_gives_each_table_a_like_sum_of_ratings() -> None:
    # 12 players rated 30, 28, ..., 8 at three tables: snake order, table sums within one step
    rating = {101 + rank: 30 - 2 * rank for rank in range(12)}
    tables = propose_seating(_ranked(12), 1, 4, seed=9, by_rating=True)
    sums = [sum(rating[p] for p in t) for t in tables]
    assert [sorted(t) for t in tables] == [[101, 106, 107, 112], [102, 105, 108, 111], [103, 104, 109, 110]]
    assert sums == [76, 76, 76]
    shuffled = propose_seating(_ranked(12), 1, 4, seed=9)
    assert max(sums) - min(sums) <= max(sum(rating[p] for p in t) for t in shuffled) - min(
        sum(rating[p] for p in t) for t in shuffled)


def test_uneven_tables_and_fixed_players_are_honoured() -> None:
    # 10 players at tables of 4, 3, 3; player 110 (the weakest) must sit at table 2
    tables = propose_seating(_ranked(10, {110: 2}), 1, 4, seed=3, by_rating=True)
    assert [len(t) for t in tables] == [4, 3, 3]
    assert 110 in tables[1]
    # worked by hand: the free players in snake order over the free seats (4, 2 and 3 of them),
    # a full table skipped: 101 102 103 | 104 105 106 | 107 - 108 | - - 109
    assert [sorted(t) for t in tables] == [[101, 106, 107, 109], [102, 105, 110], [103, 104, 108]]


def test_the_spread_is_reproducible_from_the_seed_and_unrated_players_come_last() -> None:
    # ranks 0, 1, 2 rated; eight unrated players share rank 3
    players = [SeatingPlayer(101 + i, min(i, 3)) for i in range(11)]
    first = propose_seating(players, 1, 4, seed=11, by_rating=True)
    assert first == propose_seating(list(reversed(players)), 1, 4, seed=11, by_rating=True)
    assert [min(t) for t in first] == [101, 102, 103]  # one rated player a table
    other_seeds = {tuple(map(tuple, propose_seating(players, 1, 4, seed=s, by_rating=True))) for s in range(8)}
    assert len(other_seeds) > 1  # the unrated are placed by the seed, not by their ids


def test_without_the_option_round_one_is_the_shuffle_whatever_the_ranks() -> None:
    flat = [SeatingPlayer(101 + i, 0) for i in range(10)]
    assert propose_seating(_ranked(10), 1, 4, seed=21) == propose_seating(flat, 1, 4, seed=21)
    assert propose_seating(_ranked(10), 1, 4, seed=21, by_rating=False) == propose_seating(flat, 1, 4, seed=21)
    # ratings play no part after round 1: later rounds are Swiss whatever the option
    assert propose_seating(_ranked(8), 2, 4, seed=2, by_rating=True) == propose_seating(_ranked(8), 2, 4, seed=2)


# -- through the services and the pages ------------------------------------------------------------

def _rated_event(session: Session, by_rating: bool, ordinals: list[float | None]) -> tuple[Event, list[Player]]:
    """An event of checked-in players P1, P2, ... whose club players have the given ratings
    (None: no rating), set as one rating point each after an earlier event."""
    earlier = create_event(session, name="Club night 1", date=date(2026, 1, 9))
    event = create_event(session, name="Club night 2", date=date(2026, 2, 13), first_round_by_rating=by_rating)
    players = []
    for number, value in enumerate(ordinals, start=1):
        player = player_service.add_player(session, event, f"Player {number}", "", "", "test")
        player_service.set_checked_in(session, player, True, "test")
        assert player.club_player_id is not None, "the sign-up service links the registry"
        if value is not None:
            # sigma 1: ordinal = mu - 3
            session.add(RatingPoint(club_player_id=player.club_player_id, event_id=earlier.id or 0, sequence=1,
                                    mu=value + 3, sigma=1.0, tables=3))
        players.append(player)
    session.commit()
    return event, players


def _tables(session: Session, event: Event) -> list[list[str]]:
    rnd = rounds.get_round(session, event.id or 0, 1)
    assert rnd is not None and rnd.id is not None
    return [[s.player.name for s in view.seats if s.player] for view in rounds.tables_of(session, rnd.id)]


def test_round_one_by_rating_spreads_the_club_ratings_and_the_page_says_so(
        session: Session, signed_in: FlaskClient) -> None:
    # Player 1 rated 10, Player 2 rated 20, ..., Player 8 rated 80: the best is Player 8
    event, players = _rated_event(session, True, [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0])
    rnd = rounds.propose_round(session, event, "test", seed=4)
    tables = _tables(session, event)
    assert sorted(map(sorted, tables)) == sorted(map(sorted, [["Player 8", "Player 5", "Player 4", "Player 1"],
                                                              ["Player 7", "Player 6", "Player 3", "Player 2"]]))
    assert "Player 8" in tables[0] and "Player 7" in tables[1]
    # the same players, the same ratings, the same seed: the same seating
    rounds.discard_proposal(session, event, rnd, "test")
    rounds.propose_round(session, event, "test", seed=4)
    assert _tables(session, event) == tables
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert "Seated by rating: 8 rated players spread across the tables, strongest first; 0 without a rating" in page


def test_unrated_players_are_seated_after_the_rated(session: Session) -> None:
    # four rated, four without a rating: each table gets two rated players, the best two apart
    event, _ = _rated_event(session, True, [5.0, None, 15.0, None, None, 25.0, None, 35.0])
    rounds.propose_round(session, event, "test", seed=1)
    tables = _tables(session, event)
    rated = {"Player 1", "Player 3", "Player 6", "Player 8"}
    assert [len(rated & set(t)) for t in tables] == [2, 2]
    assert "Player 8" in tables[0] and "Player 6" in tables[1]


def test_an_event_without_ratings_still_seats_round_one(session: Session, signed_in: FlaskClient) -> None:
    event, _ = _rated_event(session, True, [None] * 7)
    rounds.propose_round(session, event, "test", seed=8)
    assert sorted(len(t) for t in _tables(session, event)) == [3, 4]
    page = signed_in.get(f"/events/{event.id}/rounds/1").text
    assert "no player has a club rating yet: round 1 was shuffled" in page


def test_with_the_option_off_ratings_change_nothing(session: Session, signed_in: FlaskClient) -> None:
    event, players = _rated_event(session, False, [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0])
    rounds.propose_round(session, event, "test", seed=4)
    expected = propose_seating([SeatingPlayer(p.id or 0, 0) for p in players], 1, 4, seed=4)
    names = {p.id: p.name for p in players}
    assert _tables(session, event) == [[names[i] for i in t] for t in expected]
    assert "Seated by rating" not in signed_in.get(f"/events/{event.id}/rounds/1").text


def test_the_event_form_saves_the_option_and_shows_it_again(signed_in: FlaskClient, session: Session) -> None:
    page = signed_in.get("/events/new").text
    assert 'name="first_round_by_rating"' in page and "Seat round 1 by rating" in page
    assert signed_in.post("/events/new", data=event_form(first_round_by_rating="1")).status_code == 302
    event = session.exec(select(Event)).one()
    assert event.first_round_by_rating is True
    edit = signed_in.get(f"/events/{event.id}/edit").text
    assert 'name="first_round_by_rating" value="1" aria-describedby="h-first_round_by_rating" checked' in edit
    # unticked, a browser sends nothing for the box
    saved = signed_in.post(f"/events/{event.id}/edit", data=event_form(version=str(event.version)))
    assert saved.status_code == 302
    session.refresh(event)
    assert event.first_round_by_rating is False
    assert 'aria-describedby="h-first_round_by_rating" >' in signed_in.get(f"/events/{event.id}/edit").text
    # a form opened before that save is stale: nothing saved, the option stays off
    stale = signed_in.post(f"/events/{event.id}/edit", data=event_form(version="1", first_round_by_rating="1"))
    assert stale.status_code == 422 and "nothing was saved" in stale.text
    session.refresh(event)
    assert event.first_round_by_rating is False


def test_the_option_goes_out_with_the_event_and_comes_back(session: Session) -> None:
    event, _ = _rated_event(session, True, [1.0, 2.0])
    data = exchange.export_event(session, event)
    assert data["event"]["first_round_by_rating"] is True
    assert event_import.import_event(session, data, None).first_round_by_rating is True
    del data["event"]["first_round_by_rating"]  # a file from before the option
    assert event_import.import_event(session, data, None).first_round_by_rating is False
    session.rollback()
    data["event"]["first_round_by_rating"] = "yes"
    with pytest.raises(InputError) as refused:
        event_import.import_event(session, data, None)
    assert "The event's settings: the seating of round 1 by rating must be true or false, not 'yes'." == \
        refused.value.errors["file"]


def test_rating_order_ranks_by_the_latest_ordinal(session: Session) -> None:
    event, players = _rated_event(session, True, [10.0, None, 30.0])
    club = session.get(ClubPlayer, players[0].club_player_id)
    assert club is not None
    later = create_event(session, name="Club night 3", date=date(2026, 3, 1))
    # a later rating point of Player 1 (ordinal 40) is the one that counts
    session.add(RatingPoint(club_player_id=club.id or 0, event_id=later.id or 0, sequence=2, mu=43.0, sigma=1.0))
    session.commit()
    order = seating_ranks.rating_order(session, rounds.seatable_players(session, event.id or 0, 1))
    assert order.rated == 2 and order.unrated == 1
    assert order.ranks == {players[0].id: 0, players[2].id: 1, players[1].id: 2}
    assert ratings.ordinal(43.0, 1.0) == 40.0
