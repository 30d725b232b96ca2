"""The score sheet of one finished table: a summary page, then a page per player with their
arboretum drawn card by card, the paths scored highlighted, and every species explained."""

from __future__ import annotations

from typing import Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Spacer

from engine.cards import Edition, edition_species, species_code
from organizer.core.translate import _, ordinal, round_name, species_name
from organizer.printing.data import ExplanationLine, PlayerSheet, ScoreSheetData, SheetSpecies
from organizer.printing.documents import (
    CELL,
    CELL_BOLD,
    CELL_HEAD,
    HEADING,
    NOTE,
    SUBTITLE,
    TITLE,
    Story,
    build,
    list_table,
    markup,
    para,
)
from organizer.printing.errors import PrintingError
from organizer.printing.fonts import BOLD, REGULAR, safe_text
from organizer.printing.layout import (
    INK,
    MARGIN,
    MUTED,
    SHADE,
    check_species,
    draw_fitted,
    draw_name,
    hex_color,
    paper_size,
    parse_edition,
    species_hex,
    swatch,
    text_on,
)
from organizer.printing.scorepad import rules_reminder, tie_break_text

MAX_CARD = 21 * mm
HAND_CARD = 10 * mm


def explain(lines: tuple[ExplanationLine, ...]) -> str:
    """"4 cards (4), 4+ cards all Oak (+4), ends with an 8 (+2)": what a referee would say."""
    parts = []
    for index, line in enumerate(lines):
        if isinstance(line, str):
            parts.append(line)
        else:
            label, points = line
            sign = "" if index == 0 and points >= 0 else ("+" if points >= 0 else "−")
            parts.append(f"{label} ({sign}{abs(points)})")
    return ", ".join(parts)


def _check_player(player: PlayerSheet, in_play: tuple[str, ...]) -> None:
    who = safe_text(player.name) or "a player"
    if not safe_text(player.name):
        raise PrintingError("a player on the score sheet has no name")
    cells: dict[tuple[int, int], tuple[str, int]] = {}
    for x, y, species, value in player.arboretum:
        if species not in in_play:
            raise PrintingError(f"{who}: card {species} {value} at ({x}, {y}) is not of a species in play")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 8:
            raise PrintingError(f"{who}: card {species} {value!r} at ({x}, {y}): values are 1 to 8")
        if (x, y) in cells:
            raise PrintingError(f"{who}: two cards in cell ({x}, {y})")
        cells[(x, y)] = (species, value)
    if not cells:
        raise PrintingError(f"{who} has an empty arboretum: the table has no result to print")
    seen: set[str] = set()
    for score in player.species:
        if score.species not in in_play:
            raise PrintingError(f"{who}: points given for {score.species}, which is not in play")
        if score.species in seen:
            raise PrintingError(f"{who}: {score.species} is scored twice")
        seen.add(score.species)
        _check_path(who, score, cells)
    missing = [s for s in in_play if s not in seen]
    if missing:
        raise PrintingError(f"{who}: no score given for {', '.join(missing)}")
    added = sum(s.points for s in player.species) + sum(points for _label, points in player.bonuses)
    if added != player.total:
        raise PrintingError(f"{who}: the species and bonuses add up to {added}, not to the total {player.total}")
    if isinstance(player.rank, bool) or not isinstance(player.rank, int) or player.rank < 1:
        raise PrintingError(f"{who}: rank {player.rank!r} must be 1 or more")


def _check_path(who: str, score: SheetSpecies, cells: dict[tuple[int, int], tuple[str, int]]) -> None:
    path = score.path
    if not path:
        return
    where = f"{who}, {score.species} path"
    if len(path) < 2:
        raise PrintingError(f"{where}: a path has at least 2 cards")
    for cell in path:
        if tuple(cell) not in cells:
            raise PrintingError(f"{where}: no card at ({cell[0]}, {cell[1]})")
    if cells[tuple(path[0])][0] != score.species or cells[tuple(path[-1])][0] != score.species:  # type: ignore[index]
        raise PrintingError(f"{where}: a path starts and ends on a card of its species")
    for a, b in zip(path, path[1:], strict=False):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise PrintingError(f"{where}: ({a[0]}, {a[1]}) and ({b[0]}, {b[1]}) are not adjacent")
        if cells[tuple(a)][1] >= cells[tuple(b)][1]:  # type: ignore[index]
            raise PrintingError(f"{where}: values must rise along the path")


