"""A season's league table on paper: the rule it ranks by, every player's line,
and the events it counts. Plain data in, PDF out, as the event standings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib.units import mm

from organizer.core.translate import N_, _, format_points, ngettext
from organizer.printing.data import Number, Paper
from organizer.printing.documents import HEADING, NOTE, SUBTITLE, TITLE, Story, build, long_list, para
from organizer.printing.errors import PrintingError
from organizer.printing.fonts import BOLD, safe_text
from organizer.printing.layout import MARGIN, fit_lines, paper_size

LEAGUE_HEADER = ["#", "Player", "Points", "Events", "Counted", "Game pts", "Species"]
HEADINGS = {"Player": N_("Player"), "Points": N_("Points"), "Events": N_("Events"), "Counted": N_("Counted"),
            "Game pts": N_("Game pts"), "Species": N_("Species")}


@dataclass(frozen=True)
class LeagueLine:
    """One player's line; ``rank`` None: listed below the ranked players (too few events)."""

    rank: int | None
    player: str
    points: Number
    attended: int
    counted: int
    game_points: int
    species: int


@dataclass(frozen=True)
class LeagueData:
    season: str
    first_day: str
    last_day: str
    #: the rule in words, e.g. "best 3 events' tournament points"
    rule: str
    #: (date, name) of each event the season groups, in date order
    events: tuple[tuple[str, str], ...]
    rows: tuple[LeagueLine, ...]
    paper: Paper = "a4"
    #: counted results not confirmed yet: the league is provisional while there are any
    unconfirmed: int = 0


def _check(data: LeagueData) -> None:
    if not safe_text(data.season):
        raise PrintingError("the season has no name")
    if not data.rows:
        raise PrintingError("there are no results in this season yet")
    for row in data.rows:
        if not safe_text(row.player):
            raise PrintingError(f"a player at rank {row.rank} has no name")
        if row.rank is not None and (isinstance(row.rank, bool) or not isinstance(row.rank, int) or row.rank < 1):
            raise PrintingError(f"{row.player} has rank {row.rank!r}; ranks start at 1")
        for label, value in (("points", row.points), ("events", row.attended), ("counted events", row.counted),
                             ("game points", row.game_points), ("species", row.species)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "denominator"):
                raise PrintingError(f"{row.player}'s {label} is {value!r}, not a number")
            if value < 0:
                raise PrintingError(f"{row.player}'s {label} is negative ({value})")


def _table(rows: tuple[LeagueLine, ...], usable: float) -> Any:
    fixed = {"#": 11 * mm, "Points": 17 * mm, "Events": 15 * mm, "Counted": 17 * mm, "Game pts": 19 * mm,
             "Species": 16 * mm}
    widths = [fixed.get(h, usable - sum(fixed.values())) for h in LEAGUE_HEADER]
    name_column = LEAGUE_HEADER.index("Player")
    body: list[list[object]] = [[_(HEADINGS[key]) if key in HEADINGS else key for key in LEAGUE_HEADER]]
    fitted: list[tuple[int, float]] = []
    # ranked players in rank order, then the unranked as they came (most events first)
    ordered = sorted((r for r in rows if r.rank is not None), key=lambda r: r.rank or 0) + \
        [r for r in rows if r.rank is None]
    for index, row in enumerate(ordered, start=1):
        lines, size = fit_lines(row.player, BOLD, 9.5, widths[name_column] - 6, min_size=7.5)
        if size != 9.5:
            fitted.append((index, size))
        body.append(["–" if row.rank is None else str(row.rank), "\n".join(lines), format_points(row.points),
                     str(row.attended), str(row.counted), str(row.game_points), str(row.species)])
    style: list[tuple[object, ...]] = [
        ("FONT", (name_column, 1), (name_column, -1), BOLD, 9.5),
        ("FONT", (2, 1), (2, -1), BOLD, 9.5),
    ]
    style += [("FONTSIZE", (name_column, index), (name_column, index), size) for index, size in fitted]
    style += [("LEADING", (name_column, index), (name_column, index), size * 1.15) for index, size in fitted]
    return long_list(body, widths, numeric_columns=(0, 2, 3, 4, 5, 6), style=style)


def league_pdf(data: LeagueData) -> bytes:
    """The league table, as many pages as the players need, the header on each."""
    paper_size(data.paper)
    _check(data)
    paper = data.paper.strip().lower()
    usable = paper_size(paper)[0] - 2 * MARGIN
    season = safe_text(data.season)
    subtitle = " · ".join((f"{data.first_day} – {data.last_day}",
                           ngettext("%(num)d event", "%(num)d events", len(data.events)),
                           ngettext("%(num)d player", "%(num)d players", len(data.rows))))
    if data.unconfirmed:
        subtitle += " · " + ngettext("provisional: %(num)d result not confirmed yet",
                                     "provisional: %(num)d results not confirmed yet", data.unconfirmed)
    title = _("%(season)s: league", season=season)
    story = Story()
    story.flow(para(title, TITLE), para(subtitle, SUBTITLE),
               para(_("Ranked by %(rule)s.", rule=safe_text(data.rule)), SUBTITLE), _table(data.rows, usable))
    notes = [_("Points: the rule's figure over the counted events. Ties are broken by game points, then species, "
               "over the counted events; players still equal share the rank.")]
    if any(row.rank is None for row in data.rows):
        notes.append(_("–: fewer events than the rule asks for; not ranked."))
    story.flow(*(para(note, NOTE) for note in notes))
    if data.events:
        story.flow(para(_("Events"), HEADING),
                   long_list([[_("Date"), _("Event")]] + [[day, safe_text(name)] for day, name in data.events],
                             [30 * mm, usable - 30 * mm]))
    return build(story, paper, title, " · ".join((season, _("league"))))
