"""The venue's HTTPS with the real parts: the venue command behind Caddy (deploy/Caddyfile.venue,
``tls internal``) on a loopback "venue" address, fetched over HTTPS trusting only the root
certificate Caddy made, the certificate itself reachable over plain HTTP, and Chromium trusting
that root (as a tablet does once it is installed) registering the offline service worker. One
venue serves both tests; the test that checks what the commands say when stopped stops it (a
test after it would get a new one)."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from organizer import PROJECT_ROOT
from organizer.venue.certificate import CADDY_ROOT

pytestmark = [pytest.mark.system,
              pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed (apt-get install caddy)")]
VENUE = "127.0.0.2"


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def _wait(check: object, what: str, processes: list[subprocess.Popen[bytes]], seconds: float = 40) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            if check():  # type: ignore[operator]
                return
        except OSError:
            pass
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            raise AssertionError(f"{what} did not come up")
        time.sleep(0.25)


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> str:
    process.send_signal(sig)
    try:
        return process.communicate(timeout=60)[0].decode(errors="replace")
    except subprocess.TimeoutExpired:
        process.kill()
        return process.communicate()[0].decode(errors="replace")


@dataclass
class Venue:
    public: str
    root_crt: Path
    app_port: int
    http_port: int
    outputs: dict[str, str] = field(default_factory=dict)


@contextmanager
def venue_behind_caddy(tmp_path: Path) -> Iterator[Venue]:
    """The venue command behind Caddy, both stopped (as Ctrl-C stops them) afterwards; their
    output in ``outputs`` once stopped."""
    app_port, https_port, http_port, admin_port = (_free_port("127.0.0.1"), _free_port(VENUE), _free_port(VENUE),
                                                   _free_port("127.0.0.1"))
    data = tmp_path / "caddy-data"
    venue = Venue(f"https://{VENUE}:{https_port}", data / CADDY_ROOT, app_port, http_port)
    env = {**os.environ, "ORGANIZER_INSTANCE_PATH": str(tmp_path / "instance"), "ORGANIZER_WORKERS": "1",
           "ORGANIZER_THREADS": "2", "ORGANIZER_CADDY_ROOT_CERT": str(venue.root_crt)}
    env.pop("DATABASE_URL", None)
    flask = Path(sys.executable).parent / "flask"
    app = subprocess.Popen([str(flask), "--app", "organizer", "venue", "--address", VENUE, "--port", str(app_port),
                            "--behind-proxy", "--base-url", venue.public],
                           cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    caddy_env = {**os.environ, "HOME": str(tmp_path / "caddy-home"), "XDG_DATA_HOME": str(data),
                 "XDG_CONFIG_HOME": str(tmp_path / "caddy-config"), "VENUE_ADDRESS": VENUE,
                 "VENUE_HTTPS_PORT": str(https_port), "VENUE_HTTP_PORT": str(http_port),
                 "CADDY_ADMIN": f"127.0.0.1:{admin_port}", "ORGANIZER_UPSTREAM": f"127.0.0.1:{app_port}"}
    caddy = subprocess.Popen(["caddy", "run", "--config", str(PROJECT_ROOT / "deploy" / "Caddyfile.venue"),
                              "--adapter", "caddyfile"], cwd=tmp_path, env=caddy_env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    processes = [app, caddy]
    try:
        _wait(lambda: urllib.request.urlopen(f"http://127.0.0.1:{app_port}/healthz", timeout=2).status == 200,
              "the organizer", processes)
        _wait(venue.root_crt.exists, "Caddy's root certificate", processes)
        trusting_caddy = ssl.create_default_context(cafile=str(venue.root_crt))

        def https_answers() -> bool:
            with urllib.request.urlopen(f"{venue.public}/healthz", timeout=3, context=trusting_caddy) as response:
                return bool(response.read().decode().strip() == "ok")

        _wait(https_answers, "HTTPS through Caddy", processes)
        yield venue
    finally:
        venue.outputs["caddy"] = _stop(caddy)
        venue.outputs["app"] = _stop(app)
        venue.outputs["caddy_returncode"] = str(caddy.returncode)


class SharedVenue:
    """The module's venue, started when a test first asks for it."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        self.tmp_path_factory = tmp_path_factory
        self.stack = ExitStack()
        self.venue: Venue | None = None

    def running(self) -> Venue:
        if self.venue is None:
            self.venue = self.stack.enter_context(venue_behind_caddy(self.tmp_path_factory.mktemp("venue")))
        return self.venue

    def stop(self) -> Venue:
        """Both stopped as Ctrl-C stops them; the venue with their output."""
        venue = self.running()
        self.stack.close()
        self.venue = None
        return venue


