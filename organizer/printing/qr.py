"""QR codes for the printed links, encoded by reportlab's QR code widget.

The widget chooses the mask pattern by scoring all eight with the standard's penalty rules in
plain Python loops, which is two thirds of its time; a round pack with a slip per seat encodes
hundreds of codes. :func:`lost_points` computes the very same score (rule for rule, quirks
included, checked against reportlab in the tests) with string and integer operations, so the
mask chosen and the code printed are the ones reportlab would make, about twice as fast."""

from __future__ import annotations

import re
from functools import lru_cache

from reportlab.graphics.barcode.qr import QrCodeWidget

_RUN = re.compile(r"0{5,}|1{5,}")
_FINDER_LIKE = "10111010000"


def _rows(modules: list[list[bool]]) -> list[str]:
    return ["".join("1" if module else "0" for module in row) for row in modules]


def lost_points(modules: list[list[bool]]) -> int:
    """reportlab's ``QRUtil.getLostPoint`` for a module matrix."""
    rows = _rows(modules)
    size = len(rows)
    columns = ["".join(column) for column in zip(*rows)]
    # Rule 1: every run of 5+ same-coloured modules in a row or column costs its length - 2.
    score = sum(len(m.group()) - 2 for line in rows + columns for m in _RUN.finditer(line))
    # Rule 2: 3 for every 2x2 block of one colour.
    full = (1 << size) - 1
    pairs = (1 << (size - 1)) - 1
    numbers = [int(row, 2) for row in rows]
    for upper, lower in zip(numbers, numbers[1:]):
        same_down = ~(upper ^ lower) & full
        same_across = ~(upper ^ (upper >> 1)) & pairs
        score += 3 * bin(same_down & (same_down >> 1) & same_across).count("1")
    # Rule 3: 40 for each finder-like run, scanned along rows only and never at the very last
    # position, as reportlab does (its column scan compares tuples with a list and never matches).
    last = size - len(_FINDER_LIKE)
    for row in rows:
        found = row.find(_FINDER_LIKE)
        while found != -1 and found < last:
            score += 40
            found = row.find(_FINDER_LIKE, found + len(_FINDER_LIKE))
    # Rule 4: 10 for every 5 % the dark share strays from half.
    dark = sum(row.count("1") for row in rows)
    score += 10 * (abs(100 * dark // (size * size) - 50) // 5)
    return score


@lru_cache(maxsize=2048)
def qr_modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The dark/light modules of ``url``'s QR code, error correction level M (it survives a crease
    or a coffee ring). Cached: a reprinted pack does not encode its links again."""
    widget = QrCodeWidget(url, barLevel="M")
    code = widget.qr
    if code.version is None:
        code.version = code.calculate_version()
    best_mask, best_score = 0, -1
    for mask in range(8):
        code.makeImpl(True, mask)
        score = lost_points(code.modules)
        if best_score < 0 or score < best_score:
            best_mask, best_score = mask, score
    code.makeImpl(False, best_mask)
    return tuple(tuple(bool(module) for module in row) for row in code.modules)
