"""Standings after a round, and the end-of-event report (every round, every table)."""

from __future__ import annotations

from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Spacer

from organizer.core.translate import N_, _, format_points, ngettext, round_name
from organizer.printing.data import EventReportData, FinalsPlace, ReportRound, StandingsData, StandingsLine
from organizer.printing.documents import HEADING, NOTE, SUBTITLE, TITLE, CellText, Story, build, long_list, para
from organizer.printing.errors import PrintingError
from organizer.printing.fonts import BOLD, REGULAR, safe_text
from organizer.printing.layout import INK, MARGIN, fit_lines, format_number, paper_size, parse_edition

STANDING_HEADER = ["#", "Player", "Club", "Games", "TP", "Game pts", "Opp. TP", "Species"]
#: The column headings as printed (STANDING_HEADER's names are the code's keys).
HEADINGS = {"#": "#", "Player": N_("Player"), "Club": N_("Club"), "Games": N_("Games"), "TP": N_("TP"),
            "Game pts": N_("Game pts"), "Opp. TP": N_("Opp. TP"), "Species": N_("Species"), "Table": N_("Table"),
            "Seat": N_("Seat"), "Points": N_("Points"), "Place": N_("Place"),
            "Decided by": N_("Decided by")}


def headings(keys: list[str]) -> list[object]:
    return [_(HEADINGS[key]) if key != "#" else "#" for key in keys]


def _check_rows(rows: tuple[StandingsLine, ...], what: str) -> None:
    if not rows:
        raise PrintingError(f"{what}: there are no players yet")
    for row in rows:
        if not safe_text(row.player):
            raise PrintingError(f"{what}: a player at rank {row.rank} has no name")
        if isinstance(row.rank, bool) or not isinstance(row.rank, int) or row.rank < 1:
            raise PrintingError(f"{what}: {row.player} has rank {row.rank!r}; ranks start at 1")
        for label, value in (("tournament points", row.tournament_points), ("game points", row.game_points),
                             ("opponents' average", row.opponents_average), ("species count", row.species_count),
                             ("games", row.games)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "denominator"):
                raise PrintingError(f"{what}: {row.player}'s {label} is {value!r}, not a number")
            if value < 0:
                raise PrintingError(f"{what}: {row.player}'s {label} is negative ({value})")


def standings_table(rows: tuple[StandingsLine, ...], usable: float) -> Any:
    has_clubs = any(row.club for row in rows)
    header = STANDING_HEADER if has_clubs else [h for h in STANDING_HEADER if h != "Club"]
    fixed = {"#": 11 * mm, "Games": 14 * mm, "TP": 15 * mm, "Game pts": 19 * mm, "Opp. TP": 17 * mm,
             "Species": 16 * mm}
    flexible = usable - sum(fixed[h] for h in header if h in fixed)
    widths = [fixed.get(h, flexible * (0.62 if has_clubs and h == "Player" else 0.38 if h == "Club" else 1.0))
              for h in header]
    body: list[list[object]] = [headings(header)]
    # Plain strings (a long name on two lines, never cut or tiny) rather than paragraphs: 500
    # rows draw in a fraction of the time (paragraph parsing was most of it).
    name_column = header.index("Player")
    fitted: list[tuple[int, int, float]] = []
    for index, row in enumerate(sorted(rows, key=lambda r: r.rank), start=1):
        name = _("%(player)s (dropped)", player=row.player) if row.dropped else row.player
        lines, size = fit_lines(name, BOLD, 9.5, widths[name_column] - 6, min_size=7.5)
        if size != 9.5:
            fitted.append((name_column, index, size))
        cells: list[object] = [str(row.rank), "\n".join(lines)]
        if has_clubs:
            club_lines, club_size = fit_lines(row.club or "", REGULAR, 9.5, widths[name_column + 1] - 6, min_size=7.5)
            if club_size != 9.5:
                fitted.append((name_column + 1, index, club_size))
            cells.append("\n".join(club_lines))
        cells += [str(row.games), format_points(row.tournament_points), str(row.game_points),
                  format_number(row.opponents_average), str(row.species_count)]
        body.append(cells)
    numeric = tuple(i for i, h in enumerate(header) if h not in ("Player", "Club"))
    style: list[tuple[object, ...]] = [
        ("FONT", (header.index("TP"), 1), (header.index("TP"), -1), BOLD, 9.5),
        ("FONT", (name_column, 1), (name_column, -1), BOLD, 9.5),
    ]
    style += [("FONTSIZE", (column, index), (column, index), size) for column, index, size in fitted]
    style += [("LEADING", (column, index), (column, index), size * 1.15) for column, index, size in fitted]
    return long_list(body, widths, numeric_columns=numeric, style=style)


