"""The event's audit log as the organizer reads it: newest first, a page at a time, filtered by
round, table and actor (the entries themselves are written where each change happens)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, or_
from sqlalchemy.sql.elements import ColumnElement
from sqlmodel import Session, col, func, select

from organizer.core.models import AuditEntry, GameTable, Round
from organizer.core.paging import Page, page_of
from organizer.core.translate import (
    LANGUAGES,
    LEVEL_WORDS,
    N_,
    _,
    format_number,
    ngettext,
    round_name,
    species_name,
)


@dataclass(frozen=True)
class AuditFilter:
    """What the organizer narrows the log to; None / "" is everything."""

    round: int | None = None
    #: a table's number (in the round when one is chosen, else in any round)
    table: int | None = None
    actor: str = ""


@dataclass(frozen=True)
class AuditPage:
    entries: Sequence[AuditEntry]
    page: Page
    filter: AuditFilter
    #: every actor of the event's log, for the filter's choices
    actors: Sequence[str]
    #: the event's round numbers, for the filter's choices
    rounds: Sequence[int]
    #: the entries as sentences, in the same order
    lines: Sequence[AuditLine] = ()
    #: each round's name for the filter's choices ("Semi-finals" for a round of the finals)
    round_names: dict[int, str] = field(default_factory=dict)


def audit_filter(round_text: str | None, table_text: str | None, actor: str | None) -> AuditFilter:
    """The filter as a query string carries it: numbers that are not numbers are left out."""
    return AuditFilter(_number(round_text), _number(table_text), (actor or "").strip()[:120])


def _number(raw: str | None) -> int | None:
    try:
        number = int((raw or "").strip())
    except ValueError:
        return None
    return number if 1 <= number <= 100_000 else None


def _conditions(event_id: int, chosen: AuditFilter) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = [col(AuditEntry.event_id) == event_id]
    if chosen.actor:
        conditions.append(col(AuditEntry.actor) == chosen.actor)
    if chosen.round is None and chosen.table is None:
        return conditions
    tables = select(GameTable.id).join(Round, col(Round.id) == GameTable.round_id).where(Round.event_id == event_id)
    if chosen.round is not None:
        tables = tables.where(Round.number == chosen.round)
    if chosen.table is not None:
        tables = tables.where(GameTable.number == chosen.table)
    of_tables = col(AuditEntry.table_id).in_(tables)
    if chosen.round is not None and chosen.table is None:
        # a round's own entries (proposed, published, closed...) name the round in their values
        round_entry = and_(col(AuditEntry.table_id).is_(None),
                           col(AuditEntry.new)["round"].as_integer() == chosen.round)
        conditions.append(or_(of_tables, round_entry))
    else:
        conditions.append(of_tables)
    return conditions


def audit_page(session: Session, event_id: int, chosen: AuditFilter, number: int | None = None,
               per_page: int = 50, show_emails: bool = True) -> AuditPage:
    """One page of the log, newest first (by the order the entries were written)."""
    conditions = _conditions(event_id, chosen)
    total = session.exec(select(func.count()).select_from(AuditEntry).where(*conditions)).one()
    page = page_of(int(total), number, per_page)
    entries = session.exec(select(AuditEntry).where(*conditions).order_by(col(AuditEntry.id).desc())
                           .offset(page.offset).limit(page.per_page)).all()
    actors = session.exec(select(AuditEntry.actor).where(AuditEntry.event_id == event_id).distinct()
                          .order_by(col(AuditEntry.actor))).all()
    rounds = session.exec(select(Round.number, Round.stage).where(Round.event_id == event_id)
                          .order_by(col(Round.number))).all()
    return AuditPage(entries, page, chosen, list(actors), [int(number) for number, _stage in rounds],
                     describe_page(session, event_id, entries, show_emails),
                     {int(number): round_name(int(number), str(stage)) for number, stage in rounds})




# --- The log as sentences ------------------------------------------------------------

@dataclass(frozen=True)
class AuditLine:
    """One entry as a person reads it: a sentence with names and the pages' table numbers, and
    the details when there is more to say (each a short line)."""

    entry: AuditEntry
    sentence: str
    details: list[str]


@dataclass
class _Context:
    #: table id → (round number, table number), as the pages number them
    tables: dict[int, tuple[int, int]]
    #: player id → name
    players: dict[int, str]
    #: whether the reader may see players' e-mail addresses (organizers and owners); for anyone
    #: else an e-mail change is told without its addresses
    show_emails: bool = True
    #: round number → stage, so a round of the finals is named by its stage
    stages: dict[int, str] | None = None

    def round(self, number: int) -> str:
        """"Round 2", or "Semi-finals" for a round of the finals."""
        return round_name(number, (self.stages or {}).get(number, "swiss"))

    def where(self, entry: AuditEntry) -> str:
        """"Round 1, Table 2" for the entry's table; the table's number alone when its round is gone."""
        found = self.tables.get(entry.table_id) if entry.table_id is not None else None
        if found is not None:
            return _("%(round)s, Table %(table)d", round=self.round(found[0]), table=found[1])
        number = (entry.new or {}).get("table") or (entry.old or {}).get("table")
        if isinstance(number, int):
            return _("Table %(table)d", table=number)
        return _("a table of a discarded round")

    def name(self, player_id: object) -> str:
        if isinstance(player_id, int) and player_id in self.players:
            return self.players[player_id]
        return _("a removed player")


def _context(session: Session, event_id: int, entries: Sequence[AuditEntry], show_emails: bool = True) -> _Context:
    from organizer.core.models import Player

    table_ids = {entry.table_id for entry in entries if entry.table_id is not None}
    tables: dict[int, tuple[int, int]] = {}
    if table_ids:
        rows = session.exec(select(GameTable.id, Round.number, GameTable.number)
                            .join(Round, col(Round.id) == GameTable.round_id)
                            .where(col(GameTable.id).in_(table_ids))).all()
        tables = {int(table_id): (int(rnd), int(table)) for table_id, rnd, table in rows if table_id is not None}
    players = {int(pid): str(name) for pid, name in session.exec(
        select(Player.id, Player.name).where(Player.event_id == event_id)).all() if pid is not None}
    stages = {int(number): str(stage) for number, stage in session.exec(
        select(Round.number, Round.stage).where(Round.event_id == event_id)).all()}
    return _Context(tables, players, show_emails, stages)


#: The settings an entry may name, by key, as the forms label them.
_SETTING_LABELS = {
    "name": N_("Name"), "date": N_("Date"), "edition": N_("Edition"), "round_formats": N_("Rounds"),
    "preferred_table_size": N_("Preferred table size"), "point_scheme": N_("Tournament points"),
    "tiebreak_order": N_("Tie-break order"), "entry_modes": N_("Result entry"),
    "pick_timer_seconds": N_("Pick timer (seconds)"), "language": N_("Language"), "time_zone": N_("Time zone"),
    "first_round_by_rating": N_("Seat round 1 by rating"),
    "rate_bot_games": N_("Ratings count games with bots"),
    "public_page": N_("Public event page"), "self_check_in": N_("Self check-in"),
    "self_report": N_("Results from players' phones"), "attention_minutes": N_("Attention after (minutes)"),
    "club": N_("Club"), "email": N_("E-mail"),
}


def _value(value: object) -> str:
    if value is None or value == "" or value == []:
        return _("none")
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    if isinstance(value, list):
        return ", ".join(_value(item) for item in value)
    if isinstance(value, int | float):
        return format_number(value)
    return str(value)


#: values only organizers may read: a judge is told that they changed, not what they are
_PRIVATE = frozenset({"email"})


def _changes(old: dict[str, Any] | None, new: dict[str, Any] | None, show_private: bool = True) -> list[str]:
    """One line per changed setting: "Name: Spring Open → Spring Open II"."""
    old, new = old or {}, new or {}
    lines = []
    for key in [*new, *(k for k in old if k not in new)]:
        if old.get(key) == new.get(key):
            continue
        label = _(_SETTING_LABELS[key]) if key in _SETTING_LABELS else key
        if key in _PRIVATE and not show_private:
            lines.append(_("%(setting)s changed.", setting=label))
            continue
        before, after = old.get(key), new.get(key)
        if key == "language":  # each language named in itself, as the form lists them
            before, after = LANGUAGES.get(str(before), before), LANGUAGES.get(str(after), after)
        lines.append(_("%(setting)s: %(old)s → %(new)s", setting=label, old=_value(before), new=_value(after)))
    return lines


def _seats(result: dict[str, Any] | None) -> list[dict[str, Any]]:
    seats = (result or {}).get("seats")
    return [seat for seat in seats if isinstance(seat, dict)] if isinstance(seats, list) else []


def _scores(context: _Context, result: dict[str, Any] | None) -> list[str]:
    """"Eve Adams: 83 points, 6 species" for each seat of a stored result."""
    return [_("%(name)s: %(points)s points, %(species)s species", name=context.name(seat.get("player_id")),
              points=_value(seat.get("points")), species=_value(seat.get("species_count")))
            for seat in _seats(result)]


def _corrections(context: _Context, old: dict[str, Any] | None, new: dict[str, Any] | None) -> list[str]:
    """What a correction changed, seat by seat: "Eve Adams 83 → 38"."""
    before = {seat.get("player_id"): seat for seat in _seats(old)}
    lines = []
    for seat in _seats(new):
        was = before.get(seat.get("player_id"), {})
        name = context.name(seat.get("player_id"))
        if was.get("points") != seat.get("points"):
            lines.append(_("%(name)s %(old)s → %(new)s", name=name, old=_value(was.get("points")),
                           new=_value(seat.get("points"))))
        if was.get("species_count") != seat.get("species_count"):
            lines.append(_("%(name)s species %(old)s → %(new)s", name=name, old=_value(was.get("species_count")),
                           new=_value(seat.get("species_count"))))
    return lines


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _items(value: object) -> list[Any]:
    """A stored list as read (an imported entry may hold anything in its place: then nothing)."""
    return value if isinstance(value, list) else []


def _species(value: Any) -> str:
    """A table's species as stored (an imported entry may hold anything: read as written)."""
    if not isinstance(value, list):
        return _value(value)
    return ", ".join(species_name(s) if isinstance(s, str) else _value(s) for s in value)


