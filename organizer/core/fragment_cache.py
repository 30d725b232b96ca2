"""Rendered HTML kept for the public page's crowd: when a result lands, hundreds of
phones ask within seconds for the same new fragment, so each is rendered once, in one thread of
one process, and shared (in memory by the threads, through files in the instance folder by the
processes). Keys name everything a fragment shows, so a fragment never outlives what it shows.
Nothing here knows Flask or the database."""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path

#: seconds a request waits for the same fragment rendered by another thread before rendering it itself
RENDER_WAIT_SECONDS = 10


class Rendered:
    """HTML rendered lately in this process, by a key naming everything it shows (least recently
    used first out), rendered once per key however many threads ask for it at once: when a result
    lands, hundreds of phones ask within seconds for the same new fragment."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.bodies: OrderedDict[Hashable, str] = OrderedDict()
        self.rendering: dict[Hashable, threading.Event] = {}

    def get(self, key: Hashable) -> str | None:
        with self.lock:
            body = self.bodies.get(key)
            if body is not None:
                self.bodies.move_to_end(key)
            return body

    def put(self, key: Hashable, body: str) -> None:
        with self.lock:
            self.bodies[key] = body
            while len(self.bodies) > self.size:
                self.bodies.popitem(last=False)

    def get_or_render(self, key: Hashable, render: Callable[[], str]) -> str:
        with self.lock:
            body = self.bodies.get(key)
            if body is not None:
                self.bodies.move_to_end(key)
                return body
            done = self.rendering.get(key)
            mine = done is None
            if done is None:
                done = self.rendering[key] = threading.Event()
        if not mine:
            # another thread renders it: wait for its body (or render it after all, if that failed)
            done.wait(RENDER_WAIT_SECONDS)
            return self.get(key) or render()
        try:
            body = render()
            self.put(key, body)
            return body
        finally:
            with self.lock:
                self.rendering.pop(key, None)
            done.set()


class SharedFragments:
    """The page's fragments as files in the instance folder, shared by the server's processes: a
    change is rendered by one process (the others wait on its lock file and read its file), not by
    every worker. A fragment names its event's code and stamp, so it never outlives what it shows."""

    #: a fragment written this long ago is deleted: its stamp has almost surely moved on (if not,
    #: the processes hold it in memory). While results come in, a big event's page changes every
    #: second or so, 100 kB each time.
    KEEP_SECONDS = 60.0

    def __init__(self) -> None:
        self.pruned = 0.0

    def get_or_render(self, folder: Path, key: tuple[str, ...], render: Callable[[], str]) -> str:
        name = hashlib.sha256("\x00".join(key).encode()).hexdigest()[:32]
        path, lock_path = folder / f"{name}.html", folder / f"{name}.lock"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            body = self._read(path)
            if body is not None:
                return body
            lock = open(lock_path, "a+b")  # held until the fragment is written
        except OSError:  # a read-only instance folder: each process renders for itself
            return render()
        with lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            body = self._read(path)
            if body is None:
                body = render()
                self._write(folder, path, body)
            # every later reader finds the fragment before it looks for the lock
            lock_path.unlink(missing_ok=True)
        self._prune(folder)
        return body

    @staticmethod
    def _write(folder: Path, path: Path, body: str) -> None:
        written = folder / f"{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            written.write_text(body, encoding="utf-8")
            os.replace(written, path)  # readers see the whole fragment or none
        except OSError:
            written.unlink(missing_ok=True)

    @staticmethod
    def _read(path: Path) -> str | None:
        try:
            return path.read_text(encoding="utf-8")
        except (FileNotFoundError, UnicodeDecodeError):
            return None

    def _prune(self, folder: Path) -> None:
        now = time.time()
        if now - self.pruned < self.KEEP_SECONDS / 10:
            return
        self.pruned = now
        try:
            for entry in os.scandir(folder):
                if entry.stat().st_mtime < now - self.KEEP_SECONDS:
                    os.unlink(entry.path)
        except OSError:  # another process pruned it first
            pass
