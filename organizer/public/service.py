"""The public event page: what anyone holding the event's code may see, and the cheap
"changed since?" stamp its phones poll.

What leaves here is plain typed data built from names, numbers and statuses only, so a template
cannot show an e-mail address, a seat or player token, a dispute's note or a card by accident:
it never receives them."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import select as sa_select
from sqlalchemy import text
from sqlmodel import Session, col, select

from organizer.core import guard
from organizer.core import text as text_service
from organizer.core.errors import InputError
from organizer.core.models import (
    PLAYED_STATUSES,
    SELF_REPORTS,
    Event,
    GameTable,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundStage,
    RoundStatus,
    Seat,
    SelfReport,
)
from organizer.core.translate import _
from organizer.finals import service as finals_service
from organizer.rounds import service as round_service

#: codes and tokens are url-safe base64 of 12 or 24 random bytes; anything longer is no code
MAX_CODE = 32
#: how often a phone asks whether the page changed (seconds)
REFRESH_SECONDS = 10
#: how often it asks while its stream (organizer/live/stream.py) is alive and says each change
PUSHED_REFRESH_SECONDS = 60


def event_by_code(session: Session, code: str) -> Event | None:
    """The event whose public page this is, or None (unknown code, or the page switched off)."""
    if not code or len(code) > MAX_CODE:
        return None
    event = session.exec(select(Event).where(col(Event.public_code) == code)).first()
    if event is None or not event.public_page:
        return None
    return event


# One statement, every figure the page shows depends on: a change anywhere (a result entered or
# confirmed, a round published or closed, the clock, a check-in, a name, a seat, a setting) changes
# the stamp. Rows that can change in place are folded in by a hash of what the page shows of them
# (``hashtext``: PostgreSQL's, and the same name on SQLite from ``core/db.py``) summed over the
# rows, so a rename to a name of the same length, or two changes that cancel in a count, still
# change it. Each row's hash starts with its id, so two rows trading their values change it too.
_ROUNDS = "FROM round r WHERE r.event_id = e.id"
_RESULTS = ("FROM result res JOIN gametable t ON t.id = res.table_id JOIN round r ON r.id = t.round_id"
            " WHERE r.event_id = e.id")
_PLAYERS = "FROM player p WHERE p.event_id = e.id"
_SEATS = ("FROM seat s JOIN gametable t ON t.id = s.table_id JOIN round r ON r.id = t.round_id"
          " WHERE r.event_id = e.id")


def _row_hash(*columns: str) -> str:
    """The sum over rows of a hash of ``columns`` (NULL written as '-')."""
    return "sum(hashtext(" + " || '|' || ".join(f"coalesce(cast({c} AS varchar), '-')" for c in columns) + "))"


_FIGURES = ", ".join(f"(SELECT {what} {where})" for what, where in (
    ("count(*)", _ROUNDS), (_row_hash("r.id", "r.number", "r.status", "r.format"), _ROUNDS),
    ("max(r.published_at)", _ROUNDS), ("max(r.clock_started_at)", _ROUNDS), ("sum(r.duration_minutes)", _ROUNDS),
    ("count(*)", _RESULTS), (_row_hash("res.id", "res.version", "res.status"), _RESULTS),
    ("max(res.updated_at)", _RESULTS),
    ("count(*)", "FROM confirmation c JOIN result res ON res.id = c.result_id JOIN gametable t ON t.id = res.table_id"
                 " JOIN round r ON r.id = t.round_id WHERE r.event_id = e.id"),
    ("count(*)", _PLAYERS), ("max(p.id)", _PLAYERS),
    (_row_hash("p.id", "p.name", "p.checked_in", "p.dropped", "p.dropped_after_round", "p.club"), _PLAYERS),
    ("count(*)", _SEATS), (_row_hash("s.id", "s.table_id", "s.player_id", "s.position", "s.is_bot"), _SEATS),
    (_row_hash("t.id", "t.number", "t.digital"), "FROM gametable t JOIN round r ON r.id = t.round_id WHERE r.event_id = e.id"),
    # announcements: a new one raises the greatest id, a withdrawal lowers the count on show
    ("count(*)", "FROM announcement a WHERE a.event_id = e.id AND a.withdrawn_at IS NULL"),
    ("max(a.id)", "FROM announcement a WHERE a.event_id = e.id"),
    # a judge called, taken or done: the player's page says so
    (_row_hash("j.id", "j.status"), "FROM judgecall j WHERE j.event_id = e.id"),
))
_STAMP = text(f"SELECT e.version, {_FIGURES} FROM event e WHERE e.id = :id")


#: the event's id and the same figures found by the page's code, for the poll answered before
#: Flask (:mod:`organizer.live.fastpoll`): no row while the code is unknown or the page switched off
STAMP_BY_CODE = text(_STAMP.text.replace("SELECT e.version", "SELECT e.id, e.version")
                     .replace("WHERE e.id = :id", "WHERE e.public_code = :code AND e.public_page"))
#: the event whose page ``/e/<code>`` is, and whose player holds the link ``/p/<token>``, for
#: their streams (organizer/live/stream.py)
EVENT_BY_CODE = text("SELECT id FROM event WHERE public_code = :code AND public_page")
EVENT_BY_PLAYER_TOKEN = text("SELECT event_id FROM player WHERE token = :token")
MIN_PLAYER_TOKEN, MAX_PLAYER_TOKEN = 16, 64
#: the same figures after the page's code and switch, for the streams that push the stamp to the
#: public and the players' pages (organizer/live/stream.py): no row once the event is gone
STREAM_STAMP = text(f"SELECT e.public_code, e.public_page, e.version, {_FIGURES} FROM event e WHERE e.id = :id")


def stamp(session: Session, event_id: int) -> str:
    """A short text that changes whenever anything the public or a player's page shows changes
    (one query, no rows loaded); '' when the event is gone."""
    row = session.execute(_STAMP, {"id": event_id}).first()
    return "" if row is None else stamp_of(tuple(row))


def stamp_of(row: tuple[Any, ...]) -> str:
    """The stamp of one row of the stamp's figures."""
    return hashlib.sha256("|".join(str(part) for part in row).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class PublicSeat:
    name: str
    player_id: int | None
    points: int | None
    #: the player dropped out of the event (their seat this round stays as it was)
    dropped: bool = False
    #: a bot's seat (its name is "bot")
    bot: bool = False
    #: the seat at the table, counted from 1 (an order of play, never a placing)
    number: int = 0
    #: the place at the table by points (1 = most), shared by equal points; None without figures
    place: int | None = None


@dataclass(frozen=True)
class PublicTable:
    number: int
    digital: bool
    seats: tuple[PublicSeat, ...]
    #: "waiting", "entered", "confirmed" or "disputed" (never the dispute's note)
    result: str


@dataclass(frozen=True)
class PlayerRound:
    round_number: int
    table: int
    points: int | None
    place: int | None
    #: the round's stage: a round of the finals is shown by its name
    stage: str = "swiss"


#: each player's name and their results round by round (None: not seated that round)
ResultRows = list[tuple[str, tuple[PlayerRound | None, ...]]]


@dataclass(frozen=True)
class StandingLine:
    rank: int
    name: str
    player_id: int
    tournament_points: float
    game_points: int


@dataclass(frozen=True)
class PublicView:
    event_name: str
    event_date: date
    code: str
    #: "not started", "round" (round ``round_number`` of ``rounds`` is on), "between rounds", "finished"
    state: str
    rounds: int
    round_number: int | None
    round_status: str | None
    tables: list[PublicTable]
    search: str
    deadline: datetime | None
    #: after the last closed round (None before any round closed)
    standings_after: int | None
    standings: list[StandingLine]
    #: the finals' places, final table first, each as (place, name, decided by); empty until the
    #: final table has a result
    finals: list[tuple[int, str, str]]
    #: rounds shown in the results grid, and each player's results round by round
    result_rounds: list[int]
    results: ResultRows
    stamp: str
    #: the shown round's stage: a round of the finals is named by it ("Semi-finals")
    round_stage: str = "swiss"
    #: the stage of each round of the results grid that belongs to the finals, by number
    result_stages: dict[int, str] = field(default_factory=dict)


def places_at_table(result: Result | None) -> dict[int, tuple[int, int]]:
    """player id -> (points, place at the table) of a result that counts (never a disputed one)."""
    return {} if result is None else _places(result.seats, result.status)


def _places(seats: list[dict[str, Any]] | None, status: str | None) -> dict[int, tuple[int, int]]:
    if not seats or status == ResultStatus.DISPUTED:
        return {}
    points = [int(s.get("points", 0)) for s in seats]
    return {int(s["player_id"]): (int(s.get("points", 0)), 1 + sum(p > int(s.get("points", 0)) for p in points))
            for s in seats if s.get("player_id") is not None}


def _seat_places(seats: list[dict[str, Any]] | None, status: str | None) -> list[tuple[int | None, int | None]]:
    """(points, place at the table) seat by seat, bots included; nothing for a disputed result."""
    if not seats or status == ResultStatus.DISPUTED:
        return []
    points = [int(s.get("points", 0)) for s in seats]
    return [(mine, 1 + sum(p > mine for p in points)) for mine in points]


def public_tables(session: Session, round_id: int, search: str = "") -> list[PublicTable]:
    """The round's tables as the page shows them (only those with a player whose name holds
    ``search``), read as columns: model objects for every table, seat and player of a big round
    would cost most of a change's page."""
    key = text_service.name_key(search) if search else ""
    rows = session.execute(  # sqlmodel's select types at most four columns
        sa_select(col(GameTable.id), col(GameTable.number), col(GameTable.digital), col(Seat.player_id),
                  col(Player.name), col(Player.name_key), col(Player.dropped), col(Result.seats), col(Result.status))
        .join(Seat, col(Seat.table_id) == GameTable.id)
        .outerjoin(Player, col(Player.id) == Seat.player_id)
        .outerjoin(Result, col(Result.table_id) == GameTable.id)
        .where(col(GameTable.round_id) == round_id)
        .order_by(col(GameTable.number), col(Seat.position))
    ).all()
    tables: dict[int, tuple[int, bool, list[tuple[int | None, int | None]], Any, list[PublicSeat], list[str]]] = {}
    for table_id, number, digital, player_id, name, name_key, dropped, seats, status in rows:
        if table_id not in tables:
            tables[table_id] = (number, bool(digital), _seat_places(seats, status), status, [], [])
        _number, _digital, places, _status, seated, keys = tables[table_id]
        index = len(seated)
        points, place = places[index] if index < len(places) else (None, None)
        seated.append(PublicSeat(name if player_id is not None else "bot", player_id, points,
                                 bool(player_id is not None and dropped), player_id is None, index + 1, place))
        if player_id is not None:
            keys.append(name_key or "")
    return [PublicTable(number, digital, tuple(seated), "waiting" if status is None else str(status))
            for number, digital, _places_, status, seated, keys in tables.values()
            if not key or any(key in name_key for name_key in keys)]


def _names(session: Session, event: Event) -> dict[int, str]:
    rows = session.exec(select(col(Player.id), col(Player.name)).where(Player.event_id == event.id)).all()
    return {pid: name for pid, name in rows if pid is not None}


def _standings(session: Session, event: Event, rounds: list[Round]) -> tuple[int | None, list[StandingLine]]:
    """The standings over the closed rounds only: what the room saw at the last round's end."""
    from organizer.scoring import event_standings, standings

    # the finals' rounds decide places of their own (the finals' section), not the standings
    closed = [r.number for r in rounds if r.status == RoundStatus.FINISHED and r.stage == RoundStage.SWISS]
    if not closed:
        return None, []
    names = _names(session, event)
    # the same reading of the stored results as the organizer's standings, kept to closed rounds
    results, _seats, _rounds = event_standings._table_results(session, event)  # noqa: SLF001
    results = [r for r in results if r.round_number in closed]
    order = tuple(event.tiebreak_order) or tuple(standings.DEFAULT_TIEBREAKS)
    rows = standings.compute_standings(sorted(names), results, order, event.point_scheme)
    lines = [StandingLine(row.rank, names[row.player_id], row.player_id, float(row.tournament_points),
                          row.game_points) for row in rows if row.player_id in names and row.games]
    return max(closed), lines


def _results_grid(session: Session, event: Event, rounds: list[Round]) -> tuple[list[int], ResultRows]:
    """Every player's results round by round, read as columns (a model object per seat of a big
    event would cost most of the page's time)."""
    played = [r.number for r in rounds if r.status in PLAYED_STATUSES]
    column = {number: index for index, number in enumerate(played)}
    names = _names(session, event)
    played_tables = (sa_select(col(GameTable.id)).join(Round, col(Round.id) == GameTable.round_id)
                     .where(col(Round.event_id) == event.id, col(Round.status).in_(PLAYED_STATUSES)))
    # each result's seats decoded once per table, not once per seat
    places = {table_id: _places(seats, status) for table_id, seats, status in session.execute(
        sa_select(col(Result.table_id), col(Result.seats), col(Result.status))
        .where(col(Result.table_id).in_(played_tables)))}
    rows = session.execute(
        sa_select(col(Round.number), col(GameTable.id), col(GameTable.number), col(Seat.player_id))
        .join(GameTable, col(GameTable.round_id) == Round.id)
        .join(Seat, col(Seat.table_id) == GameTable.id)
        .where(col(Round.event_id) == event.id, col(Round.status).in_(PLAYED_STATUSES), col(Seat.player_id).is_not(None))
    ).all()
    grid: dict[int, list[PlayerRound | None]] = {}
    for round_number, table_id, table_number, player_id in rows:
        if player_id is None or player_id not in names:
            continue
        points, place = places.get(table_id, {}).get(player_id, (None, None))
        grid.setdefault(player_id, [None] * len(played))[column[round_number]] = PlayerRound(
            round_number, table_number, points, place)
    ordered = sorted(((names[pid], tuple(row)) for pid, row in grid.items()), key=lambda item: item[0].casefold())
    return played, ordered


def public_view(session: Session, event: Event, search: str = "", seen_stamp: str | None = None) -> PublicView:
    """The page as it is now. Its stamp (``seen_stamp``, or read here) is read before anything it
    shows, so the page is never older than its stamp: a change made while it is built changes the
    stamp, and the phone's next poll fetches the page again."""
    assert event.id is not None
    current = stamp(session, event.id) if seen_stamp is None else seen_stamp
    rounds = round_service.event_rounds(session, event.id)
    rnd = round_service.current_round(session, event.id)
    shown = rnd if rnd is not None and rnd.status in PLAYED_STATUSES else None
    tables = public_tables(session, shown.id, search) if shown and shown.id else []
    finals = finals_service.finals_view(session, event)
    # with a cut made, the event goes on until the final table is closed
    finals_to_play = finals is not None and not any(
        r.stage == RoundStage.FINAL and r.status == RoundStatus.FINISHED for r in rounds)
    if not [r for r in rounds if r.status in PLAYED_STATUSES]:
        state = "not started"
    elif (all(r.status == RoundStatus.FINISHED for r in rounds) and len(rounds) >= event.rounds
          and not finals_to_play):
        state = "finished"
    else:
        state = "round" if shown else "between rounds"
    after, lines = _standings(session, event, rounds)
    result_rounds, results = _results_grid(session, event, rounds)
    places = [(line.place, line.player.name, line.decided_by) for line in finals.places] if finals else []
    return PublicView(event.name, event.date, event.public_code, state, event.rounds,
                      shown.number if shown else None, str(shown.status) if shown else None, tables,
                      text_service.clean_name(search)[:80],
                      round_service.clock_deadline(shown) if shown and shown.status == RoundStatus.PUBLISHED else None,
                      after, lines, places, result_rounds, results, current,
                      str(shown.stage) if shown else "swiss",
                      {r.number: str(r.stage) for r in rounds if r.stage != RoundStage.SWISS})


# The organizer's settings of the players' side (a small form of its own on the event overview,
# version-checked like the event form: both bump and check the event's version).

@dataclass(frozen=True)
class PublicSettings:
    public_page: bool
    self_check_in: bool
    self_report: str
    attention_minutes: int


def parse_settings(form: dict[str, Any]) -> PublicSettings:
    errors: dict[str, str] = {}
    report = str(form.get("self_report", SelfReport.OFF))
    if report not in SELF_REPORTS:
        errors["self_report"] = _("Choose who reports paper results.")
    minutes = text_service.whole_number(str(form.get("attention_minutes", "")).strip())
    if minutes is None or not 1 <= minutes <= 600:
        errors["attention_minutes"] = _("Enter 1 to 600 minutes.")
    if errors:
        raise InputError(errors)
    assert minutes is not None
    return PublicSettings(form.get("public_page") in ("on", "1", "true", True),
                          form.get("self_check_in") in ("on", "1", "true", True), report, minutes)


def update_settings(session: Session, event: Event, settings: PublicSettings, actor: str, seen_version: int) -> Event:
    """Save the players' side settings of the form opened at ``seen_version`` (StaleChange when
    the event was saved since; nothing is saved then)."""
    from organizer.core.models import AuditEntry, utcnow

    assert event.id is not None
    locked = guard.lock(session, Event, event.id)
    if locked is None:
        raise InputError({"": _("This event no longer exists.")})
    guard.check_version(locked.version, seen_version, _("The event"),
                        _("The form now shows its settings as they are; make your change again."))
    old = {"public_page": locked.public_page, "self_check_in": locked.self_check_in,
           "self_report": locked.self_report, "attention_minutes": locked.attention_minutes}
    new = {"public_page": settings.public_page, "self_check_in": settings.self_check_in,
           "self_report": settings.self_report, "attention_minutes": settings.attention_minutes}
    if new != old:
        for key, value in new.items():
            setattr(locked, key, value)
        locked.version = seen_version + 1
        locked.updated_at = utcnow()
        session.add(locked)
        session.add(AuditEntry(event_id=event.id, actor=actor, action="event.players_side",
                               old={k: v for k, v in old.items() if new[k] != v},
                               new={k: v for k, v in new.items() if old[k] != v}))
    session.commit()
    session.refresh(locked)
    return locked

