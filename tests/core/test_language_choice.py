"""Which language a page speaks: the person's choice, else the browser's, else English."""

from __future__ import annotations

from flask.testing import FlaskClient

from organizer.core.i18n import LANGUAGE_COOKIE


def _lang(client: FlaskClient, path: str = "/practice", **headers: str) -> str:
    html = client.get(path, headers=headers).get_data(as_text=True)
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def test_the_browser_language_is_used_until_the_person_chooses(client: FlaskClient) -> None:
    assert _lang(client) == "en"
    assert _lang(client, **{"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.5"}) == "nl"
    assert _lang(client, **{"Accept-Language": "ja, pt;q=0.8"}) == "en"  # none we speak: English

    response = client.get("/language/fr?next=/practice")
    assert response.status_code == 303 and response.headers["Location"].endswith("/practice")
    assert f"{LANGUAGE_COOKIE}=fr" in response.headers["Set-Cookie"]
    # the choice wins over the browser's, on every later page of this device
    assert _lang(client, **{"Accept-Language": "de"}) == "fr"


def test_an_unknown_language_or_a_foreign_return_address_changes_nothing(client: FlaskClient) -> None:
    response = client.get("/language/xx?next=/practice")
    assert "Set-Cookie" not in response.headers
    for target in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)"):
        response = client.get("/language/de", query_string={"next": target})
        assert response.status_code == 303
        assert "evil" not in response.headers["Location"] and "javascript" not in response.headers["Location"]
