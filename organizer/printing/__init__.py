"""Printed matter as PDFs: a pure rendering layer.

Every function takes the plain dataclasses of :mod:`organizer.printing.data` and returns PDF
bytes, or raises :class:`PrintingError` before drawing anything. Nothing here touches Flask or
the database; the web views fill the dataclasses and serve the bytes."""

from organizer.printing.data import (
    DEFAULT_TIE_BREAKS,
    EventReportData,
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
from organizer.printing.errors import PrintingError
from organizer.printing.roundpack import round_pack
from organizer.printing.scorepad import blank_scorepad
from organizer.printing.scoresheet import score_sheet
from organizer.printing.standings import event_report, standings_pdf

__all__ = [
    "DEFAULT_TIE_BREAKS", "EventReportData", "PlayerSheet", "PrintingError", "ReportRound", "ReportTable",
    "ResultSeat", "RoundPackData", "ScoreSheetData", "SeatInfo", "SheetSpecies", "StandingsLine", "StandingsData",
    "TableInfo", "blank_scorepad", "event_report", "round_pack", "score_sheet", "standings_pdf",
]
