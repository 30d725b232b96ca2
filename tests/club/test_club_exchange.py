"""The club export (registry with its links, seasons, ratings) and its import into another
installation that has the same events: a round trip, and the refusals."""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlmodel import Session, func, select

from organizer.club import exchange as club_exchange
from organizer.club import leagues, ratings, registry
from organizer.core.db import make_engine
from organizer.core.errors import InputError
from organizer.core.models import ClubPlayer, Event, Season
from organizer.exchange import event_import
from organizer.exchange import export as exchange
from tests.club.support import play_event


def small_club(session: Session) -> None:
    play_event(session, "Jan night", date(2026, 1, 10), [[[("Ann", 50, 5), ("Bo", 40, 4), ("Cy", 30, 3)]],
                                                          [[("Bo", 45, 5), ("Ann", 45, 4), ("Cy", 20, 2)]]])
    play_event(session, "Feb night", date(2026, 2, 10), [[[("Ann", 20, 5), ("Bo", 40, 4), ("Cyril", 41, 4)]]])
    entries = {e.name: e.id or 0 for e in session.exec(select(ClubPlayer)).all()}
    registry.merge(session, entries["Cy"], entries["Cyril"])  # the same person, found later
    leagues.save_season(session, leagues.SeasonInput("Winter", date(2026, 1, 1), date(2026, 3, 31), "best", 1))
    ratings.recompute(session)


def by_position(export: dict[str, Any]) -> dict[str, Any]:
    """The export with registry ids replaced by each entry's place in the file: ids are the
    database's own and differ between installations."""
    position = {entry["id"]: index for index, entry in enumerate(export["registry"])}
    out: dict[str, Any] = json.loads(json.dumps(export))
    for entry in out["registry"]:
        entry["id"] = position[entry["id"]]
        entry["merged_into"] = position.get(entry["merged_into"])
    for point in out["ratings"]:
        point["player"] = position[point["player"]]
    return out


@pytest.fixture
def other(sqlite_template: Path, tmp_path: Path) -> Iterator[Session]:
    """A second installation (its own database)."""
    target = tmp_path / "other.sqlite3"
    shutil.copy(sqlite_template, target)
    engine = make_engine(f"sqlite:///{target}")
    with Session(engine, expire_on_commit=False) as db:
        yield db
    engine.dispose()


def travel(data: dict[str, Any]) -> Any:
    return json.loads(json.dumps(data))


def test_round_trip_into_another_installation_with_the_same_events(session: Session, other: Session) -> None:
    small_club(session)
    ann = session.exec(select(ClubPlayer).where(ClubPlayer.name == "Ann")).one()
    registry.set_public_profile(session, ann.id or 0, True)  # Ann agreed; her address goes with her
    club = club_exchange.export_club(session)
    assert [e["name"] for e in club["registry"]] == ["Ann", "Bo", "Cy", "Cyril"]
    assert [e["public_profile"] for e in club["registry"]] == [True, False, False, False]
    cyril = club["registry"][3]
    assert cyril["merged_into"] == club["registry"][2]["id"]
    assert cyril["players"] == []  # its Feb player moved to Cy
    assert {"event": "Feb night", "date": "2026-02-10", "player": "Cyril"} in club["registry"][2]["players"]

    # the club refers to events by name and date: without them here, nothing is imported
    with pytest.raises(InputError, match="no event “Jan night” of 2026-01-10 here: import its event export first"):
        club_exchange.import_club(other, travel(club))
    for event in session.exec(select(Event)).all():
        event_import.import_event(other, travel(exchange.export_event(session, event)), None)
    done = club_exchange.import_club(other, travel(club))
    assert (done.entries, done.links, done.seasons, done.unlinked) == (4, 6, 1, 0)
    assert done.ratings == len(club["ratings"]) > 0

    assert by_position(club_exchange.export_club(other)) == by_position(club)
    there = registry.public_profile(other, ann.public_code)
    assert there is not None and there.name == "Ann"
    assert registry.public_profile(other, club["registry"][1]["public_code"]) is None  # Bo did not agree
    league_here = leagues.league(session, session.exec(select(Season.id)).one() or 0)
    league_there = leagues.league(other, other.exec(select(Season.id)).one() or 0)
    assert league_here is not None and league_there is not None
    assert [(r.rank, r.name, r.points) for r in league_there.rows] == [(r.rank, r.name, r.points) for r in league_here.rows]
    assert [(r.entry.name, r.mu, r.sigma) for r in ratings.current_ratings(other)] == \
        [(r.entry.name, r.mu, r.sigma) for r in ratings.current_ratings(session)]


