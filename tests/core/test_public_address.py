"""The public address (ORGANIZER_BASE_URL): checked at start, and every QR code and link a phone
follows starts with it, whatever address the organizer's own page was opened at."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.core.models import GameTable
from organizer.core.public_address import BaseUrlError, is_loopback_url, join_url, parse_base_url
from organizer.rounds import service as rounds
from tests.fixtures.organizer import add_players, create_event, make_app
from tests.printing.support import page_sizes, qr_codes

BASE = "https://venue.example:8443/club"


@pytest.mark.parametrize("value", ["https://venue.local", "http://192.168.1.20:8000", "https://venue.local/club/",
                                   " http://[fd00::5]:8000 "])
def test_a_usable_address_is_kept_without_its_trailing_slash(value: str) -> None:
    assert parse_base_url(value) == value.strip().rstrip("/")


@pytest.mark.parametrize(("value", "reason"), [
    ("venue.local", "http:// or https://"), ("ftp://venue.local", "http:// or https://"), ("http://", "no host"),
    ("http://venue.local:99999", "port"), ("http://venue.local:0", "port"), ("http://venue.local/?a=1", "query"),
    ("http://u:p@venue.local", "user name"), ("", "empty")])
def test_an_unusable_address_is_refused_with_the_reason(value: str, reason: str) -> None:
    with pytest.raises(BaseUrlError, match=reason) as refused:
        parse_base_url(value)
    assert "ORGANIZER_BASE_URL" in str(refused.value) and "http://192.168.1.20:8000" in str(refused.value)


def test_the_app_refuses_to_start_with_an_unusable_address(tmp_path: Path) -> None:
    with pytest.raises(BaseUrlError, match="http:// or https://"):
        make_app(f"sqlite:///{tmp_path / 'x.sqlite3'}", tmp_path, BASE_URL="venue.local:8000")


def test_join_and_loopback() -> None:
    assert join_url("https://v.example/club", "/play/x") == "https://v.example/club/play/x"
    assert join_url("http://10.0.0.2:8000/", "e/ABC") == "http://10.0.0.2:8000/e/ABC"
    for url in ("http://127.0.0.1:5000", "http://localhost:8000", "http://[::1]:8000", "http://127.0.0.2"):
        assert is_loopback_url(url), url
    for url in ("http://192.168.1.20:8000", "https://venue.local", "http://10.1.2.3"):
        assert not is_loopback_url(url), url


def test_every_qr_code_of_the_round_pack_leads_to_the_public_address(signed_in: FlaskClient,
                                                                    session: Session) -> None:
    event = create_event(session, public_page=True)
    add_players(session, event, 7)
    rnd = rounds.propose_round(session, event, "test", seed=3)
    rounds.publish_round(session, event, rnd, "test")
    assert rnd.id is not None
    first = rounds.tables_of(session, rnd.id)[0]
    table = session.get(GameTable, first.table.id)
    assert table is not None
    table.digital = True
    session.add(table)
    session.commit()
    signed_in.application.config["BASE_URL"] = BASE
    response = signed_in.get(f"/events/{event.id}/rounds/1/pack.pdf")
    assert response.status_code == 200, response.text[:300]
    pdf = bytes(response.data)
    found = [url for page in range(len(page_sizes(pdf))) for url in qr_codes(pdf, page, dpi=150)]
    assert len(found) >= 2 + len(first.seats)  # the tables' result pages and the seats' private links
    assert all(url.startswith(BASE + "/") for url in found), found
    assert f"{BASE}/e/{event.public_code}" in found
    assert {f"{BASE}/play/{s.seat.token}" for s in first.seats} <= set(found)
    # the public page's link on the event's page follows it too
    assert f">{BASE}/e/{event.public_code}<" in signed_in.get(f"/events/{event.id}").text


def test_the_overview_warns_when_phones_cannot_reach_the_address(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session)
    app = signed_in.application
    app.config["BASE_URL"] = "http://127.0.0.1:5000"
    page = signed_in.get(f"/events/{event.id}")
    assert 'id="public-address">http://127.0.0.1:5000<' in page.text
    assert 'id="public-address-warning"' in page.text and "No phone can open this address" in page.text
    app.config["BASE_URL"] = "http://192.168.1.20:8000"
    page = signed_in.get(f"/events/{event.id}")
    assert 'id="public-address">http://192.168.1.20:8000<' in page.text
    assert 'id="public-address-warning"' not in page.text
    app.config["BASE_URL"] = None  # unset: the address the page was opened at
    page = signed_in.get(f"/events/{event.id}")
    assert 'id="public-address">http://localhost<' in page.text and 'id="public-address-warning"' in page.text


def test_invitations_on_the_command_line_start_with_the_public_address(app: Flask) -> None:
    app.config["BASE_URL"] = "https://venue.example"
    runner = app.test_cli_runner()
    made = runner.invoke(args=["invite", "Jude"])
    assert made.exit_code == 0, made.output
    assert "https://venue.example/welcome/" in made.output
    given = runner.invoke(args=["invite", "June", "--base-url", "http://192.168.1.20:8000/"])
    assert "http://192.168.1.20:8000/welcome/" in given.output
    refused = runner.invoke(args=["invite", "Juno", "--base-url", "192.168.1.20"])
    assert refused.exit_code == 1 and "http:// or https://" in refused.output
    assert "Juno" not in runner.invoke(args=["accounts"]).output  # refused before the account was made
