"""An event's announcements: a short message an organizer writes for the room ("Round 3 starts at
14:30"), shown on every player's page, the public page and the projector until it is withdrawn.

It is written in one language and may carry a second version in another; a reader sees the version
in their own language when there is one, else the first. The text is plain: templates escape it,
and line breaks and spaces are folded, so a message cannot carry markup or take over a screen."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from organizer.core import guard
from organizer.core.errors import InputError
from organizer.core.models import Announcement, AuditEntry, Event, utcnow
from organizer.core.translate import LANGUAGES, _

MAX_TEXT = 280


@dataclass(frozen=True)
class Shown:
    """An announcement as one reader sees it: the text and the language it is in."""

    id: int
    text: str
    language: str


def _clean(text: str) -> str:
    return " ".join(text.split())


def post(session: Session, event: Event, text: str, language: str, second_text: str, second_language: str,
         actor: str, role: str = "") -> Announcement:
    """Publish an announcement (InputError keyed by field on bad input)."""
    text, second_text = _clean(text), _clean(second_text)
    errors: dict[str, str] = {}
    if not text:
        errors["text"] = _("Write the message.")
    elif len(text) > MAX_TEXT:
        errors["text"] = _("At most %(num)d characters.", num=MAX_TEXT)
    if language not in LANGUAGES:
        errors["language"] = _("Choose the language the message is written in.")
    if len(second_text) > MAX_TEXT:
        errors["second_text"] = _("At most %(num)d characters.", num=MAX_TEXT)
    if second_text and second_language not in LANGUAGES:
        errors["second_language"] = _("Choose the language of the second version.")
    elif second_text and second_language == language:
        errors["second_language"] = _("The second version needs another language.")
    if errors:
        raise InputError(errors)
    if not second_text:
        second_language = ""
    locked = guard.lock(session, Event, event.id)
    if locked is None or locked.id is None:
        raise InputError({"": _("The event is gone.")})
    made = Announcement(event_id=locked.id, text=text, language=language, second_text=second_text,
                        second_language=second_language, created_by=actor)
    session.add(made)
    session.flush()
    session.add(AuditEntry(event_id=locked.id, actor=actor, role=role, action="announcement.posted",
                           new={"id": made.id, "text": text, "language": language, "second_text": second_text,
                                "second_language": second_language}))
    session.commit()
    return made


def withdraw(session: Session, event: Event, announcement_id: int, actor: str, role: str = "") -> Announcement:
    """Take an announcement off every screen; withdrawing one already withdrawn says so."""
    found = guard.lock(session, Announcement, announcement_id)
    if found is None or found.event_id != event.id:
        raise InputError({"": _("That announcement is gone.")})
    if found.withdrawn_at is not None:
        raise guard.StaleChange(_("The announcement"), _("It was withdrawn already."))
    found.withdrawn_at = utcnow()
    session.add(found)
    session.add(AuditEntry(event_id=found.event_id, actor=actor, role=role, action="announcement.withdrawn",
                           old={"id": found.id, "text": found.text}))
    session.commit()
    return found


def current(session: Session, event_id: int) -> list[Announcement]:
    """The event's announcements on show, newest first."""
    return list(session.exec(select(Announcement).where(Announcement.event_id == event_id,
                                                        col(Announcement.withdrawn_at).is_(None))
                             .order_by(col(Announcement.id).desc())).all())


def shown(session: Session, event_id: int, language: str) -> list[Shown]:
    """The announcements on show as a reader of ``language`` sees them."""
    listed = []
    for row in current(session, event_id):
        assert row.id is not None
        if row.second_text and row.second_language == language and row.language != language:
            listed.append(Shown(row.id, row.second_text, row.second_language))
        else:
            listed.append(Shown(row.id, row.text, row.language))
    return listed
