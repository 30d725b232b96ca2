"""A database that goes away between the response and the end of the request (a PostgreSQL
restart drops the connection): the finished page is delivered, never the server's bare error,
and the broken connection leaves the pool so the next request works."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from flask import Flask, g
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from organizer.core.models import Organizer


def _break_the_connection(app: Flask, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the view, the request's connection dies: on PostgreSQL its server process is
    terminated from another connection, as a restart does; SQLite has no server, so its closing
    rollback raises the error a dropped connection gives."""

    @app.after_request
    def vanish(response: Any) -> Any:
        session: Session | None = g.get("db_session")
        if session is None:
            return response
        if database_url.startswith("postgresql"):
            pid = session.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar()
            killer = create_engine(database_url)
            with killer.begin() as connection:
                connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            killer.dispose()
        else:
            def close(_self: Session) -> None:
                raise OperationalError("ROLLBACK", {}, Exception("server closed the connection unexpectedly"))

            monkeypatch.setattr(session, "close", close.__get__(session))
        return response


def test_a_connection_lost_after_the_response_is_logged_not_a_bare_error(
        app: Flask, client: FlaskClient, session: Session, database_url: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    session.add(Organizer(name="Olive", password_hash="x"))
    session.commit()
    _break_the_connection(app, database_url, monkeypatch)
    with caplog.at_level(logging.WARNING, logger="organizer.core.db"):
        page = client.get("/sign-in")
    assert page.status_code == 200 and "Sign in" in page.text
    assert "closing the request's database session failed" in caplog.text
    monkeypatch.undo()
    app.after_request_funcs[None].clear()
    assert client.get("/sign-in").status_code == 200, "the next request gets a working connection"
