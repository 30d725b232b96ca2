"""A player's own page: their table and seat this round, their results, self check-in,
dropping themselves, and reporting, confirming or disputing their paper table's result.

The token in the link is the player's only credential: every action acts for that player alone,
at their own table of the current round. Results go through the same functions as staff entries
(``results.save_result``, ``confirm_by_seat``, ``dispute``: versions, conflicts, locks, audit),
with the actor "player NAME"."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from organizer.core import guard, rate_windows
from organizer.core.errors import InputError
from organizer.core.models import (
    EntryMode,
    Event,
    Finals,
    GameTable,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundStage,
    RoundStatus,
    Seat,
    SelfReport,
    utcnow,
)
from organizer.core.translate import _, round_name
from organizer.public import service
from organizer.public.service import PlayerRound, places_at_table
from organizer.rounds import results
from organizer.rounds import service as round_service

#: uses per player per window: generous for a person, useless for a script
CHECK_IN_LIMIT, CHECK_IN_WINDOW = 10, 600.0
REPORT_LIMIT, REPORT_WINDOW = 20, 600.0
#: the entry modes a player may use from a phone (a score case upload is for staff)
PLAYER_MODES = (EntryMode.TOTALS, EntryMode.SCOREPAD, EntryMode.ASSISTANT)


class RateLimited(InputError):
    def __init__(self, retry_after: int) -> None:
        super().__init__({"": _("Too many tries; wait %(seconds)d seconds.", seconds=retry_after)})
        self.retry_after = retry_after


def player_by_token(session: Session, token: str) -> Player | None:
    if not service.MIN_PLAYER_TOKEN <= len(token) <= service.MAX_PLAYER_TOKEN:
        return None
    return session.exec(select(Player).where(col(Player.token) == token)).first()


def actor(player: Player) -> str:
    return f"player {player.name}"[:120]


@dataclass(frozen=True)
class PlayerPage:
    event: Event
    player: Player
    round: Round | None
    #: the player's table in the current published round (None: not seated in it)
    view: round_service.TableSeating | None
    seat_position: int | None
    #: the private seat link's token when the table is digital
    seat_token: str | None
    results: list[PlayerRound]
    confirmed_seats: frozenset[int]
    #: why no round is on for anyone ("Round 1 is over."), None while a round is on or none closed yet
    closed: str | None
    #: what the player may do now (nothing once they dropped out or the event is over)
    may_check_in: bool
    may_report: bool
    may_confirm: bool
    read_only: bool


@dataclass(frozen=True)
class _Seated:
    """Where the player sits now: the event, its current round, and their table and seat in it
    when that round is published."""

    event: Event
    round: Round | None
    view: round_service.TableSeating | None
    seat_position: int | None
    seat_token: str | None
    closed: str | None
    #: every round of the event is closed
    over: bool


def _seated_now(session: Session, player: Player) -> _Seated:
    event = session.get(Event, player.event_id)
    assert event is not None and event.id is not None
    rounds = round_service.event_rounds(session, event.id)
    published = [r for r in rounds if r.status == RoundStatus.PUBLISHED]
    rnd = published[-1] if published else (rounds[-1] if rounds else None)
    view = seat_position = seat_token = None
    if rnd is not None and rnd.id is not None and rnd.status == RoundStatus.PUBLISHED:
        view, seat_position, seat_token = _seat_of(session, rnd.id, player)
    finals_to_play = False
    if not published and event.id is not None:
        cut = session.exec(select(Finals).where(Finals.event_id == event.id)).first()
        finals_to_play = cut is not None and not any(
            r.stage == RoundStage.FINAL and r.status == RoundStatus.FINISHED for r in rounds)
    closed, over = _closed(event, rounds, finals_to_play) if not published else (None, False)
    return _Seated(event, rnd, view, seat_position, seat_token, closed, over)


def _closed(event: Event, rounds: list[Round], finals_to_play: bool = False) -> tuple[str | None, bool]:
    """What is true when no round is on: the last closed round is over, the next one is being
    seated, or the event is over (and whether it is). With a cut made for the finals, the event
    goes on until the final table is closed."""
    finished = [r for r in rounds if r.status == RoundStatus.FINISHED]
    if not finished:
        return None, False
    last = max(finished, key=lambda r: r.number)
    following = sorted((r for r in rounds if r.number > last.number), key=lambda r: r.number)
    swiss = [r for r in finished if r.stage == RoundStage.SWISS]
    if not following and len(swiss) >= event.rounds and not finals_to_play:
        return _("The event is over."), True
    if last.stage == RoundStage.SWISS and (not following or following[0].stage == RoundStage.SWISS):
        if following:
            return _("Round %(number)d is over; round %(next)d is being seated.", number=last.number,
                     next=following[0].number), False
        return _("Round %(number)d is over.", number=last.number), False
    if following:
        return _("%(round)s: played and closed. Next: %(next)s, being seated.",
                 round=round_name(last.number, last.stage),
                 next=round_name(following[0].number, following[0].stage)), False
    return _("%(round)s: played and closed.", round=round_name(last.number, last.stage)), False


def _history(session: Session, event_id: int, player: Player) -> list[PlayerRound]:
    """The player's tables in the rounds made final, in round order, with their points and place
    (none without a result that counts): one query, not a table's worth of them per round."""
    rows = session.exec(
        select(Round.number, GameTable.number, Result, Round.stage).join(GameTable, col(GameTable.round_id) == Round.id)
        .join(Seat, col(Seat.table_id) == GameTable.id).outerjoin(Result, col(Result.table_id) == GameTable.id)
        .where(Round.event_id == event_id, Round.status != RoundStatus.PROPOSED, Seat.player_id == player.id)
        .order_by(col(Round.number))).all()
    history = []
    for round_number, table_number, result, stage in rows:
        points, place = places_at_table(result).get(player.id or 0, (None, None))
        history.append(PlayerRound(round_number, table_number, points, place, str(stage)))
    return history


