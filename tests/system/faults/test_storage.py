"""A database that is locked by someone else or has run out of space: the organizer sees a clear
message (not a crash page), nothing is corrupted, and once the fault passes the same entry is
stored and nothing earlier is lost."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.system.faults.conftest import FAULT_FACTORY, TABLE, integrity, result_of, rows, signed_in, totals_form
from tests.system.faults.harness import ServerProcess
from tests.system.security.walk import snapshot

POINTS, SPECIES = [28, 22, 15, 11], [6, 5, 4, 4]


def test_locked_database_gives_a_clear_message_and_loses_nothing(
        servers: Callable[..., ServerProcess], demo_db: Path) -> None:
    server = servers(fault_sqlite_timeout="1")
    client = signed_in(server)
    form = totals_form(client.get(TABLE.format(3)).text, POINTS, SPECIES)
    before = snapshot(demo_db)

    holder = sqlite3.connect(demo_db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # e.g. a backup tool or a second program holding the file
    try:
        reply = client.post(TABLE.format(3) + "/result", form)
        assert reply.status == 503, reply.status
        assert "busy" in reply.text.lower() and "not saved" in reply.text.lower()
        htmx = client.post(TABLE.format(3) + "/result", form, headers={"HX-Request": "true"})
        assert htmx.status == 503 and htmx.headers["HX-Retarget"] == "#messages"  # the typed form stays
        page = client.get("/events/1/standings")
        # Readers wait for an exclusive lock in SQLite's rollback-journal mode (not in WAL mode).
        assert page.status == 200 or (page.status == 503 and "try again" in page.text.lower())
    finally:
        holder.rollback()
        holder.close()

    assert integrity(demo_db) == "ok"
    assert snapshot(demo_db) == before, "a refused request changed the database"
    assert client.post(TABLE.format(3) + "/result", form).status == 302
    stored = result_of(demo_db, 3)
    assert stored is not None and [s["points"] for s in json.loads(stored[3])] == POINTS


def _mount_tmpfs(target: Path, size_kb: int) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(target)],
                          capture_output=True)
    return done.returncode == 0


@pytest.fixture
def full_disk(fault_demo_template: Path, tmp_path: Path) -> Iterator[tuple[Path, Callable[[], None], Callable[[], None]]]:
    """The demo database on a small filesystem of its own (a tmpfs, as root) that can be filled
    and emptied; without root, SQLite's max_page_count plays the full disk."""
    mount = tmp_path / "small"
    mounted = _mount_tmpfs(mount, 2048)
    folder = mount if mounted else tmp_path / "plain"
    folder.mkdir(exist_ok=True)
    database = folder / "organizer.sqlite3"
    shutil.copy(fault_demo_template, database)
    filler = folder / "filler"

    def fill() -> None:
        handle = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(handle, b"\0" * 4096) > 0:
                pass
        except OSError:
            pass  # no space left: what the test wants
        finally:
            os.close(handle)

    def free() -> None:
        filler.unlink(missing_ok=True)

    try:
        yield database, (fill if mounted else lambda: None), free
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_full_disk_gives_a_clear_message_and_loses_nothing(full_disk: tuple[Path, Callable[[], None], Callable[[], None]],
                                                          tmp_path: Path) -> None:
    database, fill, free = full_disk
    pages = rows(database, "PRAGMA page_count")[0][0]
    limit = {} if database.parent.name == "small" else {"FAULT_MAX_PAGE_COUNT": str(pages)}
    server = ServerProcess(f"sqlite:///{database}", tmp_path / "instance", factory=FAULT_FACTORY, env=limit).start()
    try:
        client = signed_in(server)
        form = totals_form(client.get(TABLE.format(3)).text, POINTS, SPECIES)
        fill()
        before = snapshot(database)
        reply = client.post(TABLE.format(3) + "/result", form)
        # 3,000 players cannot fit in the free pages left inside the file.
        big = client.post("/events/1/players/import", {"csv_text": "\n".join(f"Player {i:04d},Club {i},p{i}@example.org"
                                                                          for i in range(3000))})
        assert big.status == 507, big.status
        assert "full" in big.text.lower() and "not saved" in big.text.lower()
        assert reply.status in (302, 507)  # a small entry may still fit in the file's free pages
        assert integrity(database) == "ok"
        if reply.status == 507:
            assert snapshot(database) == before, "a refused request changed the database"
        assert client.get("/events/1/standings").status == 200, "reading still works on a full disk"
    finally:
        server.stop()

    free()  # the organizer makes room (or the limit is lifted) and restarts
    server = ServerProcess(f"sqlite:///{database}", tmp_path / "instance", factory=FAULT_FACTORY).start()
    try:
        client = signed_in(server)
        if result_of(database, 3) is None:
            form = totals_form(client.get(TABLE.format(3)).text, POINTS, SPECIES)
            assert client.post(TABLE.format(3) + "/result", form).status == 302
        stored = result_of(database, 3)
        assert stored is not None and [s["points"] for s in json.loads(stored[3])] == POINTS
        assert result_of(database, 1) is not None and result_of(database, 2) is not None, "earlier results lost"
        assert integrity(database) == "ok"
    finally:
        server.stop()
