"""Creating and editing events, with the defaults the issue names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from sqlmodel import Session, col, func, select

from organizer.core import guard, signals, text
from organizer.core.errors import InputError
from organizer.core.models import (
    EDITIONS,
    ENTRY_MODES,
    ROUND_FORMATS,
    TABLE_SIZES,
    AuditEntry,
    Event,
    EventDeletion,
    EventJudge,
    Finals,
    GameTable,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundStage,
    RoundStatus,
    utcnow,
)
from organizer.core.translate import N_, _, ngettext
from organizer.scoring import standings

MAX_ROUNDS = 20
MAX_NAME = 120

#: key → what the app shows; the default scheme ("beaten") is the issue's
POINT_SCHEMES: dict[str, str] = {key: scheme.description for key, scheme in standings.SCHEMES.items()}
DEFAULT_POINT_SCHEME = standings.DEFAULT_SCHEME

#: key → what the app shows (English, marked: translate where shown with ``_()``)
TIEBREAKS: dict[str, str] = {
    "game_points": N_("Total game points"),
    "opponents_average": N_("Opponents' average tournament points"),
    "species_count": N_("Species count"),
    "head_to_head": N_("Results between the tied players"),
}
DEFAULT_TIEBREAKS: tuple[str, ...] = tuple(standings.DEFAULT_TIEBREAKS)
DEFAULT_ENTRY_MODES: tuple[str, ...] = ("totals", "scorepad")


@dataclass
class EventInput:
    name: str
    date: date
    edition: str = "2018"
    round_formats: list[str] = field(default_factory=lambda: ["standard"] * 3)
    preferred_table_size: int = 4
    point_scheme: str = DEFAULT_POINT_SCHEME
    tiebreak_order: list[str] = field(default_factory=lambda: list(DEFAULT_TIEBREAKS))
    entry_modes: list[str] = field(default_factory=lambda: list(DEFAULT_ENTRY_MODES))
    pick_timer_seconds: int | None = None
    #: the language of the event's printed matter and projector (organizer.core.i18n.LANGUAGES)
    language: str = "en"
    #: an IANA time zone name; the event's pages and its round clock show times in it
    time_zone: str = "UTC"
    #: seat round 1 by the club's ratings, the strongest spread across the tables
    first_round_by_rating: bool = False
    #: the club's ratings count games bots played part of, or a person played against bots only
    rate_bot_games: bool = False


def _languages() -> tuple[str, ...]:
    from organizer.core.translate import LANGUAGES  # framework-free, shared with the web layer (organizer.core.i18n)

    return tuple(LANGUAGES)


def _resolve_time_zone(typed: str) -> tuple[str | None, list[str]]:
    from organizer.core.translate import resolve_time_zone

    return resolve_time_zone(typed)


def form_defaults(event: Event | None = None) -> dict[str, Any]:
    """What the event form shows before anything is typed (strings, as a browser sends them)."""
    if event is None:
        data = EventInput(name="", date=date.today())
    else:
        data = EventInput(event.name, event.date, event.edition, list(event.round_formats),
                          event.preferred_table_size, event.point_scheme, list(event.tiebreak_order),
                          list(event.entry_modes), event.pick_timer_seconds, event.language, event.time_zone,
                          event.first_round_by_rating, event.rate_bot_games)
    form: dict[str, Any] = {
        "name": data.name,
        "date": data.date.isoformat(),
        "edition": data.edition,
        "rounds": str(len(data.round_formats)),
        "preferred_table_size": str(data.preferred_table_size),
        "point_scheme": data.point_scheme,
        "entry_modes": list(data.entry_modes),
        "pick_timer_seconds": "" if data.pick_timer_seconds is None else str(data.pick_timer_seconds),
        "language": data.language,
        # a new event: empty, so the page offers the browser's own zone (UTC if it has none)
        "time_zone": data.time_zone if event is not None else "",
        # a checkbox: sent as "1" when ticked, absent otherwise
        "first_round_by_rating": "1" if data.first_round_by_rating else "",
        "rate_bot_games": "1" if data.rate_bot_games else "",
    }
    if event is not None:
        form["version"] = str(event.version)
    for number, fmt in enumerate(data.round_formats, start=1):
        form[f"format_{number}"] = fmt
    for place, key in enumerate(data.tiebreak_order, start=1):
        form[f"tiebreak_{place}"] = key
    return form


def round_count_from(form: Mapping[str, Any]) -> int:
    """The round count typed so far, clamped to what the form can show (for re-rendering)."""
    try:
        return max(1, min(MAX_ROUNDS, int(str(form.get("rounds", "")).strip())))
    except ValueError:
        return 3


def check_event(data: EventInput) -> EventInput:
    """The one check of an event's settings, on typed values (the event form and the JSON import
    both come here): the settings cleaned up (spaces in the name folded, entry modes in the
    usual order), or InputError with a message per form field."""
    errors: dict[str, str] = {}
    name = text.clean_name(data.name)
    name_problem = text.name_problem(name, MAX_NAME, _("Give the event a name."))
    if name_problem is not None:
        errors["name"] = name_problem
    if data.edition not in EDITIONS:
        errors["edition"] = _("Choose the 2018 or the 2010 edition.")
    if not 1 <= len(data.round_formats) <= MAX_ROUNDS:
        errors["rounds"] = _("Enter a whole number of rounds from 1 to %(most)d.", most=MAX_ROUNDS)
    for number, fmt in enumerate(data.round_formats, start=1):
        if fmt not in ROUND_FORMATS:
            errors[f"format_{number}"] = _("Choose standard game or draft.")
    if data.preferred_table_size not in TABLE_SIZES:
        errors["preferred_table_size"] = _("Tables seat 4, 3 or 2 players: choose one of these.")
    if data.point_scheme not in POINT_SCHEMES:
        errors["point_scheme"] = _("Choose one of the listed tournament-point schemes.")
    if sorted(data.tiebreak_order) != sorted(TIEBREAKS):
        errors["tiebreak_order"] = _("Use each tie-break exactly once.")
    if not data.entry_modes:
        errors["entry_modes"] = _("Allow at least one way of entering results.")
    elif any(mode not in ENTRY_MODES for mode in data.entry_modes):
        errors["entry_modes"] = _("Unknown result-entry mode.")
    timer = data.pick_timer_seconds
    if timer is not None and not 10 <= timer <= 600:
        errors["pick_timer_seconds"] = _(_TIMER_MESSAGE)
    if data.language not in _languages():
        errors["language"] = _("Choose one of the listed languages.")
    time_zone, choices = _resolve_time_zone(data.time_zone)
    if time_zone is None and choices:
        errors["time_zone"] = _("“%(typed)s” is in several time zones: %(zones)s. Choose one of them.",
                                typed=data.time_zone.strip(), zones=", ".join(choices))
    elif time_zone is None:
        errors["time_zone"] = _("No time zone is called “%(typed)s”. Type a city, such as Berlin, or choose a "
                                "time zone from the list, such as Europe/Berlin or UTC.", typed=data.time_zone.strip()[:64])
    if errors:
        raise InputError(errors)
    modes = [str(mode) for mode in ENTRY_MODES if mode in data.entry_modes]
    return EventInput(name, data.date, data.edition, list(data.round_formats), data.preferred_table_size,
                      data.point_scheme, list(data.tiebreak_order), modes, timer, data.language, time_zone or "UTC",
                      bool(data.first_round_by_rating), bool(data.rate_bot_games))


_TIMER_MESSAGE = N_("Leave empty for no timer, or enter 10 to 600 seconds.")


def parse_event_form(form: Mapping[str, Any]) -> EventInput:
    """The event form's fields as checked settings, or InputError with a message per field.
    ``form`` maps names to strings, except ``entry_modes`` which is a list. Text that is no date
    or number is refused here; everything else by :func:`check_event`."""
    errors: dict[str, str] = {}
    event_date = date.today()
    try:
        event_date = date.fromisoformat(str(form.get("date", "")).strip())
    except ValueError:
        errors["date"] = _("Enter the date as YYYY-MM-DD.")

    rounds = 0
    try:
        rounds = int(str(form.get("rounds", "")).strip())
    except ValueError:
        errors["rounds"] = _("Enter a whole number of rounds from 1 to %(most)d.", most=MAX_ROUNDS)
    formats = [str(form.get(f"format_{number}", "standard") or "standard")
               for number in range(1, min(rounds, MAX_ROUNDS + 1) + 1)] if rounds > 0 else []
    if rounds > MAX_ROUNDS:
        formats.append("standard")  # one too many, so the check names the count

    size = 0
    try:
        size = int(str(form.get("preferred_table_size", "")))
    except ValueError:
        pass  # 0 is no table size: the check names it

    raw_modes = form.get("entry_modes", [])
    modes = [raw_modes] if isinstance(raw_modes, str) else [str(mode) for mode in raw_modes]

    timer: int | None = None
    raw_timer = str(form.get("pick_timer_seconds", "") or "").strip()
    if raw_timer:
        try:
            timer = int(raw_timer)
        except ValueError:
            errors["pick_timer_seconds"] = _(_TIMER_MESSAGE)

    data = EventInput(str(form.get("name", "")), event_date, str(form.get("edition", "")), formats, size,
                      str(form.get("point_scheme", DEFAULT_POINT_SCHEME)),
                      [str(form.get(f"tiebreak_{place}", "")) for place in range(1, len(TIEBREAKS) + 1)], modes, timer,
                      str(form.get("language", "en") or "en").strip(),
                      str(form.get("time_zone", "") or "UTC").strip(),
                      bool(str(form.get("first_round_by_rating", "") or "").strip()),
                      bool(str(form.get("rate_bot_games", "") or "").strip()))
    try:
        checked = check_event(data)
    except InputError as bad:
        errors = {**bad.errors, **errors}
    if errors:
        raise InputError(errors)
    return checked


def _snapshot(event: Event) -> dict[str, Any]:
    return {
        "name": event.name, "date": event.date.isoformat(), "edition": event.edition,
        "round_formats": list(event.round_formats), "preferred_table_size": event.preferred_table_size,
        "point_scheme": event.point_scheme, "tiebreak_order": list(event.tiebreak_order),
        "entry_modes": list(event.entry_modes), "pick_timer_seconds": event.pick_timer_seconds,
        "language": event.language, "time_zone": event.time_zone,
        "first_round_by_rating": event.first_round_by_rating, "rate_bot_games": event.rate_bot_games,
    }


def create_event(session: Session, data: EventInput, organizer_id: int | None, actor: str) -> Event:
    event = Event(**asdict(data), created_by_id=organizer_id)
    session.add(event)
    session.flush()
    assert event.id is not None
    session.add(AuditEntry(event_id=event.id, actor=actor, action="event.created", new=_snapshot(event)))
    session.commit()
    session.refresh(event)
    return event


def rounds_started(session: Session, event_id: int) -> list[Round]:
    return list(session.exec(select(Round).where(Round.event_id == event_id).order_by(col(Round.number))).all())


def form_version(form: Mapping[str, Any]) -> int:
    """The version of the event the form was opened at (its hidden field; -1 when missing)."""
    try:
        return int(str(form.get("version", "")))
    except ValueError:
        return -1


def update_event(session: Session, event: Event, data: EventInput, actor: str, seen_version: int) -> Event:
    """Apply an edit made on the form of version ``seen_version``; refuses what would contradict
    rounds already made. Under the event's lock (which proposing a round takes too): a form
    opened before another save is :class:`.guard.StaleChange`, nothing saved."""
    assert event.id is not None
    locked = guard.lock(session, Event, event.id)
    if locked is None:
        raise InputError({"": _("This event no longer exists.")})
    event = locked
    assert event.id is not None
    guard.check_version(event.version, seen_version, _("The event"),
                        _("The form now shows its settings as they are; make your change again."))
    started = rounds_started(session, event.id)
    errors: dict[str, str] = {}
    if started:
        if data.edition != event.edition:
            errors["edition"] = _("Round 1 is already seated with this edition's species; the edition can no longer change.")
        if len(data.round_formats) < len(started):
            errors["rounds"] = ngettext(
                "%(num)d round already exists; the event needs at least that many.",
                "%(num)d rounds already exist; the event needs at least that many.", len(started))
        for made in started:
            index = made.number - 1
            if index < len(data.round_formats) and data.round_formats[index] != made.format:
                errors[f"format_{made.number}"] = (
                    _("Round %(number)d already exists as a standard round.", number=made.number)
                    if made.format == "standard" else
                    _("Round %(number)d already exists as a draft round.", number=made.number))
    if errors:
        raise InputError(errors)
    old = _snapshot(event)
    for key, value in asdict(data).items():
        setattr(event, key, value)
    event.updated_at = utcnow()
    event.version = seen_version + 1
    new = _snapshot(event)
    if new != old:
        session.add(AuditEntry(event_id=event.id, actor=actor, action="event.updated",
                               old={k: v for k, v in old.items() if new[k] != v},
                               new={k: v for k, v in new.items() if old[k] != v}))
    session.add(event)
    session.commit()
    if started and any(new[k] != old[k] for k in ("date", "rate_bot_games")):
        # the club's ratings take events in date order and this setting decides which games count:
        # its results count anew
        signals.results_settled.send(session, event_ids=[event.id])
    session.refresh(event)
    return event


def list_events(session: Session, judge_id: int | None = None, archived: bool = False) -> Sequence[Event]:
    """Every event, newest first; for a judge (``judge_id``) only the events they are assigned to.
    The main list holds the events not archived; ``archived`` lists the archive instead."""
    query = select(Event).order_by(col(Event.date).desc(), col(Event.id).desc())
    query = query.where(col(Event.archived_at).is_not(None) if archived else col(Event.archived_at).is_(None))
    if judge_id is not None:
        query = query.join(EventJudge, col(EventJudge.event_id) == col(Event.id)).where(
            EventJudge.organizer_id == judge_id)
    return session.exec(query).all()


def event_counts(session: Session, event_id: int) -> dict[str, int]:
    players = session.exec(select(func.count()).select_from(Player).where(Player.event_id == event_id)).one()
    checked = session.exec(select(func.count()).select_from(Player).where(
        Player.event_id == event_id, col(Player.checked_in).is_(True), col(Player.dropped).is_(False))).one()
    return {"players": int(players), "checked_in": int(checked)}


def open_disputes(session: Session, event_id: int) -> list[tuple[int, int, str]]:
    """(round, table, note) of every disputed result, for the organizer's attention."""
    rows = session.exec(
        select(Round.number, GameTable.number, Result.dispute_note)
        .join(GameTable, col(GameTable.round_id) == Round.id)
        .join(Result, col(Result.table_id) == GameTable.id)
        .where(Round.event_id == event_id, Result.status == ResultStatus.DISPUTED)
        .order_by(col(Round.number), col(GameTable.number))
    ).all()
    return [(int(r), int(t), note) for r, t, note in rows]


