"""Server logs without secrets: the paths of players' pages, seats, practice games, replays and
one-time links carry the token that opens them, so a log line shows ``/p/[token]`` instead.
Whoever reads the server's logs (a host's support, a log shipper) must not be able to act as a
player or set an organizer's password."""

from __future__ import annotations

import logging
import re

#: the prefixes of every path whose next segment is a secret token (``secrets.token_urlsafe``)
TOKEN_PATH = re.compile(r"(/(?:p|play|practice|welcome|replay/practice|replay/seat)/)[A-Za-z0-9_-]{16,}")


def redact_tokens(text: str) -> str:
    return TOKEN_PATH.sub(r"\1[token]", text)


class RedactTokens(logging.Filter):
    """Rewrites a record whose message holds a token path (gunicorn's access and error logs)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):  # a badly formatted record is the handler's business
            return True
        redacted = redact_tokens(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        return True
