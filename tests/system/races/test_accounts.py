"""Two owners demoting or disabling each other at the same instant.

The rule is "the last owner cannot be demoted or disabled". Whatever order the two requests are
served in, one of them is stored and the other is refused (or finds its sender no longer an
owner): the installation always keeps an enabled owner.
"""

from __future__ import annotations

import pytest
from sqlmodel import col, select
from werkzeug.security import generate_password_hash

from organizer.core.models import Organizer, Role
from tests.system.faults.harness import Client, Reply, sign_in
from tests.system.races.harness import RaceServer, run_trials, server_errors, simultaneously

OWNERS = ("Race Owner A", "Race Owner B")
PASSWORD = "race owner password"


@pytest.fixture(scope="module")
def owner_ids(race_server: RaceServer) -> tuple[int, int]:
    """Two owners and no other: the demo account is made an organizer."""
    with race_server.session() as session:
        for account in session.exec(select(Organizer)).all():
            account.role = Role.ORGANIZER
            session.add(account)
        rows = [Organizer(name=name, password_hash=generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000"),
                          role=Role.OWNER) for name in OWNERS]
        session.add_all(rows)
        session.commit()
        return rows[0].id or 0, rows[1].id or 0


def _signed_in(race_server: RaceServer, name: str) -> Client:
    client = Client(race_server.url)
    reply = sign_in(client, name, PASSWORD)
    assert reply.status == 302, f"sign-in of {name}: {reply.status}"
    assert client.get("/organizers").status == 200
    return client


ACTIONS = (("role", {"role": Role.JUDGE}), ("disable", {}))


def test_two_owners_demoting_or_disabling_each_other_keep_an_owner(race_server: RaceServer,
                                                                    owner_ids: tuple[int, int]) -> None:
    a, b = owner_ids

    def trial(index: int) -> list[str]:
        with race_server.session() as session:
            for account in session.exec(select(Organizer).where(col(Organizer.id).in_([a, b]))).all():
                account.role, account.disabled_at = Role.OWNER, None
                session.add(account)
            session.commit()
        first, second = _signed_in(race_server, OWNERS[0]), _signed_in(race_server, OWNERS[1])
        (one, one_form), (two, two_form) = ACTIONS[index % 2], ACTIONS[(index // 2) % 2]

        def act(client: Client, action: str, form: dict[str, str], target: int) -> Reply:
            return client.post(f"/organizers/{target}/{action}", form)

        replies = simultaneously(lambda: act(first, one, one_form, b), lambda: act(second, two, two_form, a))
        problems = server_errors(replies, [f"A: {one} B", f"B: {two} A"])
        if problems:
            return problems
        with race_server.session() as session:
            owners = session.exec(select(Organizer).where(Organizer.role == Role.OWNER,
                                                          col(Organizer.disabled_at).is_(None))).all()
        if not owners:
            return [f"no enabled owner is left (A {one} B and B {two} A answered "
                    f"{replies[0].status} and {replies[1].status})"]
        if len(owners) != 1:
            return [f"{len(owners)} enabled owners are left: neither {one} nor {two} was stored"]
        return []

    run_trials(trial)
