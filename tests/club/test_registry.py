"""The club registry: matching on sign-up and CSV import, reviews, merges, the migration's links."""

from __future__ import annotations

import logging
import shutil
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy import text as sql
from sqlmodel import Session, select

from organizer.club import registry
from organizer.core.db import alembic_config, make_engine
from organizer.core.errors import InputError
from organizer.core.models import ClubPlayer, Player, RegistryReview
from organizer.players import service as player_service
from tests.fixtures.organizer import create_event


def _entries(session: Session) -> list[ClubPlayer]:
    return list(session.exec(select(ClubPlayer).where(ClubPlayer.merged_into_id == None)).all())  # noqa: E711


def test_same_email_is_the_same_person_whatever_the_name(session: Session) -> None:
    first, second = create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1))
    a = player_service.add_player(session, first, "Ann Lee", "", "Ann@Example.org", "t")
    b = player_service.add_player(session, second, "Annie Lee", "", "ann@example.org ", "t")
    assert a.club_player_id is not None and a.club_player_id == b.club_player_id
    assert len(_entries(session)) == 1


def test_names_differing_by_case_width_and_spacing_match(session: Session) -> None:
    first, second = create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1))
    a = player_service.add_player(session, first, "Zoë  Quist", "", "", "t")
    b = player_service.add_player(session, second, "ZOË QUIST", "", "", "t")
    assert a.club_player_id == b.club_player_id is not None


def test_accents_make_a_different_name(session: Session) -> None:
    """"Zoe" and "Zoë" are different names (name_key keeps accents): no silent link."""
    first, second = create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1))
    a = player_service.add_player(session, first, "Zoë Quist", "", "", "t")
    b = player_service.add_player(session, second, "Zoe Quist", "", "", "t")
    assert a.club_player_id != b.club_player_id


def test_two_real_people_with_one_name_go_to_review_and_stay_apart(session: Session) -> None:
    first, second, third = (create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1)),
                            create_event(session, name="Autumn", date=date(2026, 9, 1)))
    a = player_service.add_player(session, first, "Sam Park", "", "sam@one.org", "t")
    b = player_service.add_player(session, second, "Sam Park", "", "sam@two.org", "t")
    assert b.club_player_id is None
    [item] = registry.pending_reviews(session)
    assert item.player.id == b.id and [c.id for c in item.candidates] == [a.club_player_id]
    assert "different e-mail" in item.review.reason
    registry.resolve_review(session, item.review.id or 0, None)  # a new person
    assert b.club_player_id not in (None, a.club_player_id)
    # a third Sam Park with no e-mail now has two candidates: the review again
    c = player_service.add_player(session, third, "Sam Park", "", "", "t")
    [item] = registry.pending_reviews(session)
    assert item.player.id == c.id and len(item.candidates) == 2
    registry.resolve_review(session, item.review.id or 0, a.club_player_id)
    assert c.club_player_id == a.club_player_id
    assert registry.pending_reviews(session) == []


def test_missing_email_on_one_side_is_doubtful(session: Session) -> None:
    first, second = create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1))
    player_service.add_player(session, first, "Kim Ro", "", "kim@x.org", "t")
    b = player_service.add_player(session, second, "Kim Ro", "", "", "t")
    assert b.club_player_id is None
    assert session.exec(select(RegistryReview)).one().player_id == b.id


def test_csv_import_links_sure_matches_and_queues_doubtful(session: Session) -> None:
    first, second = create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1))
    player_service.import_players(session, first, "name,email\nAnn Lee,ann@x.org\nBo Ek,\nCy Ma,cy@x.org\n", "t")
    players = player_service.import_players(session, second, "name,email\nann lee,ann@x.org\nBO EK,\nCy Ma,\nDi Ny,\n", "t")
    by_name = {p.name: p for p in players}
    assert by_name["ann lee"].club_player_id is not None and by_name["BO EK"].club_player_id is not None
    assert by_name["Cy Ma"].club_player_id is None  # e-mail missing on one side
    assert by_name["Di Ny"].club_player_id is not None  # a new person
    assert len(_entries(session)) == 4


