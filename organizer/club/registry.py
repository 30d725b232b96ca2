"""The club's player registry: one entry per person across the club's events.

An event's player is matched when added (form or CSV): the same e-mail is the same person; else
the same name (``text.name_key``: case, width, spacing, invisibles aside; accents are kept, so
"Zoe" and "Zoë" differ) is, when neither side carries an e-mail or both carry the same one. A
name shared with an entry whose e-mail differs or is missing on one side, a name held by two
entries, or an entry already playing in that event, is doubtful: the player waits on the review
screen, unlinked, until the organizer picks. Duplicates found later are merged: the links move,
the merged entry stays (pointing at the survivor) as the record of what happened.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any

from sqlalchemy import bindparam, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, SQLModel, col, func, select

from organizer.core import text
from organizer.core.errors import InputError
from organizer.core.guard import lock
from organizer.core.models import ClubPlayer, Event, Player, RegistryReview, new_code, utcnow
from organizer.core.translate import N_, _

MAX_NAME = 80
#: the longest chain of merges a walk follows (entry → survivor → …); a longer one, or one that
#: comes back to an entry it passed, is broken data: the walk stops at the entry it started from
MAX_CHAIN = 100

log = logging.getLogger(__name__)


def email_key(email: str) -> str:
    return email.strip().casefold()


def name_key(name: str) -> str:
    return text.name_key(name)[:MAX_NAME]


@dataclass(frozen=True)
class Match:
    """What the registry says of a name and e-mail: a sure entry, no entry (a new person), or
    doubtful candidates with the reason."""

    club_player_id: int | None
    candidates: tuple[int, ...] = ()
    reason: str = ""

    @property
    def doubtful(self) -> bool:
        return bool(self.candidates)


def _active(session: Session) -> Any:
    return select(ClubPlayer).where(col(ClubPlayer.merged_into_id).is_(None))


def _in_event(session: Session, event_id: int, club_player_ids: Iterable[int]) -> set[int]:
    ids = list(club_player_ids)
    if not ids:
        return set()
    rows = session.exec(select(Player.club_player_id).where(
        Player.event_id == event_id, col(Player.club_player_id).in_(ids))).all()
    return {r for r in rows if r is not None}


@dataclass(frozen=True)
class _Known:
    """A registry entry as matching sees it."""

    id: int
    email: str


def _verdict(mail: str, by_mail: Sequence[_Known], same_name: Sequence[_Known], in_event: set[int]) -> Match:
    """The matching rules, over the active entries with the player's e-mail (``by_mail``) and
    with their name (``same_name``), each in id order, and the entries already playing in the
    event: one place for them, whether one player is matched or a whole imported event."""
    if mail:
        mail_ids = [c.id for c in by_mail]
        taken = {i for i in mail_ids if i in in_event}
        free = [i for i in mail_ids if i not in taken]
        if len(free) == 1 and not taken:
            return Match(free[0])
        if mail_ids:
            return Match(None, tuple(mail_ids), N_("this e-mail is already in the registry for someone in this event")
                         if taken else N_("several registry entries share this e-mail"))
    if not same_name:
        return Match(None)
    ids = tuple(c.id for c in same_name)
    if any(i in in_event for i in ids):
        return Match(None, ids, N_("an entry with this name already plays in this event"))
    if len(same_name) > 1:
        return Match(None, ids, N_("several registry entries share this name"))
    entry = same_name[0]
    if not mail and not entry.email:
        return Match(entry.id)
    if mail and entry.email:
        return Match(None, ids, N_("same name, different e-mail"))
    return Match(None, ids, N_("same name, e-mail missing on one side"))


def find_match(session: Session, name: str, email: str, event_id: int | None = None) -> Match:
    """The registry's verdict for a player called ``name`` with ``email`` (in ``event_id``, whose
    players' entries cannot be matched twice)."""
    mail = email_key(email)
    by_mail = [_Known(c.id, c.email) for c in session.exec(
        _active(session).where(ClubPlayer.email == mail).order_by(col(ClubPlayer.id))).all()
        if c.id is not None] if mail else []
    same_name = [_Known(c.id, c.email) for c in session.exec(
        _active(session).where(ClubPlayer.name_key == name_key(name)).order_by(col(ClubPlayer.id))).all()
        if c.id is not None]
    in_event = (_in_event(session, event_id, [c.id for c in by_mail] + [c.id for c in same_name])
                if event_id is not None else set())
    return _verdict(mail, by_mail, same_name, in_event)


