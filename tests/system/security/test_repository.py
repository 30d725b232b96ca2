"""No secret in the repository: the session key is generated into instance/ on first run, and
nothing key-like is committed."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from organizer import PROJECT_ROOT

PATTERNS = {
    "private key": re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    "AWS access key": re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),
    "Slack token": re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b"),
    "API key assignment": re.compile(
        r"""(?i)\b(secret_key|api_key|apikey|auth_token|access_token|private_key)\b["']?\s*[:=]\s*["']([^"'\s]{16,})["']"""),
    "password in a URL": re.compile(r"[a-z+]+://[^/\s:@]+:([^@\s/]{6,})@(?!localhost|127\.0\.0\.1|host)"),
}
#: example credentials in docs and CI (a throw-away local PostgreSQL) are not secrets
ALLOWED_VALUES = {"arboretum", "secret", "password", "test-secret", "security-suite"}
BINARY = (".png", ".pdf", ".ttf", ".otf", ".woff", ".woff2", ".ico", ".jpg", ".gz", ".sqlite3")


def tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=PROJECT_ROOT, capture_output=True, check=True).stdout
    return [PROJECT_ROOT / name for name in out.decode().split("\0") if name]


def test_no_key_like_string_is_committed() -> None:
    files = tracked_files()
    assert len(files) > 50
    found = []
    for path in files:
        if path.suffix.lower() in BINARY or not path.is_file():
            continue
        text = path.read_text(errors="ignore")
        for kind, pattern in PATTERNS.items():
            for match in pattern.finditer(text):
                value = match.group(match.lastindex or 0)
                if value.lower() in ALLOWED_VALUES:
                    continue
                found.append(f"{path.relative_to(PROJECT_ROOT)}: {kind}: {match.group(0)[:60]}")
    assert not found, "key-like strings committed:\n" + "\n".join(found)


def test_only_the_placeholder_of_instance_is_committed() -> None:
    instance = [p.relative_to(PROJECT_ROOT).as_posix() for p in tracked_files()
                if p.relative_to(PROJECT_ROOT).parts[0] == "instance"]
    assert instance == ["instance/.gitkeep"]
    for local in ("instance/secret_key", "instance/organizer.sqlite3", "instance/config.py"):
        ignored = subprocess.run(["git", "check-ignore", "-q", local], cwd=PROJECT_ROOT)
        assert ignored.returncode == 0, f"{local} must be ignored by git"


def test_the_scanner_finds_what_it_looks_for() -> None:
    """The patterns are not dead: each catches a planted example."""
    # Assembled at run time, so this file holds no key-like literal for the scan above to find.
    samples = {
        "private key": "-----BEGIN RSA " + "PRIVATE KEY-----",
        "AWS access key": "id = AKIA" + "ABCDEFGHIJKLMNOP",
        "API key assignment": "SECRET_KEY = '" + "f3a9c0d1e2b4a596" * 2 + "'",
        "password in a URL": "postgresql://admin:" + "hunter2hunter2" + "@db.example.com/x",
    }
    for kind, sample in samples.items():
        assert PATTERNS[kind].search(sample), kind
