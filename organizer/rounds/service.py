"""Rounds: propose a seating, swap players, publish, close; the tables' species in play."""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, func, select

from engine import Edition, choose_species, species_count
from organizer.core import guard, signals
from organizer.core.errors import InputError
from organizer.core.models import (
    PLAYED_STATUSES,
    AuditEntry,
    Event,
    GameTable,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundFormat,
    RoundStage,
    RoundStatus,
    Seat,
    new_token,
    utcnow,
)
from organizer.core.translate import N_, _, ngettext
from organizer.rounds import seat_order, seating
from organizer.rounds.history import history_before
from organizer.rounds.seating_ranks import Seatable, current_ranks, rating_order

#: a round's status as people read it (translated where shown: ``_(STATUS_NAMES[status])``)
STATUS_NAMES: dict[str, str] = {RoundStatus.PROPOSED: N_("proposed"), RoundStatus.PUBLISHED: N_("published"),
                                RoundStatus.FINISHED: N_("finished")}


def status_name(status: str) -> str:
    """A round's status in the reader's language ("published", "veröffentlicht")."""
    return _(STATUS_NAMES[status]) if status in STATUS_NAMES else status


@dataclass(frozen=True)
class SeatedPlayer:
    """A seat of a table with the player in it (None: an empty seat, a bot's)."""

    seat: Seat
    player: Player | None


@dataclass(frozen=True)
class TableSeating:
    """A table of a round: its seats in order, with players, and its result if any."""

    table: GameTable
    seats: list[SeatedPlayer]
    result: Result | None

    @property
    def start_player(self) -> SeatedPlayer:
        return self.seats[0]

    @property
    def dealer(self) -> SeatedPlayer:
        """The last seat deals (the start player's right-hand neighbour)."""
        return self.seats[-1]


def event_rounds(session: Session, event_id: int) -> list[Round]:
    return list(session.exec(select(Round).where(Round.event_id == event_id).order_by(col(Round.number))).all())


def get_round(session: Session, event_id: int, number: int) -> Round | None:
    return session.exec(select(Round).where(Round.event_id == event_id, Round.number == number)).first()


def _seatable_filter(event_id: int, round_number: int) -> tuple[Any, ...]:
    """Checked in, not dropped, and entered by this round (late entries wait for theirs)."""
    return (Player.event_id == event_id, col(Player.checked_in).is_(True), col(Player.dropped).is_(False),
            col(Player.joined_round) <= round_number)


def seatable_players(session: Session, event_id: int, round_number: int) -> list[Seatable]:
    """The players round ``round_number`` seats, by id."""
    rows = session.execute(select_columns(col(Player.id), col(Player.name), col(Player.fixed_table),
                                          col(Player.club_player_id))
                           .where(*_seatable_filter(event_id, round_number)).order_by(col(Player.id))).all()
    return [Seatable(pid, name, fixed, club) for pid, name, fixed, club in rows]


def seatable_count(session: Session, event_id: int, round_number: int) -> int:
    return int(session.exec(select(func.count()).select_from(Player)
                            .where(*_seatable_filter(event_id, round_number))).one())


