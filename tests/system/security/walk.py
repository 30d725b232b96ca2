"""Walking the app's routes: every rule of the url_map with real ids filled in, and a snapshot of
the whole database to prove a refused request changed nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from flask import Flask
from werkzeug.routing import Rule

from organizer.core.permissions import RULES, Need

#: open to everyone by design, as organizer/permissions.py says (signing in, the first account on
#: an empty database, static files, the health check, practice games, the blank scorepad)
PUBLIC_ENDPOINTS = {endpoint for endpoint, need in RULES.items() if need is Need.PUBLIC}
#: a seat's private link, or a one-time account link, carries its own credential (the token)
SEAT_ARGUMENTS = {"token"}


@dataclass(frozen=True)
class Route:
    endpoint: str
    method: str
    path: str
    rule: str

    def __str__(self) -> str:
        return f"{self.method} {self.rule}"


def fill(rule: Rule, values: dict[str, str]) -> str:
    """The rule's path with each <argument> replaced by a real value (1 when nothing better)."""
    path = rule.rule
    for argument in rule.arguments:
        for converter in ("int:", "string:", "path:", ""):
            path = path.replace(f"<{converter}{argument}>", values.get(argument, "1"))
    return path


def routes(app: Flask, values: dict[str, str], *, methods: set[str] | None = None,
           include_public: bool = False) -> Iterator[Route]:
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if not include_public and (rule.endpoint in PUBLIC_ENDPOINTS or SEAT_ARGUMENTS & set(rule.arguments)):
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if methods is None or method in methods:
                yield Route(rule.endpoint, method, fill(rule, values), rule.rule)


def seat_routes(app: Flask) -> list[Rule]:
    return [rule for rule in app.url_map.iter_rules() if SEAT_ARGUMENTS & set(rule.arguments)]


def snapshot(database: Path, skip: frozenset[str] = frozenset()) -> list[str]:
    """Every row of every table, as SQL text (tables in ``skip`` left out)."""
    connection = sqlite3.connect(database)
    try:
        lines = []
        for line in connection.iterdump():
            table = line.split('"')[1] if line.startswith('INSERT INTO "') else ""
            if table not in skip:
                lines.append(line)
        return lines
    finally:
        connection.close()
