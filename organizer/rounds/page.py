"""The round's page: a page of its tables with their results' progress over the whole round,
who dropped, a proposal's repeats, and the swap form's search for a seated player. Reads what
spans every table of a big round as columns; only the page's tables whole."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import case
from sqlmodel import Session, col, func, select

from organizer.core.models import (
    AuditEntry,
    Event,
    GameTable,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundFormat,
    RoundStatus,
    Seat,
)
from organizer.core.paging import Page, page_of
from organizer.core.text import clean_name, name_key
from organizer.rounds import seat_order, seating
from organizer.rounds.history import played_and_history, played_tables, seats_from
from organizer.rounds.service import TableSeating, clock_deadline, seatings_of, tables_of


@dataclass(frozen=True)
class TableStatus:
    """A table of a round as its result stands: the number, the result's status (None: no
    result yet), a dispute's note, and whether it is played on the devices (its result comes
    from the game, not from entry)."""

    number: int
    status: str | None
    dispute_note: str = ""
    digital: bool = False


def table_statuses(session: Session, round_id: int) -> list[TableStatus]:
    """Every table of the round with its result's status, in table order (three columns a
    table: the round's page and its attention list count them without loading the tables)."""
    rows = session.exec(select(GameTable.number, Result.status, Result.dispute_note, GameTable.digital)
                        .outerjoin(Result, col(Result.table_id) == GameTable.id)
                        .where(GameTable.round_id == round_id).order_by(col(GameTable.number))).all()
    return [TableStatus(number, status, note or "", bool(digital)) for number, status, note, digital in rows]


@dataclass(frozen=True)
class RoundProgress:
    """How far a round's results are, over all its tables (not only the page shown)."""

    tables: int
    #: paper tables without a result, and those whose result is not confirmed, in table order
    without: list[int]
    unconfirmed: list[int]
    #: tables played on the devices without a result yet: the game records it, nobody enters it
    playing: list[int] = field(default_factory=list)

    @property
    def confirmed(self) -> int:
        return self.tables - len(self.without) - len(self.unconfirmed) - len(self.playing)


@dataclass(frozen=True)
class RoundReview:
    """A round's page: a page of its tables and what the organizer should look at before publishing."""

    #: the tables of the page shown (``page``), with seats, players and results
    tables: list[TableSeating]
    page: Page
    progress: RoundProgress
    #: pairs of player names who already met in an earlier round (over all tables)
    repeats: list[tuple[str, str]]
    #: player id → standings row, for reviewing a Swiss proposal (rounds after the first)
    standing: dict[int, Any]
    #: players checked in after the proposal was made, whom it does not seat
    unseated: list[str]
    deadline: datetime | None
    #: player id → the seats they had in earlier rounds ("1 (start)", "3", ...), in round order
    #: (the page's players)
    seats_before: dict[int, list[str]]
    #: (name, seat) of the players sitting in a position they already had (none in a draft round)
    repeated_seats: list[tuple[str, str]]
    #: ids of the players seated in this round who have dropped out of the event since
    dropped: frozenset[int] = frozenset()
    #: (name, table number) of those players, in table and seat order
    dropped_seats: tuple[tuple[str, int], ...] = ()
    #: repeats and repeated seats beyond the first LISTED of each, counted, not named
    more_repeats: int = 0
    more_repeated_seats: int = 0
    #: round 1 proposed with the event's "seat round 1 by rating": (players rated, players not);
    #: None when it was a shuffle
    by_rating: tuple[int, int] | None = None


#: repeats and repeated seats named on a proposal's page; the rest are counted (a random first
#: seating of 10,000 players repeats thousands of seats: a list no one reads, and slow to write)
LISTED = 50


#: tables on a page of a round
TABLES_PER_PAGE = 50


def _names(session: Session, player_ids: Collection[int]) -> dict[int, str]:
    if not player_ids:
        return {}
    return {pid: name for pid, name in session.exec(
        select(Player.id, Player.name).where(col(Player.id).in_(list(player_ids)))).all() if pid is not None}


def seated_by_rating(session: Session, event_id: int, rnd: Round) -> tuple[int, int] | None:
    """(rated, unrated) when round 1 was proposed by rating, as its proposal's audit entry
    records it (the setting may have changed since): the first "round.proposed" entry written
    since the round was made, which is its own."""
    if rnd.number != 1:
        return None
    new = session.exec(select(AuditEntry.new).where(
        AuditEntry.event_id == event_id, AuditEntry.action == "round.proposed", col(AuditEntry.at) >= rnd.created_at)
        .order_by(col(AuditEntry.id)).limit(1)).first()
    note = new.get("by_rating") if isinstance(new, dict) and new.get("round") == 1 else None
    if not isinstance(note, dict):
        return None
    rated, unrated = note.get("rated"), note.get("unrated")
    return (rated, unrated) if isinstance(rated, int) and isinstance(unrated, int) else None