def test_merge_moves_links_and_keeps_the_merged_entry(session: Session) -> None:
    first, second = create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1))
    a = player_service.add_player(session, first, "Rob Ute", "", "", "t")
    b = player_service.add_player(session, second, "Robert Ute", "", "rob@x.org", "t")
    assert a.club_player_id != b.club_player_id
    keep = registry.merge(session, a.club_player_id or 0, b.club_player_id or 0)
    session.refresh(b)
    assert b.club_player_id == keep.id and keep.email == "rob@x.org"
    gone = [e for e in session.exec(select(ClubPlayer)).all() if e.merged_into_id == keep.id]
    assert len(gone) == 1 and gone[0].name == "Robert Ute"
    # later sign-ups by the merged e-mail find the survivor
    third = create_event(session, name="Autumn", date=date(2026, 9, 1))
    assert player_service.add_player(session, third, "R. Ute", "", "ROB@x.org", "t").club_player_id == keep.id


def test_merge_refuses_two_people_of_one_event(session: Session) -> None:
    event = create_event(session)
    a = player_service.add_player(session, event, "Al One", "", "", "t")
    b = player_service.add_player(session, event, "Al Two", "", "", "t")
    with pytest.raises(InputError):
        registry.merge(session, a.club_player_id or 0, b.club_player_id or 0)


def test_migration_links_existing_players_without_losing_any(tmp_path: Path, sqlite_template: Path) -> None:
    """Players stored before the registry: the same e-mail or the same name (when e-mails don't
    disagree) become one entry; every player is linked, and nothing else changes."""
    from alembic import command

    path = tmp_path / "old.sqlite3"
    shutil.copy(sqlite_template, path)
    engine = make_engine(f"sqlite:///{path}")
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0005")
    with engine.begin() as c:
        for event_id, day in ((1, "2026-01-05"), (2, "2026-02-05")):
            c.execute(sql("INSERT INTO event (id, name, date, edition, round_formats, preferred_table_size, "
                          "point_scheme, tiebreak_order, entry_modes, created_at, updated_at, version, judges_may_seat) "
                          "VALUES (:i, 'E', :d, '2018', '[]', 4, 'beaten', '[]', '[]', :d, :d, 1, 0)"),
                      {"i": event_id, "d": day})
        rows = [(1, "Ann Lee", "ann@x.org"), (1, "Bo Ek", ""), (1, "Sam Park", "s1@x.org"),
                (2, "ANN LEE", ""), (2, "Annie", "ANN@x.org"), (2, "bo ek", ""), (2, "Sam Park", "s2@x.org")]
        for event_id, name, email in rows:
            c.execute(sql("INSERT INTO player (event_id, name, name_key, club, email, checked_in, dropped, "
                          "joined_round, created_at) VALUES (:e, :n, :n, '', :m, 0, 0, 1, '2026-01-01')"),
                      {"e": event_id, "n": name, "m": email})
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
    with Session(engine) as session:
        players = session.exec(select(Player).order_by(Player.id)).all()
        assert [p.name for p in players] == [r[1] for r in rows]
        links = [p.club_player_id for p in players]
        assert None not in links
        assert links[0] == links[3] == links[4]  # Ann by name (no e-mail), Annie by e-mail
        assert links[1] == links[5]
        assert links[2] != links[6]  # two Sam Parks with different e-mails
        assert len(set(links)) == 4
    engine.dispose()