def finals_flow(places: tuple[FinalsPlace, ...], usable: float) -> list[Any]:
    """The finals' places first (the final table, the semi-finals, then the rest), with why;
    nothing without finals."""
    if not places:
        return []
    header = ["Place", "Player", "Decided by"]
    widths = [16 * mm, 0.0, 0.0]
    widths[1] = (usable - widths[0]) * 0.45
    widths[2] = usable - widths[0] - widths[1]
    body: list[list[object]] = [headings(header)]
    for line in sorted(places, key=lambda p: p.place):
        body.append([str(line.place), CellText(line.player, BOLD), CellText(line.decided_by, REGULAR)])
    return [para(_("Final places"), HEADING), long_list(body, widths, numeric_columns=(0,)),
            para(_("Swiss standings"), HEADING)]


def standings_pdf(data: StandingsData) -> bytes:
    """Standings after a round, as many pages as the players need, the header on each."""
    paper_size(data.paper)
    if isinstance(data.after_round, bool) or not isinstance(data.after_round, int) or data.after_round < 0:
        raise PrintingError(f"standings after round {data.after_round!r}: expected a round number, 0 or more")
    _check_rows(data.rows, "standings")
    paper = data.paper.strip().lower()
    usable = paper_size(paper)[0] - 2 * MARGIN
    title = (_("Standings after round %(number)d", number=data.after_round) if data.after_round
             else _("Standings before the first round"))
    players = ngettext("%(num)d player", "%(num)d players", len(data.rows))
    subtitle = " · ".join(p for p in (safe_text(data.event), data.subtitle, players) if p)
    story = Story()
    story.flow(
        para(title, TITLE), para(subtitle, SUBTITLE), *finals_flow(data.finals, usable),
        standings_table(data.rows, usable),
        para(_("TP: tournament points (opponents beaten at the table divided by the opponents there, a tie "
               "counting half). Opp. TP: the opponents' average tournament points.") + " "
             + _("Ties are broken by %(tie_breaks)s.", tie_breaks=_(", then ").join(data.tie_breaks)), NOTE),
    )
    return build(story, paper, f"{safe_text(data.event)}: {title}", f"{safe_text(data.event)} · {title}")


def _check_report(data: EventReportData) -> None:
    parse_edition(data.edition)
    paper_size(data.paper)
    if not data.rounds:
        raise PrintingError("the event report needs at least one round played")
    numbers = [r.number for r in data.rounds]
    if len(set(numbers)) != len(numbers):
        raise PrintingError(f"a round number appears twice in the report ({numbers})")
    for round_ in data.rounds:
        if not round_.tables:
            raise PrintingError(f"round {round_.number} has no seating")
        for table in round_.tables:
            if table.seats is None or not table.seats:
                raise PrintingError(f"round {round_.number}, table {table.number} has no result yet: "
                                    "enter or confirm it before printing the event report")
            for seat in table.seats:
                if not safe_text(seat.player):
                    raise PrintingError(f"round {round_.number}, table {table.number}: seat {seat.seat} has no name")
    _check_rows(data.final_standings, "final standings")