def check_score_sheet(data: ScoreSheetData) -> tuple[Edition, tuple[str, ...]]:
    edition = parse_edition(data.edition)
    paper_size(data.paper)
    if data.game_format not in ("standard", "draft", "solo"):
        raise PrintingError(f"unknown game format {data.game_format!r}: expected standard, draft or solo")
    if not data.players:
        raise PrintingError("this table has no result yet: nothing to print on a score sheet")
    in_play = check_species(edition, data.species_in_play, "score sheet")
    names = [p.name.strip().casefold() for p in data.players]
    if len(set(names)) != len(names):
        raise PrintingError("two players at the table have the same name")
    for player in data.players:
        _check_player(player, in_play)
    return edition, in_play


# -- drawing -------------------------------------------------------------------------------


def draw_card(canvas: Canvas, x: float, y: float, size: float, species: str, value: int, hex_value: str,
              show_name: bool = True) -> None:
    fill = hex_color(hex_value)
    ink = text_on(hex_value)
    canvas.saveState()
    canvas.setFillColor(fill)
    # Every card gets a dark edge: white Crabapple needs it, and it keeps neighbours apart.
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(0.7)
    inset = size * 0.04
    canvas.roundRect(x + inset, y + inset, size - 2 * inset, size - 2 * inset, size * 0.09, stroke=1, fill=1)
    canvas.setFillColor(ink)
    canvas.setFont(BOLD, size * 0.34)
    canvas.drawString(x + size * 0.12, y + size - size * 0.42, str(value))
    # the species code, so no one needs the colour to tell species apart
    canvas.setFont(BOLD, size * 0.22)
    canvas.drawRightString(x + size * 0.88, y + size - size * 0.36, species_code(species))
    if show_name:
        draw_fitted(canvas, x + size * 0.1, y + size * 0.1, species_name(species), size * 0.8, size=size * 0.15,
                    align="center", min_size=3.5)
    canvas.restoreState()


def draw_arboretum(canvas: Canvas, player: PlayerSheet, edition: Edition, x: float, y: float, w: float,
                   h: float, paths: list[SheetSpecies]) -> float:
    """The cards at the top of the box (x, y, w, h), centred across, with each scored path as a line
    through them; returns the height used."""
    xs = [c[0] for c in player.arboretum]
    ys = [c[1] for c in player.arboretum]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    size = min(MAX_CARD, w / cols, h / rows)
    left = x + (w - cols * size) / 2
    top = y + h

    def origin(cx: int, cy: int) -> tuple[float, float]:
        return left + (cx - min(xs)) * size, top - (cy - min(ys) + 1) * size

    for cx, cy, species, value in player.arboretum:
        ox, oy = origin(cx, cy)
        draw_card(canvas, ox, oy, size, species, value, species_hex(edition, species), show_name=size >= 12 * mm)

    # Paths sharing a card are nudged apart so each stays visible; all centred on the card centre.
    spread = size * 0.09
    for index, score in enumerate(paths):
        offset = (index - (len(paths) - 1) / 2) * spread
        points = []
        for cx, cy in score.path:
            ox, oy = origin(cx, cy)
            # through the card's middle band: clear of the value and code above and the name below
            points.append((ox + size * 0.56 + offset, oy + size * 0.40 + offset))
        hex_value = species_hex(edition, score.species)
        width = max(2.5, size * 0.13)
        canvas.saveState()
        canvas.setLineCap(1)
        canvas.setLineJoin(1)
        for colour, line_width in ((INK, width + 3.2), (colors.white, width + 1.6), (hex_color(hex_value), width)):
            canvas.setStrokeColor(colour)
            canvas.setLineWidth(line_width)
            line = canvas.beginPath()
            line.moveTo(*points[0])
            for point in points[1:]:
                line.lineTo(*point)
            canvas.drawPath(line, stroke=1, fill=0)
        for (px, py), radius in ((points[0], width * 0.7), (points[-1], width * 0.95)):
            canvas.setFillColor(hex_color(hex_value))
            canvas.setStrokeColor(INK)
            canvas.setLineWidth(1.2)
            canvas.circle(px, py, radius, stroke=1, fill=1)
        canvas.restoreState()
    return float(rows * size)


