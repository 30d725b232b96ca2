""""Check in all" on one tablet while another drops one of the listed players.

The bulk form names the players it checks in. Whatever order the two requests are served in,
a player dropped before the bulk check-in commits is never checked in by it: either the check-in
came first (all listed players checked in, then the drop), or the drop came first and the form
is refused as stale ("changed since you opened it; nothing was saved") with nobody checked in.
"""

from __future__ import annotations

import pytest
from sqlmodel import Session, col, select

from organizer.core.models import AuditEntry, Player
from tests.system.faults.harness import Client
from tests.system.races.harness import DEMO_EVENT, RaceServer, fetch_form, run_trials, server_errors, simultaneously, submit

PLAYERS = f"/events/{DEMO_EVENT}/players"
STALE = "changed since you opened it; nothing was saved"
HX = {"HX-Request": "true", "HX-Current-URL": PLAYERS}


@pytest.fixture(scope="module")
def devices(race_server: RaceServer) -> tuple[Client, Client]:
    return race_server.client(), race_server.client()


def _reset(session: Session) -> list[Player]:
    """Everyone registered, nobody checked in or dropped: the list before the doors open."""
    players = list(session.exec(select(Player).where(Player.event_id == DEMO_EVENT).order_by(col(Player.id))).all())
    for player in players:
        player.checked_in, player.dropped, player.dropped_after_round = False, False, None
        session.add(player)
    session.commit()
    return players


def _last_entry(session: Session, action: str) -> AuditEntry | None:
    return session.exec(select(AuditEntry).where(AuditEntry.event_id == DEMO_EVENT, AuditEntry.action == action)
                        .order_by(col(AuditEntry.id).desc())).first()


def test_check_in_all_and_a_drop_at_once(race_server: RaceServer, devices: tuple[Client, Client]) -> None:
    door, judge = devices

    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            players = _reset(session)
        target = players[index % len(players)]
        bulk = fetch_form(door, PLAYERS, "/check-in-all")
        listed = {int(part) for part in bulk.get("ids").split()}
        if listed != {p.id for p in players}:
            return [f"the form lists {sorted(listed)}, not every player"]
        drop = fetch_form(judge, PLAYERS, f"/players/{target.id}/drop")
        replies = simultaneously(lambda: submit(door, bulk, headers=HX), lambda: submit(judge, drop))
        problems = server_errors(replies, ["the check-in", "the drop"])
        if problems:
            return problems
        checked, dropped = replies
        with race_server.session() as session:
            now = {p.id: p for p in session.exec(select(Player).where(Player.event_id == DEMO_EVENT)).all()}
            bulk_entry = _last_entry(session, "players.checked_in")
            drop_entry = _last_entry(session, "player.dropped")
        if dropped.status != 302 or not now[target.id].dropped:
            return [f"the drop answered {dropped.status} and did not drop {target.name}"]
        if checked.status == 200:
            if not all(now[pid].checked_in for pid in listed):
                return ["the check-in answered 200 but did not check in every listed player"]
            if bulk_entry is None or drop_entry is None or not (bulk_entry.id or 0) < (drop_entry.id or 0):
                return [f"{target.name} was checked in by a form answered after the drop had been saved"]
        elif checked.status == 409 and STALE in checked.text:
            if any(now[pid].checked_in for pid in listed):
                return ["the check-in was refused as stale but checked in some players"]
        else:
            return [f"the check-in answered {checked.status}"]
        return []

    run_trials(trial)