@dataclass(frozen=True)
class NextStep:
    """What the event needs next, for the overview's highlighted button: ``kind`` is one of
    "add players", "check in", "seat", "publish", "enter results", "confirm results", "close",
    "seat finals" (the next round of a cut made for the finals), "final standings";
    ``round`` the round it concerns (0 when none); ``stage`` that round's stage, which names a
    round of the finals."""

    kind: str
    round: int = 0
    stage: str = "swiss"


def next_step(session: Session, event: Event) -> NextStep:
    """The event's real next step, from what is stored: players, check-in, then for the latest
    round its status and results, then the next round or the final standings."""
    assert event.id is not None
    counts = event_counts(session, event.id)
    latest = session.exec(select(Round).where(Round.event_id == event.id)
                          .order_by(col(Round.number).desc()).limit(1)).first()
    if latest is None:
        if not counts["players"]:
            return NextStep("add players")
        if counts["checked_in"] < 2:
            return NextStep("check in")
        return NextStep("seat", 1)
    stage = str(latest.stage)
    if latest.status == RoundStatus.PROPOSED:
        return NextStep("publish", latest.number, stage)
    if latest.status == RoundStatus.PUBLISHED:
        tables = session.exec(select(func.count()).select_from(GameTable)
                              .where(GameTable.round_id == latest.id)).one()
        statuses = session.exec(select(Result.status).join(GameTable, col(GameTable.id) == Result.table_id)
                                .where(GameTable.round_id == latest.id)).all()
        if len(statuses) < tables:
            return NextStep("enter results", latest.number, stage)
        if any(status != ResultStatus.CONFIRMED for status in statuses):
            return NextStep("confirm results", latest.number, stage)
        return NextStep("close", latest.number, stage)
    if stage == RoundStage.SWISS and latest.number < event.rounds:
        return NextStep("seat", latest.number + 1)
    cut = session.exec(select(Finals).where(Finals.event_id == event.id)).first()
    if cut is not None and stage != RoundStage.FINAL:
        # the semi-finals after the cut (a cut of 4 plays the final table at once), then the final
        coming = RoundStage.FINAL if cut.cut_size == 4 or stage == RoundStage.SEMI_FINAL else RoundStage.SEMI_FINAL
        return NextStep("seat finals", latest.number + 1, coming)
    return NextStep("final standings", latest.number)


