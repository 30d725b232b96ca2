"""Registering players: one by one or from CSV, check-in, drop, late entry, fixed tables."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, func, select

from organizer.core import signals, text
from organizer.core.errors import InputError
from organizer.core.guard import StaleChange, begin_write
from organizer.core.models import PLAYED_STATUSES, AuditEntry, Event, GameTable, Player, Round, Seat
from organizer.core.paging import Page, page_of
from organizer.core.text import from_spreadsheet_cell
from organizer.core.translate import _

MAX_NAME = 80
MAX_CLUB = 80
MAX_TABLE_NUMBER = 500
#: no spaces, controls or separators a spreadsheet would split on
_EMAIL = re.compile(r"[^@\s,;\x00-\x1f\x7f]+@[^@\s,;\x00-\x1f\x7f]+\.[^@\s,;\x00-\x1f\x7f]+")


def name_key(name: str) -> str:
    """Names that differ only in case, width, spacing or invisible characters belong to one
    player (see :func:`.text.name_key`). Cut to the column's width: a name of 80 characters can
    grow under NFKC ("\ufdfa" is 18 letters)."""
    return text.name_key(name)[:MAX_NAME]


@dataclass(frozen=True)
class PlayerInput:
    name: str
    club: str = ""
    email: str = ""


def player_problems(data: PlayerInput) -> dict[str, str]:
    """The one check of a player's details, on typed values (the player form, the CSV import and
    the event import all come here): field → message, empty when they are right."""
    errors: dict[str, str] = {}
    name = text.name_problem(data.name, MAX_NAME, _("Enter the player's name."))
    if name is not None:
        errors["name"] = name
    club = text.text_problem(data.club)
    if club is not None:
        errors["club"] = club
    elif len(data.club) > MAX_CLUB:
        errors["club"] = _("Keep the club to %(count)d characters or fewer.", count=MAX_CLUB)
    if data.email and (len(data.email) > 254 or not _EMAIL.fullmatch(data.email)):
        errors["email"] = _("“%(email)s” is not an e-mail address.", email=data.email)
    return errors


def player_input(name: str, club: str, email: str) -> PlayerInput:
    """Typed details as a person types them: name and club in NFC with runs of spaces folded,
    the e-mail trimmed."""
    return PlayerInput(text.clean_name(name), text.clean_name(club), email.strip())


def check_fields(name: str, club: str, email: str) -> tuple[PlayerInput, dict[str, str]]:
    data = player_input(name, club, email)
    return data, player_problems(data)


@dataclass(frozen=True)
class PlayerCounts:
    registered: int
    checked_in: int  # of those not dropped
    dropped: int


@dataclass(frozen=True)
class PlayersPage:
    """The players list as the organizer reads it: a page of the players whose name holds the
    search, with the whole event's counts."""

    players: Sequence[Player]
    page: Page
    search: str
    counts: PlayerCounts
    #: player id -> table number in the latest round, for the players on this page
    tables: dict[int, int]
    #: the round a player added now joins
    next_round: int


def player_counts(session: Session, event_id: int) -> PlayerCounts:
    registered, checked_in, dropped = session.exec(
        select(func.count(), func.count().filter(col(Player.checked_in) & ~col(Player.dropped)),
               func.count().filter(col(Player.dropped))).where(Player.event_id == event_id)).one()
    return PlayerCounts(int(registered), int(checked_in or 0), int(dropped or 0))


def players_page(session: Session, event_id: int, search: str = "", number: int | None = None,
                 per_page: int = 100) -> PlayersPage:
    """A page of the event's players in name order; ``search`` keeps those whose name holds it
    (case, width and spacing aside, as names are compared)."""
    search = text.clean_name(search)[:MAX_NAME]
    query = select(Player).where(Player.event_id == event_id)
    key = name_key(search)
    if key:
        query = query.where(col(Player.name_key).contains(key, autoescape=True))
    total = session.exec(select(func.count()).select_from(query.subquery())).one()
    page = page_of(int(total), number, per_page)
    players = session.exec(query.order_by(func.lower(Player.name), col(Player.id))
                           .offset(page.offset).limit(page.per_page)).all()
    ids = [p.id for p in players if p.id is not None]
    return PlayersPage(players, page, search, player_counts(session, event_id),
                       seated_table_numbers(session, event_id, ids), started_rounds(session, event_id) + 1)