def _level(value: Any) -> str:
    """A bot seat's level in the reader's words (a value from another version: as written)."""
    return _(LEVEL_WORDS[value]) if isinstance(value, str) and value in LEVEL_WORDS else _value(value)


def describe(entry: AuditEntry, context: _Context) -> AuditLine:
    """The entry as a sentence in the current language, with its details."""
    old, new = entry.old or {}, entry.new or {}
    action = entry.action
    player = str(new.get("player") or new.get("name") or old.get("player") or old.get("name") or "")
    rnd = _int(new.get("round"))
    named = context.round(rnd)

    def line(sentence: str, details: list[str] | None = None) -> AuditLine:
        return AuditLine(entry, sentence, details or [])

    if action == "event.created":
        return line(_("Event “%(name)s” created.", name=new.get("name", "")))
    if action == "event.updated":
        return line(_("Event settings changed."), _changes(old, new))
    if action == "event.archived":
        return line(_("Event moved to the archive."))
    if action == "event.restored":
        return line(_("Event brought back from the archive."))
    if action == "judge.called":
        note = str(new.get("note") or "")
        return line(_("%(name)s called a judge to table %(table)d (%(round)s).", name=player,
                      table=_int(new.get("table")), round=named), [note] if note else [])
    if action == "judge.taken":
        return line(_("Call from table %(table)d (%(round)s) taken.", table=_int(new.get("table")), round=named))
    if action == "judge.resolved":
        return line(_("Call from table %(table)d (%(round)s) resolved.", table=_int(new.get("table")), round=named))
    if action == "announcement.posted":
        details = [str(new.get("text") or "")]
        if new.get("second_text"):
            details.append(str(new.get("second_text")))
        return line(_("Announcement shown."), details)
    if action == "announcement.withdrawn":
        return line(_("Announcement withdrawn."), [str(old.get("text") or "")])
    if action == "event.players_side":
        return line(_("Players' side settings changed."), _changes(old, new))
    if action == "player.added":
        return line(_("%(name)s registered; plays from round %(round)d.", name=player,
                      round=_int(new.get("joined_round")) or 1))
    if action == "players.imported":
        names = [str(name) for name in _items(new.get("names"))]
        return line(ngettext("%(num)d player imported.", "%(num)d players imported.", len(names)), [", ".join(names)])
    if action == "player.checked_in":
        return line(_("%(name)s checked in.", name=player))
    if action == "player.checked_out":
        return line(_("%(name)s's check-in was undone.", name=player))
    if action == "players.checked_in":
        names = [str(name) for name in _items(new.get("names"))]
        return line(ngettext("%(num)d player checked in at once.", "%(num)d players checked in at once.", len(names)),
                    [", ".join(names)])
    if action == "player.dropped":
        after = _int(new.get("after_round"))
        if after:
            return line(_("%(name)s dropped after round %(round)d.", name=player, round=after))
        return line(_("%(name)s dropped before the first round.", name=player))
    if action == "player.reinstated":
        return line(_("%(name)s reinstated.", name=player))
    if action == "player.fixed_table":
        table = _int(new.get("fixed_table"))
        if table:
            return line(_("%(name)s always sits at Table %(table)d.", name=player, table=table))
        return line(_("%(name)s no longer has a fixed table.", name=player))
    if action == "player.removed":
        return line(_("%(name)s removed from the event.", name=player))
    if action == "player.edited":
        return line(_("Details of %(name)s corrected.", name=str(old.get("name") or player)),
                    _changes(old, new, context.show_emails))
    if action == "round.proposed":
        tables = [table for table in _items(new.get("tables")) if isinstance(table, list)]
        details = [_("Table %(table)d: %(players)s", table=number, players=", ".join(context.name(pid) for pid in table))
                   for number, table in enumerate(tables, start=1)]
        return line(ngettext("%(round)s proposed with %(num)d table.", "%(round)s proposed with %(num)d tables.",
                             len(tables), round=named), details)
    if action == "round.discarded":
        return line(_("Proposal discarded: %(round)s.", round=named))
    if action == "round.swapped":
        names = [str(name) for name in _items(new.get("players"))] + ["", ""]
        numbers = [_int(number) for number in _items(new.get("tables"))] + [0, 0]
        return line(_("%(round)s: %(first)s (Table %(first_table)d) and %(second)s (Table %(second_table)d) "
                      "swapped seats.", round=named, first=names[0], first_table=numbers[0], second=names[1],
                      second_table=numbers[1]))
    if action == "round.published":
        return line(_("%(round)s published.", round=named))
    if action == "round.closed":
        return line(_("%(round)s closed.", round=named))
    if action == "round.reopened":
        return line(_("%(round)s reopened.", round=named))
    if action == "round.clock_started":
        return line(ngettext("Round clock started (%(round)s): %(num)d minute.",
                             "Round clock started (%(round)s): %(num)d minutes.", _int(new.get("minutes")),
                             round=named))
    if action == "round.clock_stopped":
        return line(_("Round clock stopped (%(round)s).", round=named))
    if action == "finals.cut":
        seeds = [context.name(pid) for pid in _items(new.get("seeds"))]
        return line(ngettext("Cut for the finals made: %(num)d player.", "Cut for the finals made: %(num)d players.",
                             len(seeds)), [", ".join(seeds)] if seeds else [])
    if action == "finals.declined":
        declined = context.name(new.get("player"))
        if new.get("replaced_by") is not None:
            return line(_("%(name)s declined their place in the finals; %(other)s takes it.", name=declined,
                          other=context.name(new.get("replaced_by"))))
        return line(_("%(name)s declined their place in the finals.", name=declined))
    if action == "finals.seated":
        tables = [table for table in _items(new.get("tables")) if isinstance(table, list)]
        details = [_("Table %(table)d: %(players)s", table=number, players=", ".join(context.name(pid) for pid in table))
                   for number, table in enumerate(tables, start=1)]
        return line(_("%(round)s seated by seed.", round=round_name(rnd, str(new.get("stage") or "swiss"))), details)
    where = context.where(entry)
    if action == "table.species":
        return line(_("Species of %(table)s changed.", table=where),
                    [_("Before: %(species)s", species=_species(old.get("species"))),
                     _("After: %(species)s", species=_species(new.get("species")))])
    if action == "result.entered":
        return line(_("Result of %(table)s entered.", table=where), _scores(context, new))
    if action == "result.corrected":
        changes = _corrections(context, old, new)
        if len(changes) == 1:
            return line(_("Result of %(table)s corrected: %(change)s", table=where, change=changes[0]))
        return line(_("Result of %(table)s corrected.", table=where), changes)
    if action == "result.confirmed":
        if new.get("by") == "all players":
            return line(_("Result of %(table)s confirmed by all its players.", table=where))
        return line(_("Result of %(table)s confirmed by the staff.", table=where))
    if action == "result.confirmed_by_player":
        return line(_("%(name)s confirmed the result of %(table)s.", name=player, table=where))
    if action == "result.disputed":
        note = str(new.get("note") or "")
        if note:
            return line(_("Result of %(table)s disputed: “%(note)s”", table=where, note=note))
        return line(_("Result of %(table)s disputed.", table=where))
    if action == "result.conflict_refused":
        return line(_("A second result for %(table)s was refused: it was typed over an older version. "
                      "The stored result stayed.", table=where), _scores(context, new))
    if action == "live.made_digital":
        return line(_("%(table)s moved onto the players' devices.", table=where))
    if action == "live.bot_seated":
        return line(_("A bot took seat %(seat)d at %(table)s (%(name)s).", seat=_int(new.get("seat")), table=where,
                      name=player))
    if action == "live.bot_level":
        return line(_("The bot in seat %(seat)d at %(table)s plays at level %(level)s now (was %(old)s).",
                      seat=_int(new.get("seat")), table=where, level=_level(new.get("level")),
                      old=_level(old.get("level"))))
    if action == "live.bot_removed":
        return line(_("Seat %(seat)d at %(table)s given back to %(name)s.", seat=_int(new.get("seat")), table=where,
                      name=player))
    # a kind written by a newer version, or imported: its name and values, readable
    return line(_("Change: %(kind)s", kind=action), _changes(old, new, context.show_emails) if old else
                [_("%(setting)s: %(value)s", setting=key, value=_value(value)) for key, value in new.items()
                 if context.show_emails or key not in _PRIVATE])


def describe_page(session: Session, event_id: int, entries: Sequence[AuditEntry],
                  show_emails: bool = True) -> list[AuditLine]:
    context = _context(session, event_id, entries, show_emails)
    return [describe(entry, context) for entry in entries]


__all__ = ["AuditFilter", "AuditLine", "AuditPage", "audit_filter", "audit_page", "describe", "describe_page"]
