"""A body sent with ``Transfer-Encoding: chunked`` has no Content-Length for the size limit to
check up front. Behind gunicorn (which sets ``wsgi.input_terminated``) Werkzeug reads such a
body only up to MAX_CONTENT_LENGTH and stops there without a word, so a 200,000-line CSV used to
be cut to its first 2 MB and imported. Against the real server: over the limit it is a 413 and
nothing is stored; under it, it is read whole."""

from __future__ import annotations

import http.client
import sqlite3
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.faults.harness import Client, ServerProcess, demo_database

LIMIT = 2 * 1024 * 1024  # the app's MAX_CONTENT_LENGTH


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Path]]:
    instance = tmp_path_factory.mktemp("chunked")
    database = instance / "organizer.sqlite3"
    with ServerProcess(demo_database(database), instance, workers=2, timeout=180) as running:
        yield running, database


def _players(database: Path) -> int:
    connection = sqlite3.connect(database)
    try:
        return int(connection.execute("SELECT count(*) FROM player").fetchone()[0])
    finally:
        connection.close()


def _signed_in(server: ServerProcess) -> Client:
    client = Client(server.url)
    client.get("/sign-in")
    assert client.post("/sign-in", {"name": "demo", "password": "demo"}).status == 302
    client.get("/events/1/players")
    return client


def _chunks(body: bytes, size: int = 64 * 1024) -> Iterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start:start + size]


def _post_chunked(client: Client, path: str, body: bytes) -> tuple[int, str]:
    connection = http.client.HTTPConnection(client.host, client.port, timeout=180)
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked",
               "Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}
    try:
        try:
            connection.request("POST", path, body=_chunks(body), headers=headers, encode_chunked=True)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before the client has sent everything
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


def _csv_form(client: Client, lines: int, prefix: str) -> bytes:
    text = "\n".join(f"{prefix} {index},Club {index % 7}" for index in range(lines))
    # the token first, as a browser sends the form: a body cut short still passes the CSRF check
    return urllib.parse.urlencode({"csrf_token": client.csrf_token, "csv_text": text}).encode()


def test_a_chunked_body_over_the_limit_is_a_413_and_imports_nothing(server: tuple[ServerProcess, Path]) -> None:
    running, database = server
    client = _signed_in(running)
    before = _players(database)
    body = _csv_form(client, 200_000, "Too Many")
    assert len(body) > LIMIT
    status, page = _post_chunked(client, "/events/1/players/import", body)
    assert status == 413, page[:500]
    assert "too large" in page
    assert _players(database) == before


def test_a_chunked_body_under_the_limit_is_read_whole(server: tuple[ServerProcess, Path]) -> None:
    running, database = server
    client = _signed_in(running)
    before = _players(database)
    body = _csv_form(client, 2_000, "Chunked Player")
    assert len(body) < LIMIT
    status, page = _post_chunked(client, "/events/1/players/import", body)
    assert status in (200, 302), page[:500]
    assert _players(database) == before + 2_000