def test_a_tampered_rating_is_refused_and_nothing_changes(session: Session, other: Session) -> None:
    small_club(session)
    for event in session.exec(select(Event)).all():
        event_import.import_event(other, travel(exchange.export_event(session, event)), None)
    club = club_exchange.export_club(session)
    registry.link_unmatched(other)  # what the other installation had before: its own registry
    before = by_position(club_exchange.export_club(other))
    tampered = travel(club)
    names = {e["id"]: e["name"] for e in club["registry"]}
    point = tampered["ratings"][-1]
    point["mu"] += 1.5
    with pytest.raises(InputError) as refused:
        club_exchange.import_club(other, tampered)
    message = refused.value.errors["file"]
    assert f"The ratings → {names[point['player']]} after “{point['event']}” of {point['date']}: the file says mu" in message
    assert "Ratings are derived from the results: the file does not match them; nothing was imported" in message
    assert by_position(club_exchange.export_club(other)) == before

    dropped = travel(club)
    dropped["ratings"].pop()
    with pytest.raises(InputError, match="and none in the file"):
        club_exchange.import_club(other, dropped)
    assert other.exec(select(func.count()).select_from(Season)).one() == 0


def test_bad_files_name_the_first_bad_item(session: Session) -> None:
    small_club(session)
    club = club_exchange.export_club(session)
    with pytest.raises(InputError, match="Not a club export"):
        club_exchange.import_club(session, {"format": "arboretum-event"})
    twice = travel(club)
    twice["registry"][1]["players"].append(twice["registry"][0]["players"][0])
    with pytest.raises(InputError, match="The registry → Bo → player 3: “Ann” of that event is linked to two entries"):
        club_exchange.import_club(session, twice)
    unknown = travel(club)
    unknown["registry"][0]["players"][0]["player"] = "Zed"
    with pytest.raises(InputError, match="no player “Zed” in that event here"):
        club_exchange.import_club(session, unknown)
    assert by_position(club_exchange.export_club(session)) == by_position(club)


def test_export_and_import_pages(signed_in: FlaskClient, session: Session) -> None:
    small_club(session)
    response = signed_in.get("/club/export.json")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "private, no-store"
    assert 'filename="club.json"' in response.headers["Content-Disposition"]
    assert "/club/export.json" in signed_in.get("/club/players").text
    posted = signed_in.post("/club/import", data={"file": (io.BytesIO(response.data), "club.json")},
                            content_type="multipart/form-data", follow_redirects=True)
    assert "Club imported: 4 registry entries linked to 6 players, 1 seasons" in posted.text
    refused = signed_in.post("/club/import", data={"file": (io.BytesIO(b"{}"), "club.json")},
                             content_type="multipart/form-data")
    assert refused.status_code == 422 and "Nothing imported: Not a club export" in refused.text


def test_a_bad_or_shared_public_code_is_refused(session: Session, other: Session) -> None:
    small_club(session)
    for event in session.exec(select(Event)).all():
        event_import.import_event(other, travel(exchange.export_event(session, event)), None)
    club = club_exchange.export_club(session)
    for code, problem in (("short", "should be 16 to 32 letters"), ("<script>alert(1)</script>x", "should be 16"),
                          (club["registry"][1]["public_code"], "is another entry's too")):
        bad = travel(club)
        bad["registry"][0]["public_code"] = code
        with pytest.raises(InputError, match=problem):
            club_exchange.import_club(other, bad)
    older = travel(club)  # a file from before public profiles: everyone private, new addresses
    for entry in older["registry"]:
        del entry["public_profile"], entry["public_code"]
    club_exchange.import_club(other, older)
    assert not any(e.public_profile for e in other.exec(select(ClubPlayer)).all())


def test_a_merge_cycle_in_the_file_is_refused_and_nothing_changes(session: Session) -> None:
    small_club(session)
    club = club_exchange.export_club(session)
    by_name = {entry["name"]: entry for entry in club["registry"]}
    assert by_name["Cyril"]["merged_into"] == by_name["Cy"]["id"]
    cycle = travel(club)
    for entry in cycle["registry"]:
        if entry["name"] == "Cy":
            entry["merged_into"] = by_name["Cyril"]["id"]
    with pytest.raises(InputError, match=r"Cy → Cyril → Cy\): a merge cycle"):
        club_exchange.import_club(session, cycle)
    three = travel(club)  # Ann → Bo → Cy → Ann, over the file's ids
    ids = {entry["name"]: entry["id"] for entry in three["registry"]}
    for name, into in (("Ann", "Bo"), ("Bo", "Cy"), ("Cy", "Ann")):
        next(e for e in three["registry"] if e["name"] == name)["merged_into"] = ids[into]
    with pytest.raises(InputError, match="a merge cycle"):
        club_exchange.import_club(session, three)
    assert by_position(club_exchange.export_club(session)) == by_position(club)
