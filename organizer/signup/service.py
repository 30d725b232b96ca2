"""Sign-up for an event: a person signs up on the public page, confirms their e-mail address
by a link, and is then either a player of the event (within the cap) or on the waiting list;
a withdrawal promotes the first on the waiting list.

Every decision that counts places is taken under the event's row lock
(:func:`organizer.core.guard.lock`): whoever holds it counts the players and places one
sign-up, so simultaneous confirmations never exceed the cap and the waiting list is numbered
without gaps in the order its entries joined it."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from babel import dates
from sqlmodel import Session, col, func, select

from organizer.core import rate_windows, signals, text
from organizer.core.errors import InputError
from organizer.core.guard import check_version, lock
from organizer.core.models import AuditEntry, Event, Player, Signup, SignupSettings, SignupStatus, utcnow
from organizer.core.translate import _, current_locale, valid_time_zone
from organizer.players import service as players

#: an unconfirmed sign-up expires after this long and never counts
CONFIRM_HOURS = 24
MAX_NOTE = 500
MAX_QUESTION = 200
#: sign-ups per client address and per e-mail address in a window of an hour
PER_ADDRESS = 10
PER_EMAIL = 3
WINDOW_SECONDS = 3600
#: statuses that hold a person's sign-up (a second one is refused)
ACTIVE = (SignupStatus.UNCONFIRMED, SignupStatus.APPROVAL, SignupStatus.WAITING, SignupStatus.CONFIRMED)


class RateLimited(InputError):
    def __init__(self, retry_after: int) -> None:
        minutes = max(1, (retry_after + 59) // 60)
        super().__init__({"": _("Too many sign-ups from here; try again in %(minutes)d minutes.", minutes=minutes)})
        self.retry_after = retry_after


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def settings_of(session: Session, event_id: int) -> SignupSettings:
    """The event's sign-up settings (closed, no cap, when never set)."""
    found = session.get(SignupSettings, event_id)
    return found if found is not None else SignupSettings(event_id=event_id)


def is_open(settings: SignupSettings, now: datetime | None = None) -> bool:
    now = utcnow() if now is None else now
    return settings.open and (settings.closes_at is None or _aware(settings.closes_at) > now)


def expired(signup: Signup, now: datetime | None = None) -> bool:
    now = utcnow() if now is None else now
    return (signup.status == SignupStatus.UNCONFIRMED
            and _aware(signup.created_at) <= now - timedelta(hours=CONFIRM_HOURS))


def event_zone(event: Event) -> ZoneInfo:
    """The event's time zone (the event form's city or IANA name), in which the closing time is
    entered and shown; UTC when the event names none this machine knows."""
    return ZoneInfo(event.time_zone if valid_time_zone(event.time_zone) else "UTC")


def zone_abbreviation(moment: datetime, zone: ZoneInfo) -> str:
    """The zone's abbreviation at ``moment`` from the IANA database ("CET", "CEST", "EST"), what
    a club's poster says; Babel's localized names are bare offsets ("+0100") in most languages."""
    return _aware(moment).astimezone(zone).tzname() or zone.key


def closes_local(settings: SignupSettings, event: Event) -> str:
    """The closing time as the settings form's field shows it: the event's local time,
    ``YYYY-MM-DDTHH:MM`` (empty without one)."""
    if settings.closes_at is None:
        return ""
    return _aware(settings.closes_at).astimezone(event_zone(event)).strftime("%Y-%m-%dT%H:%M")


def closing_words(settings: SignupSettings, event: Event) -> str:
    """"31 December 2026, 18:00 CET": the closing time in the event's local time, in the
    reader's language, with the zone named (empty without a closing time)."""
    if settings.closes_at is None:
        return ""
    zone = event_zone(event)
    moment = _aware(settings.closes_at)
    locale = current_locale()
    return "{}, {} {}".format(dates.format_date(moment.astimezone(zone).date(), "long", locale=locale),
                              dates.format_time(moment, "short", tzinfo=zone, locale=locale),
                              zone_abbreviation(moment, zone))