def player_page(session: Session, player: Player) -> PlayerPage:
    """The player's page, built once per request: the actions check the player's table with
    :func:`_seated_now` alone, and the page shown after them is built from what they changed."""
    now = _seated_now(session, player)
    event, view = now.event, now.view
    assert event.id is not None
    confirmed: frozenset[int] = frozenset()
    if view is not None and view.result is not None:
        confirmed = frozenset(c.seat_id for c in results.confirmations_of(session, view.result) if c.seat_id)
    read_only = player.dropped or now.over
    paper = view is not None and not view.table.digital
    reporting = event.self_report != SelfReport.OFF and paper and not read_only
    return PlayerPage(
        event, player, now.round, view, now.seat_position, now.seat_token if view and view.table.digital else None,
        _history(session, event.id, player), confirmed, now.closed,
        may_check_in=event.self_check_in and not read_only and not player.checked_in,
        may_report=reporting and (view is not None and (view.result is None or view.result.status != ResultStatus.CONFIRMED)),
        may_confirm=reporting and event.self_report == SelfReport.PLAYERS and view is not None
        and view.result is not None and view.result.status == ResultStatus.ENTERED,
        read_only=read_only)


def _seat_of(session: Session, round_id: int, player: Player) -> tuple[round_service.TableSeating | None, int | None, str | None]:
    table_number = session.exec(select(GameTable.number).join(Seat, col(Seat.table_id) == GameTable.id).where(
        GameTable.round_id == round_id, Seat.player_id == player.id)).first()
    if table_number is None:
        return None, None, None
    views = round_service.tables_of(session, round_id, table_number)
    if not views:
        return None, None, None
    for seated in views[0].seats:
        if seated.seat.player_id == player.id:
            return views[0], seated.seat.position, seated.seat.token
    return None, None, None


def _claim(session: Session, what: str, player: Player, limit: int, window: float) -> None:
    claim = rate_windows.claim(session, f"player-{what}:{player.id}", limit, window)
    if not claim.allowed:
        raise RateLimited(claim.retry_after)


def _writable(session: Session, player: Player) -> _Seated:
    """Where the player sits now, else InputError: a dropped player, or an event that is over,
    changes nothing any more."""
    if player.dropped:
        raise InputError({"": _("You have dropped from this event; your page only shows it now.")})
    now = _seated_now(session, player)
    if now.over:
        raise InputError({"": now.closed or ""})
    return now


def check_in(session: Session, player: Player) -> Player:
    """The player checks themselves in (when the organizer opened self check-in)."""
    _writable(session, player)
    event = session.get(Event, player.event_id)
    assert event is not None
    if not event.self_check_in:
        raise InputError({"": _("Check-in is at the organizer's desk for this event.")})
    _claim(session, "check-in", player, CHECK_IN_LIMIT, CHECK_IN_WINDOW)
    if not player.checked_in:
        player.self_checked_in_at = utcnow()
        from organizer.players import service as player_service

        player_service.set_checked_in(session, player, True, actor(player))
    return player