def archived_count(session: Session, judge_id: int | None = None) -> int:
    """How many events the archive holds (for a judge: of their events)."""
    query = select(func.count()).select_from(Event).where(col(Event.archived_at).is_not(None))
    if judge_id is not None:
        query = query.join(EventJudge, col(EventJudge.event_id) == col(Event.id)).where(
            EventJudge.organizer_id == judge_id)
    return int(session.exec(query).one())


def set_archived(session: Session, event_id: int, archived: bool, actor: str, role: str) -> Event:
    """Move the event into the archive or back to the main list, with its audit entry."""
    event = guard.lock(session, Event, event_id)
    if event is None:
        raise InputError({"": _("This event no longer exists.")})
    if (event.archived_at is not None) != archived:
        event.archived_at = utcnow() if archived else None
        session.add(AuditEntry(event_id=event_id, actor=actor, role=role,
                               action="event.archived" if archived else "event.restored"))
        session.add(event)
    session.commit()
    session.refresh(event)
    return event


def live_tables_running(session: Session, event_id: int) -> list[tuple[int, int]]:
    """(round, table) of the event's tables being played on the players' devices: dealt, in a
    published round, without a result yet."""
    rows = session.exec(
        select(Round.number, GameTable.number)
        .join(GameTable, col(GameTable.round_id) == Round.id)
        .outerjoin(Result, col(Result.table_id) == GameTable.id)
        .where(Round.event_id == event_id, Round.status == RoundStatus.PUBLISHED,
               col(GameTable.digital).is_(True), col(Result.id).is_(None))
        .order_by(col(Round.number), col(GameTable.number))
    ).all()
    return [(int(r), int(t)) for r, t in rows]