def test_club_pages_review_merge_ratings_and_seasons(signed_in, session: Session) -> None:  # type: ignore[no-untyped-def]
    from tests.club.support import play_event

    play_event(session, "Jan", date(2026, 1, 10), [[[("Ann Lee", 50, 5), ("Bo Ek", 40, 4)]]])
    feb = create_event(session, name="Feb", date=date(2026, 2, 10))
    player_service.add_player(session, feb, "Ann Lee", "", "ann@x.org", "t")  # e-mail on one side only
    page = signed_in.get("/club/review")
    assert page.status_code == 200 and "e-mail missing on one side" in page.text
    [item] = registry.pending_reviews(session)
    signed_in.post(f"/club/review/{item.review.id}", data={"choice": str(item.candidates[0].id)})
    assert registry.pending_reviews(session) == []
    assert signed_in.post("/club/ratings/recompute").status_code == 302
    ratings_page = signed_in.get("/club/ratings")
    assert "Ann Lee" in ratings_page.text and "Bo Ek" in ratings_page.text
    ann = session.exec(select(ClubPlayer).where(ClubPlayer.name == "Ann Lee")).one()
    profile = signed_in.get(f"/club/players/{ann.id}")
    assert profile.status_code == 200 and "<svg" in profile.text and "Feb" in profile.text
    assert "Ann Lee" in signed_in.get("/club/players?q=ann").text
    created = signed_in.post("/seasons", data={"name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31",
                                               "rule": "sum"})
    assert created.status_code == 302
    league = signed_in.get(created.headers["Location"])
    assert league.status_code == 200 and league.text.index("Ann Lee") < league.text.index("Bo Ek")
    assert "Ann Lee" in signed_in.get(created.headers["Location"] + "/projector").text
    refused = signed_in.post("/seasons", data={"name": "x", "starts_on": "2026-02-01", "ends_on": "2026-01-01"})
    assert refused.status_code == 422 and "ends on or after" in refused.text


def _import_player(name: str, email: str = "") -> dict[str, object]:
    return {"name": name, "club": "", "email": email, "checked_in": False, "dropped": False,
            "dropped_after_round": None, "fixed_table": None, "joined_round": 1}


def test_an_imported_event_is_matched_like_a_sign_up(session: Session) -> None:
    """A JSON event import links its players to the registry by the sign-up's rules: by e-mail,
    else by normalised name; doubtful ones wait for review; new people become entries."""
    import json

    from organizer.exchange import event_import
    from organizer.exchange import export as exchange

    home = create_event(session, name="Club night", date=date(2026, 1, 5))
    for name, email in (("Ann Lee", "ann@x.org"), ("Bo Ek", ""), ("Sam Park", "sam@x.org"), ("Di Ro", "")):
        player_service.add_player(session, home, name, "", email, "t")
    entries = {e.name: e.id for e in _entries(session)}
    data = json.loads(json.dumps(exchange.export_event(session, home)))
    data["event"]["name"] = "Away night"
    data["players"] = [
        _import_player("ANNIE LEE", "Ann@X.org"),  # same e-mail, another spelling: Ann
        _import_player("bo  ek"),  # same name up to case and spacing, no e-mails: Bo
        _import_player("Sam Park", "other@x.org"),  # same name, different e-mail: doubtful
        _import_player("Di Ro", "di@x.org"),  # e-mail on one side only: doubtful
        _import_player("Zoë New", "zoe@x.org"),  # a new person
        _import_player("Zoe Twin", "ZOE@x.org"),  # the new person's e-mail, already in this event: doubtful
    ]
    data["rounds"], data["audit"] = [], []
    away = event_import.import_event(session, data, None)
    players = {p.name: p for p in session.exec(select(Player).where(Player.event_id == away.id)).all()}
    assert players["ANNIE LEE"].club_player_id == entries["Ann Lee"]
    assert players["bo ek"].club_player_id == entries["Bo Ek"]
    zoe = session.exec(select(ClubPlayer).where(ClubPlayer.name == "Zoë New")).one()
    assert players["Zoë New"].club_player_id == zoe.id and zoe.email == "zoe@x.org"
    reviews = {r.player.name: (r.review.reason, [c.name for c in r.candidates]) for r in registry.pending_reviews(session)}
    assert reviews == {
        "Sam Park": ("same name, different e-mail", ["Sam Park"]),
        "Di Ro": ("same name, e-mail missing on one side", ["Di Ro"]),
        "Zoe Twin": ("this e-mail is already in the registry for someone in this event", ["Zoë New"]),
    }
    assert all(players[name].club_player_id is None for name in reviews)
    # the same players added one by one through the sign-up get the same verdicts
    third = create_event(session, name="Third night", date=date(2026, 1, 19))
    for entry in data["players"]:
        player_service.add_player(session, third, str(entry["name"]), "", str(entry["email"]), "t")
    signed_up = {r.player.name: (r.review.reason, [c.name for c in r.candidates])
                 for r in registry.pending_reviews(session) if r.event.id == third.id}
    assert signed_up == reviews
    linked = {p.name: p.club_player_id for p in session.exec(select(Player).where(Player.event_id == third.id)).all()
              if p.club_player_id is not None}
    assert linked == {name: p.club_player_id for name, p in players.items() if p.club_player_id is not None}


