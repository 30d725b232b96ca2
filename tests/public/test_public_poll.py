"""The public page's refresh: an unchanged stamp is answered 204 before Flask is entered
(organizer/live_fastpoll.py), with Flask's own headers; any change (a player's report, a round
closed, the clock) gives the page on the next refresh; a page switched off or an unknown code is
a 404 however the poll is asked; the fragments each process renders are shared through the
instance folder."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event as sa_event
from sqlalchemy import text
from sqlmodel import Session

from organizer.core.db import make_engine
from organizer.core.models import Event
from organizer.live import poll as live_poll
from organizer.public import service as public_service
from tests.fixtures.organizer import HX, add_players, create_event, make_app
from tests.live.support import connected_notifier
from tests.public.support import assert_no_secrets, report_form, seated_event, secrets_of, set_players_side, table_players

STAMP = re.compile(r"changed\?since=([0-9a-f]+)")


def stamp_of(body: str) -> str:
    found = STAMP.search(body)
    assert found is not None, body[:300]
    return found.group(1)


def flask_must_not_answer(app: Flask) -> None:
    """From here on, the poll's view answers 299: a 204 can only come from the middleware."""
    app.view_functions["public.event_changed"] = lambda code: ("Flask answered", 299)


def test_an_unchanged_poll_is_answered_before_flask_with_flasks_headers(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    seated_event(signed_in, session, event)
    phone = app.test_client()
    since = stamp_of(phone.get(f"/e/{event.public_code}").text)
    poll = f"/e/{event.public_code}/changed?since={since}"
    # Flask's answer (a query of a shape the middleware leaves alone), then the middleware's
    slow = phone.get(poll + "&from=flask", headers=HX)
    fast = phone.get(poll, headers=HX)
    assert slow.status_code == fast.status_code == 204 and fast.data == b""
    assert dict(fast.headers) == dict(slow.headers)
    assert fast.headers["Cache-Control"] == "no-store" and "frame-ancestors 'none'" in fast.headers["Content-Security-Policy"]
    flask_must_not_answer(app)
    assert phone.get(poll, headers=HX).status_code == 204
    # the phone's search field goes along with its poll
    assert phone.get(poll + "&q=", headers=HX).status_code == 204
    assert phone.get(poll + "&q=Ann", headers=HX).status_code == 204


def test_the_same_headers_behind_https(database_url: str, tmp_path: Path) -> None:
    app = make_app(database_url, tmp_path, HTTPS=True)
    try:
        from sqlmodel import Session as DbSession

        with DbSession(app.extensions["db_engine"], expire_on_commit=False) as session:
            event = create_event(session)
        phone = app.test_client()
        since = stamp_of(phone.get(f"/e/{event.public_code}").text)
        slow = phone.get(f"/e/{event.public_code}/changed?since={since}&from=flask")
        fast = phone.get(f"/e/{event.public_code}/changed?since={since}")
        assert slow.status_code == fast.status_code == 204
        assert dict(fast.headers) == dict(slow.headers) and fast.headers["Strict-Transport-Security"]
    finally:
        app.extensions["db_engine"].dispose()


def test_a_players_report_shows_on_the_next_refresh(app: Flask, signed_in: FlaskClient, session: Session,
                                                      event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 1)
    phone = app.test_client()
    since = stamp_of(phone.get(f"/e/{event.public_code}").text)
    german = app.test_client()
    assert "Tisch 1" in german.get(f"/e/{event.public_code}", headers={"Accept-Language": "de"}).text
    flask_must_not_answer(app)
    assert phone.get(f"/e/{event.public_code}/changed?since={since}", headers=HX).status_code == 204
    sent = app.test_client().post(f"/p/{seated[0].token}/report", data=report_form(view, [47, 30, 20, 10]))
    assert sent.status_code == 200
    changed = phone.get(f"/e/{event.public_code}/changed?since={since}", headers=HX)
    # the view's 299 was not asked: the middleware left the changed poll to Flask, whose view it is
    assert changed.status_code == 299
    del app.view_functions["public.event_changed"]
    from organizer.public import views as public_views

    app.view_functions["public.event_changed"] = public_views.event_changed
    changed = phone.get(f"/e/{event.public_code}/changed?since={since}", headers=HX)
    assert changed.status_code == 200 and 'id="public-event"' in changed.text
    assert "47 points" in changed.text and "Result entered, waiting for confirmation" in changed.text
    assert_no_secrets(changed.text, secrets_of(session, event))
    # the rows rendered once per language: the German visitor reads the same result in German
    in_german = german.get(f"/e/{event.public_code}/changed?since={since}", headers={**HX, "Accept-Language": "de"})
    assert "Tisch 1" in in_german.text and "47 Punkte" in in_german.text and "47 points" not in in_german.text
    newer = stamp_of(changed.text)
    assert newer != since
    assert phone.get(f"/e/{event.public_code}/changed?since={newer}", headers=HX).status_code == 204


def enter_and_confirm(signed_in: FlaskClient, session: Session, event: Event, number: int, points: list[int]) -> None:
    from sqlmodel import select

    from organizer.core.models import Round
    from organizer.rounds import service as round_service

    rnd = session.exec(select(Round).where(Round.event_id == event.id)).one()
    assert rnd.id is not None
    view = round_service.tables_of(session, rnd.id, number)[0]
    form: dict[str, Any] = {"mode": "totals", "version": "0"}
    for seat, value in zip(view.seats, points, strict=True):
        form[f"points_{seat.seat.id}"], form[f"species_{seat.seat.id}"] = str(value), "3"
    assert signed_in.post(f"/events/{event.id}/rounds/1/tables/{number}/result", data=form).status_code == 302
    assert signed_in.post(f"/events/{event.id}/rounds/1/tables/{number}/confirm",
                          data={"seat": "organizer", "version": "1"}).status_code in (200, 302)


def test_the_clock_and_a_closed_round_show_on_the_next_refresh(app: Flask, signed_in: FlaskClient, session: Session,
                                                               event: Event) -> None:
    seated_event(signed_in, session, event)
    phone = app.test_client()
    since = stamp_of(phone.get(f"/e/{event.public_code}").text)
    assert signed_in.post(f"/events/{event.id}/rounds/1/clock", data={"minutes": "50"}).status_code == 302
    clocked = phone.get(f"/e/{event.public_code}/changed?since={since}", headers=HX)
    assert clocked.status_code == 200 and "data-deadline=" in clocked.text
    since = stamp_of(clocked.text)
    assert phone.get(f"/e/{event.public_code}/changed?since={since}", headers=HX).status_code == 204
    enter_and_confirm(signed_in, session, event, 1, [40, 30, 20, 10])
    enter_and_confirm(signed_in, session, event, 2, [44, 33, 22, 11])
    since = stamp_of(phone.get(f"/e/{event.public_code}/changed?since={since}", headers=HX).text)
    assert "Standings after" not in phone.get(f"/e/{event.public_code}").text
    assert signed_in.post(f"/events/{event.id}/rounds/1/close").status_code in (200, 302)
    closed = phone.get(f"/e/{event.public_code}/changed?since={since}", headers=HX)
    assert closed.status_code == 200 and "Standings after round 1" in closed.text and "Round 1 (closed)" in closed.text


def test_a_page_switched_off_or_an_unknown_code_is_404_however_polled(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    seated_event(signed_in, session, event, players=4)
    phone = app.test_client()
    since = stamp_of(phone.get(f"/e/{event.public_code}").text)
    assert phone.get(f"/e/nosuchcode/changed?since={since}").status_code == 404
    assert phone.get(f"/e/{'A' * 40}/changed?since={since}").status_code == 404
    assert phone.get(f"/e/{event.id}/changed?since={since}").status_code == 404
    set_players_side(signed_in, session, event, public_page=None)
    assert event.public_page is False
    assert phone.get(f"/e/{event.public_code}/changed?since={since}").status_code == 404
    # not even with the stamp of the event as it is now
    assert event.id is not None
    now = public_service.stamp(session, event.id)
    assert phone.get(f"/e/{event.public_code}/changed?since={now}", headers=HX).status_code == 404


def test_a_nul_in_the_search_is_refused_as_flask_refuses_it(app: Flask, signed_in: FlaskClient, session: Session,
                                                             event: Event) -> None:
    add_players(session, event, 4)
    phone = app.test_client()
    since = stamp_of(phone.get(f"/e/{event.public_code}").text)
    assert phone.get(f"/e/{event.public_code}/changed?since={since}&q=%00").status_code == 400
    assert phone.get(f"/e/{event.public_code}/changed?since={since}&since=x").status_code == 204  # Flask: the first


def test_one_process_renders_a_change_the_others_read_it(tmp_path: Path) -> None:
    from organizer.core.fragment_cache import SharedFragments

    rendered: list[str] = []

    def render() -> str:
        rendered.append("once")
        return "<div>page</div>"

    key = ("code", "stamp", "", "en")
    first, second = SharedFragments(), SharedFragments()  # as in two worker processes
    assert first.get_or_render(tmp_path / "public-pages", key, render) == "<div>page</div>"
    assert second.get_or_render(tmp_path / "public-pages", key, render) == "<div>page</div>"
    assert rendered == ["once"]
    assert [p.suffix for p in (tmp_path / "public-pages").iterdir()] == [".html"]  # no lock or part left
    # another stamp is another fragment
    assert second.get_or_render(tmp_path / "public-pages", ("code", "newer", "", "en"), render)
    assert rendered == ["once", "once"]


def test_without_a_writable_instance_folder_each_process_renders(tmp_path: Path) -> None:
    from organizer.core.fragment_cache import SharedFragments

    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert SharedFragments().get_or_render(blocked / "public-pages", ("c", "s", "", "en"), lambda: "page") == "page"


@pytest.mark.parametrize("query", ["since=", "", "q=Ann", "since=abc&page=2"])
def test_other_shapes_go_to_flask(app: Flask, signed_in: FlaskClient, session: Session, event: Event,
                                  query: str) -> None:
    seated_event(signed_in, session, event, players=4)
    flask_must_not_answer(app)
    assert app.test_client().get(f"/e/{event.public_code}/changed?{query}").status_code == 299


def test_a_fragment_rendered_once_is_sent_by_the_middleware_to_the_next_phones(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event) -> None:
    players = seated_event(signed_in, session, event)
    set_players_side(signed_in, session, event, self_report="players")
    view, seated = table_players(session, players, 2)
    first, second, german = app.test_client(), app.test_client(), app.test_client()
    since = stamp_of(first.get(f"/e/{event.public_code}").text)
    assert app.test_client().post(f"/p/{seated[1].token}/report", data=report_form(view, [12, 34, 56, 7])).status_code == 200
    poll = f"/e/{event.public_code}/changed?since={since}&q="
    by_flask = first.get(poll, headers=HX)
    assert by_flask.status_code == 200 and "56 points" in by_flask.text
    flask_must_not_answer(app)
    by_middleware = second.get(poll, headers=HX)
    assert by_middleware.status_code == 200 and by_middleware.data == by_flask.data
    assert dict(by_middleware.headers) == dict(by_flask.headers)
    # a language, a search or a whole page not rendered yet: Flask's
    assert german.get(poll, headers={**HX, "Accept-Language": "de"}).status_code == 299
    german.set_cookie("lang", "de")
    assert german.get(poll, headers=HX).status_code == 299
    assert second.get(poll + players[0].name[:3], headers=HX).status_code == 299
    assert second.get(poll).status_code == 299
    # the language menu's cookie wins over the browser's languages, as in Flask
    english = app.test_client()
    english.set_cookie("lang", "en")
    assert english.get(poll, headers={**HX, "Accept-Language": "de"}).data == by_flask.data


def test_an_unchanged_poll_reads_no_table_and_another_process_change_shows_at_once(
        app: Flask, signed_in: FlaskClient, session: Session, event: Event, database_url: str) -> None:
    seated_event(signed_in, session, event)
    phone = app.test_client()
    since = stamp_of(phone.get(f"/e/{event.public_code}").text)
    poll = f"/e/{event.public_code}/changed?since={since}"
    connected_notifier(app)
    assert phone.get(poll, headers=HX).status_code == 204  # learns the code's event
    assert phone.get(poll, headers=HX).status_code == 204  # reads its mark
    seen: list[str] = []
    engines = {app.extensions["db_engine"], live_poll.board_for(app.extensions["db_engine"]).engine}
    for engine in engines:
        sa_event.listen(engine, "before_cursor_execute", lambda _c, _cur, statement, *_a: seen.append(statement))
    for _ in range(5):
        assert phone.get(poll, headers=HX).status_code == 204
    assert seen == []
    # a phone whose stream said a stamp this process has not heard of asks the database
    assert phone.get(poll + "&pushed=0123456789abcdef", headers=HX).status_code == 204
    assert len(seen) == 1
    # another process changes what the page shows: the next poll has it
    other = make_engine(database_url)
    try:
        with other.begin() as connection:
            connection.execute(text("UPDATE event SET version = version + 1 WHERE id = :id"), {"id": event.id})
    finally:
        other.dispose()
    deadline = time.monotonic() + 2  # (PostgreSQL: as long as the notification takes)
    while (answer := phone.get(poll, headers=HX)).status_code == 204:
        assert time.monotonic() < deadline, "the change never reached the poll"
        time.sleep(0.01)
    assert answer.status_code == 200 and stamp_of(answer.text) != since