def parse_closing_time(typed: str, zone: ZoneInfo) -> datetime:
    """A closing time typed in the event's local time (``2026-12-31T18:00``, a space for the
    ``T`` too) as the UTC moment it names. A local time the clocks skip (the hour lost to
    summer time) is refused; one they pass twice is read as the first."""
    try:
        local = datetime.fromisoformat(typed.strip())
    except ValueError:
        raise InputError({"closes_at": _("Enter a date and time such as 2026-12-31 18:00.")}) from None
    if local.tzinfo is not None:  # a time with its own offset names its moment already
        return local.astimezone(UTC)
    moment = local.replace(tzinfo=zone).astimezone(UTC)
    if moment.astimezone(zone).replace(tzinfo=None) != local:
        raise InputError({"closes_at": _("%(time)s does not exist in %(zone)s: the clocks go forward then. "
                                         "Choose another time.", time=local.strftime("%Y-%m-%d %H:%M"),
                                         zone=zone.key)})
    return moment


def email_key(email: str) -> str:
    return email.strip().casefold()


def _audit(session: Session, event_id: int, actor: str, action: str, role: str = "",
           old: dict[str, Any] | None = None, new: dict[str, Any] | None = None) -> None:
    session.add(AuditEntry(event_id=event_id, actor=actor, role=role, action=action, old=old, new=new))


def save_settings(session: Session, event: Event, form: dict[str, str], seen_version: int, actor: str,
                  role: str = "") -> SignupSettings:
    """Open or close sign-up and set its cap, closing time (in the event's local time,
    ``YYYY-MM-DDTHH:MM``, stored as UTC), approval and question; a form made from older
    settings is refused as stale."""
    assert event.id is not None
    errors: dict[str, str] = {}
    cap: int | None = None
    if form.get("cap", "").strip():
        cap = text.whole_number(form["cap"].strip())
        if cap is None or not 1 <= cap <= 10000:
            errors["cap"] = _("Enter a number of players from 1 to 10000, or leave it empty for no cap.")
    closes_at: datetime | None = None
    if form.get("closes_at", "").strip():
        try:
            closes_at = parse_closing_time(form["closes_at"], event_zone(event))
        except InputError as bad:
            errors.update(bad.errors)
    question = text.clean_name(form.get("question", ""))
    problem = text.text_problem(question)
    if problem is not None:
        errors["question"] = problem
    elif len(question) > MAX_QUESTION:
        errors["question"] = _("Keep the question to %(count)d characters or fewer.", count=MAX_QUESTION)
    if errors:
        raise InputError(errors)
    lock(session, Event, event.id)
    current = session.get(SignupSettings, event.id)
    if current is None:
        current = SignupSettings(event_id=event.id, version=0)
    check_version(current.version, seen_version, _("The sign-up settings"))
    old = {"open": current.open, "cap": current.cap, "approval": current.approval, "question": current.question,
           "closes_at": current.closes_at.isoformat() if current.closes_at else None}
    current.open = form.get("open") == "1"
    current.cap, current.closes_at, current.question = cap, closes_at, question
    current.approval = form.get("approval") == "1"
    current.version += 1
    session.add(current)
    _audit(session, event.id, actor, "signup.settings", role, old=old,
           new={"open": current.open, "cap": cap, "approval": current.approval, "question": question,
                "closes_at": closes_at.isoformat() if closes_at else None})
    session.commit()
    session.refresh(current)
    return current


def _duplicate(session: Session, event_id: int, key: str, mail: str) -> bool:
    """The same person signed up already (same e-mail or same name among the active sign-ups),
    or is a player of the event already (same name, or same e-mail)."""
    now = utcnow()
    for other in session.exec(select(Signup).where(Signup.event_id == event_id,
                                                   col(Signup.status).in_([s.value for s in ACTIVE]))).all():
        if not expired(other, now) and (other.email_key == mail or other.name_key == key):
            return True
    return session.exec(select(Player.id).where(
        Player.event_id == event_id,
        (col(Player.name_key) == key) | (func.lower(col(Player.email)) == mail))).first() is not None


