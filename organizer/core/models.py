"""Every database table of the organizer (the only module that defines tables).

Conventions:
- times are aware UTC datetimes (SQLModel stores them as UTC on SQLite and PostgreSQL alike);
- JSON columns are always replaced by a new value, never mutated in place, because SQLAlchemy
  does not notice in-place changes of a JSON value;
- any schema change here needs an Alembic revision in ``organizer/migrations/versions``.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from datetime import date as Date
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, Column, ForeignKey, Index, Integer, UniqueConstraint, event
from sqlmodel import Field, SQLModel

# The vocabulary of the stored strings. StrEnum members are the strings themselves, so the
# database keeps the same values and a comparison with a literal still holds.


class RoundStatus(StrEnum):
    PROPOSED = "proposed"
    PUBLISHED = "published"
    FINISHED = "finished"


class RoundStage(StrEnum):
    """The Swiss rounds, then the finals' rounds after them (docs/finals.md)."""

    SWISS = "swiss"
    SEMI_FINAL = "semi_final"
    FINAL = "final"


class ResultStatus(StrEnum):
    ENTERED = "entered"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"


class RoundFormat(StrEnum):
    STANDARD = "standard"
    DRAFT = "draft"


class EntryMode(StrEnum):
    """How a table's result was entered. An event allows some of the first three; ``DIGITAL``
    is recorded by a table played on the players' devices, never chosen in the event form."""

    TOTALS = "totals"
    SCOREPAD = "scorepad"
    ASSISTANT = "assistant"
    DIGITAL = "digital"


#: the entry modes an event may allow, in the order the forms show them
ENTRY_MODES: tuple[EntryMode, ...] = (EntryMode.TOTALS, EntryMode.SCOREPAD, EntryMode.ASSISTANT)
ROUND_FORMATS: tuple[RoundFormat, ...] = tuple(RoundFormat)
TABLE_SIZES: tuple[int, ...] = (4, 3, 2)
EDITIONS: tuple[str, ...] = ("2018", "2010")
ROUND_STATUSES: tuple[RoundStatus, ...] = tuple(RoundStatus)
RESULT_STATUSES: tuple[ResultStatus, ...] = tuple(ResultStatus)
#: rounds whose results count (a proposal is not played yet)
PLAYED_STATUSES: tuple[RoundStatus, ...] = (RoundStatus.PUBLISHED, RoundStatus.FINISHED)


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_token() -> str:
    """An unguessable seat token (private seat links)."""
    return secrets.token_urlsafe(24)


class SelfReport(StrEnum):
    """Who may report a paper table's result from their own phone."""

    OFF = "off"
    PLAYERS = "players"  # a player of the table reports, the others confirm
    JUDGE = "judge"  # a player of the table reports, a judge or organizer confirms


SELF_REPORTS: tuple[SelfReport, ...] = tuple(SelfReport)


def new_code() -> str:
    """An event's public page code: unguessable, and short enough for a QR code."""
    return secrets.token_urlsafe(12)


def _cascade_fk(target: str, nullable: bool = False) -> Any:
    """A foreign key whose rows go when the parent goes (used only below an event)."""
    return Field(
        default=None if nullable else ...,
        sa_column=Column(Integer, ForeignKey(target, ondelete="CASCADE"), nullable=nullable, index=True),
    )


class Role(StrEnum):
    """What a staff account may do; ``organizer/core/permissions.py`` maps every route to
    the roles it needs."""

    OWNER = "owner"  # manages accounts, and runs events like an organizer
    ORGANIZER = "organizer"  # creates, runs, exports, imports events; assigns judges
    JUDGE = "judge"  # at the events they are assigned to: check-in, results, the round clock


ROLES: tuple[Role, ...] = tuple(Role)