def tables_of(session: Session, round_id: int, number: int | None = None,
              numbers: Collection[int] | None = None) -> list[TableSeating]:
    """The round's tables with seats, players and results (only table ``number`` if given, or
    only the tables ``numbers``: a page of a big round reads its own tables, not 2,500)."""
    query = select(GameTable).where(GameTable.round_id == round_id)
    if number is not None:
        query = query.where(GameTable.number == number)
    if numbers is not None:
        if not numbers:
            return []
        query = query.where(col(GameTable.number).in_(list(numbers)))
    tables = session.exec(query.order_by(col(GameTable.number))).all()
    if not tables:
        return []
    table_ids = [t.id for t in tables]
    seats = session.exec(select(Seat).where(col(Seat.table_id).in_(table_ids)).order_by(col(Seat.position))).all()
    player_ids = {s.player_id for s in seats if s.player_id is not None}
    players = {p.id: p for p in session.exec(select(Player).where(col(Player.id).in_(player_ids))).all()} if player_ids else {}
    results = {r.table_id: r for r in session.exec(select(Result).where(col(Result.table_id).in_(table_ids))).all()}
    by_table: dict[int, list[SeatedPlayer]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(SeatedPlayer(seat, players.get(seat.player_id) if seat.player_id else None))
    return [TableSeating(t, by_table.get(t.id or 0, []), results.get(t.id or 0)) for t in tables]


def lock_round(session: Session, rnd: Round) -> Round:
    """The round as committed now, locked for this transaction (:func:`.guard.lock`): its status
    cannot change under a check of it. InputError when it is gone."""
    fresh = guard.lock(session, Round, rnd.id)
    if fresh is None:
        raise InputError({"": _("Round %(number)d no longer exists.", number=rnd.number)})
    return fresh


def lock_table(session: Session, rnd: Round, table: GameTable) -> tuple[Round, TableSeating]:
    """The round and one of its tables (seats, players, result) as committed now, both locked
    for this transaction, the round first: what a change of the table's result, species or game
    depends on cannot change under it."""
    fresh_round = lock_round(session, rnd)
    assert fresh_round.id is not None
    if guard.lock(session, GameTable, table.id) is None:
        raise InputError({"": _("Table %(number)d no longer exists.", number=table.number)})
    views = tables_of(session, fresh_round.id, table.number)
    assert views, "a locked table is in its round"
    return fresh_round, views[0]


def _species_for(event: Event, round_format: str, seats: int, seed: int, round_number: int, table_number: int) -> list[str]:
    rng = random.Random(f"arboretum-species:{seed}:{round_number}:{table_number}")
    mode = "draft" if round_format == RoundFormat.DRAFT else "standard"
    return list(choose_species(Edition.parse(event.edition), species_count(mode, seats), rng=rng))


def _audit(session: Session, event_id: int, actor: str, action: str, **values: object) -> None:
    session.add(AuditEntry(event_id=event_id, actor=actor, action=action, new=dict(values) or None))


def next_round_number(session: Session, event: Event) -> int:
    assert event.id is not None
    rounds = event_rounds(session, event.id)
    return rounds[-1].number + 1 if rounds else 1


def check_can_propose(session: Session, event: Event) -> int:
    assert event.id is not None
    rounds = event_rounds(session, event.id)
    number = rounds[-1].number + 1 if rounds else 1
    if any(r.stage != RoundStage.SWISS for r in rounds):
        raise InputError({"": _("The finals have started; no Swiss round can follow them.")})
    if rounds and rounds[-1].status != RoundStatus.FINISHED:
        raise InputError({"": _("Round %(number)d is still %(status)s; close it before seating the next.",
                                number=rounds[-1].number, status=status_name(rounds[-1].status))})
    if number > event.rounds:
        raise InputError({"": ngettext("The event's %(num)d round has been played. "
                                       "Add a round in the event's settings to play another.",
                                       "All %(num)d rounds of the event have been played. "
                                       "Add a round in the event's settings to play another.", event.rounds)})
    return number


#: a round's seed is a non-negative 31-bit number (it fits every database's integer)
SEED_LIMIT = 2**31
_SEED_MESSAGE = N_("A seed is a whole number from 0 to %(limit)d; leave empty for a random one.")


def seed_from_text(raw: str) -> int | None:
    """The seed typed in the propose form (None: empty, a random one)."""
    raw = raw.strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise InputError({"seed": _(_SEED_MESSAGE, limit=SEED_LIMIT - 1)}) from None


@dataclass(frozen=True)
class NextRound:
    """What the rounds page offers next: the round's number and how many players it would seat."""

    number: int
    ready: int


def next_round(session: Session, event: Event) -> NextRound:
    assert event.id is not None
    number = next_round_number(session, event)
    ready = seatable_count(session, event.id, number) if number <= event.rounds else 0
    return NextRound(number, ready)


def propose_round(session: Session, event: Event, actor: str, seed: int | None = None) -> Round:
    """Seat the players for the next round as a proposal the organizer can review and change."""
    assert event.id is not None
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise InputError({"seed": _(_SEED_MESSAGE, limit=SEED_LIMIT - 1)})
    number = check_can_propose(session, event)
    players = seatable_players(session, event.id, number)
    if len(players) < 2:
        raise InputError({"": ngettext("%(num)d player is checked in for this round; at least 2 are needed.",
                                       "%(num)d players are checked in for this round; at least 2 are needed.",
                                       len(players))})
    seed = secrets.randbelow(2**31) if seed is None else seed
    # Round 1 by rating: only when someone is rated; nobody rated is today's shuffle.
    by_rating = rating_order(session, players) if number == 1 and event.first_round_by_rating else None
    if number > 1:
        ranks = current_ranks(session, event, players)
    elif by_rating is not None and by_rating.rated:
        ranks = by_rating.ranks
    else:
        ranks = {p.id: 0 for p in players}
    seating_players = [seating.SeatingPlayer(p.id, ranks[p.id], p.fixed_table, p.name) for p in players]
    try:
        tables = seating.propose_seating(seating_players, number, event.preferred_table_size, seed,
                                         history_before(session, event.id, number),
                                         by_rating=by_rating is not None and by_rating.rated > 0)
    except seating.SeatingError as refused:
        raise InputError({"": _("No seating possible: %(reason)s", reason=str(refused))}) from None
    # The seating is searched without a lock (it can take a while); then, under the event's lock,
    # the round must still be the next one: of two proposals at once, the second is refused.
    event_id = event.id
    event = guard.lock(session, Event, event_id) or event
    if check_can_propose(session, event) != number:
        raise InputError({"": _("Round %(number)d was seated meanwhile; nothing was saved.", number=number)})
    round_format = event.round_formats[number - 1]
    new_round = Round(event_id=event_id, number=number, format=round_format, status=RoundStatus.PROPOSED, seed=seed)
    session.add(new_round)
    session.flush()
    assert new_round.id is not None
    _insert_tables(session, event, new_round, tables)
    rating_note = {} if by_rating is None else {"by_rating": {"rated": by_rating.rated, "unrated": by_rating.unrated}}
    _audit(session, event_id, actor, "round.proposed", round=number, seed=seed, tables=tables, **rating_note)
    session.commit()
    session.refresh(new_round)
    return new_round


def _insert_tables(session: Session, event: Event, rnd: Round, tables: Sequence[Sequence[int]]) -> None:
    """The round's tables and seats, as two multi-row INSERTs: 2,500 tables written one flush
    at a time took seconds. Every column is given, as the models' defaults would."""
    assert rnd.id is not None
    digital = rnd.format == RoundFormat.DRAFT
    table_rows = [dict(round_id=rnd.id, number=table_number, digital=digital, game=None, action_log=[], log_version=0,
                       species=_species_for(event, rnd.format, len(player_ids), rnd.seed, rnd.number, table_number))
                  for table_number, player_ids in enumerate(tables, start=1)]
    table_ids = list(session.scalars(insert(GameTable).returning(col(GameTable.id), sort_by_parameter_order=True),
                                     table_rows))
    session.execute(insert(Seat), [
        dict(table_id=table_id, player_id=player_id, position=position, token=new_token(), is_bot=False,
             bot_level="normal")
        for table_id, player_ids in zip(table_ids, tables, strict=True) for position, player_id in enumerate(player_ids)])


def seat_tables(session: Session, event: Event, rnd: Round, tables: Sequence[Sequence[int]]) -> None:
    """Insert ``rnd``'s tables, each listing its players in seat order (a finals' round, seated by
    seed rather than by the seating search)."""
    _insert_tables(session, event, rnd, tables)


def discard_proposal(session: Session, event: Event, rnd: Round, actor: str) -> None:
    rnd = lock_round(session, rnd)
    if rnd.status != RoundStatus.PROPOSED:
        raise InputError({"": _("Round %(number)d is %(status)s; only a proposal can be discarded.",
                                number=rnd.number, status=status_name(rnd.status))})
    assert event.id is not None
    _audit(session, event.id, actor, "round.discarded", round=rnd.number, seed=rnd.seed)
    session.delete(rnd)
    session.commit()


def _seat_of(session: Session, rnd: Round, player_id: int) -> tuple[Seat, GameTable] | None:
    row = session.exec(select(Seat, GameTable).join(GameTable, col(GameTable.id) == Seat.table_id)
                       .where(GameTable.round_id == rnd.id, Seat.player_id == player_id)).first()
    return (row[0], row[1]) if row else None


@dataclass(frozen=True)
class SwapEffect:
    """What a swap did to the proposal: repeated opponent pairs and repeated seats, before and after."""

    repeated_pairs: tuple[int, int]
    repeated_seats: tuple[int, int]
    #: the two players swapped, by name, each with the table they sat at before the swap
    first: tuple[str, int] = ("", 0)
    second: tuple[str, int] = ("", 0)

    @property
    def swapped(self) -> str:
        """Who was swapped: "Ada Lovelace (Table 2) and Ben Ng (Table 5) swapped." """
        return _("%(first)s (Table %(first_table)d) and %(second)s (Table %(second_table)d) swapped.",
                 first=self.first[0], first_table=self.first[1], second=self.second[0], second_table=self.second[1])

    @property
    def message(self) -> str:
        seats = ngettext("%(num)d repeated seat (was %(was)d)", "%(num)d repeated seats (was %(was)d)",
                         self.repeated_seats[1], was=self.repeated_seats[0])
        pairs = ngettext("%(num)d repeated opponent pair (was %(was)d)", "%(num)d repeated opponent pairs (was %(was)d)",
                         self.repeated_pairs[1], was=self.repeated_pairs[0])
        return _("After this swap: %(seats)s, %(pairs)s.", seats=seats, pairs=pairs)


def _balance(tables: list[list[int | None]], history: seating.SeatingHistory, draft: bool) -> tuple[int, int]:
    players = [[p for p in t if p is not None] for t in tables]
    # Seats count for balance only where there is a start player and a dealer (not in a draft).
    seats = 0 if draft else len(seat_order.repeated_seats(tables, history))
    return len(seating.repeated_pairs(players, history)), seats


def swap_players(session: Session, event: Event, rnd: Round, first_id: int, second_id: int, actor: str) -> SwapEffect:
    """Exchange two players' seats in a proposal (same table: they swap seat order), under the
    round's lock: a swap and the publishing of the round never interleave."""
    rnd = lock_round(session, rnd)
    if rnd.status != RoundStatus.PROPOSED:
        raise InputError({"swap": _("Round %(number)d is %(status)s; seats can only change before publishing.",
                                    number=rnd.number, status=status_name(rnd.status))})
    if first_id == second_id:
        raise InputError({"swap": _("Choose two different players.")})
    first, second = _seat_of(session, rnd, first_id), _seat_of(session, rnd, second_id)
    if first is None or second is None:
        raise InputError({"swap": _("Both players must be seated in this round.")})
    (seat_a, table_a), (seat_b, table_b) = first, second
    players = {p.id: p for p in session.exec(select(Player).where(col(Player.id).in_([first_id, second_id]))).all()}
    for pid, target in ((first_id, table_b), (second_id, table_a)):
        fixed = players[pid].fixed_table
        if fixed is not None and fixed != target.number:
            raise InputError({"swap": _("%(name)s is fixed to table %(table)d.", name=players[pid].name, table=fixed)})
    assert rnd.id is not None and event.id is not None
    history = history_before(session, event.id, rnd.number)
    before = seatings_of(session, rnd.id)
    trade = {first_id: second_id, second_id: first_id}
    after = [[trade.get(p, p) if p is not None else None for p in table] for table in before]
    seat_a.player_id, seat_b.player_id = second_id, first_id
    session.add(seat_a)
    session.add(seat_b)
    _audit(session, event.id, actor, "round.swapped", round=rnd.number,
           players=[players[first_id].name, players[second_id].name], tables=[table_a.number, table_b.number])
    session.commit()
    draft = rnd.format == RoundFormat.DRAFT
    (pairs_before, seats_before), (pairs_after, seats_after) = (_balance(t, history, draft) for t in (before, after))
    return SwapEffect((pairs_before, pairs_after), (seats_before, seats_after),
                      (players[first_id].name, table_a.number), (players[second_id].name, table_b.number))


def publish_round(session: Session, event: Event, rnd: Round, actor: str) -> None:
    rnd = lock_round(session, rnd)
    if rnd.status != RoundStatus.PROPOSED:
        raise InputError({"": _("Round %(number)d is already %(status)s.", number=rnd.number, status=status_name(rnd.status))})
    rnd.status = RoundStatus.PUBLISHED
    rnd.published_at = utcnow()
    session.add(rnd)
    assert event.id is not None
    _audit(session, event.id, actor, "round.published", round=rnd.number)
    session.commit()


def close_round(session: Session, event: Event, rnd: Round, actor: str) -> None:
    """A round closes when every table has a confirmed result; then the next can be seated.
    Checked under the round's lock, which every change of a result takes too."""
    rnd = lock_round(session, rnd)
    if rnd.status != RoundStatus.PUBLISHED:
        raise InputError({"": _("Round %(number)d is %(status)s; only a published round can be closed.",
                                number=rnd.number, status=status_name(rnd.status))})
    assert rnd.id is not None
    views = tables_of(session, rnd.id)
    missing = [v.table.number for v in views if v.result is None]
    unconfirmed = [v.table.number for v in views if v.result is not None and v.result.status != ResultStatus.CONFIRMED]
    if missing or unconfirmed:
        parts = []
        if missing:
            parts.append(ngettext("no result yet at table %(tables)s", "no result yet at tables %(tables)s",
                                  len(missing), tables=", ".join(map(str, missing))))
        if unconfirmed:
            parts.append(ngettext("result not confirmed at table %(tables)s", "results not confirmed at tables %(tables)s",
                                  len(unconfirmed), tables=", ".join(map(str, unconfirmed))))
        raise InputError({"": _("Round cannot close: %(reasons)s.", reasons="; ".join(parts))})
    rnd.status = RoundStatus.FINISHED
    session.add(rnd)
    assert event.id is not None
    _audit(session, event.id, actor, "round.closed", round=rnd.number)
    session.commit()
    signals.results_settled.send(session, event_ids=[event.id])  # the club's leagues read settled results stored


MAX_CLOCK_MINUTES = 300


def start_clock(session: Session, event: Event, rnd: Round, raw_minutes: str, actor: str) -> None:
    """Start (or restart) the round clock shown on the projector."""
    try:
        minutes = int(raw_minutes.strip())
        if not 1 <= minutes <= MAX_CLOCK_MINUTES:
            raise ValueError
    except ValueError:
        raise InputError({"minutes": _("Enter the round's length in minutes, 1 to %(limit)d.",
                                       limit=MAX_CLOCK_MINUTES)}) from None
    rnd = lock_round(session, rnd)
    if rnd.status != RoundStatus.PUBLISHED:
        raise InputError({"minutes": _("The clock runs for a published round.")})
    rnd.duration_minutes = minutes
    rnd.clock_started_at = utcnow()
    session.add(rnd)
    assert event.id is not None
    _audit(session, event.id, actor, "round.clock_started", round=rnd.number, minutes=minutes)
    session.commit()


def stop_clock(session: Session, event: Event, rnd: Round, actor: str) -> None:
    rnd = lock_round(session, rnd)
    if rnd.clock_started_at is None:
        return
    rnd.clock_started_at = None
    session.add(rnd)
    assert event.id is not None
    _audit(session, event.id, actor, "round.clock_stopped", round=rnd.number)
    session.commit()


def clock_deadline(rnd: Round) -> datetime | None:
    if rnd.clock_started_at is None or rnd.duration_minutes is None:
        return None
    started = rnd.clock_started_at if rnd.clock_started_at.tzinfo else rnd.clock_started_at.replace(tzinfo=UTC)
    return started + timedelta(minutes=rnd.duration_minutes)


def current_round(session: Session, event_id: int) -> Round | None:
    """The round the room is playing: the latest published one, else the latest of any status."""
    rounds = event_rounds(session, event_id)
    published = [r for r in rounds if r.status == RoundStatus.PUBLISHED]
    return published[-1] if published else (rounds[-1] if rounds else None)


def species_needed(rnd: Round, seats: int) -> int:
    return species_count("draft" if rnd.format == RoundFormat.DRAFT else "standard", seats)


def set_species(session: Session, event: Event, rnd: Round, view: TableSeating, names: Sequence[str], actor: str) -> None:
    """The table names its species in play (RULES.md §1: the table's choice), before it is dealt
    or has a result: checked under the table's lock, which dealing takes too."""
    rnd, view = lock_table(session, rnd, view.table)
    if rnd.status == RoundStatus.FINISHED:
        raise InputError({"species": _("Round %(number)d is finished.", number=rnd.number)})
    if view.result is not None or view.table.log_version > 0 or view.table.game is not None:
        raise InputError({"species": _("This table's game was dealt, or it has a result: its species stay.")})
    needed = species_needed(rnd, len(view.seats))
    try:
        chosen = choose_species(Edition.parse(event.edition), needed, in_play=list(dict.fromkeys(names)))
    except ValueError:
        raise InputError({"species": _("Choose exactly %(needed)d species of the %(edition)s edition for %(players)d "
                                       "players (%(chosen)d chosen).", needed=needed, edition=event.edition,
                                       players=len(view.seats), chosen=len(set(names)))}) from None
    old = list(view.table.species)
    view.table.species = list(chosen)
    session.add(view.table)
    assert event.id is not None
    session.add(AuditEntry(event_id=event.id, table_id=view.table.id, actor=actor, action="table.species",
                           old={"species": old}, new={"species": list(chosen)}))
    session.commit()


def reopen_round(session: Session, event: Event, rnd: Round, actor: str) -> None:
    """Reopen the latest closed round so a result found wrong afterwards can be corrected."""
    assert event.id is not None
    guard.lock(session, Event, event.id)  # the event first: a proposal of the next round waits
    rnd = lock_round(session, rnd)
    if rnd.status != RoundStatus.FINISHED:
        raise InputError({"": _("Round %(number)d is %(status)s; only a closed round can be reopened.",
                                number=rnd.number, status=status_name(rnd.status))})
    later = [r for r in event_rounds(session, event.id) if r.number > rnd.number]
    if later:
        raise InputError({"": _("Round %(number)d already exists (%(status)s); discard its proposal first, "
                                "or correct results in the latest round only.",
                                number=later[0].number, status=status_name(later[0].status))})
    rnd.status = RoundStatus.PUBLISHED
    session.add(rnd)
    _audit(session, event.id, actor, "round.reopened", round=rnd.number)
    session.commit()


def seatings_of(session: Session, round_id: int) -> list[list[int | None]]:
    """The round's tables as player ids in seat order (None: a bot's seat), in table order: two
    columns a seat, for what looks at every table of a big round (repeats, a swap's balance)."""
    tables: dict[int, list[int | None]] = {}
    for table_id, player_id in session.exec(
            select(Seat.table_id, Seat.player_id).join(GameTable, col(GameTable.id) == Seat.table_id)
            .where(GameTable.round_id == round_id).order_by(col(GameTable.number), col(Seat.position))).all():
        tables.setdefault(table_id, []).append(player_id)
    return list(tables.values())


def played_rounds(session: Session, event: Event) -> list[int]:
    """The rounds with results to count (published or finished), in order."""
    assert event.id is not None
    return [r.number for r in event_rounds(session, event.id) if r.status in PLAYED_STATUSES]