def sign_up(session: Session, event: Event, form: dict[str, str], client: str, confirm_by_email: bool) -> Signup:
    """A new sign-up from the public form. Validated as the player forms are; refused kindly
    when the same person is signed up already; rate limited per client address and per
    e-mail. Without e-mail confirmation (no mail server) it is placed at once."""
    assert event.id is not None
    settings = settings_of(session, event.id)
    if not is_open(settings):
        raise InputError({"": _("Sign-up for this event is closed.")})
    data, errors = players.check_fields(form.get("name", ""), form.get("club", ""), form.get("email", ""))
    if not data.email and "email" not in errors:
        errors["email"] = _("Enter your e-mail address: your confirmation and your own link go there.")
    note = form.get("note", "").strip()
    problem = text.text_problem(note)
    if problem is not None:
        errors["note"] = problem
    elif len(note) > MAX_NOTE:
        errors["note"] = _("Keep the note to %(count)d characters or fewer.", count=MAX_NOTE)
    if errors:
        raise InputError(errors)
    mail, key = email_key(data.email), players.name_key(data.name)
    for limit_key, limit in ((f"signup-address:{client}", PER_ADDRESS), (f"signup-email:{mail}", PER_EMAIL)):
        claim = rate_windows.claim(session, limit_key[:120], limit, WINDOW_SECONDS)
        if not claim.allowed:
            raise RateLimited(claim.retry_after)
    # under the event's lock: two sign-ups of one person sent at once cannot both pass the check
    lock(session, Event, event.id)
    if _duplicate(session, event.id, key, mail):
        session.rollback()
        raise InputError({"": _("You are signed up for this event already: the link in your e-mail leads to "
                                "your own page. Nothing new was saved.")})
    signup = Signup(event_id=event.id, name=data.name, name_key=key, club=data.club, email=data.email,
                    email_key=mail, note=note)
    session.add(signup)
    _audit(session, event.id, data.name, "signup.created", new={"name": data.name, "club": data.club})
    session.commit()
    session.refresh(signup)
    if not confirm_by_email:
        return confirm(session, signup.token, signup.email_code)
    return signup


def _count_players(session: Session, event_id: int) -> int:
    return int(session.exec(select(func.count()).select_from(Player)
                            .where(Player.event_id == event_id, col(Player.dropped).is_(False))).one())


def _next_queued(session: Session, event_id: int) -> int:
    last = session.exec(select(func.max(Signup.queued)).where(Signup.event_id == event_id)).one()
    return int(last or 0) + 1


def _make_player(session: Session, event: Event, signup: Signup) -> None:
    """The sign-up becomes a player of the event with the same own link, linked to the club's
    registry as every added player is."""
    assert event.id is not None
    existing = session.exec(select(Player).where(Player.token == signup.token)).first()
    if existing is not None:
        existing.dropped, existing.dropped_after_round = False, None
        session.add(existing)
        signup.player_id = existing.id
        return
    player = Player(event_id=event.id, name=signup.name, name_key=signup.name_key, club=signup.club,
                    email=signup.email, token=signup.token,
                    joined_round=players.started_rounds(session, event.id) + 1)
    session.add(player)
    signals.players_added.send(session, event=event, players=[player])
    session.flush()
    signup.player_id = player.id


def _place(session: Session, event: Event, signup: Signup, settings: SignupSettings, actor: str,
           role: str = "") -> None:
    """Under the event's lock: a player when there is room, else on the waiting list."""
    assert event.id is not None
    if settings.cap is None or _count_players(session, event.id) < settings.cap:
        signup.status, signup.queued = SignupStatus.CONFIRMED, None
        _make_player(session, event, signup)
        _audit(session, event.id, actor, "signup.confirmed", role, new={"name": signup.name})
    else:
        signup.status, signup.queued = SignupStatus.WAITING, _next_queued(session, event.id)
        _audit(session, event.id, actor, "signup.waiting", role, new={"name": signup.name, "queued": signup.queued})
    session.add(signup)


def find(session: Session, token: str) -> Signup | None:
    return session.exec(select(Signup).where(Signup.token == token)).first()