def _new_entry(session: Session, player: Player) -> ClubPlayer:
    entry = ClubPlayer(name=player.name, name_key=name_key(player.name), email=email_key(player.email))
    session.add(entry)
    session.flush()
    return entry


def link_new_players(session: Session, players: Sequence[Player]) -> int:
    """Match freshly added players (before their commit; flushes): link the sure ones, make new
    entries for new people, queue the doubtful for review. Returns how many wait for review."""
    waiting = 0
    for player in players:
        if player.club_player_id is not None:
            continue
        session.flush()
        match = find_match(session, player.name, player.email, player.event_id)
        if match.doubtful:
            assert player.id is not None  # flushed above
            session.add(RegistryReview(player_id=player.id, candidates=list(match.candidates), reason=match.reason))
            waiting += 1
            continue
        entry_id = match.club_player_id if match.club_player_id is not None else _new_entry(session, player).id
        player.club_player_id = entry_id
        if match.club_player_id is not None and player.email:
            entry = session.get(ClubPlayer, entry_id)
            if entry is not None and not entry.email:
                entry.email = email_key(player.email)
                session.add(entry)
        session.add(player)
    return waiting


def link_unmatched(session: Session) -> int:
    """Match every player in no registry entry and not waiting for review (players from an event
    import, or from before a review was undone). Returns how many now wait for review."""
    waiting_ids = select(RegistryReview.player_id)
    players = session.exec(select(Player).where(col(Player.club_player_id).is_(None),
                                                col(Player.id).not_in(waiting_ids))
                           .order_by(col(Player.id))).all()
    events = {p.event_id for p in players}
    waiting = link_new_players(session, players)
    session.commit()
    _ratings_follow(session, events)
    return waiting


def _ratings_follow(session: Session, event_ids: set[int]) -> None:
    """Links changed (a review settled, a merge, players matched): the ratings are replayed from
    the earliest of the events the moved players played in."""
    from organizer.club import ratings  # the ratings read the registry's links, not the reverse

    if event_ids:
        ratings.follow_quietly(session, sorted(event_ids))


#: ids given to the entries an imported event creates until they are inserted: above any real
#: id, in the order made, so "in id order" holds for them as it will for their real ids
_NEW = 1 << 60


