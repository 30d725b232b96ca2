"""A demo event so a newcomer sees a running tournament at once (``flask --app organizer demo``).

The account ``demo`` / ``demo`` is for trying the app on one's own machine only: never run this
command against a database that is reachable by others."""

from __future__ import annotations

from datetime import date

from sqlmodel import Session, select

import organizer.club  # noqa: F401 (the club's receivers: its registry and leagues hear of the demo's results)
from organizer.accounts import service as accounts
from organizer.core.models import EntryMode, Event, Organizer, Player, Role
from organizer.core.translate import _
from organizer.events import service as events
from organizer.rounds import results
from organizer.rounds import service as rounds

DEMO_ACCOUNT = "demo"
DEMO_PASSWORD = "demo"
DEMO_EVENT = "Demo Club Open"
DEMO_PLAYERS = [
    ("Ada Moss", "Riverside Gamers"), ("Bram Oakley", "Riverside Gamers"), ("Cleo Birch", "Hilltop Meeples"),
    ("Dev Patel", "Hilltop Meeples"), ("Esme Rowan", "Library Club"), ("Finn Alder", "Library Club"),
    ("Gia Laurel", ""), ("Hugo Thorn", "Riverside Gamers"), ("Ines Maple", "Hilltop Meeples"),
    ("Jon Hazel", "Library Club"), ("Kira Linden", ""), ("Leo Ashby", "Hilltop Meeples"),
]
DEMO_SEED = 2026
#: scorepads of the first two tables (points per species in the table's scorepad order)
DEMO_SCOREPADS = [
    [[0, 7, 0, 12, 0, 5, 0, 9, 0, 4], [6, 0, 11, 0, 3, 0, 8, 0, 0, 2],
     [0, 0, 0, 5, 14, 0, 0, 3, 6, 0], [4, 9, 0, 0, 0, 0, 2, 0, 0, 7]],
    [[3, 0, 8, 0, 0, 10, 0, 0, 5, 0], [0, 12, 0, 4, 0, 0, 6, 0, 0, 3],
     [7, 0, 0, 0, 9, 0, 0, 11, 0, 0], [0, 0, 5, 6, 0, 2, 0, 0, 8, 0]],
]
DEMO_SPECIES_COUNTS = [[7, 6, 5, 6], [6, 7, 5, 6]]


def ensure_demo(session: Session) -> str:
    """Create what is missing of the demo; running it again changes nothing."""
    lines = []
    organizer = session.exec(select(Organizer).where(Organizer.name == DEMO_ACCOUNT)).first()
    if organizer is None:
        # Deliberately below the normal minimum length: this account is for a local demo only.
        # An owner, so whoever tries the demo sees every page, the accounts page included.
        organizer = Organizer(name=DEMO_ACCOUNT, password_hash=accounts.hash_password(DEMO_PASSWORD), role=Role.OWNER)
        session.add(organizer)
        session.commit()
        lines.append(_("Demo owner account created: %(name)s / %(password)s (for local trying out only).",
                       name=DEMO_ACCOUNT, password=DEMO_PASSWORD))
    event = session.exec(select(Event).where(Event.name == DEMO_EVENT)).first()
    if event is not None:
        lines.append(_("Demo event “%(name)s” already exists; left as it is.", name=DEMO_EVENT))
        return "\n".join(lines)
    event = events.create_event(session, events.EventInput(name=DEMO_EVENT, date=date.today(),
                                                    entry_modes=["totals", "scorepad", "assistant"]), organizer.id, DEMO_ACCOUNT)
    assert event.id is not None
    session.add_all([Player(event_id=event.id, name=name, name_key=name.casefold(), club=club, checked_in=True)
                     for name, club in DEMO_PLAYERS])
    session.commit()
    first = rounds.propose_round(session, event, DEMO_ACCOUNT, DEMO_SEED)
    rounds.publish_round(session, event, first, DEMO_ACCOUNT)
    assert first.id is not None
    tables = rounds.tables_of(session, first.id)
    # results for the first tables only: the demo leaves a table for the newcomer to enter
    for view, pads, counts in zip(tables, DEMO_SCOREPADS, DEMO_SPECIES_COUNTS, strict=False):
        entries = []
        for seat_view, pad, count in zip(view.seats, pads, counts, strict=True):
            assert seat_view.seat.player_id is not None
            scorepad = dict(zip(view.table.species, pad, strict=False))  # the pads list 10, a table plays fewer
            entries.append(results.SeatEntry(seat_view.seat.player_id, sum(scorepad.values()), count, scorepad))
        # save_result checks the figures as the scorepad form would
        results.save_result(session, event, first, view, results.Submission(EntryMode.SCOREPAD, entries), 0, DEMO_ACCOUNT)
    # Table 1 confirmed by its players, table 2 waiting for confirmation, table 3 still playing.
    view = rounds.tables_of(session, first.id)[0]
    assert view.result is not None
    for seat_view in view.seats:
        assert seat_view.seat.id is not None
        results.confirm_by_seat(session, event, view, view.result, seat_view.seat.id, view.result.version,
                                organizer.id, DEMO_ACCOUNT)
    lines.append(_("Demo event “%(name)s” created: %(players)d players, round 1 published, "
                   "table 1 confirmed, table 2 entered, table 3 still playing.", name=DEMO_EVENT, players=len(DEMO_PLAYERS)))
    return "\n".join(lines)
