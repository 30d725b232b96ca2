"""Races on a live table, fired at the same instant against gunicorn with
several worker processes.

- The table's species changed while the table is moved onto the players' devices (and dealt):
  whichever is served first, the game holds the species the table shows. Reproduces "changing a
  live table's species after it was dealt is accepted (the page shows one species, the game
  holds another)"; :func:`test_species_form_sent_after_the_deal` is the same without a race.
- Every seat's page, open on a table where bots owe every move, sending its tick at the same
  instant (and again while the page it gets back still says moves are owed): the game ends
  once, its result is recorded once, confirmed, and the audit log shows no refused conflicting
  entry.
  Reproduces "two requests ending the same live game write a spurious conflict entry".
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from sqlmodel import Session, col, select

from engine import Edition, edition_species
from organizer.core.models import AuditEntry, GameTable, Round, Seat
from tests.system.faults.harness import Client, Reply
from tests.system.races.harness import (
    DEMO_EVENT,
    RaceServer,
    fetch_form,
    page_forms,
    result_of_table,
    result_problems,
    run_trials,
    server_errors,
    simultaneously,
    submit,
    table_path,
    without_rounds,
)

TABLE = 3  # the demo's table 3: still playing on paper, no result
SMALL_TABLE = 1  # a three-player table: 8 of the 10 species in play, so another choice exists


@pytest.fixture(scope="module")
def devices(race_server: RaceServer) -> tuple[Client, Client]:
    return race_server.client(), race_server.client()


@pytest.fixture(scope="module")
def published_round(race_server: RaceServer) -> bytes:
    """The demo event's export: round 1 published, table 3 without a result."""
    return race_server.export_event(DEMO_EVENT)


@pytest.fixture(scope="module")
def published_threes(race_server: RaceServer) -> bytes:
    """The demo's players seated at tables of three, round 1 published, no result yet."""
    data = json.loads(without_rounds(race_server.export_event(DEMO_EVENT)))
    data["event"]["preferred_table_size"] = 3
    event_id = race_server.import_event(json.dumps(data).encode())
    admin = race_server.admin
    assert submit(admin, fetch_form(admin, f"/events/{event_id}/rounds", "/propose"), seed="11").status == 302
    assert submit(admin, fetch_form(admin, f"/events/{event_id}/rounds/1", "/publish")).status == 302
    return race_server.export_event(event_id)


def _table(session: Session, event_id: int, number: int = TABLE) -> GameTable:
    session.expire_all()
    return session.exec(select(GameTable).join(Round, col(Round.id) == GameTable.round_id)
                        .where(Round.event_id == event_id, Round.number == 1, GameTable.number == number)).one()


def _other_species(current: list[str], index: int) -> list[str]:
    """As many species as the table has, not the same ones."""
    everything = list(edition_species(Edition.parse("2018")))
    dropped = {current[index % len(current)], current[(index + 1) % len(current)]}
    return [name for name in everything if name not in dropped][:len(current)]


def _species_problems(session: Session, event_id: int) -> list[str]:
    table = _table(session, event_id, SMALL_TABLE)
    if table.game is not None and list(table.game.get("species", [])) != list(table.species):
        return [f"the table shows {sorted(table.species)}, its dealt game holds {sorted(table.game['species'])}"]
    return []


def test_species_change_racing_the_deal(race_server: RaceServer, devices: tuple[Client, Client],
                                        published_threes: bytes) -> None:
    dealer, chooser = devices

    def trial(index: int) -> list[str]:
        event_id = race_server.import_event(published_threes)
        deal = fetch_form(dealer, f"/events/{event_id}/rounds/1/live", f"/tables/{SMALL_TABLE}/digital")
        species = fetch_form(chooser, table_path(event_id, 1, SMALL_TABLE), "/species")
        chosen = _other_species([v for k, v in species.fields if k == "species"], index)
        replies = simultaneously(lambda: submit(dealer, deal), lambda: submit(chooser, species, species=chosen))
        problems = server_errors(replies, ["dealing", "choosing species"])
        with race_server.session() as session:
            problems += _species_problems(session, event_id)
        return problems

    run_trials(trial)