def link_event_players(session: Session, event_id: int) -> int:
    """Match every unlinked player of one event (an imported event; before its commit) in one
    pass, player by player in id order with the verdicts :func:`find_match` gives: sure ones
    linked, new people made entries, doubtful ones queued for review. The registry is read once
    and written in a few statements (an event of 10,000 players costs no 40,000 queries).
    Returns how many wait for review."""
    waiting_ids = select(RegistryReview.player_id)
    # the players' stored name keys are the registry's (``text.name_key`` cut to 80 characters):
    # read, not made again (16,000 of them took seconds)
    players = session.execute(
        sa_select(col(Player.id), col(Player.name), col(Player.email), col(Player.name_key))
        .where(col(Player.event_id) == event_id, col(Player.club_player_id).is_(None), col(Player.id).not_in(waiting_ids))
        .order_by(col(Player.id))).all()
    if not players:
        return 0
    mails = {email_key(email) for _, _, email, _ in players} - {""}
    keys = {key for _, _, _, key in players}
    by_mail: dict[str, list[_Known]] = {}
    by_key: dict[str, list[_Known]] = {}
    known: dict[int, _Known] = {}
    found: dict[int, tuple[str, str]] = {}
    for column, values in ((ClubPlayer.email, sorted(mails)), (ClubPlayer.name_key, sorted(keys))):
        for start in range(0, len(values), 1000):
            for entry_id, email, key in session.execute(
                    sa_select(col(ClubPlayer.id), col(ClubPlayer.email), col(ClubPlayer.name_key))
                    .where(col(ClubPlayer.merged_into_id).is_(None), col(column).in_(values[start:start + 1000]))):
                found[entry_id] = (email, key)
    for entry_id in sorted(found):
        email, key = found[entry_id]
        known[entry_id] = _Known(entry_id, email)
        if email:
            by_mail.setdefault(email, []).append(known[entry_id])
        by_key.setdefault(key, []).append(known[entry_id])
    in_event = {cp for cp in session.exec(select(Player.club_player_id).where(
        Player.event_id == event_id, col(Player.club_player_id).is_not(None))).all() if cp is not None}

    links: dict[int, int] = {}
    made: list[dict[str, Any]] = []
    mails_filled: dict[int, str] = {}
    reviews: list[tuple[int, tuple[int, ...], str]] = []
    for player_id, name, email, key in players:
        mail = email_key(email)
        match = _verdict(mail, by_mail.get(mail, []) if mail else [], by_key.get(key, []), in_event)
        if match.doubtful:
            reviews.append((player_id, match.candidates, match.reason))
            continue
        entry_id = match.club_player_id
        if entry_id is None:
            entry_id = _NEW + len(made)
            made.append({"name": name, "name_key": key, "email": mail})
            known[entry_id] = _Known(entry_id, mail)
            by_key.setdefault(key, []).append(known[entry_id])
            if mail:
                by_mail.setdefault(mail, []).append(known[entry_id])
        elif mail and not known[entry_id].email:
            # the player's e-mail completes the entry, and counts for the players after
            known[entry_id] = _Known(entry_id, mail)
            by_key[key] = [known[c.id] for c in by_key[key]]
            by_mail.setdefault(mail, []).append(known[entry_id])
            by_mail[mail].sort(key=lambda c: c.id)
            if entry_id < _NEW:
                mails_filled[entry_id] = mail
            else:
                made[entry_id - _NEW]["email"] = mail
        links[player_id] = entry_id
        in_event.add(entry_id)

    # table-level statements: the ORM's bulk paths cost seconds more at 16,000 rows
    connection = session.connection()
    real: dict[int, int] = {}
    if made:
        now = utcnow()
        entries = SQLModel.metadata.tables[str(ClubPlayer.__tablename__)]
        rows = [{**row, "created_at": now, "public_profile": False, "public_code": new_code()} for row in made]
        inserted = connection.execute(
            insert(entries).returning(entries.c.id, sort_by_parameter_order=True), rows).scalars().all()
        real = {_NEW + i: new_id for i, new_id in enumerate(inserted)}
    if links:
        players_table = SQLModel.metadata.tables[str(Player.__tablename__)]
        connection.execute(update(players_table).where(players_table.c.id == bindparam("player"))
                           .values(club_player_id=bindparam("entry")),
                           [{"player": p, "entry": real.get(e, e)} for p, e in links.items()])
    if mails_filled:
        session.execute(update(ClubPlayer), [{"id": e, "email": m} for e, m in mails_filled.items()])
    session.add_all(RegistryReview(player_id=p, candidates=[real.get(c, c) for c in candidates], reason=reason)
                    for p, candidates, reason in reviews)
    session.flush()
    return len(reviews)


@dataclass(frozen=True)
class ReviewItem:
    review: RegistryReview
    player: Player
    event: Event
    candidates: list[ClubPlayer]


def pending_reviews(session: Session) -> list[ReviewItem]:
    rows = session.exec(select(RegistryReview, Player, Event).join(Player, col(Player.id) == RegistryReview.player_id)
                        .join(Event, col(Event.id) == Player.event_id).order_by(col(RegistryReview.id))).all()
    items = []
    for review, player, event in rows:
        entries = [session.get(ClubPlayer, i) for i in review.candidates]
        items.append(ReviewItem(review, player, event, [e for e in entries if e is not None]))
    return items


def resolve_review(session: Session, review_id: int, club_player_id: int | None) -> Player:
    """The organizer's answer to a doubtful match: the player is that entry, or (None) a new
    person in the registry."""
    review = session.get(RegistryReview, review_id)
    if review is None:
        raise InputError({"": _("That review was already settled.")})
    player = session.get(Player, review.player_id)
    assert player is not None
    if club_player_id is None:
        player.club_player_id = _new_entry(session, player).id
    else:
        entry = session.get(ClubPlayer, club_player_id)
        if entry is None or entry.merged_into_id is not None:
            raise InputError({"choice": _("Pick one of the entries shown.")})
        if _in_event(session, player.event_id, [club_player_id]):
            raise InputError({"choice": _("%(name)s already plays in this event: a different person.", name=entry.name)})
        player.club_player_id = club_player_id
        if player.email and not entry.email:
            entry.email = email_key(player.email)
            session.add(entry)
    session.add(player)
    session.delete(review)
    session.commit()
    _ratings_follow(session, {player.event_id})
    return player