@contextmanager
def answered_within(seconds: int) -> Iterator[None]:
    """Fail instead of hanging when the block takes longer than ``seconds`` (SIGALRM interrupts
    a loop in the main thread)."""
    def stop(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _stored_cycle(session: Session) -> tuple[ClubPlayer, ClubPlayer]:
    """Two entries pointing at each other, written past the services (broken data)."""
    first, second = create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1))
    a = player_service.add_player(session, first, "Cy Ma", "", "cy@x.org", "t")
    b = player_service.add_player(session, second, "Cyril Ma", "", "cyril@x.org", "t")
    one, two = session.get(ClubPlayer, a.club_player_id), session.get(ClubPlayer, b.club_player_id)
    assert one is not None and two is not None
    one.merged_into_id, two.merged_into_id = two.id, one.id
    one.public_profile = two.public_profile = True
    session.add_all([one, two])
    session.commit()
    return one, two


def test_a_stored_merge_cycle_is_shown_as_the_entry_itself_and_logged(
        signed_in: FlaskClient, session: Session, caplog: pytest.LogCaptureFixture) -> None:
    one, two = _stored_cycle(session)
    with caplog.at_level(logging.ERROR, logger="organizer.club.registry"):
        with answered_within(5):
            found = registry.profile(session, one.id or 0)
        with answered_within(5):
            page = signed_in.get(f"/club/players/{one.id}")
        with answered_within(5):
            shown = signed_in.get(f"/profile/{two.public_code}")
    assert page.status_code == 200 and "Cy Ma" in page.text
    assert shown.status_code in (200, 404)
    assert found is not None and found.entry.id == one.id
    assert "a cycle" in caplog.text


def test_a_chain_longer_than_the_limit_stops_at_the_entry_itself(session: Session) -> None:
    entries = [ClubPlayer(name=f"P {i}", name_key=f"p {i}") for i in range(registry.MAX_CHAIN + 3)]
    session.add_all(entries)
    session.flush()
    for entry, survivor in zip(entries, entries[1:], strict=False):
        entry.merged_into_id = survivor.id
    session.commit()
    with answered_within(5):
        assert registry.profile(session, entries[0].id or 0).entry.id == entries[0].id  # type: ignore[union-attr]
    with answered_within(5):
        assert registry.profile(session, entries[-5].id or 0).entry.id == entries[-1].id  # type: ignore[union-attr]


def test_merges_refuse_a_merged_entry_either_way(session: Session) -> None:
    first, second = create_event(session), create_event(session, name="Summer", date=date(2026, 6, 1))
    a = player_service.add_player(session, first, "Cy Ma", "", "", "t").club_player_id or 0
    b = player_service.add_player(session, second, "Cyril Ma", "", "", "t").club_player_id or 0
    registry.merge(session, a, b)
    with pytest.raises(InputError, match="already merged"):
        registry.merge(session, b, a)
    entries = {e.id: e for e in session.exec(select(ClubPlayer)).all()}
    assert entries[b].merged_into_id == a and entries[a].merged_into_id is None