def _species_rows(player: PlayerSheet, edition: Edition, in_play: tuple[str, ...], standard: bool) -> list[list[object]]:
    by_species = {s.species: s for s in player.species}
    cards = {(x, y): (s, v) for x, y, s, v in player.arboretum}
    header = ["", _("Species")] + ([_("Hand")] if standard else []) + [_("Right"), _("Path and points"), _("Points")]
    rows: list[list[object]] = [list[object](header)]
    for species in in_play:
        score = by_species[species]
        path_text = " → ".join(f"{species_name(cards[c][0])} {cards[c][1]}" for c in score.path)
        detail: list[tuple[str, str]] = []
        if path_text:
            detail += [("", path_text), ("br", "")]
        detail.append(("small", explain(score.explanation)))
        row: list[object] = ["", markup([("b", f"{species_code(species)} {species_name(species)}")], CELL)]
        if standard:
            row.append("" if score.hand_sum is None else str(score.hand_sum))
        row += [_("yes") if score.right else _("no"), markup(detail, CELL), str(score.points)]
        rows.append(row)
    for label, points in player.bonuses:
        rows.append(["", markup([("b", label)], CELL)] + ([""] if standard else []) + ["", "", str(points)])
    rows.append(["", markup([("b", _("Total"))], CELL_BOLD)] + ([""] if standard else []) + ["", "", str(player.total)])
    return rows


def _player_page(canvas: Canvas, width: float, height: float, data: ScoreSheetData, player: PlayerSheet,
                 edition: Edition, in_play: tuple[str, ...]) -> None:
    top = height - MARGIN
    usable = width - 2 * MARGIN
    canvas.setFillColor(MUTED)
    context = " · ".join(p for p in (safe_text(data.event or ""), _where(data)) if p)
    draw_fitted(canvas, MARGIN, top - 8, context or _("Score sheet"), usable, size=9)
    canvas.setFillColor(INK)
    draw_name(canvas, MARGIN, top - 26, player.name, usable - 60 * mm, size=20, min_size=11)
    canvas.setFont(BOLD, 20)
    canvas.drawRightString(width - MARGIN, top - 30, _("%(points)d points", points=player.total))
    canvas.setFont(REGULAR, 10)
    place = _("%(place)s place", place=ordinal(player.rank))
    if player.species_in_arboretum is not None:
        place = _("%(place)s place · %(count)d species in arboretum", place=ordinal(player.rank),
                  count=player.species_in_arboretum)
    canvas.drawRightString(width - MARGIN, top - 44, place)

    standard = data.game_format != "draft"
    rows = _species_rows(player, edition, in_play, standard)
    widths = [7 * mm, 36 * mm] + ([13 * mm] if standard else []) + [13 * mm]
    widths += [usable - sum(widths) - 15 * mm, 15 * mm]
    table = list_table(rows, widths, numeric_columns=(len(widths) - 1,), zebra=False)
    style: list[Any] = [("FONT", (-1, 1), (-1, -1), BOLD, 11), ("LINEABOVE", (0, -1), (-1, -1), 1.2, INK),
             ("BACKGROUND", (0, -1), (-1, -1), SHADE), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]
    for row_index, species in enumerate(in_play, start=1):
        score = next(s for s in player.species if s.species == species)
        if not score.right:
            style.append(("TEXTCOLOR", (2, row_index), (-1, row_index), MUTED))
    table.setStyle(style)
    table_height = table.wrapOn(canvas, usable, height)[1]
    hand_block = HAND_CARD + 14 * mm if player.hand else 0
    box_top = top - 54
    paths = [s for s in player.species if s.path and s.points > 0]
    canvas.setFillColor(INK)
    canvas.setFont(BOLD, 9)
    canvas.drawString(MARGIN, box_top, _("Arboretum · paths scored drawn through the cards") if paths else _("Arboretum"))
    lowest = MARGIN + 6 * mm + table_height + hand_block + 6 * mm
    used = draw_arboretum(canvas, player, edition, MARGIN, lowest, usable, box_top - 8 - lowest, paths)
    cursor = box_top - 8 - used - 8 * mm

    if player.hand:
        order = {name: i for i, name in enumerate(edition_species(edition))}
        hand = sorted(player.hand, key=lambda card: (order.get(card[0], 99), card[1]))
        canvas.setFillColor(INK)
        canvas.setFont(BOLD, 9)
        canvas.drawString(MARGIN, cursor, _("Hand at the end"))
        cursor -= HAND_CARD + 4
        step = HAND_CARD + 1.5 * mm
        for index, (species, value) in enumerate(hand):
            draw_card(canvas, MARGIN + index * step, cursor, HAND_CARD, species, value,
                      species_hex(edition, species), show_name=False)
        canvas.setFillColor(MUTED)
        draw_fitted(canvas, MARGIN + len(hand) * step + 2 * mm, cursor + HAND_CARD / 2 - 3,
                    ", ".join(f"{species_code(s)} {species_name(s)} {v}" for s, v in hand),
                    usable - len(hand) * step - 2 * mm, size=7.5, min_size=5)
        cursor -= 8 * mm

    table_y = cursor - table_height
    table.drawOn(canvas, MARGIN, table_y)
    # Swatches in the first column, drawn over the table once its rows are placed.
    row_heights = table._rowHeights  # type: ignore[attr-defined]  # noqa: SLF001 - no public accessor
    row_top = table_y + table_height - row_heights[0]
    for index, species in enumerate(in_play, start=1):
        row_top -= row_heights[index]
        swatch(canvas, MARGIN + 1.5 * mm, row_top + (row_heights[index] - 4 * mm) / 2, 4 * mm,
               species_hex(edition, species))


