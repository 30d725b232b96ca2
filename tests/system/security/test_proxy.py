"""``ORGANIZER_PROXY_FIX=1`` against the real gunicorn: X-Forwarded-For is believed only from the
proxy's hop (loopback or a unix socket), a client reaching the server directly cannot name its
own address, and the production settings refuse to listen where others could reach the server
past its proxy."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from organizer import PROJECT_ROOT
from organizer.core.proxy import unsafe_binds
from tests.system.faults.harness import Client, ServerProcess, free_port


def _outside_address() -> str:
    """This machine's address that is not loopback: a request to it comes from a peer that is not
    the proxy, as another computer's would."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.254", 9))  # no packet is sent; the kernel picks the route's address
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    if not address or address.startswith("127."):
        pytest.skip("this machine has no address but loopback")
    return address


@pytest.fixture(scope="module")
def proxied(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """gunicorn with ``ORGANIZER_PROXY_FIX=1`` listening on every address: reached through
    loopback (the proxy's hop) and, from this machine's other address, directly. Each test
    guesses from addresses of its own, far below the limit on one name from many addresses."""
    folder = tmp_path_factory.mktemp("proxy")
    shutil.copy(demo_template, folder / "demo.sqlite3")
    with ServerProcess(f"sqlite:///{folder / 'demo.sqlite3'}", folder / "instance", bind_host="0.0.0.0",
                       env={"ORGANIZER_PROXY_FIX": "1"}) as server:
        yield server


def _guess(client: Client, forwarded_for: str) -> int:
    client.get("/sign-in")
    return client.post("/sign-in", {"name": "demo", "password": "not the password"},
                       headers={"X-Forwarded-For": forwarded_for}).status


def test_a_client_reaching_gunicorn_directly_cannot_name_its_own_address(proxied: ServerProcess) -> None:
    """Wrong passwords from one client, each naming another address: with the forwarded header
    believed, every guess would come from a new address and none would wait (31 guesses heard
    instead of 4); from a peer that is not the proxy the header is ignored and the fourth failure
    waits."""
    outside = _outside_address()
    direct = Client(f"http://{outside}:{proxied.port}")
    statuses = [_guess(direct, f"198.51.100.{n}") for n in range(6)]
    assert statuses[:3] == [422, 422, 422]
    assert 429 in statuses[3:], f"one direct client was heard as six addresses: {statuses}"
    assert "reached the server directly, not through the proxy" in proxied.log()


def test_the_proxys_hop_is_believed(proxied: ServerProcess) -> None:
    """Through the proxy (loopback) each forwarded address is counted as its own client: the
    guesser's address waits, another client behind the same proxy does not."""
    proxy = Client(proxied.url)
    statuses = [_guess(proxy, "198.51.100.7") for _ in range(5)]
    assert statuses[-1] == 429, statuses
    other = Client(proxied.url)
    other.get("/sign-in")
    reply = other.post("/sign-in", {"name": "demo", "password": "demo"}, headers={"X-Forwarded-For": "203.0.113.5"})
    assert reply.status == 302


@pytest.mark.parametrize("bind", ["0.0.0.0", "::"])
def test_the_production_settings_refuse_proxy_fix_on_an_open_port(tmp_path: Path, bind: str) -> None:
    env = {**os.environ, "ORGANIZER_PROXY_FIX": "1", "ORGANIZER_INSTANCE_PATH": str(tmp_path / "instance"),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'organizer.sqlite3'}", "ORGANIZER_WORKERS": "1"}
    address = f"[{bind}]:{free_port()}" if ":" in bind else f"{bind}:{free_port()}"
    gunicorn = Path(sys.executable).parent / "gunicorn"
    result = subprocess.run([str(gunicorn), "-c", "python:organizer.live_gunicorn", "-b", address,
                             "organizer:create_app()"], cwd=PROJECT_ROOT, env=env, capture_output=True, timeout=60)
    output = (result.stdout + result.stderr).decode()
    assert result.returncode != 0, output
    assert "bind to 127.0.0.1 or a unix socket" in output


def test_a_server_on_another_machine_than_its_proxy_starts_once_the_proxy_is_named(tmp_path: Path) -> None:
    env = {**os.environ, "ORGANIZER_PROXY_FIX": "1", "ORGANIZER_PROXY_ADDRESSES": "10.0.0.5",
           "ORGANIZER_INSTANCE_PATH": str(tmp_path / "instance"), "ORGANIZER_WORKERS": "1",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'organizer.sqlite3'}"}
    port = free_port()
    gunicorn = Path(sys.executable).parent / "gunicorn"
    server = subprocess.Popen([str(gunicorn), "-c", "python:organizer.live_gunicorn", "-b", f"0.0.0.0:{port}",
                               "organizer:create_app()"], cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
                    assert response.status == 200
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError((server.stdout.read() if server.stdout else b"").decode()) from None
                time.sleep(0.2)
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=30)


def test_which_binds_others_can_reach() -> None:
    assert unsafe_binds(["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "unix:/run/arboretum.sock"]) == []
    assert unsafe_binds(["0.0.0.0:8000", "192.168.1.20:8000", "[::]:8000", "127.0.0.1:8001"]) == [
        "0.0.0.0:8000", "192.168.1.20:8000", "[::]:8000"]
