"""What typed text may be, in one place: names (players, events, organizer accounts), the key
that tells two names apart, and the whole numbers of score fields. Every form, the CSV player
import and the JSON event import come here, so they accept and refuse the same things."""

from __future__ import annotations

import re
import unicodedata

from organizer.core.translate import N_, _

#: Characters that show nothing although Unicode files them as letters or symbols: the Hangul
#: fillers, the braille blank, the combining grapheme joiner, Khmer's invisible vowels, and the
#: variation selectors. With the format, control and space categories they are what a name made
#: to look empty (or to look like another player's) is built from.
_SHOWS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180e"
                           + "".join(chr(c) for c in range(0xFE00, 0xFE10)))
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})
_DIGITS = re.compile(r"[0-9]{1,9}")

NUL_MESSAGE = N_("Text may not contain the NUL character (\\0).")
DIGITS_HINT = N_("digits 0-9 only")


def invisible(char: str) -> bool:
    """Whether ``char`` shows nothing by itself (a space, a zero-width or format character,
    a direction override, a Hangul filler, the braille blank...)."""
    return (unicodedata.category(char) in _INVISIBLE_CATEGORIES or char in _SHOWS_NOTHING
            or 0xE0100 <= ord(char) <= 0xE01EF)


def clean_name(raw: str) -> str:
    """A name as stored: Unicode NFC (one spelling of "é"), runs of spaces folded to one."""
    return " ".join(unicodedata.normalize("NFC", raw).split())


def name_problem(name: str, max_length: int, missing: str) -> str | None:
    """What is wrong with a cleaned name (see :func:`clean_name`), or None. ``missing`` is the
    message for an empty name, worded for its form."""
    if not name:
        return missing
    stored = text_problem(name)
    if stored is not None:
        return stored
    if any(unicodedata.category(char) == "Cc" for char in name):
        return _("A name may not contain control characters.")
    if all(invisible(char) for char in name):
        return _("A name needs letters or signs that show: this one is only invisible characters.")
    if len(name) > max_length:
        return _("Keep the name to %(most)d characters or fewer.", most=max_length)
    return None


def name_key(name: str) -> str:
    """The key under which two names are one: equal up to case, width and compatibility forms
    (NFKC: "Ａｄａ" is "Ada"), spacing, and invisible characters ("Ada\u200b" is "Ada")."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join("".join(" " if invisible(char) and char.isspace() else "" if invisible(char) else char
                            for char in folded).split())


def text_problem(text: str) -> str | None:
    """What no stored text may hold: NUL (PostgreSQL refuses it in any text column) and lone
    surrogates (a JSON file can spell one as "\\ud800"; no database can store it)."""
    if "\x00" in text:
        return _(NUL_MESSAGE)
    if any(0xD800 <= ord(char) <= 0xDFFF for char in text):
        return _("Text may not contain a lone surrogate (half of a UTF-16 pair).")
    return None


def whole_number(raw: str) -> int | None:
    """A score field's number: plain ASCII digits and nothing else ("٣", "３", "+5", " 5 ",
    "5.0" and "1_000" are no numbers here, although Python's int() takes most of them)."""
    return int(raw) if _DIGITS.fullmatch(raw) else None


# A spreadsheet reads a cell beginning with = + - @ (or a tab or carriage return before one) as a
# formula. OWASP's guidance: write such text with a single quote in front, which spreadsheets
# show as plain text. The CSV import takes one quote off again, so an exported name comes back
# unchanged; a name that itself begins with quotes before such a sign gets one more on export.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")
_GUARDED = re.compile(r"'+[=+\-@\t\r]")


def spreadsheet_cell(value: object) -> object:
    """A CSV cell as written: text that a spreadsheet would run as a formula gets a leading '."""
    return "'" + value if isinstance(value, str) and _FORMULA.match(value) else value


def from_spreadsheet_cell(cell: str) -> str:
    """The text of a CSV cell written by :func:`spreadsheet_cell` (the guard taken off)."""
    return cell[1:] if _GUARDED.match(cell) else cell