def merge(session: Session, keep_id: int, gone_id: int) -> ClubPlayer:
    """``gone_id`` was the same person as ``keep_id``: its events' players move to ``keep_id``;
    its row stays, marked merged, and the ratings are replayed from the first of those events.

    Both rows are locked (lower id first) before anything is checked, so two merges of the same
    entries at once are served one after the other: the second finds one of them merged and is
    refused. The survivor is not merged (checked under the lock), so its chain is itself and the
    new link cannot lead back to ``gone_id``: no merge stores a cycle."""
    if keep_id == gone_id:
        raise InputError({"merge": _("Pick two different registry entries.")})
    locked = {row_id: lock(session, ClubPlayer, row_id) for row_id in sorted((keep_id, gone_id))}
    keep, gone = locked[keep_id], locked[gone_id]
    if keep is None or gone is None:
        session.rollback()
        raise InputError({"merge": _("Pick two different registry entries.")})
    if keep.merged_into_id is not None or gone.merged_into_id is not None:
        session.rollback()
        raise InputError({"merge": _("One of them was already merged into another entry.")})
    events_keep = set(session.exec(select(Player.event_id).where(Player.club_player_id == keep_id)).all())
    both = [e for e in session.exec(select(Player.event_id).where(Player.club_player_id == gone_id)).all()
            if e in events_keep]
    if both:
        event = session.get(Event, both[0])
        message = (_("Both played in %(event)s: two different people.", event=event.name) if event
                   else _("Both played in one event: two different people."))
        session.rollback()
        raise InputError({"merge": message})
    moved = set()
    for player in session.exec(select(Player).where(Player.club_player_id == gone_id)).all():
        player.club_player_id = keep_id
        moved.add(player.event_id)
        session.add(player)
    if gone.email and not keep.email:
        keep.email = gone.email
    gone.merged_into_id, gone.merged_at = keep_id, utcnow()
    session.add_all([keep, gone])
    session.commit()
    _ratings_follow(session, moved)
    session.refresh(keep)
    return keep


@dataclass(frozen=True)
class RegistryRow:
    entry: ClubPlayer
    events: int


def registry_rows(session: Session, search: str = "", limit: int = 200) -> list[RegistryRow]:
    """Active entries in name order (those whose name holds ``search``), with their events."""
    query = select(ClubPlayer, func.count(col(Player.id))).outerjoin(
        Player, col(Player.club_player_id) == ClubPlayer.id).where(col(ClubPlayer.merged_into_id).is_(None))
    key = name_key(text.clean_name(search))
    if key:
        query = query.where(col(ClubPlayer.name_key).contains(key, autoescape=True))
    rows = session.exec(query.group_by(col(ClubPlayer.id)).order_by(col(ClubPlayer.name_key), col(ClubPlayer.id))
                        .limit(limit)).all()
    return [RegistryRow(entry, int(count)) for entry, count in rows]


def duplicate_names(session: Session) -> list[list[ClubPlayer]]:
    """Groups of active entries sharing a name: candidates for a merge (or two real people)."""
    keys = session.exec(select(ClubPlayer.name_key).where(col(ClubPlayer.merged_into_id).is_(None))
                        .group_by(col(ClubPlayer.name_key)).having(func.count() > 1)).all()
    return [list(session.exec(_active(session).where(ClubPlayer.name_key == k).order_by(col(ClubPlayer.id))).all())
            for k in keys]


@dataclass(frozen=True)
class ProfileEvent:
    event: Event
    player: Player
    points: float | None  # tournament points (None: no result counted yet)
    game_points: int


@dataclass(frozen=True)
class UnratedGame:
    """A settled game the ratings leave out, as the player's history shows it (plain values)."""

    event_name: str
    event_date: Date
    round_number: int
    table_number: int
    reason: str  # English, translated where shown


@dataclass(frozen=True)
class Profile:
    entry: ClubPlayer
    events: list[ProfileEvent]
    history: list[Any]  # ratings.HistoryPoint, oldest first
    chart: str  # SVG
    unrated: list[UnratedGame] = field(default_factory=list)


