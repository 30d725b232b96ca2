"""The printed documents' data, read from the database (the service of the ``prints`` blueprint;
the ``printing`` package renders the PDFs from this data without a database).

Each function fills one of the plain dataclasses of :mod:`organizer.printing.data` for the
renderers; nothing here draws or knows about HTTP. Links printed as QR codes are made by the
caller's URL builders, so the same functions serve the web app and scripts. A document that
cannot be made (no seating yet, no result, no arboretums to draw) raises :class:`NothingToPrint`
with a sentence for the organizer, before anything is rendered."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date as Date
from typing import Any

from sqlmodel import Session, col, select

from engine import Edition
from engine.cards import editions_of
from engine.case import ScoreCase, parse_case
from engine.errors import ArboretumError
from engine.scoring import PlayerScore, SpeciesScore, TableScore
from organizer.core.errors import InputError
from organizer.core.models import (
    PLAYED_STATUSES,
    EntryMode,
    Event,
    GameTable,
    Player,
    Result,
    ResultStatus,
    Round,
    RoundFormat,
    RoundStatus,
)
from organizer.core.translate import N_, _, format_date, ngettext, species_name
from organizer.events import service as event_service
from organizer.finals.service import finals_view
from organizer.printing.data import (
    EventReportData,
    ExplanationLine,
    FinalsPlace,
    Paper,
    PlayerSheet,
    ReportRound,
    ReportTable,
    ResultSeat,
    RoundPackData,
    ScoreSheetData,
    SeatInfo,
    SheetSpecies,
    StandingsData,
    StandingsLine,
    TableInfo,
)
from organizer.rounds.service import SeatedPlayer, TableSeating, event_rounds, get_round, played_rounds, tables_of
from organizer.scoring import standings as standings_service
from organizer.scoring.event_standings import _table_results, seat_player_id
from organizer.scoring.rules import rules_break_ties_by_species, species_tiebreak
from organizer.scoring.schemes import SCHEMES, SeatResult, TableResult, beats

#: (round number, table number) -> the absolute URL of that table's result-entry page
TableUrl = Callable[[int, int], str]
#: seat token -> the absolute URL of the seat's private link (``/play/<token>``)
SeatUrl = Callable[[str], str]

#: How each entry mode is named on paper.
ENTRY_MODE_LABELS: dict[str, str] = {
    EntryMode.TOTALS: N_("totals"), EntryMode.SCOREPAD: N_("scorepad"), EntryMode.ASSISTANT: N_("scoring assistant"),
    EntryMode.DIGITAL: N_("digital game"),
}


def entry_mode_label(mode: str) -> str:
    return _(ENTRY_MODE_LABELS[mode]) if mode in ENTRY_MODE_LABELS else mode
#: Results whose arboretums were recorded, so a score sheet can draw them.
MODES_WITH_ARBORETUMS = (EntryMode.ASSISTANT, EntryMode.DIGITAL)
PLAYED = PLAYED_STATUSES


class NothingToPrint(InputError):
    """The document asked for cannot be made yet; the message says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__({"": message})
        self.message = message


def long_date(day: Date) -> str:
    """"18 April 2026", "18. April 2026", "18 avril 2026": in the reader's language."""
    return format_date(day, "long")


def _round(session: Session, event: Event, number: int) -> Round:
    assert event.id is not None
    rnd = get_round(session, event.id, number)
    if rnd is None:
        raise NothingToPrint(_("Round %(round)d has no seating yet: seat the players and publish the round first.",
                               round=number))
    return rnd


def round_missing(session: Session, event: Event, number: int) -> bool:
    assert event.id is not None
    return get_round(session, event.id, number) is None


def table_missing(session: Session, event: Event, number: int, table: int) -> bool:
    assert event.id is not None
    rnd = get_round(session, event.id, number)
    return rnd is None or session.exec(
        select(GameTable.id).where(GameTable.round_id == rnd.id, GameTable.number == table)).first() is None


def _seat_name(seat_view: SeatedPlayer, table_number: int) -> str:
    if seat_view.player is not None:
        return seat_view.player.name
    # A bot in an empty seat (live tables): named so the seating still reads.
    return _("Bot (table %(table)d, seat %(seat)d)", table=table_number, seat=seat_view.seat.position + 1)


# -- round pack ----------------------------------------------------------------------------------


