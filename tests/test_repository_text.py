"""Code, templates, static files and tests say why on their own: no reference to an issue
number or a work session ("(issue 12)", "issue 10:", "#17", "session-6 budget"), which a
reader of the file cannot follow.

The scanned folders and files are listed in :data:`SCANNED`; history belongs in CHANGELOG.md and
the commit messages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: the folders (or single files) whose text is checked
SCANNED = ("organizer", "templates", "static", "tests", "engine", "bench", "docs", "README.md", "pyproject.toml", ".ci")
#: never scanned: other owners' folders inside the scanned ones, vendored and binary files
SKIPPED = ("static/core/vendor", "tests/system/browser/vendor")
SUFFIXES = {".py", ".html", ".txt", ".js", ".css", ".md", ".mako", ".toml", ".json", ".cfg", ".ini", ".sh"}

#: an issue or a work session named by its number
REFERENCES = re.compile(
    r"\bissues? \d+"  # "issue 12", "issues 13, 14"
    r"|\(issues?\b"  # "(issue", whatever follows
    r"|(?<![&\w#])#\d+\b(?![;\w])"  # "#17" (not "&#39;", a colour "#246" is told apart below)
    r"|\bsession[- ]\d+",  # "session-6", "session 6"
    re.IGNORECASE)
#: a colour written as "#" and three or six digits, in CSS, SVG or an HTML attribute
COLOUR = re.compile(r"(?:[:(,]\s*|solid\s+|=\s*[\"'])#(?:\d{3}|\d{6})\b")


def scanned_files(folder: str) -> list[Path]:
    base = ROOT / folder
    files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
    this = Path(__file__).resolve()
    return [p for p in files if p.suffix in SUFFIXES and p.resolve() != this
            and not any(p.relative_to(ROOT).as_posix().startswith(skip + "/") for skip in SKIPPED)
            and "__pycache__" not in p.parts]


def references(text: str) -> list[str]:
    """Each issue or session reference in ``text``, as found (colours left out)."""
    colours = {m.start() + m.group(0).index("#") for m in COLOUR.finditer(text)}
    return [m.group(0) for m in REFERENCES.finditer(text) if m.start() not in colours]


def test_the_pattern_finds_references_and_leaves_colours_and_entities() -> None:
    assert references("(issue 12) and issue 10: and see #17, the session-6 budget, Session 3") == [
        "(issue", "issue 10", "#17", "session-6", "Session 3"]
    assert references('fill="#246" border: 1px solid #888; color: #111; Bo&#39;s') == []


@pytest.mark.parametrize("folder", SCANNED)
def test_no_issue_or_session_references(folder: str) -> None:
    offenders = []
    for path in scanned_files(folder):
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            found = references(line)
            if found:
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {', '.join(found)}")
    assert offenders == [], "issue or session numbers in the text:\n" + "\n".join(offenders)
