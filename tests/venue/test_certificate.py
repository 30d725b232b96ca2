"""The venue's certificate page (no sign-in): Caddy's root certificate found where Caddy keeps it
or where configured, served as a file with its QR code and the tablets' steps; and the judge's
pages saying when offline entry cannot work (plain HTTP to another device)."""

from __future__ import annotations

import shutil
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session

from organizer.rounds import service as rounds
from organizer.venue.certificate import CADDY_ROOT, candidates, find_root_certificate
from tests.fixtures.organizer import add_players, create_event

ROOT_CRT = Path(__file__).parent / "data" / "root.crt"
FINGERPRINT = ("C2:AB:F6:7E:C2:E5:98:96:FA:C6:FB:69:49:87:1F:8B:3D:AF:D1:3B:D3:45:64:CA:75:0A:DD:5C:05:D2:B5:1A")


def test_the_certificate_is_found_where_caddy_keeps_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / CADDY_ROOT).parent.mkdir(parents=True)
    shutil.copy(ROOT_CRT, data / CADDY_ROOT)
    found = find_root_certificate(None, {"XDG_DATA_HOME": str(data), "HOME": str(tmp_path / "home")})
    assert found is not None and found.path == data / CADDY_ROOT and found.sha256 == FINGERPRINT
    assert candidates(None, {"HOME": "/home/to"})[0] == Path("/home/to/.local/share") / CADDY_ROOT
    assert candidates(None, {})[-1] == Path("/var/lib/caddy/.local/share/caddy/pki/authorities/local/root.crt")
    assert candidates("/etc/venue.crt", {"XDG_DATA_HOME": str(data)}) == [Path("/etc/venue.crt")]
    (tmp_path / "not-a-cert.crt").write_text("hello")
    assert find_root_certificate(str(tmp_path / "not-a-cert.crt"), {}) is None
    assert find_root_certificate(str(tmp_path / "missing.crt"), {}) is None


def test_the_certificate_page_needs_no_sign_in_and_serves_the_file(app: Flask, client: FlaskClient) -> None:
    app.config.update(CADDY_ROOT_CERT=str(ROOT_CRT), BASE_URL="https://192.168.1.20")
    page = client.get("/venue/certificate")
    assert page.status_code == 200
    # a tablet that does not trust the certificate yet reaches the file over plain HTTP
    assert "http://192.168.1.20/venue/root.crt" in page.text and '<svg class="qr"' in page.text
    assert FINGERPRINT in page.text
    assert 'id="steps-android"' in page.text and 'id="steps-ipad"' in page.text
    assert "Certificate trust settings" in page.text and "Install a certificate" in page.text
    assert "Open https://192.168.1.20/ in Chrome" in page.text
    crt = client.get("/venue/root.crt")
    assert crt.status_code == 200 and crt.mimetype == "application/x-x509-ca-cert"
    assert crt.data == ROOT_CRT.read_bytes()
    german = client.get("/venue/certificate", headers={"Accept-Language": "de"})
    assert "Zertifikat" in german.text


def test_without_a_certificate_the_page_says_where_it_looked(app: Flask, client: FlaskClient,
                                                             tmp_path: Path) -> None:
    app.config["CADDY_ROOT_CERT"] = str(tmp_path / "absent.crt")
    page = client.get("/venue/certificate")
    assert page.status_code == 200 and 'id="certificate-missing"' in page.text and str(tmp_path / "absent.crt") in page.text
    assert client.get("/venue/root.crt").status_code == 404


def test_the_judges_pages_say_offline_entry_needs_https(signed_in: FlaskClient, session: Session) -> None:
    event = create_event(session)
    add_players(session, event, 4)
    rnd = rounds.propose_round(session, event, "test", seed=1)
    rounds.publish_round(session, event, rnd, "test")
    name = signed_in.application.config["SESSION_COOKIE_NAME"]
    cookie = signed_in.get_cookie(name)
    assert cookie is not None
    signed_in.set_cookie(name, cookie.value, domain="192.168.1.20")  # the same browser, at the laptop's LAN address
    lan = "http://192.168.1.20:8000"
    for path in (f"/events/{event.id}/rounds/1", f"/events/{event.id}/rounds/1/tables/1"):
        # another device over plain HTTP: browsers keep nothing for offline there
        over_lan = signed_in.get(path, base_url=lan)
        assert over_lan.status_code == 200
        assert 'id="offline-unavailable"' in over_lan.text and "only over HTTPS" in over_lan.text
        assert 'href="/venue/certificate"' in over_lan.text
        # HTTPS, or the laptop itself (a secure context for the browser): nothing to say
        assert 'id="offline-unavailable"' not in signed_in.get(path, base_url="https://localhost").text
        assert 'id="offline-unavailable"' not in signed_in.get(path).text
    # pages that are not kept for offline entry say nothing either
    assert 'id="offline-unavailable"' not in signed_in.get(f"/events/{event.id}", base_url=lan).text
