"""The one exception the printing layer raises."""

from __future__ import annotations


class PrintingError(ValueError):
    """The data given cannot make a correct document (no seating, no result, bad paper...).

    Raised before any byte of PDF is produced, so a caller never hands out a broken file."""