@pytest.fixture(scope="module")
def shared_venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedVenue]:
    shared = SharedVenue(tmp_path_factory)
    try:
        yield shared
    finally:
        shared.stack.close()


@pytest.mark.browser
@pytest.mark.skipif(shutil.which("certutil") is None, reason="certutil is not installed (apt-get install libnss3-tools)")
def test_chromium_trusting_the_venue_root_opens_https_and_registers_the_service_worker(shared_venue: SharedVenue,
                                                                                      tmp_path: Path) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    from tests.system.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    venue = shared_venue.running()
    # what a tablet does once: the venue's root in the browser's trust store (NSS, as on Linux)
    home = tmp_path / "tablet-home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "venue", "-i",
                    str(venue.root_crt)], check=True)
    with playwright_api.sync_playwright() as playwright:
        # a tablet without it is warned off: the certificate is not trusted by itself
        untrusting = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                env={**os.environ, "HOME": str(tmp_path / "other-home")})
        try:
            with pytest.raises(playwright_api.Error, match="ERR_CERT"):
                untrusting.new_context().new_page().goto(f"{venue.public}/venue/certificate")
        finally:
            untrusting.close()
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              env={**os.environ, "HOME": str(home)})
        try:
            page = chromium.new_context().new_page()  # certificate errors are not ignored
            response = page.goto(f"{venue.public}/venue/certificate")
            assert response is not None and response.status == 200
            assert page.evaluate("() => window.isSecureContext")
            scope = page.evaluate("""async () => {
                const registration = await navigator.serviceWorker.register('/sw.js', {scope: '/'});
                await navigator.serviceWorker.ready;
                return registration.scope;
            }""")
            assert scope == f"{venue.public}/"
        finally:
            chromium.close()


def test_caddy_serves_the_venue_over_https_with_its_own_certificate(shared_venue: SharedVenue) -> None:
    venue = shared_venue.running()
    public, root_crt = venue.public, venue.root_crt
    trusting_caddy = ssl.create_default_context(cafile=str(root_crt))
    # a page over HTTPS, its links from the public address
    with urllib.request.urlopen(f"{public}/venue/certificate", timeout=5, context=trusting_caddy) as response:
        page = response.read().decode()
        assert response.headers["Strict-Transport-Security"]  # the app knows it is served over HTTPS
    assert f"http://{VENUE}/venue/root.crt" in page and f"Open {public}/ in Chrome" in page
    # without the root certificate, the same address is refused: only trusting it makes it work
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"{public}/healthz", timeout=3, context=ssl.create_default_context())
    # plain HTTP: the certificate is there for a tablet that does not trust HTTPS yet, the rest moves over
    with urllib.request.urlopen(f"http://{VENUE}:{venue.http_port}/venue/root.crt", timeout=5) as response:
        assert response.read() == root_crt.read_bytes()
    plain = http.client.HTTPConnection(VENUE, venue.http_port, timeout=5)
    plain.request("GET", "/events")
    moved = plain.getresponse()
    assert moved.status in (301, 302, 308) and moved.getheader("Location") == f"{public}/events"
    plain.close()
    venue = shared_venue.stop()
    assert f"Arboretum Organizer for the venue: {public}" in venue.outputs["app"], venue.outputs["app"]
    assert f"Listening on 127.0.0.1:{venue.app_port} for Caddy" in venue.outputs["app"]
    assert venue.outputs["caddy_returncode"] == "0", venue.outputs["caddy"][-2000:]