def score_sheet(data: ScoreSheetData) -> bytes:
    """A summary page with ranks and every species' points, then one page per player."""
    edition, in_play = check_score_sheet(data)
    paper = data.paper.strip().lower()
    story = Story()
    where = _where(data)
    title = _("Score sheet: %(where)s", where=where) if where else _("Score sheet")
    kinds = {"standard": _("%(edition)s edition, standard game"), "draft": _("%(edition)s edition, draft"),
             "solo": _("%(edition)s edition, solo game")}
    details = [safe_text(data.event or ""), kinds[data.game_format] % {"edition": edition.value}, data.source or ""]
    ranked = sorted(data.players, key=lambda p: (p.rank, -p.total))
    tie_column = edition is Edition.E2018 or data.game_format != "standard"
    ranking: list[list[object]] = [list[object]([_("Place"), _("Player"), _("Points")]
                                                + ([_("Species (tie-break)")] if tie_column else []))]
    for player in ranked:
        ranking.append([ordinal(player.rank), para(player.name, CELL_BOLD), str(player.total)]
                       + ([("" if player.species_in_arboretum is None else str(player.species_in_arboretum))]
                          if tie_column else []))
    usable = paper_size(paper)[0] - 2 * MARGIN
    rank_widths = [18 * mm, usable - 18 * mm - 22 * mm - (36 * mm if tie_column else 0), 22 * mm]
    rank_widths += [36 * mm] if tie_column else []
    matrix: list[list[object]] = [["", _("Species")] + [para(p.name, CELL_HEAD) for p in data.players]]
    for species in in_play:
        row: list[object] = ["", f"{species_code(species)} {species_name(species)}"]
        for player in data.players:
            score = next(s for s in player.species if s.species == species)
            row.append(str(score.points) if score.right or score.points else _("no right"))
        matrix.append(row)
    bonus_labels = sorted({label for p in data.players for label, _points in p.bonuses})
    for label in bonus_labels:
        matrix.append(list[object](["", label] + [str(sum(pts for lbl, pts in p.bonuses if lbl == label)) for p in data.players]))
    matrix.append(list[object](["", _("Total")] + [str(p.total) for p in data.players]))
    first = 45 * mm
    matrix_table = list_table(matrix, [4 * mm, first] + [(usable - first - 4 * mm) / len(data.players)] * len(data.players),
                              numeric_columns=tuple(range(2, len(data.players) + 2)))
    matrix_style: list[Any] = [
        ("FONT", (0, -1), (-1, -1), BOLD, 10.5), ("LINEABOVE", (0, -1), (-1, -1), 1.2, INK),
        ("ALIGN", (2, 0), (-1, 0), "RIGHT"),
    ]
    for row_index, species in enumerate(in_play, start=1):
        matrix_style.append(("BACKGROUND", (0, row_index), (0, row_index), hex_color(species_hex(edition, species))))
    matrix_table.setStyle(matrix_style)
    story.flow(
        para(title, TITLE), para(" · ".join(d for d in details if d), SUBTITLE),
        para(_("Ranking"), HEADING), list_table(ranking, rank_widths, numeric_columns=(2, 3) if tie_column else (2,)),
        *([para(data.tie_note, NOTE)] if data.tie_note else []),
        para(tie_break_text(edition, data.game_format), NOTE),
        para(_("Points per species"), HEADING), matrix_table,
        Spacer(1, 6), para(_("Species in play: %(species)s", species=", ".join(species_name(s) for s in in_play)), NOTE),
        para(rules_reminder(data.game_format), NOTE),
    )
    for player in data.players:
        def draw(canvas: Canvas, width: float, height: float, player: PlayerSheet = player) -> None:
            _player_page(canvas, width, height, data, player, edition, in_play)

        story.page(draw)
    footer = " · ".join(p for p in (_("Score sheet"), safe_text(data.event or ""), where) if p)
    return build(story, paper, title, footer)


def _where(data: ScoreSheetData) -> str:
    if data.round_number and data.table:
        return _("%(round)s · table %(table)d", round=round_name(data.round_number, data.stage), table=data.table)
    if data.round_number:
        return round_name(data.round_number, data.stage)
    return _("table %(table)d", table=data.table) if data.table else ""