class Organizer(SQLModel, table=True):
    """A staff account (the table keeps its first name: every account used to be an organizer)."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=80, unique=True, index=True)
    #: ``text.name_key`` of the name (full Unicode case folding, width, spacing): what sign-in
    #: matches and what makes two names one account; set from the name on every save
    name_key: str = Field(default="", max_length=320, unique=True, index=True)
    #: argon2 (older werkzeug hashes are still verified and replaced at the next sign-in);
    #: empty until an invited account sets its password through its link
    password_hash: str = Field(max_length=256)
    role: str = Field(default=Role.ORGANIZER, max_length=16)
    #: a disabled account cannot sign in; the row stays so the audit log keeps its name
    disabled_at: datetime | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow)


def _organizer_name_key(_mapper: Any, _connection: Any, target: Organizer) -> None:
    from organizer.core.text import name_key

    target.name_key = name_key(target.name)


event.listen(Organizer, "before_insert", _organizer_name_key)
event.listen(Organizer, "before_update", _organizer_name_key)


class AccountSession(SQLModel, table=True):
    """A signed-in browser: the cookie carries only a random token whose SHA-256 is
    ``token_hash``, so ending the row ends the session everywhere that cookie was copied to."""

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True)
    organizer_id: int = Field(foreign_key="organizer.id", index=True)
    #: the browser, from its User-Agent, so a person can tell their sessions apart
    device: str = Field(default="", max_length=120)
    created_at: datetime = Field(default_factory=utcnow)
    last_seen_at: datetime = Field(default_factory=utcnow)
    #: idle limit (set from the role when the session starts) and absolute end
    idle_minutes: int = Field(default=60)
    expires_at: datetime = Field(default_factory=utcnow)
    ended_at: datetime | None = Field(default=None, index=True)


class AccountLink(SQLModel, table=True):
    """A one-time link that sets an account's password: an invitation or a reset (valid a day)."""

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True)
    organizer_id: int = Field(foreign_key="organizer.id", index=True)
    purpose: str = Field(max_length=16)  # "invite" or "reset"
    created_by: str = Field(default="", max_length=120)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime = Field(default_factory=utcnow)
    used_at: datetime | None = Field(default=None)


class SignInAttempt(SQLModel, table=True):
    """Failed sign-ins, counted per (account name, client address) for browsers the name never
    signed in from, and per device cookie for one it did (kept in the database so every server
    process sees the same count)."""

    id: int | None = Field(default=None, primary_key=True)
    client: str = Field(max_length=64, index=True)
    name: str = Field(max_length=80, index=True)
    #: the known device's nonce the attempt came with ("" for an unknown browser)
    device: str = Field(default="", max_length=64, index=True)
    at: datetime = Field(default_factory=utcnow, index=True)


class Event(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120)
    date: Date
    edition: str = Field(default="2018", max_length=4)
    #: one entry per round, "standard" or "draft"; its length is the number of rounds
    round_formats: list[str] = Field(default_factory=lambda: [RoundFormat.STANDARD.value] * 3, sa_type=JSON)
    preferred_table_size: int = Field(default=4)
    point_scheme: str = Field(default="beaten", max_length=32)
    tiebreak_order: list[str] = Field(default_factory=list, sa_type=JSON)
    entry_modes: list[str] = Field(default_factory=lambda: [EntryMode.TOTALS.value, EntryMode.SCOREPAD.value],
                                   sa_type=JSON)
    #: optional pick timer of live drafts
    pick_timer_seconds: int | None = Field(default=None)
    #: judges assigned to the event may also swap players in a proposed round
    judges_may_seat: bool = Field(default=False)
    created_by_id: int | None = Field(default=None, foreign_key="organizer.id")
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    #: bumped by every save of the settings; the form sends the version it was opened at, and a
    #: form opened before another save is refused as stale
    version: int = Field(default=1)
    #: the players' side: the public page /e/<public_code>, which players may check
    #: themselves in, who reports paper results (SelfReport), and after how many minutes of the
    #: round clock a table without a result needs the organizer's attention
    public_code: str = Field(default_factory=new_code, max_length=32,
                             sa_column_kwargs={"unique": True, "default": new_code})
    public_page: bool = Field(default=True)
    self_check_in: bool = Field(default=False)
    self_report: str = Field(default=SelfReport.OFF, max_length=16)
    attention_minutes: int = Field(default=45)
    #: the language of the event's printed matter and projector (a person's own screens follow
    #: their own choice), and the time zone its times are shown in
    language: str = Field(default="en", max_length=8)
    time_zone: str = Field(default="UTC", max_length=64)
    #: seat round 1 by the club's ratings, spreading the strongest players across the tables,
    #: instead of a shuffle
    first_round_by_rating: bool = Field(default=False)
    #: an archived event leaves the main list (the archive lists it; it can come back)
    archived_at: datetime | None = Field(default=None)
    #: set on an event made by importing an export: the list marks it as an imported copy
    imported_at: datetime | None = Field(default=None)
    #: the club's ratings count this event's games a bot played part of a person's seat in (as
    #: that person's) and those a person played against bots only (the bots as opponents); by
    #: default both are left out
    rate_bot_games: bool = Field(default=False)

    @property
    def rounds(self) -> int:
        return len(self.round_formats)


