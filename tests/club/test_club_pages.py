"""The club's pages as the menu and a typed address reach them."""

from __future__ import annotations

from flask.testing import FlaskClient


def test_club_answers_with_the_registry(signed_in: FlaskClient) -> None:
    for address in ("/club", "/club/"):
        response = signed_in.get(address)
        assert response.status_code == 302 and response.headers["Location"] == "/club/players"
    assert "Club players" in signed_in.get("/club", follow_redirects=True).text


def test_club_is_for_organizers_only(client: FlaskClient) -> None:
    assert client.get("/club").status_code in (302, 401, 403)
    assert "/club/players" not in client.get("/club").headers.get("Location", "")