def profile(session: Session, club_player_id: int) -> Profile | None:
    """A club player's page: their events with results, their rating after each event."""
    from organizer.club import leagues, ratings

    entry = session.get(ClubPlayer, club_player_id)
    if entry is None:
        return None
    entry = _survivor(session, entry)  # an old link still finds the person
    rows = session.exec(select(Player, Event).join(Event, col(Event.id) == Player.event_id)
                        .where(Player.club_player_id == entry.id)
                        .order_by(col(Event.date).desc(), col(Event.id).desc())).all()
    scores = {s.event_id: s for s in leagues.event_scores(session, [e.id for _, e in rows if e.id is not None])
              .get(entry.id or 0, [])}
    events = [ProfileEvent(event, player, float(scores[event.id].points) if event.id in scores else None,
                           scores[event.id].game_points if event.id in scores else 0) for player, event in rows]
    history = ratings.history(session, entry.id or 0)
    named = {event.id: event for _, event in rows}
    unrated = [UnratedGame(named[u.event_id].name, named[u.event_id].date, u.round_number, u.table_number, u.reason)
               for u in ratings.unrated_games(session, entry.id or 0) if u.event_id in named]
    return Profile(entry, events, history, ratings.chart_svg(history), unrated)


def _chain(session: Session, entry: ClubPlayer) -> list[ClubPlayer]:
    """The entries from ``entry`` along its merges to the one not merged, at most
    :data:`MAX_CHAIN` steps. A chain that comes back to an entry it passed, points at a missing
    entry or goes on longer is broken data (logged): it ends at ``entry`` itself."""
    chain, seen = [entry], {entry.id}
    while chain[-1].merged_into_id is not None:
        target = chain[-1].merged_into_id
        survivor = session.get(ClubPlayer, target) if target not in seen and len(chain) <= MAX_CHAIN else None
        if survivor is None:
            log.error("registry entry %s: its chain of merges %s is broken (%s); it is shown as itself",
                      entry.id, " → ".join(str(e.id) for e in chain) + f" → {target}",
                      "a cycle" if target in seen else "too long" if len(chain) > MAX_CHAIN else "a missing entry")
            return [entry]
        seen.add(survivor.id)
        chain.append(survivor)
    return chain


def _survivor(session: Session, entry: ClubPlayer) -> ClubPlayer:
    """The entry a merged one now is (itself when not merged, or when its chain is broken)."""
    return _chain(session, entry)[-1]


def set_public_profile(session: Session, club_player_id: int, public: bool) -> ClubPlayer:
    """The organizer records the player's choice: their profile public or not (a merged entry's
    choice is its survivor's)."""
    entry = session.get(ClubPlayer, club_player_id)
    if entry is None:
        raise InputError({"public_profile": _("That registry entry does not exist.")})
    entry = _survivor(session, entry)
    entry.public_profile = public
    session.add(entry)
    session.commit()
    return entry


def own_entry(session: Session, player: Player) -> ClubPlayer | None:
    """The registry entry of an event's player (None while unmatched or waiting for review)."""
    if player.club_player_id is None:
        return None
    entry = session.get(ClubPlayer, player.club_player_id)
    return _survivor(session, entry) if entry is not None else None


def set_own_public_profile(session: Session, player: Player, public: bool) -> ClubPlayer:
    """The player's own choice, from their page (their link is the credential)."""
    entry = own_entry(session, player)
    if entry is None:
        raise InputError({"public_profile": _("Your club profile is not set up yet; ask the organizer.")})
    entry.public_profile = public
    session.add(entry)
    session.commit()
    return entry


@dataclass(frozen=True)
class PublicEvent:
    """One event on a public profile: what anyone may read of it."""

    name: str
    date: Date
    points: float | None  # tournament points (None: no result counted yet)
    game_points: int


@dataclass(frozen=True)
class PublicProfile:
    """What a player agreed to show: their name, events, results and rating over time. Built
    from plain values only (no model rows), so no e-mail, link or token can reach the page."""

    name: str
    code: str
    events: list[PublicEvent]
    history: list[Any]  # ratings.HistoryPoint, oldest first
    chart: str  # SVG
    unrated: list[UnratedGame] = field(default_factory=list)


def public_profile(session: Session, code: str) -> PublicProfile | None:
    """The public profile at ``code``, or None when there is none or the player has not agreed
    (the same answer: nobody learns whether a code exists)."""
    if not code or len(code) > 32:
        return None
    entry = session.exec(select(ClubPlayer).where(ClubPlayer.public_code == code)).first()
    if entry is None:
        return None
    entry = _survivor(session, entry)
    if not entry.public_profile or entry.id is None:
        return None
    found = profile(session, entry.id)
    if found is None:
        return None
    return PublicProfile(entry.name, entry.public_code,
                         [PublicEvent(item.event.name, item.event.date, item.points, item.game_points)
                          for item in found.events],
                         found.history, found.chart, found.unrated)