def review_round(session: Session, event: Event, rnd: Round, page_number: int | None = None) -> RoundReview:
    """The round's page: page ``page_number`` of its tables, and over the whole round its
    progress, the players who dropped, and for a proposal the repeats it makes. What looks at
    every table reads columns; only the page's tables are read whole."""
    assert rnd.id is not None and event.id is not None
    statuses = table_statuses(session, rnd.id)
    progress = RoundProgress(len(statuses), [t.number for t in statuses if t.status is None and not t.digital],
                             [t.number for t in statuses if t.status is not None and t.status != ResultStatus.CONFIRMED],
                             [t.number for t in statuses if t.status is None and t.digital])
    page = page_of(len(statuses), page_number, TABLES_PER_PAGE)
    tables = tables_of(session, rnd.id, numbers=[t.number for t in statuses[page.offset:page.offset + page.per_page]])
    on_page = {s.player.id for t in tables for s in t.seats if s.player and s.player.id is not None}
    # a proposal's repeats need every earlier table (and their history, both kept per process);
    # a round made final, only its page's players' ones
    history: seating.SeatingHistory | None = None
    if rnd.status == RoundStatus.PROPOSED:
        played, history = played_and_history(session, event.id, rnd.number)
    else:
        played = played_tables(session, event.id, rnd.number, on_page)
    seats_before = seats_from(played, on_page)
    # A player who dropped during this round (or after its proposal) still sits in it: marked.
    dropped_rows = session.exec(
        select(Player.id, Player.name, GameTable.number).join(Seat, col(Seat.player_id) == Player.id)
        .join(GameTable, col(GameTable.id) == Seat.table_id)
        .where(GameTable.round_id == rnd.id, col(Player.dropped).is_(True),
               func.coalesce(Player.dropped_after_round, 0) <= rnd.number)
        .order_by(col(GameTable.number), col(Seat.position))).all()
    repeats: list[tuple[str, str]] = []
    repeated_seats: list[tuple[str, str]] = []
    more_repeats = more_repeated_seats = 0
    standing: dict[int, Any] = {}
    unseated: list[str] = []
    if rnd.status == RoundStatus.PROPOSED:
        seatings = seatings_of(session, rnd.id)
        assert history is not None
        pairs = seating.repeated_pairs([[p for p in t if p is not None] for t in seatings], history)
        again = set() if rnd.format == RoundFormat.DRAFT else set(seat_order.repeated_seats(seatings, history))
        in_seat_again = [(p, index, len(t)) for t in seatings for index, p in enumerate(t) if p is not None and p in again]
        more_repeats, more_repeated_seats = max(0, len(pairs) - LISTED), max(0, len(in_seat_again) - LISTED)
        pairs, in_seat_again = pairs[:LISTED], in_seat_again[:LISTED]
        names = _names(session, {p for pair in pairs for p in pair} | {p for p, _index, _size in in_seat_again})
        repeats = [(names.get(a, "?"), names.get(b, "?")) for a, b in pairs]
        repeated_seats = [(names.get(p, "?"), seat_order.seat_label(index, size)) for p, index, size in in_seat_again]
        if rnd.number > 1:
            # The organizer reviews a Swiss proposal against the standings it was made from.
            from organizer.scoring.event_standings import standings_for

            standing = {row.player_id: row for row in standings_for(session, event) if row.player_id in on_page}
        # Checked in after the proposal was made: the organizer re-proposes or seats them by hand.
        seated = select(Seat.player_id).join(GameTable, col(GameTable.id) == Seat.table_id).where(
            GameTable.round_id == rnd.id, col(Seat.player_id).is_not(None))
        unseated = list(session.exec(select(Player.name).where(
            Player.event_id == event.id, col(Player.checked_in).is_(True), col(Player.dropped).is_(False),
            col(Player.joined_round) <= rnd.number, col(Player.id).not_in(seated)).order_by(col(Player.id))).all())
    return RoundReview(tables, page, progress, repeats, standing, unseated, clock_deadline(rnd), seats_before,
                       repeated_seats, frozenset(pid for pid, _name, _table in dropped_rows if pid is not None),
                       tuple((name, number) for _pid, name, number in dropped_rows), more_repeats, more_repeated_seats,
                       seated_by_rating(session, event.id, rnd))


@dataclass(frozen=True)
class SeatedMatches:
    """The players of a round a swap form's search found: (name, player id, table number) by
    name, at most ``limit`` of them; ``more`` when others match too."""

    search: str
    found: list[tuple[str, int, int]]
    more: bool


def find_seated(session: Session, round_id: int, search: str, limit: int = 8) -> SeatedMatches:
    """The round's seated players whose name holds ``search`` (case, width and spacing aside,
    as names are compared), or who sit at table ``search`` when it is a number: a swap form
    finds one player among 10,000 without listing them all."""
    search = clean_name(search)[:80]
    key = name_key(search)
    if not key:
        return SeatedMatches(search, [], False)
    matches = col(Player.name_key).contains(key, autoescape=True)
    order: list[Any] = [func.lower(Player.name), col(Player.id)]
    if key.isascii() and key.isdigit() and len(key) <= 6:
        at_table = col(GameTable.number) == int(key)
        matches = matches | at_table
        order = [case((at_table, col(Seat.position)), else_=100)] + order  # the table's players first, in seat order
    rows = session.exec(select(Player.name, Player.id, GameTable.number).join(Seat, col(Seat.player_id) == Player.id)
                        .join(GameTable, col(GameTable.id) == Seat.table_id)
                        .where(GameTable.round_id == round_id, matches).order_by(*order).limit(limit + 1)).all()
    found = [(name, pid, number) for name, pid, number in rows if pid is not None]
    return SeatedMatches(search, found[:limit], len(found) > limit)