def drop(session: Session, player: Player) -> Player:
    """The player leaves the event (their past results stay); from then on their page is read-only."""
    _writable(session, player)
    _claim(session, "check-in", player, CHECK_IN_LIMIT, CHECK_IN_WINDOW)
    from organizer.players import service as player_service

    return player_service.set_dropped(session, player, True, actor(player))


def _my_table(session: Session, player: Player, round_number: int,
              table_number: int) -> tuple[Event, Round, round_service.TableSeating, int]:
    """The player's own table of the current round as the form named it, else InputError: a form
    from a past round, another table or another event changes nothing."""
    now = _writable(session, player)
    if now.event.self_report == SelfReport.OFF:
        raise InputError({"": _("Results are reported to the organizer at this event.")})
    if now.closed is not None:
        raise InputError({"": now.closed})
    if now.round is not None and round_number < now.round.number:
        raise InputError({"": _("Round %(number)d is over.", number=round_number)})
    if now.view is None or now.round is None or now.seat_position is None:
        raise InputError({"": _("You are not seated in the current round.")})
    if now.round.number != round_number or now.view.table.number != table_number:
        raise InputError({"": _("That form is from another round or table; reload your page.")})
    if now.view.table.digital:
        raise InputError({"": _("This table is played on your devices; its result is recorded there.")})
    seat_id = next(s.seat.id for s in now.view.seats if s.seat.player_id == player.id)
    assert seat_id is not None
    return now.event, now.round, now.view, seat_id


def report(session: Session, player: Player, round_number: int, table_number: int, form: Mapping[str, str],
           version: int) -> Result:
    """A player enters (or corrects) their table's result; at an event where players confirm,
    the entry counts as the reporter's own confirmation."""
    event, rnd, view, seat_id = _my_table(session, player, round_number, table_number)
    if form.get("mode") not in PLAYER_MODES:
        raise InputError({"": _("Choose how to enter the result.")})
    if view.result is not None and view.result.status == ResultStatus.CONFIRMED:
        raise InputError({"": _("This result is confirmed; ask the organizer to correct it.")})
    _claim(session, "report", player, REPORT_LIMIT, REPORT_WINDOW)
    submission = results.submission_from_form(event, rnd, view, form)
    saved = results.save_result(session, event, rnd, view, submission, version, actor(player), refuse_confirmed=True)
    if event.self_report == SelfReport.PLAYERS:
        fresh = round_service.tables_of(session, rnd.id or 0, table_number)[0]
        try:
            saved = results.confirm_by_seat(session, event, fresh, saved, seat_id, saved.version, None, actor(player))
        except guard.StaleChange:
            # another phone corrected it in between: the entry stands, the reporter confirms the new one themselves
            session.rollback()
    return saved


def confirm(session: Session, player: Player, round_number: int, table_number: int, version: int) -> Result:
    """The player confirms the version of the result they saw, for their own seat only."""
    event, _rnd, view, seat_id = _my_table(session, player, round_number, table_number)
    if event.self_report != SelfReport.PLAYERS:
        raise InputError({"": _("A judge confirms the results at this event.")})
    if view.result is None:
        raise InputError({"": _("No result to confirm yet.")})
    _claim(session, "report", player, REPORT_LIMIT, REPORT_WINDOW)
    return results.confirm_by_seat(session, event, view, view.result, seat_id, version, None, actor(player))


def dispute(session: Session, player: Player, round_number: int, table_number: int, version: int, note: str) -> Result:
    event, _rnd, view, _seat = _my_table(session, player, round_number, table_number)
    if view.result is None:
        raise InputError({"": _("No result to dispute yet.")})
    _claim(session, "report", player, REPORT_LIMIT, REPORT_WINDOW)
    return results.dispute(session, event, view, view.result, version, note, actor(player), by_player=True)


def self_check_ins_since(session: Session, event_id: int, since: datetime | None) -> list[Player]:
    """Players who checked themselves in (since ``since``), for the organizer to review."""
    query = select(Player).where(Player.event_id == event_id, col(Player.self_checked_in_at).is_not(None),
                                 col(Player.checked_in).is_(True), col(Player.dropped).is_(False))
    if since is not None:
        query = query.where(col(Player.self_checked_in_at) >= since)
    return list(session.exec(query.order_by(col(Player.self_checked_in_at))).all())
