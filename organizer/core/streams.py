"""Whether this server keeps pages' streams open (organizer/live/stream.py): the pages that have
one render its address only then, and poll as ever either way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def streams_enabled(config: Mapping[str, Any]) -> bool:
    """``LIVE_PUSH`` true or false, or by default only under gevent's monkey-patching (gunicorn's
    gevent worker), where an idle stream is a greenlet, not a thread."""
    setting = config.get("LIVE_PUSH")
    if setting is not None:
        return bool(setting)
    try:
        from gevent import monkey  # type: ignore[import-untyped]
    except ImportError:
        return False
    return bool(monkey.is_module_patched("socket"))
