"""What the projector shows: the current round and its clock, where everyone sits, and the top
of the standings. A room of 10,000 players is not listed at once: the names come a screenful at
a time, the next one at each refresh (the public page's search finds a table on a phone)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select as select_columns
from sqlmodel import Session, col

from organizer.core.models import Event, GameTable, Player, Round, RoundStatus, Seat, utcnow
from organizer.core.translate import STAGE_NAMES, _
from organizer.finals.service import PlaceLine, finals_view
from organizer.rounds.service import clock_deadline, current_round
from organizer.scoring.event_standings import StandingsView, standings_top

#: how often the projector asks for fresh figures (seconds); the clock itself ticks every second
REFRESH_SECONDS = 10
#: names on one screen of "find your table": two columns of 15, what fits the screen's height at
#: the projector's type size (organizer.css sizes it by the screen's height, so 720 and 1080 lines
#: show the same rows)
SEATING_PER_SCREEN = 30
#: standings rows shown: the top, leaving the corner below them to the public page's QR code
STANDINGS_ROWS = 12


@dataclass(frozen=True)
class ProjectorScreen:
    round: Round | None
    deadline: datetime | None
    #: whole seconds left on the clock
    remaining: int | None
    #: (name, table number, dropped) of this screenful of the seating, by name
    seating: list[tuple[str, int, bool]]
    #: the screenful shown (from 1) of how many; 1 of 1 when everyone fits
    screen: int
    screens: int
    standings: StandingsView
    #: the current round's stage in words for a finals' round ("Final table"), else None
    stage_name: str | None
    #: the finals' first places, shown instead of the standings once the final table has a result
    finals: list[PlaceLine]


def projector_screen(session: Session, event: Event, now: datetime | None = None) -> ProjectorScreen:
    """The projector at ``now``: the screenful of names it shows turns over every refresh."""
    assert event.id is not None
    now = utcnow() if now is None else now
    rnd = current_round(session, event.id)
    seating: list[tuple[str, int, bool]] = []
    deadline = remaining = None
    screen = screens = 1
    if rnd is not None and rnd.id is not None:
        deadline = clock_deadline(rnd)
        if deadline is not None:
            remaining = max(0, int((deadline - now).total_seconds()))
        if rnd.status != RoundStatus.PROPOSED:
            # names and numbers as columns, not a model object per seat
            seated = session.execute(
                select_columns(col(Player.name), col(GameTable.number), col(Player.dropped))
                .join(Seat, col(Seat.player_id) == Player.id)
                .join(GameTable, col(GameTable.id) == Seat.table_id)
                .where(col(GameTable.round_id) == rnd.id)).all()
            everyone = sorted(((str(name), int(number), bool(dropped)) for name, number, dropped in seated),
                              key=lambda item: item[0].casefold())
            screens = max(1, -(-len(everyone) // SEATING_PER_SCREEN))
            screen = int(now.timestamp()) // REFRESH_SECONDS % screens + 1
            seating = everyone[(screen - 1) * SEATING_PER_SCREEN:screen * SEATING_PER_SCREEN]
    finals = finals_view(session, event)
    return ProjectorScreen(rnd, deadline, remaining, seating, screen, screens,
                           standings_top(session, event, STANDINGS_ROWS),
                           _(STAGE_NAMES[rnd.stage]) if rnd is not None and rnd.stage in STAGE_NAMES
                           and rnd.stage != "swiss" else None,
                           finals.places[:STANDINGS_ROWS] if finals else [])