def round_pack_data(session: Session, event: Event, round_number: int, table_url: TableUrl, seat_url: SeatUrl,
                    paper: Paper = "a4", public_url: str | None = None) -> RoundPackData:
    """Every table of a published round with its seats in play order, species and links."""
    rnd = _round(session, event, round_number)
    assert rnd.id is not None
    views = tables_of(session, rnd.id)
    if not views:
        raise NothingToPrint(_("Round %(round)d has no seating yet: seat the players and publish the round first.",
                               round=round_number))
    if rnd.status == RoundStatus.PROPOSED:
        raise NothingToPrint(_("Round %(round)d is only proposed: publish it first, so the printed seating is the "
                               "one played.", round=round_number))
    # A draft has no start player or dealer: everyone picks at once.
    marks = rnd.format != RoundFormat.DRAFT
    tables = []
    for view in views:
        last = len(view.seats) - 1
        seats = tuple(
            SeatInfo(seat=index + 1, player=_seat_name(seat_view, view.table.number),
                     is_start=marks and index == 0, is_dealer=marks and index == last,
                     private_url=seat_url(seat_view.seat.token) if view.table.digital else None,
                     club=seat_view.player.club or None if seat_view.player else None)
            for index, seat_view in enumerate(view.seats)
        )
        tables.append(TableInfo(number=view.table.number, seats=seats, species=tuple(view.table.species),
                                result_url=table_url(round_number, view.table.number), digital=view.table.digital))
    return RoundPackData(event=event.name, round_number=round_number, edition=event.edition, tables=tuple(tables),
                         game_format=rnd.format, paper=paper, subtitle=long_date(event.date),
                         public_url=public_url if event.public_page else None, stage=rnd.stage)


# -- score sheet ---------------------------------------------------------------------------------


def _table(session: Session, event: Event, round_number: int, table_number: int) -> tuple[Round, TableSeating]:
    rnd = _round(session, event, round_number)
    assert rnd.id is not None
    view = next((v for v in tables_of(session, rnd.id) if v.table.number == table_number), None)
    if view is None:
        raise NothingToPrint(_("Round %(round)d has no table %(table)d.", round=round_number, table=table_number))
    return rnd, view


def _edition_of(case: ScoreCase, event: Event) -> str:
    if case.rules == "standard-2010":
        return "2010"
    if case.rules == "standard-2018":
        return "2018"
    fitting = editions_of(case.species)
    return event.edition if Edition(event.edition) in fitting or not fitting else fitting[0].value


def _explain(score: SpeciesScore) -> list[ExplanationLine]:
    """The engine's breakdown of a species' points (``SpeciesScore.explain``), in the reader's language."""
    path = score.path
    if path is None or score.points == 0 and not score.right:
        return []
    if score.flat:
        return [(_("a path without the right to score"), score.points)]
    length = len(path.cells)
    lines: list[ExplanationLine] = [(ngettext("%(num)d card", "%(num)d cards", length), path.card_points)]
    if path.same_species_bonus:
        lines.append((_("%(count)d cards all %(species)s", count=length, species=species_name(path.species)),
                      path.same_species_bonus))
    if path.one_bonus:
        lines.append((_("starts with a 1"), path.one_bonus))
    if path.eight_bonus > 0:
        lines.append((_("ends with an 8"), path.eight_bonus))
    elif path.eight_bonus < 0:
        lines.append((_("ends with an 8 (draft penalty)"), path.eight_bonus))
    if score.points != path.points:  # the draft's floor at 0
        lines.append((_("a species never scores below 0"), score.points - path.points))
    return lines


def _species_lines(case: ScoreCase, outcome: TableScore, index: int, species: str) -> tuple[ExplanationLine, ...]:
    score = outcome.players[index].species[species]
    lines = _explain(score)
    if lines:
        return tuple(lines)
    if score.right:
        return (_("right, but no path"),)
    claims = [p.species[species].claim for p in outcome.players]
    best = max(claims)
    holders = _(" and ").join(outcome.players[i].name for i, claim in enumerate(claims) if claim == best)
    if case.rules == "draft":
        return (_("no right: %(holders)s hold %(best)d in the arboretum against %(mine)d", holders=holders, best=best,
                  mine=claims[index]),)
    return (_("no right: %(holders)s hold %(best)d in hand against %(mine)d", holders=holders, best=best,
              mine=claims[index]),)


def _player_sheet(case: ScoreCase, outcome: TableScore, index: int) -> PlayerSheet:
    seat = case.seats[index]
    player: PlayerScore = outcome.players[index]
    standard = case.rules.startswith("standard") or case.rules == "solo"
    species = tuple(
        SheetSpecies(name, s.right, s.points, s.path.cells if s.path else (),
                     _species_lines(case, outcome, index, name), hand_sum=s.claim if standard else None)
        for name in case.species
        for s in (player.species[name],)
    )
    return PlayerSheet(
        name=seat.name,
        arboretum=tuple((x, y, card.species, card.value) for (x, y), card in seat.arboretum.items()),
        species=species, total=player.total,
        rank=outcome.ranks[index] if outcome.ranks else 1 + sum(p.total > player.total for p in outcome.players),
        hand=tuple((card.species, card.value) for card in seat.hand),
        bonuses=((_("every pick planted"), player.bonus),) if player.bonus else (),
        species_in_arboretum=player.species_in_arboretum,
    )


