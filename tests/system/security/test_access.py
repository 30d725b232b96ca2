"""Every organizer page refuses a signed-out visitor, every state-changing request needs a CSRF
token, and a refused request changes nothing (routes walked from the app's url_map, so a page
added later is covered without touching this file)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from organizer.core.models import Event, Round
from tests.system.security.conftest import DEMO_NAMES
from tests.system.security.walk import routes, seat_routes, snapshot

#: a signed-in session's "last seen" is written at most once a minute, whatever the request
SESSIONS = frozenset({"accountsession"})
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def _token(client: FlaskClient) -> str:
    match = CSRF.search(client.get("/sign-in").get_data(as_text=True))
    assert match, "the sign-in page carries a CSRF token"
    return match.group(1)


def _sign_in(client: FlaskClient) -> None:
    response = client.post("/sign-in", data={"name": "demo", "password": "demo", "csrf_token": _token(client)})
    assert response.status_code == 302, response.get_data(as_text=True)


def _assert_refused(response, route: object) -> None:  # type: ignore[no-untyped-def]
    status = response.status_code
    body = response.get_data(as_text=True)
    if status in (301, 302, 303, 307, 308):
        assert "/sign-in" in response.headers["Location"], f"{route} redirects elsewhere: {response.headers['Location']}"
    else:
        assert status in (401, 403), f"{route} answered {status} to a signed-out visitor"
        if status == 401:
            assert "/sign-in" in response.headers.get("HX-Redirect", ""), f"{route}: 401 without a way to sign in"
    for name in DEMO_NAMES:
        assert name not in body, f"{route} shows {name!r} to a signed-out visitor"


def test_the_walk_covers_the_organizer(secure_app: Flask, ids: dict[str, str]) -> None:
    walked = {route.endpoint for route in routes(secure_app, ids)}
    # A guard against an empty walk passing trivially: the core pages are in it.
    assert {"events.index", "events.new", "players.import_csv", "tables.enter", "standings.index",
            "rounds.publish", "audit.index"} <= walked


def test_every_page_refuses_a_signed_out_visitor(secure_app: Flask, ids: dict[str, str], demo_db: Path) -> None:
    before = snapshot(demo_db)
    client = secure_app.test_client()
    token = _token(client)  # a valid token, so the refusal comes from the sign-in check, not CSRF
    checked = 0
    for route in routes(secure_app, ids):
        for headers in ({}, {"HX-Request": "true"}):
            if route.method == "GET":
                response = client.get(route.path, headers=headers)
            else:
                response = client.post(route.path, headers=headers, data={
                    "csrf_token": token, "name": "Intruder", "mode": "totals", "version": "0", "seat": "organizer",
                    "checked_in": "1", "dropped": "1", "csv_text": "Mallory\nTrudy", "note": "hacked"})
            _assert_refused(response, route)
            checked += 1
    assert checked >= 40
    assert snapshot(demo_db) == before, "a signed-out request changed the database"


def test_every_post_needs_a_csrf_token(secure_app: Flask, ids: dict[str, str], demo_db: Path) -> None:
    client = secure_app.test_client()
    _sign_in(client)
    before = snapshot(demo_db, SESSIONS)
    posts = list(routes(secure_app, ids, methods={"POST"}, include_public=True))
    assert len(posts) >= 15
    for route in posts:
        if route.endpoint == "static":
            continue
        form = {"name": "Mallory", "password": "demo", "confirm": "demo", "mode": "totals", "version": "1",
                "seat": "organizer", "checked_in": "0", "dropped": "1", "csv_text": "Mallory", "note": "x"}
        for extra in ({}, {"csrf_token": "forged"}, {"csrf_token": ""}):
            response = client.post(route.path, data={**form, **extra})
            assert response.status_code == 400, f"{route} with {extra or 'no token'}: {response.status_code}"
            assert "expired or came from elsewhere" in response.get_data(as_text=True)
        # A token from another session is refused too (tokens are bound to the session).
        other = secure_app.test_client()
        response = client.post(route.path, data={**form, "csrf_token": _token(other)})
        assert response.status_code == 400, f"{route} accepted another session's token"
    assert snapshot(demo_db, SESSIONS) == before, "a request without a valid CSRF token changed the database"


def test_htmx_requests_send_the_token_in_a_header(secure_app: Flask, ids: dict[str, str], demo_db: Path) -> None:
    client = secure_app.test_client()
    _sign_in(client)
    page = client.get(f"/events/{ids['event_id']}/players").get_data(as_text=True)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page)
    assert token, "every page gives HTMX its CSRF header"
    path = f"/events/{ids['event_id']}/players/{ids['player_id']}/check-in"
    assert client.post(path, data={"checked_in": "0"}, headers={"HX-Request": "true"}).status_code == 400
    ok = client.post(path, data={"checked_in": "0"}, headers={"HX-Request": "true", "X-CSRFToken": token.group(1)})
    assert ok.status_code == 200


def test_sign_out_needs_a_post_with_a_token(secure_app: Flask) -> None:
    """A link or image on another site cannot sign the organizer out (no GET, no forged POST)."""
    client = secure_app.test_client()
    _sign_in(client)
    assert client.get("/sign-out").status_code == 405
    assert client.post("/sign-out").status_code == 400
    assert client.get("/").status_code == 200  # still signed in


def test_a_wrong_seat_token_learns_nothing(secure_app: Flask, ids: dict[str, str]) -> None:
    rules = seat_routes(secure_app)
    if not rules:
        pytest.skip("no seat pages yet (live tables)")
    client = secure_app.test_client()
    real = ids["token"]
    wrong_tokens = ["x", real[:-1] + ("A" if real[-1] != "A" else "B"), real.upper(), "0" * len(real), "../" + real]
    for rule in rules:
        for wrong in wrong_tokens:
            path = rule.rule
            for argument in rule.arguments:
                value = wrong if argument == "token" else ids.get(argument, "1")
                path = re.sub(rf"<(?:[a-z]+:)?{argument}>", value, path)
            for method in sorted((rule.methods or set()) & {"GET", "POST"}):
                response = client.open(path, method=method, data={"csrf_token": _token(client)} if method == "POST" else None)
                assert response.status_code in (400, 403, 404, 410), \
                    f"{method} {rule.rule} with a wrong token: {response.status_code}"
                body = response.get_data(as_text=True)
                for name in DEMO_NAMES:
                    assert name not in body, f"{rule.rule} names a player for a wrong token"


def _a_digital_table_with_a_due_bot(app: Flask) -> tuple[str, str]:
    """Table 3 of the demo (a standard game still playing) moved onto the devices, then a bot put
    into the seat whose move is due, straight into the row, so that the bot's move is owed and
    not yet played (as a pick timer running out leaves a table). Returns a person's seat token
    and the bot seat's token."""
    from organizer.live import tables as live_tables

    with Session(app.extensions["db_engine"], expire_on_commit=False) as db:
        event = db.exec(select(Event)).one()
        rnd = db.exec(select(Round).where(Round.event_id == event.id)).one()
        view = live_tables.find_table(db, rnd, 3)
        assert view is not None
        live_tables.make_digital(db, event, rnd, view, "test")
        view = live_tables.find_table(db, rnd, 3)
        assert view is not None and view.table.log_version > 0, "a published round's table is dealt when made digital"
        due = sorted(live_tables.load_state(db, view.table).state.awaited_seats())[0]
        bot_seat = view.seats[due].seat
        bot_seat.is_bot = True
        db.add(bot_seat)
        db.commit()
        person = next(s.seat for s in view.seats if s.seat.position != due)
        return person.token, bot_seat.token