#: the report's order of the finals' rounds, before the Swiss rounds
_STAGE_ORDER = {"final": 0, "semi_final": 1}


def _round_table(round_: ReportRound, usable: float) -> Any:
    header = ["Table", "Seat", "Player", "Points", "Species", "Place", "TP"]
    widths = [25 * mm, 12 * mm, 0.0, 16 * mm, 17 * mm, 14 * mm, 14 * mm]
    widths[2] = usable - sum(widths)
    body: list[list[object]] = [headings(header)]
    style: list[tuple[object, ...]] = []
    groups: list[int] = []
    for table in sorted(round_.tables, key=lambda t: t.number):
        first_row = len(body)
        groups.append(first_row)
        seats = sorted(table.seats or (), key=lambda s: s.seat)
        for index, seat in enumerate(seats):
            label: object = ""
            if index == 0:
                label = CellText(str(table.number), BOLD, note=table.entry_mode)
            body.append([label, str(seat.seat), CellText(seat.player, BOLD if seat.place == 1 else REGULAR),
                         str(seat.points), "" if seat.species_count is None else str(seat.species_count),
                         str(seat.place), format_points(seat.tournament_points)])
        style.append(("SPAN", (0, first_row), (0, len(body) - 1)))
        style.append(("VALIGN", (0, first_row), (0, len(body) - 1), "TOP"))
        style.append(("LINEABOVE", (0, first_row), (-1, first_row), 0.9, INK))
        # A table's seats stay on one page: a result split over two pages is easy to misread.
        style.append(("NOSPLIT", (0, first_row), (-1, len(body) - 1)))
    return long_list(body, widths, numeric_columns=(1, 3, 4, 5, 6), zebra=False, style=style, groups=groups)


def event_report(data: EventReportData) -> bytes:
    """The whole event on paper: final standings, then every round table by table."""
    _check_report(data)
    paper = data.paper.strip().lower()
    usable = paper_size(paper)[0] - 2 * MARGIN
    edition = parse_edition(data.edition)
    # the finals first, as the places above them: the final table, the semi-finals, then the
    # Swiss rounds in their order
    rounds = sorted(data.rounds, key=lambda r: (_STAGE_ORDER.get(r.stage, len(_STAGE_ORDER)), r.number))
    swiss = [r for r in rounds if r.stage not in _STAGE_ORDER]
    tables = sum(len(r.tables) for r in rounds)
    subtitle = " · ".join(p for p in (
        data.date, _("%(edition)s edition", edition=edition.value),
        ngettext("%(num)d player", "%(num)d players", len(data.final_standings)),
        ngettext("%(num)d round", "%(num)d rounds", len(swiss)) if len(swiss) == len(rounds)
        else ngettext("%(num)d Swiss round and the finals", "%(num)d Swiss rounds and the finals", len(swiss)),
        ngettext("%(num)d table played", "%(num)d tables played", tables)) if p)
    title = _("%(event)s: event report", event=safe_text(data.event))
    story = Story()
    story.flow(
        para(title, TITLE), para(subtitle, SUBTITLE), *finals_flow(data.finals, usable),
        *([] if data.finals else [para(_("Final standings"), HEADING)]), standings_table(data.final_standings, usable),
        para(_("Ties are broken by %(tie_breaks)s.", tie_breaks=_(", then ").join(data.tie_breaks)), NOTE),
    )
    for round_ in rounds:
        kind = _("draft") if round_.game_format == "draft" else _("standard game")
        heading = ngettext("%(round)s · %(kind)s · %(num)d table", "%(round)s · %(kind)s · %(num)d tables",
                           len(round_.tables), round=round_name(round_.number, round_.stage), kind=kind)
        story.flow(CondPageBreak(60 * mm), Spacer(1, 4), para(heading, HEADING), _round_table(round_, usable))
    return build(story, paper, title, " · ".join((safe_text(data.event), _("event report"))))