def _tie_note(outcome: TableScore, species_breaks_ties: bool) -> str | None:
    best = max(p.total for p in outcome.players)
    tied = [p for p in outcome.players if p.total == best]
    if len(tied) < 2:
        return None
    names = _(" and ").join(p.name for p in tied)
    if not species_breaks_ties or len(outcome.winners) > 1:
        return _("%(names)s tie on %(points)d points and share the win.", names=names, points=best)
    winner = outcome.players[outcome.winners[0]]
    return _("%(names)s tie on %(points)d points; %(winner)s wins with %(species)d species in the arboretum.",
             names=names, points=best, winner=winner.name, species=winner.species_in_arboretum)


def score_sheet_data(session: Session, event: Event, round_number: int, table_number: int,
                     paper: Paper = "a4") -> ScoreSheetData:
    """A finished table's arboretums, paths and points, scored again by the engine from the
    stored score case (so the sheet shows the engine's paths, not figures typed by hand)."""
    rnd, view = _table(session, event, round_number, table_number)
    result = view.result
    where = {"round": round_number, "table": table_number}
    if result is None:
        raise NothingToPrint(_("Table %(table)d of round %(round)d has no result yet: a score sheet is printed once "
                               "the game is scored.", **where))
    if result.score_case is None or result.entry_mode not in MODES_WITH_ARBORETUMS:
        raise NothingToPrint(_("Table %(table)d of round %(round)d was entered as %(mode)s, which records no "
                               "arboretums. Only scoring-assistant and digital results have arboretums to draw on a "
                               "score sheet.", mode=entry_mode_label(result.entry_mode), **where))
    try:
        case = parse_case(result.score_case)
        outcome = case.score()
    except ArboretumError as error:
        raise NothingToPrint(_("Table %(table)d of round %(round)d: the stored score case cannot be scored "
                               "(%(error)s).", error=str(error), **where)) from None
    source = _("from the %(mode)s", mode=entry_mode_label(result.entry_mode))
    if result.status != ResultStatus.CONFIRMED:
        source = _("from the %(mode)s · not confirmed", mode=entry_mode_label(result.entry_mode))
    game_format = {"draft": "draft", "solo": "solo"}.get(case.rules, "standard")
    return ScoreSheetData(
        edition=_edition_of(case, event), species_in_play=case.species,
        players=tuple(_player_sheet(case, outcome, i) for i in range(len(case.seats))),
        game_format=game_format, event=event.name, round_number=round_number, table=table_number,
        stage=rnd.stage, source=source, tie_note=_tie_note(outcome, rules_break_ties_by_species(case.rules)), paper=paper,
    )


# -- standings -----------------------------------------------------------------------------------


def _tie_break_words(event: Event) -> tuple[str, ...]:
    order = event.tiebreak_order or list(standings_service.DEFAULT_TIEBREAKS)
    return tuple(_(str(event_service.TIEBREAKS.get(key, key))).lower() for key in order)


def _standing_rows(session: Session, event: Event, after_round: int) -> tuple[list[StandingsLine], int]:
    """The standings counting rounds 1..after_round, and how many of those rounds' tables have no
    confirmed result yet."""
    assert event.id is not None
    players = {p.id: p for p in session.exec(select(Player).where(Player.event_id == event.id)).all()
               if p.id is not None}
    results = [t for t in _table_results(session, event)[0] if t.round_number <= after_round]
    played = {seat.player_id for table in results for seat in table.seats}
    # A row for whoever played by then, and for those checked in to play then (a late entry
    # from a later round is left out of earlier standings).
    ids = sorted(pid for pid, p in players.items()
                 if pid in played or (p.checked_in and not p.dropped and p.joined_round <= after_round))
    order = tuple(event.tiebreak_order) or standings_service.DEFAULT_TIEBREAKS
    rows = standings_service.compute_standings(ids, results, order, event.point_scheme)
    # Tables still waiting for a confirmed result (none yet, entered only, or disputed).
    provisional = len(session.exec(
        select(GameTable.id).join(Round, col(Round.id) == GameTable.round_id)
        .outerjoin(Result, col(Result.table_id) == GameTable.id)
        .where(Round.event_id == event.id, col(Round.status).in_(PLAYED), col(Round.number) <= after_round,
               (col(Result.id).is_(None)) | (col(Result.status) != ResultStatus.CONFIRMED))).all())
    out = []
    for row in rows:
        player = players[row.player_id]
        dropped = player.dropped and (player.dropped_after_round or 0) <= after_round
        out.append(StandingsLine(rank=row.rank, player=player.name, tournament_points=row.tournament_points,
                               game_points=row.game_points, opponents_average=row.opponents_average,
                               species_count=row.species_count, games=row.games, club=player.club or None,
                               dropped=dropped))
    return out, provisional


