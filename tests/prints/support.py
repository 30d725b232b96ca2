"""Results typed in as a table's paper scorepad, for the tests of the printed documents and of
backups (a round with some tables done)."""

from __future__ import annotations

import random

from sqlmodel import Session

from organizer.core.models import Event, Round
from organizer.rounds import results
from organizer.rounds import service as rounds


def scorepad_result(session: Session, event: Event, rnd: Round, view: rounds.TableSeating, seed: int) -> None:
    """A result typed in from a paper scorepad (it has no arboretums)."""
    rng = random.Random(seed)
    form = {"mode": "scorepad"}
    for seat_view in view.seats:
        for index, _ in enumerate(view.table.species):
            form[f"pad_{seat_view.seat.id}_{index}"] = str(rng.choice([0, 0, 2, 5, 7, 11]))
        scored = sum(form[f"pad_{seat_view.seat.id}_{index}"] != "0" for index in range(len(view.table.species)))
        # at least the species scored are in the arboretum
        form[f"species_{seat_view.seat.id}"] = str(max(scored, rng.randrange(3, 7)))
    submission = results.parse_scorepad(view, rnd.format, form)
    results.save_result(session, event, rnd, view, submission, 0, "test")
