"""The layers of docs/architecture.md, checked on every import statement of every module
(relative imports resolved, imports inside functions included): the engine stands alone, the
printing layer renders plain data, the services know no web framework."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ("flask", "flask_htmx", "flask_wtf", "flask_login", "flask_babel", "werkzeug", "click", "jinja2", "markupsafe")
DATABASE = ("sqlmodel", "sqlalchemy", "alembic", "psycopg")
#: library functions that happen to live in a web package (password hashing), not the framework
NOT_THE_FRAMEWORK = ("werkzeug.security",)

#: package -> (roots it must not import, organizer packages it may import besides itself)
RULES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "engine": (WEB + DATABASE + ("reportlab", "organizer"), ()),
    # the PDFs speak the reader's language through the framework-free translate module (issue 14)
    "organizer.printing": (WEB + DATABASE, ("organizer.services.translate",)),
    "organizer.services": (WEB, ("organizer.models", "organizer.printing")),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(path: Path) -> list[tuple[int, str]]:
    """Every module an import statement names, as an absolute dotted name."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
                # "from . import x" names modules of the package itself
                out.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names) if not node.module else \
                    out.append((node.lineno, name))
            else:
                out.append((node.lineno, node.module or ""))
    return out


def test_relative_imports_are_resolved() -> None:
    # the resolver itself: a relative import inside the printing package names its absolute module
    names = [name for _, name in imported_names(ROOT / "organizer" / "printing" / "scorepad.py")]
    assert any(name.startswith("organizer.printing.") for name in names)


@pytest.mark.parametrize("package", sorted(RULES))
def test_layer_imports(package: str) -> None:
    forbidden, allowed = RULES[package]
    folder = ROOT.joinpath(*package.split("."))
    problems = []
    for source in sorted(folder.rglob("*.py")):
        for line, name in imported_names(source):
            root = name.split(".")[0]
            inside_organizer = name.startswith("organizer.")
            ok_organizer = name.startswith(package + ".") or name == package or any(
                name == a or name.startswith(a + ".") for a in allowed)
            outside = inside_organizer and package != "engine" and not ok_organizer
            if (root in forbidden and name not in NOT_THE_FRAMEWORK) or outside:
                problems.append(f"{source.relative_to(ROOT)}:{line} imports {name}")
    assert problems == [], f"{package} reaches outside its layer:\n" + "\n".join(problems)