def test_species_form_sent_after_the_deal(race_server: RaceServer, devices: tuple[Client, Client],
                                          published_threes: bytes) -> None:
    """The table page was opened before the organizer moved the table onto the devices."""
    dealer, chooser = devices
    event_id = race_server.import_event(published_threes)
    species = fetch_form(chooser, table_path(event_id, 1, SMALL_TABLE), "/species")
    before = [v for k, v in species.fields if k == "species"]
    deal = fetch_form(dealer, f"/events/{event_id}/rounds/1/live", f"/tables/{SMALL_TABLE}/digital")
    assert submit(dealer, deal).status == 302
    reply = submit(chooser, species, species=_other_species(before, 0))
    assert 400 <= reply.status < 500, f"the species form answered {reply.status} after the deal"
    with race_server.session() as session:
        assert _table(session, event_id, SMALL_TABLE).species == before
        assert _species_problems(session, event_id) == []


# -- several devices at a game the bots are finishing ---------------------------------------------

@pytest.fixture(scope="module")
def dealt_to_bots(race_server: RaceServer, published_round: bytes) -> bytes:
    """An export whose table 3 is dealt on the devices, no move made, with the bot in every seat
    (seated in the file: seating them through the overview would play the whole game at once)."""
    admin = race_server.admin
    event_id = race_server.import_event(published_round)
    assert submit(admin, fetch_form(admin, f"/events/{event_id}/rounds/1/live", f"/tables/{TABLE}/digital")).status == 302
    data = json.loads(race_server.export_event(event_id))
    for rnd in data["rounds"]:
        for exported in rnd["tables"]:
            if exported["number"] == TABLE:
                assert exported["log_version"] > 0 and not exported["action_log"], "table 3 is not freshly dealt"
                for seat in exported["seats"]:
                    seat["is_bot"] = True
    return json.dumps(data).encode()


def _phone(race_server: RaceServer, token: str) -> Callable[[], Reply]:
    """A seat's page as a browser runs it: opened first; then, released with the others, the
    tick its script sends on load while bots owe the table moves, and again on the page that
    answer shows if that still says so."""
    phone = Client(race_server.url)
    page = phone.get(f"/play/{token}")
    assert page.status == 200, f"seat page: {page.status}"

    def tick() -> Reply:
        reply, text = page, page.text
        for _ in range(5):
            owed = [form for form in page_forms(text) if form.action.endswith("/tick")]
            if not owed:
                break
            reply = submit(phone, owed[0], headers={"HX-Request": "true"})
            if reply.status >= 500:
                return reply
            text = reply.text
        return reply

    return tick


def test_devices_ending_the_game_together(race_server: RaceServer, dealt_to_bots: bytes) -> None:
    def trial(index: int) -> list[str]:
        event_id = race_server.import_event(dealt_to_bots)
        with race_server.session() as session:
            table = _table(session, event_id)
            tokens = [s.token for s in session.exec(select(Seat).where(Seat.table_id == table.id)
                                                     .order_by(col(Seat.position))).all()]
            table_id = table.id
        assert table_id is not None
        replies = simultaneously(*(_phone(race_server, token) for token in tokens))
        problems = server_errors(replies, [f"seat {n + 1}" for n in range(len(tokens))])
        with race_server.session() as session:
            result = result_of_table(session, table_id)
            if result is None:
                return problems + ["the bots' game has no result after every seat's page ticked"]
            conflicts = session.exec(select(AuditEntry).where(AuditEntry.table_id == table_id,
                                                              AuditEntry.action == "result.conflict_refused")).all()
            if conflicts:
                problems.append(f"{len(conflicts)} refused conflicting result(s) logged for one game's end")
            if result.status != "confirmed":
                problems.append(f"the game's result is {result.status}, not confirmed")
            problems += result_problems(session, table_id)
        return problems

    run_trials(trial)