def delete_event(session: Session, event_id: int, typed_name: str, actor: str, role: str) -> EventDeletion:
    """Delete the event and everything recorded about it, once the event's name is typed; refused
    while a table of it plays on the players' devices. The deletion is recorded outside the event
    (:class:`EventDeletion`), since the event's audit log goes with it."""
    event = guard.lock(session, Event, event_id)
    if event is None:
        raise InputError({"": _("This event no longer exists.")})
    if text.name_key(typed_name) != text.name_key(event.name):
        raise InputError({"confirm_name": _("Type the event's name exactly as shown to delete it.")})
    running = live_tables_running(session, event_id)
    if running:
        where = ", ".join(_("Round %(round)d, Table %(table)d", round=r, table=t) for r, t in running[:5])
        raise InputError({"": ngettext(
            "A table is playing on the players' devices (%(tables)s): end its game or switch it back to paper first.",
            "%(num)d tables are playing on the players' devices (%(tables)s): end their games or switch them back to "
            "paper first.",
            len(running), tables=where)})
    counts = event_counts(session, event_id)
    record = EventDeletion(event_id=event_id, name=event.name, date=event.date, imported=event.imported_at is not None,
                           players=counts["players"], rounds=len(rounds_started(session, event_id)),
                           actor=actor, role=role)
    session.add(record)
    session.delete(event)
    session.commit()
    session.refresh(record)
    return record


def deletions(session: Session, limit: int = 100) -> Sequence[EventDeletion]:
    """The latest recorded deletions, newest first."""
    return session.exec(select(EventDeletion).order_by(col(EventDeletion.at).desc(), col(EventDeletion.id).desc())
                        .limit(limit)).all()