def list_players(session: Session, event_id: int) -> Sequence[Player]:
    return session.exec(select(Player).where(Player.event_id == event_id)
                        .order_by(func.lower(Player.name), col(Player.id))).all()


def get_player(session: Session, event_id: int, player_id: int) -> Player | None:
    player = session.get(Player, player_id)
    return player if player is not None and player.event_id == event_id else None


def _existing_keys(session: Session, event_id: int, except_id: int | None = None) -> dict[str, str]:
    """Key → name of the event's players. The keys are computed afresh from the names, not read
    from the stored column: rows stored before the key learned width and invisible characters
    still hold the old key."""
    rows = session.exec(select(Player.id, Player.name).where(Player.event_id == event_id)).all()
    return {name_key(name): name for player_id, name in rows if player_id != except_id}


def started_rounds(session: Session, event_id: int) -> int:
    """How many rounds have been published: a player added now joins the round after them."""
    number = session.exec(select(func.max(Round.number)).where(
        Round.event_id == event_id, col(Round.status).in_(PLAYED_STATUSES))).one()
    return int(number or 0)


def _audit(session: Session, event_id: int, actor: str, action: str,
           old: dict[str, Any] | None = None, new: dict[str, Any] | None = None) -> None:
    session.add(AuditEntry(event_id=event_id, actor=actor, action=action, old=old, new=new))


def add_player(session: Session, event: Event, name: str, club: str, email: str, actor: str) -> Player:
    assert event.id is not None
    data, errors = check_fields(name, club, email)
    if not errors:
        existing = _existing_keys(session, event.id).get(name_key(data.name))
        if existing is not None:
            errors["name"] = _("%(name)s is already registered for this event.", name=existing)
    if errors:
        raise InputError(errors)
    joined = started_rounds(session, event.id) + 1
    player = Player(event_id=event.id, name=data.name, name_key=name_key(data.name), club=data.club,
                    email=data.email, joined_round=joined)
    session.add(player)
    signals.players_added.send(session, event=event, players=[player])  # the club links them to its registry
    _audit(session, event.id, actor, "player.added", new={"name": data.name, "joined_round": joined})
    session.commit()
    session.refresh(player)
    return player


