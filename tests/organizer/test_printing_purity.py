"""The printing layer renders plain data: it must not reach for the web app or the database."""

from __future__ import annotations

import ast
from pathlib import Path

import organizer.printing

FORBIDDEN = ("flask", "flask_htmx", "flask_wtf", "sqlmodel", "sqlalchemy", "alembic", "psycopg")


def test_printing_imports_neither_flask_nor_the_database_nor_the_rest_of_the_app() -> None:
    folder = Path(organizer.printing.__file__).parent
    for source in sorted(folder.glob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else []
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                assert root not in FORBIDDEN, f"{source.name} imports {name}"
                assert not (root == "organizer" and not name.startswith("organizer.printing")), \
                    f"{source.name} imports {name}"
