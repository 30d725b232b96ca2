"""The demo command the README's first command runs."""

from __future__ import annotations

from flask import Flask
from sqlmodel import Session, func, select

from organizer.core.models import Event, Organizer, Player, Result, Round


def test_demo_is_complete_and_idempotent(app: Flask, session: Session) -> None:
    runner = app.test_cli_runner()
    first = runner.invoke(args=["demo"])
    assert first.exit_code == 0, first.output
    assert "demo / demo" in first.output
    second = runner.invoke(args=["demo"])
    assert second.exit_code == 0 and "already exists" in second.output
    session.expire_all()
    assert session.exec(select(func.count()).select_from(Organizer)).one() == 1
    event = session.exec(select(Event)).one()
    players = session.exec(select(Player).where(Player.event_id == event.id)).all()
    assert len(players) == 12 and all(p.checked_in for p in players)
    rnd = session.exec(select(Round)).one()
    assert rnd.status == "published"
    statuses = sorted(r.status for r in session.exec(select(Result)).all())
    assert statuses == ["confirmed", "entered"]

    client = app.test_client()
    assert client.post("/sign-in", data={"name": "demo", "password": "demo"}).status_code == 302
    page = client.get(f"/events/{event.id}/rounds/1").text
    assert page.count("start player</span>") == 3
    assert "1 of 3 results confirmed" in page
    assert "Ada Moss" in client.get(f"/events/{event.id}/players").text