class Player(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("event_id", "name_key", name="uq_player_event_name"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _cascade_fk("event.id")
    name: str = Field(max_length=80)
    #: case- and space-folded name: "Ann  Lee" and "ann lee" are the same player
    name_key: str = Field(max_length=80)
    club: str = Field(default="", max_length=80)
    email: str = Field(default="", max_length=254)
    checked_in: bool = Field(default=False)
    dropped: bool = Field(default=False)
    #: the last round the player played before dropping (None while still playing)
    dropped_after_round: int | None = Field(default=None)
    #: accessibility: always seated at this table number
    fixed_table: int | None = Field(default=None)
    #: first round the player can be seated in (late entry)
    joined_round: int = Field(default=1)
    #: the same person in the club's registry; None until matched or reviewed
    club_player_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("clubplayer.id", ondelete="SET NULL"), nullable=True,
                                       index=True))
    created_at: datetime = Field(default_factory=utcnow)
    #: the player's own page /p/<token>; a Core insert gets one from the column default
    token: str = Field(default_factory=new_token, max_length=64, sa_column_kwargs={"unique": True, "default": new_token})
    #: when the player checked themselves in from their page, for the organizer to review
    self_checked_in_at: datetime | None = Field(default=None)


class Round(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("event_id", "number", name="uq_round_event_number"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _cascade_fk("event.id")
    number: int
    format: str = Field(default=RoundFormat.STANDARD, max_length=16)
    #: "swiss", or a round of the finals after them ("semi_final", "final"): only Swiss rounds
    #: count for the standings
    stage: str = Field(default=RoundStage.SWISS, max_length=16, sa_column_kwargs={"server_default": "swiss"})
    status: str = Field(default=RoundStatus.PROPOSED, max_length=16)
    seed: int = Field(default=0)
    #: round clock for the projector view
    duration_minutes: int | None = Field(default=None)
    clock_started_at: datetime | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow)
    published_at: datetime | None = Field(default=None)


class Finals(SQLModel, table=True):
    """An event's finals after the Swiss rounds (docs/finals.md): the cut as it was made, and who
    declined."""

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(sa_column=Column(Integer, ForeignKey("event.id", ondelete="CASCADE"), nullable=False,
                                           unique=True))
    #: 4, 8, 12 or 16 (organizer.scoring.finals.CUT_SIZES)
    cut_size: int = Field(default=4)
    #: the top seed at each final table chooses their seat (else they get the first)
    top_seed_chooses: bool = Field(default=False)
    #: the seeds as cut: [{"seed", "player_id", "rank", "reason", "replaces"}]
    seeds: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSON)
    declined: list[int] = Field(default_factory=list, sa_type=JSON)
    #: bumped by every change; a form opened at another version is refused as stale
    version: int = Field(default=1)
    created_at: datetime = Field(default_factory=utcnow)


