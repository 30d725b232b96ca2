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
from engine.scoring import PlayerScore, TableScore

from ..models import PLAYED_STATUSES, EntryMode, Event, GameTable, Player, Result, ResultStatus, Round, RoundFormat, RoundStatus
from ..printing.data import (
    EventReportData,
    ExplanationLine,
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
from . import events as event_service
from . import standings as standings_service
from .errors import InputError
from .event_standings import _table_results, seat_player_id
from .rounds import SeatedPlayer, TableSeating, event_rounds, get_round, tables_of
from .rules import rules_break_ties_by_species, species_tiebreak
from .standings_schemes import SCHEMES, SeatResult, TableResult, beats

#: (round number, table number) -> the absolute URL of that table's result-entry page
TableUrl = Callable[[int, int], str]
#: seat token -> the absolute URL of the seat's private link (``/play/<token>``)
SeatUrl = Callable[[str], str]

#: How each entry mode is named on paper.
ENTRY_MODE_LABELS: dict[str, str] = {
    EntryMode.TOTALS: "totals", EntryMode.SCOREPAD: "scorepad", EntryMode.ASSISTANT: "scoring assistant",
    EntryMode.DIGITAL: "digital game",
}
#: Results whose arboretums were recorded, so a score sheet can draw them.
MODES_WITH_ARBORETUMS = (EntryMode.ASSISTANT, EntryMode.DIGITAL)
PLAYED = PLAYED_STATUSES


class NothingToPrint(InputError):
    """The document asked for cannot be made yet; the message says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__({"": message})
        self.message = message


def long_date(day: Date) -> str:
    return f"{day.day} {day:%B %Y}"


def _round(session: Session, event: Event, number: int) -> Round:
    assert event.id is not None
    rnd = get_round(session, event.id, number)
    if rnd is None:
        raise NothingToPrint(f"Round {number} has no seating yet: seat the players and publish the round first.")
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
    return f"Bot (table {table_number}, seat {seat_view.seat.position + 1})"


# -- round pack ----------------------------------------------------------------------------------


def round_pack_data(session: Session, event: Event, round_number: int, table_url: TableUrl, seat_url: SeatUrl,
                    paper: Paper = "a4") -> RoundPackData:
    """Every table of a published round with its seats in play order, species and links."""
    rnd = _round(session, event, round_number)
    assert rnd.id is not None
    views = tables_of(session, rnd.id)
    if not views:
        raise NothingToPrint(f"Round {round_number} has no seating yet: seat the players and publish the round first.")
    if rnd.status == RoundStatus.PROPOSED:
        raise NothingToPrint(f"Round {round_number} is only proposed: publish it first, so the printed "
                             "seating is the one played.")
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
                         game_format=rnd.format, paper=paper, subtitle=long_date(event.date))


# -- score sheet ---------------------------------------------------------------------------------


def _table(session: Session, event: Event, round_number: int, table_number: int) -> tuple[Round, TableSeating]:
    rnd = _round(session, event, round_number)
    assert rnd.id is not None
    view = next((v for v in tables_of(session, rnd.id) if v.table.number == table_number), None)
    if view is None:
        raise NothingToPrint(f"Round {round_number} has no table {table_number}.")
    return rnd, view


def _edition_of(case: ScoreCase, event: Event) -> str:
    if case.rules == "standard-2010":
        return "2010"
    if case.rules == "standard-2018":
        return "2018"
    fitting = editions_of(case.species)
    return event.edition if Edition(event.edition) in fitting or not fitting else fitting[0].value


def _species_lines(case: ScoreCase, outcome: TableScore, index: int, species: str) -> tuple[ExplanationLine, ...]:
    score = outcome.players[index].species[species]
    lines: list[ExplanationLine] = list(score.explain())
    if lines:
        return tuple(lines)
    if score.right:
        return ("right, but no path",)
    claims = [p.species[species].claim for p in outcome.players]
    best = max(claims)
    holders = [outcome.players[i].name for i, claim in enumerate(claims) if claim == best]
    held = "in the arboretum" if case.rules == "draft" else "in hand"
    return (f"no right: {' and '.join(holders)} {'has' if len(holders) == 1 else 'have'} {best} {held} "
            f"against {claims[index]}",)


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
        bonuses=(("every pick planted", player.bonus),) if player.bonus else (),
        species_in_arboretum=player.species_in_arboretum,
    )


def _tie_note(outcome: TableScore, species_breaks_ties: bool) -> str | None:
    best = max(p.total for p in outcome.players)
    tied = [p for p in outcome.players if p.total == best]
    if len(tied) < 2:
        return None
    names = " and ".join(p.name for p in tied)
    if not species_breaks_ties or len(outcome.winners) > 1:
        return f"{names} tie on {best} points and share the win."
    winner = outcome.players[outcome.winners[0]]
    return (f"{names} tie on {best} points; {winner.name} wins with {winner.species_in_arboretum} species "
            "in the arboretum.")


def score_sheet_data(session: Session, event: Event, round_number: int, table_number: int,
                     paper: Paper = "a4") -> ScoreSheetData:
    """A finished table's arboretums, paths and points, scored again by the engine from the
    stored score case (so the sheet shows the engine's paths, not figures typed by hand)."""
    rnd, view = _table(session, event, round_number, table_number)
    result = view.result
    where = f"Table {table_number} of round {round_number}"
    if result is None:
        raise NothingToPrint(f"{where} has no result yet: a score sheet is printed once the game is scored.")
    if result.score_case is None or result.entry_mode not in MODES_WITH_ARBORETUMS:
        mode = ENTRY_MODE_LABELS.get(result.entry_mode, result.entry_mode)
        raise NothingToPrint(f"{where} was entered as {mode}, which records no arboretums. Only scoring-assistant "
                             "and digital results have arboretums to draw on a score sheet.")
    try:
        case = parse_case(result.score_case)
        outcome = case.score()
    except ArboretumError as error:
        raise NothingToPrint(f"{where}: the stored score case cannot be scored ({error}).") from None
    source = ENTRY_MODE_LABELS[result.entry_mode]
    if result.status != ResultStatus.CONFIRMED:
        source += f" · {result.status}, not confirmed"
    game_format = {"draft": "draft", "solo": "solo"}.get(case.rules, "standard")
    return ScoreSheetData(
        edition=_edition_of(case, event), species_in_play=case.species,
        players=tuple(_player_sheet(case, outcome, i) for i in range(len(case.seats))),
        game_format=game_format, event=event.name, round_number=round_number, table=table_number,
        source=source, tie_note=_tie_note(outcome, rules_break_ties_by_species(case.rules)), paper=paper,
    )


# -- standings -----------------------------------------------------------------------------------


def played_rounds(session: Session, event: Event) -> list[int]:
    """The rounds with results to count (published or finished), in order."""
    assert event.id is not None
    return [r.number for r in event_rounds(session, event.id) if r.status in PLAYED]


def _tie_break_words(event: Event) -> tuple[str, ...]:
    order = event.tiebreak_order or list(standings_service.DEFAULT_TIEBREAKS)
    return tuple(event_service.TIEBREAKS.get(key, key).lower() for key in order)


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


def standings_data(session: Session, event: Event, after_round: int | None = None,
                   paper: Paper = "a4") -> StandingsData:
    """The standings as they stood after ``after_round`` (default: the latest round played)."""
    rounds = played_rounds(session, event)
    if not rounds:
        raise NothingToPrint("No round has been published yet: standings can be printed after round 1.")
    if after_round is None:
        after_round = rounds[-1]
    if after_round not in rounds:
        listed = ", ".join(map(str, rounds))
        raise NothingToPrint(f"Round {after_round} has not been played: standings can be printed after round "
                             f"{listed}.")
    rows, provisional = _standing_rows(session, event, after_round)
    if not rows:
        raise NothingToPrint("There are no players to list in the standings yet.")
    subtitle = long_date(event.date)
    if provisional:
        subtitle += (f" · provisional: {provisional} table{'s' if provisional != 1 else ''} without a confirmed "
                     "result")
    return StandingsData(event=event.name, after_round=after_round, rows=tuple(rows),
                         tie_breaks=_tie_break_words(event), paper=paper, subtitle=subtitle)


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
        raise NothingToPrint("No round has been published yet: the event report lists the rounds played.")
    report_rounds = []
    for rnd in rounds:
        assert rnd.id is not None
        tables = []
        for view in tables_of(session, rnd.id):
            result = view.result
            where = f"Round {rnd.number}, table {view.table.number}"
            if result is None:
                raise NothingToPrint(f"{where} has no result yet: enter it before printing the event report "
                                     "(the standings can be printed at any time).")
            if result.status == ResultStatus.DISPUTED:
                raise NothingToPrint(f"{where}: the result is disputed; settle it before printing the event report.")
            mode = ENTRY_MODE_LABELS.get(result.entry_mode, result.entry_mode)
            if result.status != ResultStatus.CONFIRMED:
                mode += " (not confirmed)"
            tables.append(ReportTable(number=view.table.number, seats=_report_seats(event, rnd, view, result),
                                      entry_mode=mode))
        report_rounds.append(ReportRound(number=rnd.number, tables=tuple(tables), game_format=rnd.format))
    final, _ = _standing_rows(session, event, rounds[-1].number)
    return EventReportData(event=event.name, edition=event.edition, rounds=tuple(report_rounds),
                           final_standings=tuple(final), date=long_date(event.date),
                           tie_breaks=_tie_break_words(event), paper=paper)


__all__ = [
    "ENTRY_MODE_LABELS", "NothingToPrint", "SeatUrl", "TableUrl", "event_report_data", "played_rounds",
    "round_missing", "round_pack_data", "score_sheet_data", "table_missing", "standings_data",
]
