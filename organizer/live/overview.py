"""The organizer's overview of a round's live tables: each table's progress, and who is holding
it up for how long."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlmodel import Session, col, func, select

from engine import Phase, Progress
from organizer.core.models import Event, GameTable, Player, Result, Round, Seat
from organizer.core.paging import Page, page_of
from organizer.core.translate import N_, _, ngettext
from organizer.live.tables import TableGame
from organizer.rounds.service import SeatedPlayer, TableSeating

#: tables a page of the overview shows (a round of 10,000 players has 2,500)
PER_PAGE = 50


@dataclass(frozen=True)
class AwaitedSeat:
    position: int
    name: str
    seconds: float
    is_bot: bool
    #: a bot seat's level ("easy", "normal", "strong")
    level: str = "normal"


@dataclass(frozen=True)
class TableProgress:
    view: TableSeating
    started: bool
    mode: str
    progress: str
    cards_left: str
    awaited: list[AwaitedSeat]
    finished: bool
    version: int
    #: bots or the pick timer owe the table a move (the overview's tick plays it)
    owed: bool = False


def describe_progress(progress: Progress) -> tuple[str, str]:
    """How far a table has come, and the cards left, in words."""
    p = progress
    if p.mode == "draft":
        if p.finished:
            return ngettext("finished after %(num)d round", "finished after %(num)d rounds", p.rounds or 0), \
                _("0 cards in hands")
        return (_("round %(round)d of %(rounds)d, pick %(pick)d of %(picks)d", round=p.round or 0, rounds=p.rounds or 0,
                  pick=p.pick or 0, picks=p.picks_per_round or 0),
                ngettext("%(num)d card in hands, %(undealt)d undealt", "%(num)d cards in hands, %(undealt)d undealt",
                         p.cards_in_hands, undealt=p.draw_pile))
    if p.finished:
        return ngettext("finished after %(num)d turn", "finished after %(num)d turns", p.turn or 0), _("draw pile empty")
    doing = _(_PHASES[p.phase])  # every phase has its words (tests/live/test_live_overview_pages.py)
    return (_("turn %(turn)d, %(player)s: %(phase)s", turn=p.turn or 0, player=p.actor_name or "", phase=doing),
            ngettext("%(num)d card in the draw pile", "%(num)d cards in the draw pile", p.draw_pile))


#: what the seat whose turn it is does now, in words
_PHASES = {Phase.DRAW1: N_("draws a first card"), Phase.DRAW2: N_("draws a second card"), Phase.PLAY: N_("plays a card"),
           Phase.DISCARD: N_("discards"), Phase.GIVE: N_("gives a card to Q"), Phase.PICK: N_("picks"),
           Phase.OVER: N_("game over")}


@dataclass(frozen=True)
class Overview:
    """A page of the round's tables, in table order."""

    rows: list[TableProgress]
    page: Page

    @property
    def owed(self) -> list[int]:
        """The numbers of the page's tables that bots or the pick timer owe a move."""
        return [row.view.table.number for row in self.rows if row.owed]


def _page_tables(session: Session, rnd: Round, page_number: int | None) -> tuple[list[TableSeating], Page]:
    """The tables of one page with seats, players and results, as ``rounds.tables_of`` reads a
    whole round (four queries, limited to the page's tables)."""
    total = session.exec(select(func.count()).select_from(GameTable).where(GameTable.round_id == rnd.id)).one()
    page = page_of(int(total), page_number, PER_PAGE)
    tables = session.exec(select(GameTable).where(GameTable.round_id == rnd.id).order_by(col(GameTable.number))
                          .offset(page.offset).limit(page.per_page)).all()
    if not tables:
        return [], page
    ids = [t.id for t in tables]
    seats = session.exec(select(Seat).where(col(Seat.table_id).in_(ids)).order_by(col(Seat.position))).all()
    player_ids = {s.player_id for s in seats if s.player_id is not None}
    players = ({p.id: p for p in session.exec(select(Player).where(col(Player.id).in_(player_ids))).all()}
               if player_ids else {})
    results = {r.table_id: r for r in session.exec(select(Result).where(col(Result.table_id).in_(ids))).all()}
    by_table: dict[int, list[SeatedPlayer]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(
            SeatedPlayer(seat, players.get(seat.player_id) if seat.player_id else None))
    return [TableSeating(t, by_table.get(t.id or 0, []), results.get(t.id or 0)) for t in tables], page


def overview(session: Session, event: Event, rnd: Round, now: float | None = None,
             page_number: int | None = None) -> Overview:
    """A page of the round's tables as stored: progress, and who is holding it up for how long
    (read only: the overview is a GET; tables are dealt by POSTs, and what bots and the pick
    timer owe is played by the POST a seat's page sends)."""
    assert rnd.id is not None
    now = time.time() if now is None else now
    views, page = _page_tables(session, rnd, page_number)
    rows = []
    for view in views:
        table = view.table
        if not table.digital or table.log_version == 0:
            rows.append(TableProgress(view, False, rnd.format, _("on paper") if not table.digital else _("not started"),
                                      "", [], view.result is not None, table.log_version))
            continue
        game = TableGame(event, rnd, view)
        replayed = game.load(session)
        state = replayed.state
        names = list(state.names)
        progress = state.progress()
        awaited = [AwaitedSeat(s, names[s], max(0.0, now - replayed.since), view.seats[s].seat.is_bot,
                               view.seats[s].seat.bot_level) for s in progress.awaiting]
        described, left = describe_progress(progress)
        rows.append(TableProgress(view, True, progress.mode, described, left, awaited, progress.finished,
                                  replayed.version, game.owes(replayed, now)))
    return Overview(rows, page)
