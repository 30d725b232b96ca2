"""A page of a long list (the audit log, the players, the standings, a round's tables): which
rows it holds and how many there are in all, so a page never cuts a list without saying so."""

from __future__ import annotations

from dataclasses import dataclass

PER_PAGE = 50
MAX_PER_PAGE = 500


@dataclass(frozen=True)
class Page:
    """Page ``number`` (from 1) of ``total`` rows, ``per_page`` a page."""

    number: int
    per_page: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.per_page

    @property
    def first(self) -> int:
        """The first row's place in the whole list (from 1; 0 when the list is empty)."""
        return min(self.offset + 1, self.total)

    @property
    def last(self) -> int:
        return min(self.offset + self.per_page, self.total)

    @property
    def cut(self) -> bool:
        """Whether the list is longer than this page."""
        return self.total > self.per_page

    def numbers(self, around: int = 2) -> list[int | None]:
        """Page numbers worth a link: the first, the last and those near this one; None where
        pages are skipped."""
        wanted = {1, self.pages} | set(range(self.number - around, self.number + around + 1))
        shown: list[int | None] = []
        for number in sorted(n for n in wanted if 1 <= n <= self.pages):
            if shown and shown[-1] is not None and number > shown[-1] + 1:
                shown.append(None)
            shown.append(number)
        return shown


def page_of(total: int, number: int | None = None, per_page: int = PER_PAGE) -> Page:
    """The page asked for, kept inside the list: past the end is the last page, below 1 the first."""
    per_page = max(1, min(per_page, MAX_PER_PAGE))
    pages = max(1, -(-total // per_page))
    return Page(min(max(number or 1, 1), pages), per_page, total)


def page_number(raw: str | None) -> int:
    """A page number as a query string carries it; anything else is page 1."""
    try:
        return max(1, int(raw or "1"))
    except ValueError:
        return 1
