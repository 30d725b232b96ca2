"""A list table of any length laid out one frame at a time, in linear time.

platypus splits a long ``Table`` by building a new table of all the rows left over, styles and
cells copied and measured again, at every page: 4,000 names over 90 columns is quadratic, and
most of a big round pack's list pages. :class:`PagedTable` measures every row once, then hands
each frame a small table of just the rows that fit, header repeated, styled as the whole table
would have been (row backgrounds keep their rhythm across pages)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from reportlab.platypus import Flowable, FrameBreak, Table, TableStyle

Command = tuple[Any, ...]

#: A command spanning at most this many rows more is kept with its first row.
_LOCAL = 8


class _Rows:
    """What every piece of one paged table shares: the rows, styles and measured heights."""

    def __init__(self, rows: list[list[Any]], widths: list[float], style: Sequence[Command],
                 groups: Sequence[int] | None) -> None:
        self.rows = rows
        self.widths = widths
        self.style = [self._absolute(command) for command in style]
        # Commands on a few rows (a cell, a group) are looked up by row, so a frame's table
        # does not sift through every other page's. Kept by position: a later command wins.
        self.wide: list[int] = []
        self.local: dict[int, list[int]] = {}
        for position, (_, (_, r0), (_, r1), *_) in enumerate(self.style):
            if r0 >= 1 and r1 - r0 <= _LOCAL:
                self.local.setdefault(r0, []).append(position)
            else:
                self.wide.append(position)
        # Body rows that start a group (a group is never split between frames).
        self.starts = list(groups) if groups is not None else list(range(1, len(rows)))
        self.heights: list[float] | None = None
        self.tops: list[float] = []

    def _absolute(self, command: Command) -> Command:
        name, (c0, r0), (c1, r1), *rest = command
        count = len(self.rows)
        return (name, (c0, r0 + count if r0 < 0 else r0), (c1, r1 + count if r1 < 0 else r1), *rest)

    def measure(self, width: float) -> None:
        if self.heights is not None:
            return
        whole = Table(self.rows, colWidths=self.widths, repeatRows=1, longTableOptimize=0)
        whole.setStyle(TableStyle(self.style))
        whole.wrap(width, 1e9)
        self.heights = list(whole._rowHeights)  # type: ignore[attr-defined]  # noqa: SLF001 - no accessor
        self.tops = [0.0, *accumulate(self.heights[1:])]  # tops[i]: body rows 1..i together

    def body_height(self, first: int, end: int) -> float:
        return self.tops[end - 1] - self.tops[first - 1]

    def table(self, first: int, end: int) -> Table:
        """Header and body rows first..end-1 as a table of their own."""
        chunk = Table([self.rows[0], *self.rows[first:end]], colWidths=self.widths, repeatRows=1)
        near = [p for row in range(max(1, first - _LOCAL), end) for p in self.local.get(row, ())]
        shifted = (self._shift(self.style[position], first, end) for position in sorted(self.wide + near))
        chunk.setStyle(TableStyle([command for command in shifted if command]))
        return chunk

    @staticmethod
    def _shift(command: Command, first: int, end: int) -> Command | None:
        name, (c0, r0), (c1, r1), *rest = command
        low, high = max(r0, first, 1), min(r1, end - 1)
        if low > high:
            if r0 == 0:  # a header-only command, or a column's, whose body rows are elsewhere
                return (name, (c0, 0), (c1, 0), *rest)
            return None
        if name == "ROWBACKGROUNDS":
            colours = list(rest[0])
            skip = (low - max(r0, 1)) % len(colours)
            rest = [colours[skip:] + colours[:skip], *rest[1:]]
        return (name, (c0, 0 if r0 == 0 else low - first + 1), (c1, high - first + 1), *rest)


class PagedTable(Flowable):
    """``rows[0]`` is the header, repeated in every frame; ``style`` uses the whole table's row
    numbers (negative ones count from the end); ``groups``, the first body row of each run of
    rows that stays together (default: every row stands alone).

    ``balanced``: on a page of two columns (frames "left" and "right"), rows that would spill a
    little into the right column are shared out evenly between both, so no name stands alone at
    the top of a column."""

    def __init__(self, rows: list[list[Any]], widths: list[float], style: Sequence[Command] = (),
                 groups: Sequence[int] | None = None, *, balanced: bool = False, _shared: _Rows | None = None,
                 _first: int = 1) -> None:
        super().__init__()
        self.hAlign = "CENTER"  # where platypus puts a Table narrower than its frame
        self._rows = _shared or _Rows(rows, widths, style, groups)
        self._first = _first
        self._balanced = balanced

    def _end(self) -> int:
        return len(self._rows.rows)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        rows = self._rows
        rows.measure(availWidth)
        assert rows.heights is not None
        self.width = sum(rows.widths)
        self.height = rows.heights[0] + rows.body_height(self._first, self._end())
        return self.width, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        rows = self._rows
        rows.measure(availWidth)
        assert rows.heights is not None
        room = availHeight - rows.heights[0]
        starts = rows.starts
        index = bisect_right(starts, self._first - 1)
        # The last group start whose rows before it all fit (in half the rest, when the rest
        # fits the two columns of this page and is to be shared out evenly).
        left = self._end()
        limit = room
        frame = getattr(self, "_frame", None)
        if self._balanced and getattr(frame, "id", None) == "left" and rows.body_height(self._first, left) <= 2 * room:
            limit = rows.body_height(self._first, left) / 2 + 0.01
        stop = self._first
        for start in starts[index:] + [left]:
            if start > self._first and rows.body_height(self._first, start) > limit:
                break
            stop = start
        if limit < room and stop < left and rows.body_height(stop, left) > room:
            stop = next((s for s in starts[index:] + [left] if s > stop and rows.body_height(self._first, s) <= room), stop)
        if stop <= self._first:
            return []  # not even one group fits: the frame moves on
        pieces: list[Flowable] = [rows.table(self._first, stop)]
        if stop < self._end():
            if limit < room:  # the other half goes to the right column, not below in this one
                pieces.append(FrameBreak())
            pieces.append(PagedTable([], [], _shared=rows, _first=stop, balanced=self._balanced))
        return pieces

    def draw(self) -> None:
        table = self._rows.table(self._first, self._end())
        table.wrapOn(self.canv, self.width, self.height)
        table.drawOn(self.canv, 0, 0)