def confirm(session: Session, token: str, code: str) -> Signup:
    """The e-mail's link followed: the address is confirmed and the sign-up placed (or handed
    to the organizer for approval). Following it again changes nothing."""
    found = find(session, token)
    if found is None or found.email_code != code:
        raise InputError({"": _("This confirmation link is not valid.")})
    if found.status != SignupStatus.UNCONFIRMED:
        return found
    if expired(found):
        raise InputError({"": _("This confirmation link has expired; sign up again.")})
    event = lock(session, Event, found.event_id)
    assert event is not None and event.id is not None
    signup = session.get(Signup, found.id)
    assert signup is not None
    if signup.status != SignupStatus.UNCONFIRMED:  # confirmed meanwhile by a second click
        session.commit()
        return signup
    signup.confirmed_at = utcnow()
    settings = settings_of(session, event.id)
    if settings.approval:
        signup.status = SignupStatus.APPROVAL
        session.add(signup)
        _audit(session, event.id, signup.name, "signup.email_confirmed", new={"name": signup.name})
    else:
        _place(session, event, signup, settings, signup.name)
    session.commit()
    session.refresh(signup)
    return signup


def _promote(session: Session, event: Event, settings: SignupSettings, actor: str, role: str) -> list[Signup]:
    """Under the event's lock: the first on the waiting list take the places that are free."""
    assert event.id is not None
    promoted: list[Signup] = []
    waiting = session.exec(select(Signup).where(Signup.event_id == event.id, Signup.status == SignupStatus.WAITING)
                           .order_by(col(Signup.queued), col(Signup.id))).all()
    for signup in waiting:
        if settings.cap is not None and _count_players(session, event.id) >= settings.cap:
            break
        signup.status, signup.queued, signup.promoted, signup.moved = SignupStatus.CONFIRMED, None, True, None
        _make_player(session, event, signup)
        session.add(signup)
        session.flush()
        _audit(session, event.id, actor, "signup.promoted", role, new={"name": signup.name})
        promoted.append(signup)
    return promoted


def _unplace(session: Session, signup: Signup) -> None:
    """A confirmed sign-up leaves the players: removed when never seated, else dropped."""
    if signup.player_id is None:
        return
    player = session.get(Player, signup.player_id)
    if player is None:
        return
    if players.has_been_seated(session, signup.player_id):
        player.dropped = True
        player.dropped_after_round = players.started_rounds(session, signup.event_id)
        session.add(player)
    else:
        session.delete(player)
        signup.player_id = None
    session.flush()


def withdraw(session: Session, token: str, actor: str | None = None, role: str = "") -> list[Signup]:
    """The person withdraws (or the organizer withdraws them): their place goes to the first on
    the waiting list. Answers the sign-ups promoted (to be told by e-mail)."""
    found = find(session, token)
    if found is None:
        raise InputError({"": _("This sign-up is not known.")})
    event = lock(session, Event, found.event_id)
    assert event is not None and event.id is not None
    signup = session.get(Signup, found.id)
    assert signup is not None
    if signup.status in (SignupStatus.WITHDRAWN, SignupStatus.REFUSED):
        session.commit()
        return []
    old = {"status": signup.status}
    was_player = signup.status == SignupStatus.CONFIRMED
    if was_player:
        _unplace(session, signup)
    signup.status, signup.queued, signup.moved = SignupStatus.WITHDRAWN, None, None
    session.add(signup)
    _audit(session, event.id, actor or signup.name, "signup.withdrawn", role, old=old, new={"name": signup.name})
    promoted = _promote(session, event, settings_of(session, event.id), actor or signup.name, role) if was_player else []
    session.commit()
    return promoted


MOVES = ("approve", "confirm", "wait", "refuse")


@dataclass(frozen=True)
class Moved:
    """What an organizer's move did: the sign-up as it is now (to be told by e-mail and on its
    page), its number on the waiting list when it is there, and the sign-ups promoted into a
    place it freed."""

    signup: Signup
    waiting: int | None
    promoted: list[Signup]


