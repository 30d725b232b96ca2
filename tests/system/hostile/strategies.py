"""Hostile values: what a careless, malicious or broken client might send."""

from __future__ import annotations

from hypothesis import strategies as st

NASTY_STRINGS = [
    "", " ", "0", "-1", "-0", "1e9", "1e309", "NaN", "Infinity", "9" * 40, "-" + "9" * 40, "0x1F", "1_000",
    "٣", "１２", "½", "3.5", "12abc", "\x00", "\x00\x00DROP", "'; DROP TABLE player; --", "\" OR 1=1 --",
    "<script>alert(1)</script>", "{{7*7}}", "${7*7}", "%s%s%s%n", "../../etc/passwd", "\u202eevil",
    "\ud7ff\ue000", "🌳" * 50, "a" * 5000, "\r\n\r\nSet-Cookie: x=y", "None", "null", "true", "[]", "{}",
    "organizer", "digital", "assistant", "scorepad", "totals",
]

nasty_text = st.one_of(
    st.sampled_from(NASTY_STRINGS),
    st.text(max_size=60),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.from_regex(r"-?[0-9]{1,4}", fullmatch=True),
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True) | nasty_text,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(nasty_text, children, max_size=6),
    max_leaves=30,
)
