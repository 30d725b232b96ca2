"""A player's correction from their phone racing the organizer's confirmation of the same
version, fired at the same instant against gunicorn with several worker processes.

Whichever is served first, exactly one of them happens: either the player's correction stands
as an entered version v+1 and the confirmation of v is refused, or the confirmation stands as a
confirmed version v+1 with v's figures and the player's correction of v is refused. A player's
correction never lands on a confirmed result, and the audit log tells the same story as the
stored result."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from sqlmodel import col, select

from organizer.core.models import AuditEntry, Event, GameTable, Player, Round, Seat
from tests.system.faults.harness import Client
from tests.system.races.harness import (
    DEMO_EVENT,
    Form,
    RaceServer,
    enter_result_here,
    fetch_form,
    result_of_table,
    result_problems,
    run_trials,
    server_errors,
    simultaneously,
    submit,
    table_path,
)

TABLE = 2  # the demo's table 2: a paper table with a result
#: trials on one copy of the event before the next: each trial is one of the player's reports,
#: and a player may report 20 times in ten minutes
TRIALS_PER_COPY = 10


@dataclass
class Copy:
    """A copy of the demo event where players report their results and a judge confirms."""

    race_server: RaceServer
    export: bytes
    path: str = ""
    table_id: int = 0
    token: str = ""

    def renew(self) -> None:
        event_id = self.race_server.import_event(self.export)
        with self.race_server.session() as session:
            event = session.get(Event, event_id)
            assert event is not None
            event.self_report = "judge"
            session.add(event)
            table = session.exec(select(GameTable).join(Round, col(Round.id) == GameTable.round_id)
                                 .where(Round.event_id == event_id, Round.number == 1, GameTable.number == TABLE)).one()
            token = session.exec(select(Player.token).join(Seat, col(Seat.player_id) == Player.id)
                                 .where(Seat.table_id == table.id).order_by(col(Seat.position))).first()
            session.commit()
            assert table.id is not None and token
        self.path, self.table_id, self.token = table_path(event_id, 1, TABLE), table.id, token

    def for_trial(self, index: int) -> None:
        if not self.path or index % TRIALS_PER_COPY == 0:
            self.renew()


@pytest.fixture(scope="module")
def demo_export(race_server: RaceServer) -> bytes:
    return race_server.export_event(DEMO_EVENT)


def _players_figures(form: Form, salt: int) -> dict[str, str]:
    changes: dict[str, str] = {}
    seats = [name.split("_", 1)[1] for name, _ in form.fields if name.startswith("points_")]
    for index, seat in enumerate(seats):
        changes[f"points_{seat}"] = str(21 + (salt * 5 + index * 11) % 18)
        changes[f"species_{seat}"] = str(4 + index % 3)
    return changes


def test_players_correction_racing_the_organizers_confirmation(race_server: RaceServer, demo_export: bytes) -> None:
    copy = Copy(race_server, demo_export)
    organizer = race_server.client()
    phone = Client(race_server.url)

    def trial(index: int) -> list[str]:
        copy.for_trial(index)
        with race_server.session() as session:
            enter_result_here(session, copy.table_id, index)
            result = result_of_table(session, copy.table_id)
            assert result is not None and result.status == "entered"
            seen, before = result.version, [s["points"] for s in result.seats]
            confirmations_before = len(session.exec(select(AuditEntry).where(
                AuditEntry.table_id == copy.table_id, AuditEntry.action == "result.confirmed")).all())
        confirm = fetch_form(organizer, copy.path, "/confirm", seat="organizer")
        report = fetch_form(phone, f"/p/{copy.token}", "/report", mode="totals")
        assert confirm.get("version") == str(seen) and report.get("version") == str(seen)
        typed = _players_figures(report, index)
        replies = simultaneously(lambda: submit(organizer, confirm), lambda: submit(phone, report, **typed))
        problems = server_errors(replies, ["the confirmation", "the player's correction"])
        with race_server.session() as session:
            problems += result_problems(session, copy.table_id)
            result = result_of_table(session, copy.table_id)
            assert result is not None
            points = [s["points"] for s in result.seats]
            confirmed = len(session.exec(select(AuditEntry).where(
                AuditEntry.table_id == copy.table_id, AuditEntry.action == "result.confirmed")).all())
        players = [int(value) for key, value in typed.items() if key.startswith("points_")]  # in seat order
        if (result.version, result.status) == (seen + 1, "entered"):
            if points != players:
                problems.append(f"version {result.version} entered, but not with the player's figures: {points}")
            if confirmed != confirmations_before:
                problems.append("the player's correction stands, yet the confirmation of the version it replaced "
                                "was stored too")
        elif (result.version, result.status) == (seen + 1, "confirmed"):
            if points != before:
                problems.append(f"confirmed with figures {points}, not the confirmed version's {before}")
            if replies[1].status < 400:
                problems.append(f"the player's correction of a confirmed result answered {replies[1].status}")
        else:
            problems.append(f"sent for version {seen}: the result ended version {result.version} {result.status}, "
                            f"neither the player's correction nor the confirmation alone (replies "
                            f"{[r.status for r in replies]})")
        return problems

    run_trials(trial)
