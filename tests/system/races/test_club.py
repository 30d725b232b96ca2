"""Two organizers merging the same two registry entries in opposite directions at once.

A merged into B and B into A would be a cycle: every walk from one entry to the person it now is
would go round for ever. Whatever order the two merges are served in, one is stored and the
other is refused ("already merged"), and the registry never holds a cycle.
"""

from __future__ import annotations

import pytest
from sqlmodel import col, select

from organizer.core.models import ClubPlayer
from tests.system.faults.harness import Client
from tests.system.races.harness import RaceServer, run_trials, server_errors, simultaneously

REFUSED = "already merged"


@pytest.fixture(scope="module")
def organizers(race_server: RaceServer) -> tuple[Client, Client]:
    return race_server.client(), race_server.client()


def _cycles(entries: dict[int, ClubPlayer]) -> list[str]:
    """Every chain of merges that comes back to an entry it passed."""
    found = []
    for start in entries:
        seen, current = [start], entries[start].merged_into_id
        while current is not None and current not in seen and current in entries:
            seen.append(current)
            current = entries[current].merged_into_id
        if current is not None and current in seen:
            found.append(" → ".join(str(i) for i in [*seen, current]))
    return found


def test_two_opposite_merges_at_once_never_make_a_cycle(race_server: RaceServer,
                                                        organizers: tuple[Client, Client]) -> None:
    first, second = organizers

    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            one, two = ClubPlayer(name=f"Race A {index}", name_key=f"race a {index}"), \
                ClubPlayer(name=f"Race B {index}", name_key=f"race b {index}")
            session.add_all([one, two])
            session.commit()
            a, b = one.id, two.id
        for client in organizers:
            assert client.get("/club/players").status == 200
        replies = simultaneously(lambda: first.post("/club/players/merge", {"keep": str(a), "gone": str(b)}),
                                 lambda: second.post("/club/players/merge", {"keep": str(b), "gone": str(a)}))
        problems = server_errors(replies, ["A ← B", "B ← A"])
        if problems:
            return problems
        with race_server.session() as session:
            entries = {e.id: e for e in session.exec(select(ClubPlayer).order_by(col(ClubPlayer.id))).all()
                       if e.id is not None}
        cycles = _cycles(entries)
        if cycles:
            return [f"the registry holds a cycle of merges: {c}" for c in cycles]
        merged = [i for i in (a, b) if entries[i].merged_into_id is not None]
        if len(merged) != 1:
            return [f"{len(merged)} of the two entries are merged, not one"]
        refusals = [first.get("/club/players"), second.get("/club/players")]
        if not any(REFUSED in page.text for page in refusals):
            return ["neither organizer was told that the other merge came first"]
        return []

    run_trials(trial)
