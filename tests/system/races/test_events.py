"""Two organizers saving the same event's settings.

Both opened the event form before either saved. The one saved second was made from settings
that no longer hold: it is refused as stale ("changed since you opened it; nothing was
saved") and the first change stands. Reproduces "an event form opened before another
organizer saved silently reverts that change", without a race
(:func:`test_stale_event_form_is_refused`) and with both saves sent at the same instant.
"""

from __future__ import annotations

import pytest
from sqlmodel import Session

from organizer.core.models import Event
from tests.system.faults.harness import Client, Reply
from tests.system.races.harness import DEMO_EVENT, Form, RaceServer, fetch_form, run_trials, server_errors, simultaneously, submit

EDIT = f"/events/{DEMO_EVENT}/edit"
STALE = "changed since you opened it; nothing was saved"


@pytest.fixture(scope="module")
def devices(race_server: RaceServer) -> tuple[Client, Client]:
    return race_server.client(), race_server.client()


def _event(session: Session) -> Event:
    session.expire_all()
    event = session.get(Event, DEMO_EVENT)
    assert event is not None
    return event


def _changes(index: int) -> tuple[dict[str, str], dict[str, str]]:
    """What each organizer changes: the name on one tablet, the pick timer on the other."""
    return {"name": f"Demo Club Open {index}"}, {"pick_timer_seconds": str(30 + index % 500)}


def _settings(event: Event) -> tuple[str, str]:
    return event.name, "" if event.pick_timer_seconds is None else str(event.pick_timer_seconds)


def _submitted(form: Form, changes: dict[str, str]) -> tuple[str, str]:
    values = dict(form.values(**changes))
    return values["name"], values.get("pick_timer_seconds", "")


def _refused_as_stale(reply: Reply) -> bool:
    return 400 <= reply.status < 500 and STALE in reply.text.replace("’", "'").lower()


def test_stale_event_form_is_refused(race_server: RaceServer, devices: tuple[Client, Client]) -> None:
    first, second = devices
    first_form, second_form = fetch_form(first, EDIT, "/edit"), fetch_form(second, EDIT, "/edit")
    first_change, second_change = _changes(1000)
    assert submit(first, first_form, **first_change).status == 302
    reply = submit(second, second_form, **second_change)
    assert _refused_as_stale(reply), f"the stale form answered {reply.status}"
    with race_server.session() as session:
        assert _settings(_event(session)) == _submitted(first_form, first_change)


def test_two_event_forms_saved_at_once(race_server: RaceServer, devices: tuple[Client, Client]) -> None:
    first, second = devices

    def trial(index: int) -> list[str]:
        forms = [fetch_form(first, EDIT, "/edit"), fetch_form(second, EDIT, "/edit")]
        changes = _changes(index)
        replies = simultaneously(lambda: submit(first, forms[0], **changes[0]),
                                 lambda: submit(second, forms[1], **changes[1]))
        problems = server_errors(replies, ["the first save", "the second"])
        saved = [i for i, reply in enumerate(replies) if reply.status == 302]
        refused = [i for i, reply in enumerate(replies) if _refused_as_stale(reply)]
        if len(saved) != 1 or len(refused) != 1:
            return problems + [f"two forms opened at once, both sent: answers {[r.status for r in replies]}; "
                               "one must be saved and the other refused as stale"]
        with race_server.session() as session:
            stored = _settings(_event(session))
        winner = saved[0]
        if stored != _submitted(forms[winner], changes[winner]):
            problems.append(f"stored {stored}, but the form saved was {_submitted(forms[winner], changes[winner])}")
        return problems

    run_trials(trial)
