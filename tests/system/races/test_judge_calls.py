"""Players' calls for a judge, fired at the same instant against gunicorn with several worker
processes: two judges taking the same call, and two players of one table calling together.

Two judges tapping "Take it" at once: exactly one takes the call (one "taken" entry, the call
names that judge) and the other is told who did (409), never a 5xx. Two players of a table calling
at once: the table has exactly one live call, and the other player is told one is already
called."""

from __future__ import annotations

import pytest
from sqlalchemy import delete
from sqlmodel import col, select

from organizer.core.models import AuditEntry, GameTable, JudgeCall, Player, Round, Seat
from tests.system.faults.harness import Client
from tests.system.races.harness import (
    DEMO_EVENT,
    RaceServer,
    fetch_form,
    run_trials,
    server_errors,
    simultaneously,
    submit,
)

TABLE = 3  # the demo's table 3: still playing


def _table(race_server: RaceServer) -> tuple[int, list[str]]:
    """Round 1's id and the tokens of the players at the table."""
    with race_server.session() as session:
        rnd = session.exec(select(Round).where(Round.event_id == DEMO_EVENT, Round.number == 1)).one()
        table = session.exec(select(GameTable).where(GameTable.round_id == rnd.id, GameTable.number == TABLE)).one()
        tokens = session.exec(select(Player.token).join(Seat, col(Seat.player_id) == Player.id)
                              .where(Seat.table_id == table.id).order_by(col(Seat.position))).all()
        assert rnd.id is not None
        return rnd.id, list(tokens)


def _clear(race_server: RaceServer, round_id: int) -> None:
    with race_server.session() as session:
        session.execute(delete(JudgeCall).where(col(JudgeCall.round_id) == round_id))
        session.commit()


def test_two_judges_take_one_call(race_server: RaceServer) -> None:
    round_id, _tokens = _table(race_server)
    judges = [race_server.client(), race_server.client()]

    def trial(index: int) -> list[str]:
        _clear(race_server, round_id)
        with race_server.session() as session:
            call = JudgeCall(event_id=DEMO_EVENT, round_id=round_id, table_number=TABLE, player_name="Ann")
            session.add(call)
            session.commit()
            # a deleted call's id may come back (SQLite): count only this trial's entries
            call_id, last_entry = call.id, max(session.exec(select(AuditEntry.id)).all(), default=0) or 0
        path = f"/events/{DEMO_EVENT}/rounds/1/calls/{call_id}/take"
        for judge in judges:
            judge.get(f"/events/{DEMO_EVENT}/rounds/1")
        replies = simultaneously(*(lambda judge=judge: judge.post(path, {}, headers={"HX-Request": "true"})
                                   for judge in judges))
        problems = server_errors(replies, ["the first judge", "the second judge"])
        statuses = sorted(reply.status for reply in replies)
        if statuses != [200, 409]:
            problems.append(f"answers {statuses}, not one taken and one refused")
        with race_server.session() as session:
            stored = session.get(JudgeCall, call_id)
            taken = session.exec(select(AuditEntry).where(AuditEntry.action == "judge.taken",
                                                          col(AuditEntry.id) > last_entry)).all()
        if stored is None or stored.status != "taken" or not stored.taken_by:
            problems.append(f"the call is {stored and stored.status}, not taken")
        if len(taken) != 1:
            problems.append(f"{len(taken)} 'taken' entries for one call")
        refused = next((r for r in replies if r.status == 409), None)
        if refused is not None and "took it already" not in refused.text:
            problems.append("the judge who lost is not told who took it")
        return problems

    run_trials(trial)


@pytest.mark.parametrize("players", [2])
def test_players_of_one_table_call_together(race_server: RaceServer, players: int) -> None:
    round_id, tokens = _table(race_server)
    phones = [Client(race_server.url) for _ in range(players)]

    def trial(index: int) -> list[str]:
        _clear(race_server, round_id)
        forms = [fetch_form(phone, f"/p/{token}", "/call-judge") for phone, token in zip(phones, tokens, strict=False)]
        replies = simultaneously(*(lambda phone=phone, form=form: submit(phone, form, note=f"trial {index}")
                                   for phone, form in zip(phones, forms, strict=True)))
        problems = server_errors(replies)
        with race_server.session() as session:
            live = session.exec(select(JudgeCall).where(JudgeCall.round_id == round_id,
                                                        JudgeCall.table_number == TABLE)).all()
        if len(live) != 1:
            problems.append(f"{len(live)} live calls at one table")
        if sorted(reply.status for reply in replies) != [200] + [422] * (players - 1):
            problems.append(f"answers {[reply.status for reply in replies]}")
        return problems

    run_trials(trial)