def move(session: Session, event: Event, signup_id: int, to: str, actor: str, role: str = "",
         seen_status: str | None = None) -> Moved:
    """The organizer's moves: ``approve`` (placed as a confirmation is), ``confirm`` (a player
    now, past the cap if need be), ``wait`` (to the head of the waiting list), ``refuse``.
    ``seen_status`` is the status the list showed: a sign-up that changed since (withdrawn,
    moved by another organizer, promoted) is left as it is, and the refusal says so."""
    assert event.id is not None
    locked = lock(session, Event, event.id)
    assert locked is not None
    signup = session.get(Signup, signup_id)
    if signup is None or signup.event_id != event.id:
        raise InputError({"": _("This sign-up is not known.")})
    if seen_status is not None and seen_status != signup.status:
        session.rollback()
        raise InputError({"": _("%(name)s was moved meanwhile; nothing was changed. The list shows where they are "
                                "now.", name=signup.name)})
    settings = settings_of(session, event.id)
    old = {"status": signup.status, "queued": signup.queued}
    promoted: list[Signup] = []
    if to == "approve" and signup.status == SignupStatus.APPROVAL:
        _place(session, locked, signup, settings, actor, role)
    elif to == "confirm" and signup.status in (SignupStatus.WAITING, SignupStatus.APPROVAL):
        signup.status, signup.queued = SignupStatus.CONFIRMED, None
        _make_player(session, locked, signup)
        session.add(signup)
    elif to == "wait" and signup.status in (SignupStatus.CONFIRMED, SignupStatus.APPROVAL):
        _unplace(session, signup)
        first = session.exec(select(func.min(Signup.queued)).where(Signup.event_id == event.id)).one()
        signup.status, signup.queued = SignupStatus.WAITING, int(first or 1) - 1
        session.add(signup)
    elif to == "refuse" and signup.status in (SignupStatus.APPROVAL, SignupStatus.WAITING, SignupStatus.CONFIRMED):
        was_player = signup.status == SignupStatus.CONFIRMED
        _unplace(session, signup)
        signup.status, signup.queued = SignupStatus.REFUSED, None
        session.add(signup)
        if was_player:
            promoted = _promote(session, locked, settings, actor, role)
    else:
        session.rollback()
        raise InputError({"": _("%(name)s cannot be moved there now; the list shows where they are.",
                                name=signup.name)})
    signup.moved, signup.promoted = to, False
    session.add(signup)
    _audit(session, event.id, actor, f"signup.moved.{to}", role, old=old,
           new={"name": signup.name, "status": signup.status, "queued": signup.queued})
    session.commit()
    return Moved(signup, waiting_number(session, signup), promoted)


def waiting_number(session: Session, signup: Signup) -> int | None:
    """1 for the first on the waiting list, and so on."""
    if signup.status != SignupStatus.WAITING or signup.queued is None:
        return None
    ahead = session.exec(select(func.count()).select_from(Signup).where(
        Signup.event_id == signup.event_id, Signup.status == SignupStatus.WAITING,
        (col(Signup.queued) < signup.queued) | ((col(Signup.queued) == signup.queued) & (col(Signup.id) < signup.id)))
    ).one()
    return int(ahead) + 1


@dataclass(frozen=True)
class Row:
    signup: Signup
    #: the shown status: "expired" for an unconfirmed sign-up past its time
    status: str
    waiting: int | None


_ORDER = {SignupStatus.CONFIRMED: 0, SignupStatus.APPROVAL: 1, SignupStatus.WAITING: 2,
          SignupStatus.UNCONFIRMED: 3, SignupStatus.WITHDRAWN: 4, SignupStatus.REFUSED: 5}


def rows(session: Session, event_id: int) -> list[Row]:
    """Every sign-up of the event in one list: players, awaiting approval, the waiting list in
    order, unconfirmed, then the withdrawn and refused."""
    now = utcnow()
    signups = session.exec(select(Signup).where(Signup.event_id == event_id).order_by(col(Signup.id))).all()
    listed: list[Row] = []
    number = 0
    waiting = sorted((s for s in signups if s.status == SignupStatus.WAITING), key=lambda s: (s.queued or 0, s.id or 0))
    places = {}
    for s in waiting:
        number += 1
        places[s.id] = number
    for s in signups:
        status = "expired" if expired(s, now) else s.status
        listed.append(Row(s, status, places.get(s.id)))
    listed.sort(key=lambda r: (_ORDER.get(SignupStatus(r.signup.status), 9) if r.status != "expired" else 6,
                               r.waiting or 0, r.signup.id or 0))
    return listed


CSV_FIELDS = ("name", "club", "email", "note", "status", "waiting_number", "signed_up_at")


def export_csv(listed: Sequence[Row]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_FIELDS)
    for row in listed:
        s = row.signup
        writer.writerow([text.spreadsheet_cell(v) for v in (s.name, s.club, s.email, s.note, row.status,
                                                              row.waiting or "", s.created_at.isoformat())])
    return out.getvalue()
