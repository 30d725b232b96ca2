"""Reading an uploaded JSON file (an event export, a score case): text, then JSON of a bounded
depth. Python's parser recurses once per level, so a few thousand nested brackets end in
RecursionError, and a file just under that limit would crash the code that walks it next."""

from __future__ import annotations

import json
from typing import Any

from organizer.core.errors import InputError
from organizer.core.translate import _

#: deeper than any file the app writes (an event export nests about 7 levels)
MAX_DEPTH = 32


def read_json(raw: bytes, field: str, what: str) -> Any:
    """The JSON in ``raw`` (UTF-8, a BOM allowed), or InputError under ``field`` saying why not;
    ``what`` names the expected file in the message (an already translated phrase: "an event
    export")."""
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InputError({field: _("Not %(what)s: the file is not UTF-8 text.", what=what)}) from None
    except json.JSONDecodeError as bad:
        raise InputError({field: _("Not %(what)s: the file is not valid JSON (%(detail)s).", what=what, detail=bad)}) from None
    except RecursionError:
        raise InputError({field: _too_deep(what)}) from None
    if _depth_exceeds(data, MAX_DEPTH):
        raise InputError({field: _too_deep(what)})
    return data


def _too_deep(what: str) -> str:
    return _("Not %(what)s: the JSON nests lists or objects more than %(depth)d levels deep.", what=what, depth=MAX_DEPTH)


def _depth_exceeds(data: Any, limit: int) -> bool:
    """Whether ``data`` nests deeper than ``limit``, without recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                return True
            stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return False