def decode_upload(raw: bytes) -> str:
    """Spreadsheets save CSV as UTF-8 (often with a BOM) or, on Windows, as cp1252."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _delimiter(first_line: str) -> str:
    for candidate in ("\t", ";"):
        if candidate in first_line and "," not in first_line:
            return candidate
    return ","


def _readable_rows(reader: Any, problems: list[str]) -> Any:
    """The reader's rows until one cannot be read at all (a field over the csv module's size
    limit, say): that becomes a problem named by line instead of a crash."""
    try:
        yield from reader
    except csv.Error as exc:
        problems.append(_("Line %(line)d: cannot be read as CSV (%(detail)s); check the quotes.",
                           line=reader.line_num, detail=exc))


def parse_player_csv(text: str) -> list[PlayerInput]:
    """Rows of name, optional club, optional e-mail; an optional header row names the columns
    (in any order). Raises InputError naming every bad line, under the key "csv"."""
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    # newline=None: a lone "\r" (old Mac exports) ends a line instead of breaking the reader.
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=_delimiter(first))
    columns = ["name", "club", "email"]
    rows: list[tuple[int, PlayerInput]] = []
    problems: list[str] = []
    header_seen = False
    for row in _readable_rows(reader, problems):
        line = reader.line_num
        # a cell our own export guarded against spreadsheet formulas ('=...) reads as typed
        cells = [from_spreadsheet_cell(cell.strip()) for cell in row]
        if not any(cells):
            continue
        if not header_seen and not rows and not problems:
            header_seen = True
            lowered = [cell.casefold() for cell in cells]
            if "name" in lowered:
                unknown = [cell for cell in lowered if cell and cell not in ("name", "club", "email", "e-mail")]
                if unknown:
                    problems.append(_("Line %(line)d: unknown column “%(column)s” (use name, club, email).",
                                           line=line, column=unknown[0]))
                columns = ["email" if cell == "e-mail" else cell for cell in lowered]
                continue
        if len(cells) > len(columns) and any(cells[len(columns):]):
            problems.append(_("Line %(line)d: %(count)d columns; expected at most %(most)d (%(columns)s). "
                              "Put names containing commas in double quotes.",
                              line=line, count=len(cells), most=len(columns), columns=", ".join(columns)))
            continue
        values = dict(zip(columns, cells, strict=False))  # a short line leaves the last columns empty
        data, errors = check_fields(values.get("name", ""), values.get("club", ""), values.get("email", ""))
        if errors:
            problems.append(_("Line %(line)d: %(problems)s", line=line, problems=" ".join(errors.values())))
            continue
        rows.append((line, data))
    seen: dict[str, int] = {}
    for line, data in rows:
        key = name_key(data.name)
        if key in seen:
            problems.append(_("Line %(line)d: %(name)s already appears on line %(first)d.",
                              line=line, name=data.name, first=seen[key]))
        seen.setdefault(key, line)
    if problems:
        shown = " ".join(problems[:20])
        if len(problems) > 20:
            shown = _("%(problems)s (and %(count)d more)", problems=shown, count=len(problems) - 20)
        raise InputError({"csv": shown})
    if not rows:
        raise InputError({"csv": _("No players found: paste one player per line (name, club, email).")})
    return [data for _, data in rows]


def import_players(session: Session, event: Event, text: str, actor: str) -> list[Player]:
    """All or nothing: one bad line and no player is added."""
    assert event.id is not None
    parsed = parse_player_csv(text)
    existing = _existing_keys(session, event.id)
    clashes = [_("%(name)s is already registered.", name=data.name) for data in parsed
               if name_key(data.name) in existing]
    if clashes:
        raise InputError({"csv": _("Nothing imported. %(problems)s", problems=" ".join(clashes[:20]))})
    joined = started_rounds(session, event.id) + 1
    players = [Player(event_id=event.id, name=data.name, name_key=name_key(data.name), club=data.club,
                      email=data.email, joined_round=joined) for data in parsed]
    session.add_all(players)
    signals.players_added.send(session, event=event, players=players)  # the club links them to its registry
    _audit(session, event.id, actor, "players.imported", new={"names": [p.name for p in players]})
    session.commit()
    return players


def set_checked_in(session: Session, player: Player, checked_in: bool, actor: str) -> Player:
    if player.checked_in != checked_in:
        player.checked_in = checked_in
        session.add(player)
        _audit(session, player.event_id, actor, "player.checked_in" if checked_in else "player.checked_out",
               new={"player": player.name})
        session.commit()
    return player


class StaleList(StaleChange):
    """A "Check in all" form whose list no longer holds (the shared guard's refusal, worded as one
    translatable sentence)."""

    def __init__(self) -> None:
        InputError.__init__(self, {"": _("The list of players changed since you opened it; nothing was saved. "
                                         "Check the list as it is now and try again.")})


def waiting_ids(session: Session, event_id: int, search: str = "") -> list[int]:
    """The players whose name holds ``search`` (all, when empty) who are neither checked in nor
    dropped: those a "Check in all" shown now would check in, on every page of the list."""
    query = select(Player.id).where(Player.event_id == event_id, ~col(Player.checked_in), ~col(Player.dropped))
    key = name_key(text.clean_name(search)[:MAX_NAME])
    if key:
        query = query.where(col(Player.name_key).contains(key, autoescape=True))
    return sorted(int(pid) for pid in session.exec(query).all() if pid is not None)


def check_in_many(session: Session, event_id: int, player_ids: Sequence[int], actor: str) -> list[Player]:
    """Check in the players a "Check in all" form listed when it was shown: all or nothing. A
    form listing a player who has since been removed or dropped is stale (StaleChange, nothing
    saved); one already checked in by someone else stays checked in. Players added after the form
    was shown are not in it, so they are not checked in by it."""
    # The players' rows locked, in id order (SQLite: the whole database): a drop of one of them
    # waits for this commit, or came first and is seen. Not the event's row: a drop's audit entry
    # takes a key-share lock on it while holding the player's, which would deadlock.
    begin_write(session)
    wanted = set(player_ids)
    players = session.exec(select(Player).where(Player.event_id == event_id, col(Player.id).in_(wanted))
                           .order_by(col(Player.id)).with_for_update()
                           .execution_options(populate_existing=True)).all()
    if len(players) != len(wanted) or any(player.dropped for player in players):
        raise StaleList()
    changed = [player for player in players if not player.checked_in]
    for player in changed:
        player.checked_in = True
        session.add(player)
    if changed:
        _audit(session, event_id, actor, "players.checked_in", new={"names": sorted(p.name for p in changed)})
    session.commit()
    return changed


def set_dropped(session: Session, player: Player, dropped: bool, actor: str) -> Player:
    """A dropped player keeps every past result and is not seated in later rounds."""
    if player.dropped == dropped:
        return player
    player.dropped = dropped
    player.dropped_after_round = started_rounds(session, player.event_id) if dropped else None
    if not dropped:
        player.joined_round = max(player.joined_round, started_rounds(session, player.event_id) + 1)
    session.add(player)
    _audit(session, player.event_id, actor, "player.dropped" if dropped else "player.reinstated",
           new={"player": player.name, "after_round": player.dropped_after_round})
    session.commit()
    return player


def set_fixed_table(session: Session, player: Player, raw: str, actor: str) -> Player:
    raw = raw.strip()
    number: int | None = None
    if raw:
        number = text.whole_number(raw)
        if number is None or not 1 <= number <= MAX_TABLE_NUMBER:
            raise InputError({"fixed_table": _("Enter a table number from 1 to %(most)d (%(hint)s), or leave empty.",
                                               most=MAX_TABLE_NUMBER, hint=_(text.DIGITS_HINT))})
    if number != player.fixed_table:
        old = player.fixed_table
        player.fixed_table = number
        session.add(player)
        _audit(session, player.event_id, actor, "player.fixed_table",
               old={"player": player.name, "fixed_table": old}, new={"player": player.name, "fixed_table": number})
        session.commit()
    return player


def has_been_seated(session: Session, player_id: int) -> bool:
    return session.exec(select(Seat.id).where(Seat.player_id == player_id)).first() is not None


def remove_player(session: Session, player: Player, actor: str) -> None:
    """Only a player never seated can be removed (a typo); anyone who played is dropped instead."""
    assert player.id is not None
    if has_been_seated(session, player.id):
        raise InputError({"": _("%(name)s has been seated in a round; drop them instead of removing.", name=player.name)})
    _audit(session, player.event_id, actor, "player.removed", old={"name": player.name})
    session.delete(player)
    session.commit()


def seated_table_numbers(session: Session, event_id: int, player_ids: Sequence[int] | None = None) -> dict[int, int]:
    """Player id → table number in the event's latest round, for the player list (only the
    players named, when they are)."""
    latest = session.exec(select(Round).where(Round.event_id == event_id).order_by(col(Round.number).desc())).first()
    if latest is None:
        return {}
    query = (select(Seat.player_id, GameTable.number).join(GameTable, col(GameTable.id) == Seat.table_id)
             .where(GameTable.round_id == latest.id))
    if player_ids is not None:
        query = query.where(col(Seat.player_id).in_(player_ids))
    rows = session.exec(query).all()
    return {pid: number for pid, number in rows if pid is not None}


def update_player(session: Session, player: Player, name: str, club: str, email: str, actor: str) -> Player:
    """Correct a player's name, club or e-mail; results follow the player, not the name."""
    data, errors = check_fields(name, club, email)
    if not errors:
        clash = _existing_keys(session, player.event_id, except_id=player.id).get(name_key(data.name))
        if clash is not None:
            errors["name"] = _("%(name)s is already registered for this event.", name=clash)
    if errors:
        raise InputError(errors)
    old = {"name": player.name, "club": player.club, "email": player.email}
    new = {"name": data.name, "club": data.club, "email": data.email}
    if old != new:
        player.name, player.name_key, player.club, player.email = data.name, name_key(data.name), data.club, data.email
        session.add(player)
        _audit(session, player.event_id, actor, "player.edited", old=old, new=new)
        session.commit()
    return player