class GameTable(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("round_id", "number", name="uq_table_round_number"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = _cascade_fk("round.id")
    number: int
    #: species in play, in scorepad order
    species: list[str] = Field(default_factory=list, sa_type=JSON)
    #: played on the players' devices
    digital: bool = Field(default=False)
    #: engine game parameters (mode, seed, seats...) for a digital table
    game: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    #: the engine's action log; the table's state is replayed from it
    action_log: list[Any] = Field(default_factory=list, sa_type=JSON)
    #: bumped on every change of the live game, for "changed since N?" polling
    log_version: int = Field(default=0)


class Seat(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("table_id", "position", name="uq_seat_table_position"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = _cascade_fk("gametable.id")
    #: None for a bot in an empty seat
    player_id: int | None = Field(default=None, foreign_key="player.id", index=True)
    #: 0 is the start player; the last position is the dealer
    position: int
    token: str = Field(default_factory=new_token, max_length=64, unique=True)
    is_bot: bool = Field(default=False)
    #: the level a bot seat plays at: "easy", "normal" or "strong" (engine.bots.LEVELS)
    bot_level: str = Field(default="normal", max_length=16)


class Result(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(
        sa_column=Column(Integer, ForeignKey("gametable.id", ondelete="CASCADE"), nullable=False, unique=True)
    )
    entry_mode: str = Field(default=EntryMode.TOTALS, max_length=16)
    #: per seat, in seat order: {"player_id", "points", "species_count", "scorepad": {species: points}}
    seats: list[dict[str, Any]] = Field(default_factory=list, sa_type=JSON)
    #: the score case (assistant mode, digital tables) and the engine's output for it
    score_case: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    score_output: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    status: str = Field(default=ResultStatus.ENTERED, max_length=16)
    dispute_note: str = Field(default="", max_length=500)
    #: optimistic concurrency: a submit names the version it edits; a stale one is refused
    version: int = Field(default=1)
    entered_by: str = Field(default="", max_length=120)
    entered_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class Confirmation(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("result_id", "result_version", "seat_id", name="uq_confirmation_seat"),
    )

    id: int | None = Field(default=None, primary_key=True)
    result_id: int = _cascade_fk("result.id")
    #: a confirmation holds for the version the player saw; a correction needs new ones
    result_version: int
    #: the seat that confirmed, or None when an organizer confirmed for the table
    seat_id: int | None = Field(default=None, foreign_key="seat.id", index=True)
    organizer_id: int | None = Field(default=None, foreign_key="organizer.id")
    at: datetime = Field(default_factory=utcnow)


class AuditEntry(SQLModel, table=True):
    #: an event's log is read newest first by id, a page at a time (migration 0009)
    __table_args__ = (Index("ix_auditentry_event_id_id", "event_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _cascade_fk("event.id")
    #: plain numbers, not foreign keys: the log must outlive what it describes
    table_id: int | None = Field(default=None, index=True)
    result_id: int | None = Field(default=None)
    actor: str = Field(max_length=120)
    #: the actor's role when it acted ("" for a player at their seat or an older entry)
    role: str = Field(default="", max_length=16)
    action: str = Field(max_length=64)
    at: datetime = Field(default_factory=utcnow, index=True)
    old: dict[str, Any] | None = Field(default=None, sa_type=JSON)
    new: dict[str, Any] | None = Field(default=None, sa_type=JSON)


class EventDeletion(SQLModel, table=True):
    """The record that an event was deleted: the event's own audit log goes with it, so this
    row, outside every event, keeps who deleted what and when."""

    id: int | None = Field(default=None, primary_key=True)
    #: a plain number, not a foreign key: the event is gone
    event_id: int
    name: str = Field(max_length=120)
    date: Date
    imported: bool = Field(default=False)
    players: int = Field(default=0)
    rounds: int = Field(default=0)
    actor: str = Field(max_length=120)
    role: str = Field(default="", max_length=16)
    at: datetime = Field(default_factory=utcnow, index=True)


class JudgeCall(SQLModel, table=True):
    """A player's call for a judge at their table: open, then taken by a judge, then resolved.
    At most one call per round's table is open or taken at a time (checked under the round's
    lock); a closed one stays for the log and for the wait before the table may call again."""

    __table_args__ = (Index("ix_judgecall_round_id_status", "round_id", "status"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _cascade_fk("event.id")
    round_id: int = _cascade_fk("round.id")
    table_number: int
    #: plain numbers and names: the call outlives a player's removal
    player_id: int | None = Field(default=None)
    player_name: str = Field(default="", max_length=80)
    note: str = Field(default="", max_length=200)
    #: "open", "taken" or "resolved"
    status: str = Field(default="open", max_length=16)
    called_at: datetime = Field(default_factory=utcnow)
    taken_by: str = Field(default="", max_length=120)
    taken_at: datetime | None = Field(default=None)
    resolved_by: str = Field(default="", max_length=120)
    resolved_at: datetime | None = Field(default=None)


class Announcement(SQLModel, table=True):
    """An organizer's short message shown on the players' pages, the public page and the
    projector until it is withdrawn; written in ``language``, optionally also in ``second_language``."""

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _cascade_fk("event.id")
    text: str = Field(max_length=280)
    language: str = Field(max_length=8)
    second_text: str = Field(default="", max_length=280)
    second_language: str = Field(default="", max_length=8)
    created_by: str = Field(default="", max_length=120)
    created_at: datetime = Field(default_factory=utcnow)
    withdrawn_at: datetime | None = Field(default=None)


class EventJudge(SQLModel, table=True):
    """A judge account assigned to an event by one of its organizers."""

    __table_args__ = (UniqueConstraint("event_id", "organizer_id", name="uq_eventjudge_event_organizer"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _cascade_fk("event.id")
    organizer_id: int = Field(foreign_key="organizer.id", index=True)
    assigned_by: str = Field(default="", max_length=120)
    assigned_at: datetime = Field(default_factory=utcnow)


class PracticeGame(SQLModel, table=True):
    """A solo or practice game played in the browser without an event or sign-in:
    the engine's parameters, which seats bots play, and the action log, like a live table's."""

    id: int | None = Field(default=None, primary_key=True)
    #: the game's private link; whoever holds it plays the human seat
    token: str = Field(default_factory=new_token, max_length=64, unique=True)
    #: engine game parameters (``Game.to_json()``)
    game: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    #: per seat: "human", or the bot kind ("heuristic", "random") that plays it
    seat_kinds: list[str] = Field(default_factory=list, sa_type=JSON)
    action_log: list[Any] = Field(default_factory=list, sa_type=JSON)
    log_version: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow, index=True)
    #: when the game ended (kept 30 days after; an unfinished game goes after 24 idle hours)
    finished_at: datetime | None = Field(default=None)


class RateWindow(SQLModel, table=True):
    """A fixed-window counter shared by every server process: how many times ``key``
    was used since ``started_at`` (practice games created per client address; the practice
    store's pruning, at most once an hour). A conditional UPDATE claims one use, so two
    processes cannot both take the last one."""

    key: str = Field(max_length=120, primary_key=True)
    started_at: datetime = Field(default_factory=utcnow, index=True)
    used: int = Field(default=0)


class InstallationSecret(SQLModel, table=True):
    """A secret every server of the installation shares, kept in its database: the key that signs
    session cookies and known-device marks. Each server behind a load balancer has its own
    instance folder, but all of them have the database, so a cookie signed by one is good on
    every other, and a backup carries it (a restore signs nobody out)."""

    name: str = Field(max_length=40, primary_key=True)
    value: str = Field(max_length=200)


class ClubPlayer(SQLModel, table=True):
    """A person in the club's registry: the events' players who are that person link
    here, so leagues and ratings follow them from event to event."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=80)
    #: ``text.name_key`` of the name, for matching
    name_key: str = Field(max_length=80, index=True)
    #: casefolded; "" when unknown
    email: str = Field(default="", max_length=254, index=True)
    #: a duplicate merged into another entry keeps its row (the history), pointing at the survivor
    merged_into_id: int | None = Field(default=None, foreign_key="clubplayer.id")
    merged_at: datetime | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow)
    #: the player agreed to a public profile (set by the organizer or from their own page): only
    #: then does its public page /profile/<public_code> answer: events, results, rating, never e-mail
    public_profile: bool = Field(default=False)
    #: the public profile's address: unguessable, never the numeric id; a Core insert gets one from
    #: the column default
    public_code: str = Field(default_factory=new_code, max_length=32,
                             sa_column_kwargs={"unique": True, "default": new_code})


class RegistryReview(SQLModel, table=True):
    """An event's player whose match in the registry is doubtful: the organizer picks one of the
    candidates or a new entry on the review screen."""

    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("player.id", ondelete="CASCADE"), nullable=False,
                                            unique=True))
    #: registry ids that might be this player
    candidates: list[int] = Field(default_factory=list, sa_type=JSON)
    reason: str = Field(default="", max_length=200)
    created_at: datetime = Field(default_factory=utcnow)


class RatingPoint(SQLModel, table=True):
    """A club player's rating after one event (openskill's Plackett-Luce), derived from the
    confirmed results: every recomputation replaces them all."""

    id: int | None = Field(default=None, primary_key=True)
    club_player_id: int = Field(sa_column=Column(Integer, ForeignKey("clubplayer.id", ondelete="CASCADE"),
                                                 nullable=False, index=True))
    event_id: int = _cascade_fk("event.id")
    #: the rating's place in time order (events by date, then id)
    sequence: int
    mu: float
    sigma: float
    tables: int = Field(default=0)


class Season(SQLModel, table=True):
    """A club's season: named dates, the events it groups and the rule its league ranks by."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120)
    starts_on: Date
    ends_on: Date
    #: "sum", "best" (best ``best_of`` events) or "average" (per event, at least ``min_events``)
    rule: str = Field(default="sum", max_length=16)
    best_of: int = Field(default=0)
    min_events: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow)


class SeasonEvent(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("season_id", "event_id", name="uq_seasonevent_season_event"),)

    id: int | None = Field(default=None, primary_key=True)
    season_id: int = _cascade_fk("season.id")
    event_id: int = _cascade_fk("event.id")


class LeagueTally(SQLModel, table=True):
    """One event player's league figures at one event: tournament points in whole
    units of 1/12 (the point scheme's own integers), game points and species over the event's
    counted tables. Derived: stored when a round closes, ratings are recomputed, a season is
    saved or a confirmed or disputed result changes while the stored figures held, with
    ``stamp``, the event's results fingerprint then; a league trusts the rows only while the
    stamp still holds, and scores any other event from its results."""

    __table_args__ = (UniqueConstraint("event_id", "player_id", name="uq_leaguetally_event_player"),)

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _cascade_fk("event.id")
    player_id: int = Field(sa_column=Column(Integer, ForeignKey("player.id", ondelete="CASCADE"), nullable=False))
    units: int
    game_points: int
    species: int
    stamp: str = Field(max_length=200)


class SignupStatus(StrEnum):
    """Where a sign-up stands; only CONFIRMED counts towards the event's cap."""

    UNCONFIRMED = "unconfirmed"  # the e-mail link not followed yet; expires
    APPROVAL = "approval"  # e-mail confirmed, the organizer has not approved yet
    WAITING = "waiting"
    CONFIRMED = "confirmed"  # a player of the event (``player_id``)
    WITHDRAWN = "withdrawn"
    REFUSED = "refused"  # the organizer turned it down


class SignupSettings(SQLModel, table=True):
    """An event's sign-up on its public page: open or not, the cap on players, the closing
    time, the organizer's approval and the question asked."""

    event_id: int = Field(sa_column=Column(Integer, ForeignKey("event.id", ondelete="CASCADE"), primary_key=True))
    open: bool = Field(default=False)
    #: players at most (the organizer's own entries included); None: no cap
    cap: int | None = Field(default=None)
    closes_at: datetime | None = Field(default=None)
    approval: bool = Field(default=False)
    question: str = Field(default="", max_length=200)
    version: int = Field(default=1)


class Signup(SQLModel, table=True):
    """One person's sign-up for an event, with their own page ``/p/<token>`` from the start;
    once confirmed the event's Player carries the same token."""

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = _cascade_fk("event.id")
    token: str = Field(default_factory=new_token, max_length=64, sa_column_kwargs={"unique": True})
    #: the secret of the e-mail's confirmation link
    email_code: str = Field(default_factory=new_token, max_length=64)
    name: str = Field(max_length=80)
    name_key: str = Field(max_length=80)
    club: str = Field(default="", max_length=80)
    email: str = Field(max_length=254)
    email_key: str = Field(max_length=254, index=True)
    note: str = Field(default="", max_length=500)
    status: str = Field(default=SignupStatus.UNCONFIRMED, max_length=16)
    #: the waiting list's order: numbered as sign-ups join it (under the event's lock)
    queued: int | None = Field(default=None)
    #: the Player made when it was confirmed (a plain number: the player may be removed later)
    player_id: int | None = Field(default=None)
    created_at: datetime = Field(default_factory=utcnow)
    confirmed_at: datetime | None = Field(default=None)
    #: the player was promoted from the waiting list and has not seen their page since
    promoted: bool = Field(default=False)
    #: the organizer's last move of this sign-up ("approve", "confirm", "wait", "refuse"), told
    #: on the person's page; None once anything else placed it (a promotion, a withdrawal)
    moved: str | None = Field(default=None, max_length=16)