def _finals_places(session: Session, event: Event) -> tuple[FinalsPlace, ...]:
    view = finals_view(session, event)
    if view is None:
        return ()
    return tuple(FinalsPlace(line.place, line.player.name, line.decided_by) for line in view.places)


def standings_data(session: Session, event: Event, after_round: int | None = None,
                   paper: Paper = "a4") -> StandingsData:
    """The standings as they stood after ``after_round`` (default: the latest round played)."""
    rounds = played_rounds(session, event)
    if not rounds:
        raise NothingToPrint(_("No round has been published yet: standings can be printed after round 1."))
    if after_round is None:
        after_round = rounds[-1]
    if after_round not in rounds:
        raise NothingToPrint(_("Round %(round)d has not been played: standings can be printed after round %(rounds)s.",
                               round=after_round, rounds=", ".join(map(str, rounds))))
    rows, provisional = _standing_rows(session, event, after_round)
    if not rows:
        raise NothingToPrint(_("There are no players to list in the standings yet."))
    subtitle = long_date(event.date)
    if provisional:
        subtitle += " · " + ngettext("provisional: %(num)d table without a confirmed result",
                                     "provisional: %(num)d tables without a confirmed result", provisional)
    return StandingsData(event=event.name, after_round=after_round, rows=tuple(rows),
                         tie_breaks=_tie_break_words(event), paper=paper, subtitle=subtitle,
                         finals=_finals_places(session, event))


# -- end-of-event report -------------------------------------------------------------------------


def _report_seats(event: Event, rnd: Round, view: TableSeating, result: Result) -> tuple[ResultSeat, ...]:
    stored: Sequence[dict[str, Any]] = result.seats
    tie_break = species_tiebreak(event.edition, rnd.format)
    table_id = view.table.id or 0
    figures = [SeatResult(seat_player_id(table_id, i, s.get("player_id")), int(s["points"]), int(s["species_count"]))
               for i, s in enumerate(stored)]
    table = TableResult(table_id, rnd.number, figures, tie_break)
    # Tournament points as the standings count them (a bot in a seat is an opponent there too).
    scheme = SCHEMES.get(event.point_scheme)
    points = scheme.table_points(table) if scheme else {}
    seats = []
    for index, (seat_view, figure) in enumerate(zip(view.seats, figures, strict=True)):
        place = 1 + sum(1 for other in figures if other is not figure and beats(table, other, figure))
        seats.append(ResultSeat(seat=index + 1, player=_seat_name(seat_view, view.table.number), points=figure.points,
                                tournament_points=points.get(figure.player_id, 0),
                                place=place, species_count=figure.species_count))
    return tuple(seats)


def event_report_data(session: Session, event: Event, paper: Paper = "a4") -> EventReportData:
    """Every played round and table with its result, then the final standings."""
    assert event.id is not None
    rounds = [r for r in event_rounds(session, event.id) if r.status in PLAYED]
    if not rounds:
        raise NothingToPrint(_("No round has been published yet: the event report lists the rounds played."))
    report_rounds = []
    for rnd in rounds:
        assert rnd.id is not None
        tables = []
        for view in tables_of(session, rnd.id):
            result = view.result
            where = {"round": rnd.number, "table": view.table.number}
            if result is None:
                raise NothingToPrint(_("Round %(round)d, table %(table)d has no result yet: enter it before printing "
                                       "the event report (the standings can be printed at any time).", **where))
            if result.status == ResultStatus.DISPUTED:
                raise NothingToPrint(_("Round %(round)d, table %(table)d: the result is disputed; settle it before "
                                       "printing the event report.", **where))
            mode = entry_mode_label(result.entry_mode)
            if result.status != ResultStatus.CONFIRMED:
                mode = _("%(mode)s (not confirmed)", mode=mode)
            tables.append(ReportTable(number=view.table.number, seats=_report_seats(event, rnd, view, result),
                                      entry_mode=mode))
        report_rounds.append(ReportRound(number=rnd.number, tables=tuple(tables), game_format=rnd.format,
                                         stage=rnd.stage))
    final, _provisional = _standing_rows(session, event, rounds[-1].number)
    return EventReportData(event=event.name, edition=event.edition, rounds=tuple(report_rounds),
                           final_standings=tuple(final), date=long_date(event.date),
                           tie_breaks=_tie_break_words(event), paper=paper, finals=_finals_places(session, event))


__all__ = [
    "ENTRY_MODE_LABELS", "NothingToPrint", "SeatUrl", "TableUrl", "event_report_data", "played_rounds",
    "round_missing", "round_pack_data", "score_sheet_data", "table_missing", "standings_data",
]