def _a_practice_draft_with_bots_due(app: Flask) -> str:
    """A practice draft whose bots have not picked yet (stored as created, nothing settled)."""
    from engine import Game
    from organizer.core.models import PracticeGame

    with Session(app.extensions["db_engine"]) as db:
        game = Game(mode="draft", players=3, seed=7, names=("Me", "Bot 1", "Bot 2"))
        practice = PracticeGame(game=game.to_json(), seat_kinds=["human", "heuristic", "heuristic"], action_log=[],
                                log_version=0)
        db.add(practice)
        db.commit()
        return practice.token


def test_no_organizer_page_changes_anything_on_a_get(secure_app: Flask, ids: dict[str, str], demo_db: Path) -> None:
    """Only POSTs (which need the CSRF token) change data: a link, an image or a prefetch from
    another site can make a signed-in browser GET any page, and that must change nothing. Covered:
    every organizer page while a digital table owes a bot's move, that table's seat pages and
    polls, and a practice game whose bots owe their picks (bots move on the POST the page sends)."""
    person, bot = _a_digital_table_with_a_due_bot(secure_app)
    practice = _a_practice_draft_with_bots_due(secure_app)
    client = secure_app.test_client()
    _sign_in(client)
    before = snapshot(demo_db, SESSIONS)
    gets = [route.path for route in routes(secure_app, {**ids, "table": "3"}, methods={"GET"})]
    assert len(gets) >= 15
    assert f"/events/{ids['event_id']}/rounds/{ids['number']}/live" in gets
    for token in (person, bot):
        gets += [f"/play/{token}", f"/play/{token}/changed?since=0", f"/play/{token}/changed?since=1",
                 f"/replay/seat/{token}"]
    gets += [f"/practice/{practice}", f"/practice/{practice}/changed?since=1"]
    for path in gets:
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(path, headers=headers)
            assert response.status_code < 500, f"GET {path}: {response.status_code}"
    assert client.get(f"/play/{person}").status_code == 200
    assert snapshot(demo_db, SESSIONS) == before, "a GET changed the database"
