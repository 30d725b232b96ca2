"""The practice-game limit as a client meets it: 20 games per address per 10 minutes,
then a 429 page in the client's language saying when to retry, with Retry-After and the headers
of every page; the count is shared by every gunicorn worker. Each refusal is asked for several
times in a row, so the later ones (answered cheaply, before Flask) read as the first one did."""

from __future__ import annotations

import html as html_module
import re
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func
from sqlalchemy import select as sa_select
from sqlmodel import Session
from werkzeug.test import TestResponse

from organizer.core.models import PracticeGame, RateWindow
from organizer.core.security import security_headers
from tests.fixtures.organizer import make_app
from tests.live.support import fast_sqlite
from tests.system.faults.harness import Client, ServerProcess

SOLO = {"mode": "solo", "edition": "2018"}
KEY = "practice:127.0.0.1"  # the test client's address


@pytest.fixture
def limited(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    app = fast_sqlite(make_app(database_url, tmp_path))
    yield app
    app.extensions["db_engine"].dispose()


def stored(app: Flask) -> int:
    with Session(app.extensions["db_engine"]) as db:
        return int(db.execute(sa_select(func.count()).select_from(PracticeGame)).scalar_one())


def use_up(client: FlaskClient, games: int = 20) -> None:
    for _ in range(games):
        response = client.post("/practice", data=SOLO)
        assert response.status_code == 302, response.text


def time_passes(app: Flask, seconds: float, key: str = KEY) -> None:
    """The address's window started ``seconds`` earlier than it did (as if that much time had
    passed), for the database and for the app's own memory of refusals."""
    with Session(app.extensions["db_engine"]) as db:
        window = db.get(RateWindow, key)
        assert window is not None
        window.started_at = window.started_at - timedelta(seconds=seconds)
        db.add(window)
        db.commit()
    gate = app.extensions["practice_gate"]
    for address in list(gate.refused_until):
        gate.refused_until[address] -= seconds


def assert_page_headers(response: TestResponse) -> None:
    """The headers of every HTML page of the app, and a body of the length announced."""
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    for name, value in security_headers(False, html=True):
        assert response.headers.get(name) == value, name
    assert "Cookie" in response.headers.get("Vary", "")
    assert int(response.headers["Content-Length"]) == len(response.data)


def test_the_21st_game_is_refused_with_when_to_retry(limited: Flask) -> None:
    client = limited.test_client()
    use_up(client)
    pages = []
    for _ in range(3):
        refused = client.post("/practice", data=SOLO)
        pages.append(re.sub(r'"X-CSRFToken": "[^"]*"', "", refused.text))
        assert refused.status_code == 429
        assert 590 <= int(refused.headers["Retry-After"]) <= 600
        assert_page_headers(refused)
        page = html_module.unescape(refused.text)
        assert '<html lang="en">' in page and "<title>Practice games · Arboretum</title>" in page
        assert "<h1>No new game now</h1>" in page
        assert ("Too many practice games from your address: 20 in 10 minutes is the limit. Try again in 10 "
                "minutes; the games you started are still at their links.") in page
        assert '<a class="button" href="/practice">Back to the practice form</a>' in page
        assert 'href="/language/de?next=/practice"' in page  # the language menu, as on every page
    assert pages == [pages[0]] * 3, "the same page each time (but for the session's CSRF token)"
    assert stored(limited) == 20


def test_another_address_is_not_refused(limited: Flask) -> None:
    client = limited.test_client()
    use_up(client)
    assert client.post("/practice", data=SOLO).status_code == 429
    assert client.post("/practice", data=SOLO).status_code == 429
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert other.post("/practice", data=SOLO).status_code == 302
    assert stored(limited) == 21


def test_the_refusal_speaks_the_clients_language(limited: Flask) -> None:
    client = limited.test_client()
    use_up(client)
    for _ in range(2):
        client.set_cookie("lang", "de")  # the language menu's choice
        german = html_module.unescape(client.post("/practice", data=SOLO).text)
        assert '<html lang="de">' in german and "<h1>Jetzt keine neue Partie</h1>" in german
        assert ("Zu viele Übungspartien von Ihrer Adresse: Das Limit ist 20 in 10 Minuten. In 10 Minuten erneut "
                "versuchen") in german
        client.delete_cookie("lang")
        french = client.post("/practice", data=SOLO, headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"})
        assert french.status_code == 429
        assert '<html lang="fr">' in french.text
        assert "Pas de nouvelle partie pour l'instant" in html_module.unescape(french.text)
        # the menu's choice wins over the browser's languages
        client.set_cookie("lang", "nl")
        dutch = client.post("/practice", data=SOLO, headers={"Accept-Language": "fr"})
        assert '<html lang="nl">' in dutch.text
        client.delete_cookie("lang")


def test_an_htmx_request_gets_the_fragment(limited: Flask) -> None:
    client = limited.test_client()
    use_up(client)
    fragments = []
    for _ in range(2):
        refused = client.post("/practice", data=SOLO, headers={"HX-Request": "true"})
        fragments.append(refused.text)
        assert refused.status_code == 429 and 590 <= int(refused.headers["Retry-After"]) <= 600
        assert_page_headers(refused)
        assert refused.text.lstrip().startswith('<section class="card narrow" id="practice-form">')
        assert "<html" not in refused.text and "No new game now" in refused.text
    assert fragments[1] == fragments[0]


def test_the_wait_counts_down_to_the_end_of_the_window(limited: Flask) -> None:
    client = limited.test_client()
    use_up(client)
    time_passes(limited, 560)
    for _ in range(2):
        refused = client.post("/practice", data=SOLO)
        assert 30 <= int(refused.headers["Retry-After"]) <= 40
        wait = int(refused.headers["Retry-After"])
        assert f"Try again in {wait} seconds;" in html_module.unescape(refused.text) or \
            f"Try again in {wait - 1} seconds;" in html_module.unescape(refused.text)


def test_when_the_window_ends_the_address_may_start_again(limited: Flask) -> None:
    client = limited.test_client()
    use_up(client)
    assert client.post("/practice", data=SOLO).status_code == 429
    time_passes(limited, 601)
    assert client.post("/practice", data=SOLO).status_code == 302
    assert stored(limited) == 21


def test_a_game_is_created_only_with_the_forms_csrf_token(database_url: str, tmp_path: Path) -> None:
    app = fast_sqlite(make_app(database_url, tmp_path, WTF_CSRF_ENABLED=True))
    client = app.test_client()
    assert client.post("/practice", data=SOLO).status_code == 400
    assert stored(app) == 0
    app.extensions["db_engine"].dispose()


def test_the_limit_holds_across_workers(database_url: str, tmp_path: Path) -> None:
    """gunicorn with several worker processes and threads: 40 posts from one address at once
    create exactly the limit; every other answer is the refusal."""
    server = ServerProcess(database_url, tmp_path / "instance", workers=3, threads=2,
                           env={"ORGANIZER_PRACTICE_PER_ADDRESS": "5"}).start()
    try:
        statuses: Counter[int] = Counter()
        bodies: list[str] = []
        lock = threading.Lock()

        def flood() -> None:
            client = Client(server.url)
            client.get("/practice")
            for _ in range(8):
                reply = client.post("/practice", SOLO)
                with lock:
                    statuses[reply.status] += 1
                    if reply.status == 429:
                        bodies.append(html_module.unescape(reply.text))
                        assert 590 <= int(reply.headers["Retry-After"]) <= 600

        threads = [threading.Thread(target=flood) for _ in range(5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert statuses == {302: 5, 429: 35}, statuses
        assert all("5 in 10 minutes is the limit" in body for body in bodies)
        app = make_app(database_url, tmp_path)
        assert stored(app) == 5
        app.extensions["db_engine"].dispose()
    finally:
        server.stop()


def test_a_refused_address_is_refused_again_without_the_database(limited: Flask) -> None:
    """The point of the practice gate: after the first refusal (the view's, counted in the
    database), the same process refuses that address by itself, with no query at all."""
    client = limited.test_client()
    use_up(client)
    first = client.post("/practice", data=SOLO)
    assert first.status_code == 429
    statements: list[str] = []
    engine = limited.extensions["db_engine"]

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        again = [client.post("/practice", data=SOLO) for _ in range(5)]
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert [response.status_code for response in again] == [429] * 5
    assert statements == []
    assert [response.text for response in again] == [again[0].text] * 5
    other = limited.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.8"
    assert other.post("/practice", data=SOLO).status_code == 302


def test_a_refused_address_is_refused_before_its_csrf_token_is_checked(database_url: str, tmp_path: Path) -> None:
    """A refusal creates nothing, so it is given whatever the request carries; a request that
    would create a game still needs the form's token."""
    app = fast_sqlite(make_app(database_url, tmp_path, WTF_CSRF_ENABLED=True, PRACTICE_PER_ADDRESS=2))
    client = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/practice").text)
    assert token is not None
    for _ in range(2):
        assert client.post("/practice", data={**SOLO, "csrf_token": token.group(1)}).status_code == 302
    assert client.post("/practice", data={**SOLO, "csrf_token": token.group(1)}).status_code == 429
    assert client.post("/practice", data=SOLO).status_code == 429  # no token: refused all the same
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.0.2.9"
    assert other.post("/practice", data=SOLO).status_code == 400  # not refused: the token is checked
    assert stored(app) == 2
    app.extensions["db_engine"].dispose()


def test_behind_a_proxy_each_forwarded_address_has_its_own_limit(database_url: str, tmp_path: Path) -> None:
    app = fast_sqlite(make_app(database_url, tmp_path, PROXY_FIX=True, PRACTICE_PER_ADDRESS=2))
    client = app.test_client()  # every request comes from the proxy's address, 127.0.0.1
    first = {"X-Forwarded-For": "198.51.100.1"}
    for _ in range(2):
        assert client.post("/practice", data=SOLO, headers=first).status_code == 302
    for _ in range(3):
        assert client.post("/practice", data=SOLO, headers=first).status_code == 429
    assert client.post("/practice", data=SOLO, headers={"X-Forwarded-For": "198.51.100.2"}).status_code == 302
    assert set(app.extensions["practice_gate"].refused_until) == {"198.51.100.1"}
    app.extensions["db_engine"].dispose()


def test_a_client_reaching_the_server_past_the_proxy_cannot_name_its_own_address(database_url: str,
                                                                               tmp_path: Path) -> None:
    app = fast_sqlite(make_app(database_url, tmp_path, PROXY_FIX=True, PRACTICE_PER_ADDRESS=2))
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "192.0.2.50"  # not the proxy's hop
    statuses = [client.post("/practice", data=SOLO, headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
                for n in range(5)]
    assert statuses == [302, 302, 429, 429, 429], "one client posing as five addresses"
    assert set(app.extensions["practice_gate"].refused_until) == {"192.0.2.50"}
    app.extensions["db_engine"].dispose()


def test_a_refusal_never_asks_for_more_than_the_window(limited: Flask) -> None:
    """A request that read the clock just before another started the window (two at the same
    instant, as the test across workers sends them) sees the window's end a little more than a
    window away: it is told to wait the window at most, never 601 seconds of a 600 s window."""
    from organizer.core import rate_windows
    from organizer.core.models import utcnow

    with Session(limited.extensions["db_engine"]) as db:
        started = utcnow()
        assert rate_windows.claim(db, "test:clock", 1, 600, started).allowed
        earlier = started - timedelta(seconds=0.4)
        refused = rate_windows.claim(db, "test:clock", 1, 600, earlier)
    assert not refused.allowed
    assert refused.retry_after == 600
    assert refused.ends_at == earlier + timedelta(seconds=600)
