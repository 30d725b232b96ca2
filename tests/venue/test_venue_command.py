"""``flask --app organizer venue``: the laptop's address chosen (or a clear refusal), the port
checked, the address printed with a QR code a phone reads, and gunicorn serving there."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import zxingcpp
from flask import Flask
from PIL import Image

from organizer import PROJECT_ROOT
from organizer.venue import network
from organizer.venue.network import Address, VenueError

IP_OUTPUT = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: eth0    inet 10.20.0.7/16 brd 10.20.255.255 scope global eth0\\       valid_lft forever preferred_lft forever
3: wlan0    inet 192.168.1.20/24 brd 192.168.1.255 scope global dynamic wlan0\\       valid_lft 85000sec
4: tun0    inet 169.254.3.4/16 scope link tun0
5: wwan0    inet 100.64.1.2/10 scope global wwan0
"""


def _free_port(host: str = "127.0.0.2") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def test_addresses_come_from_ip_without_loopback_and_link_local() -> None:
    assert network.parse_ip_addr(IP_OUTPUT) == [Address("10.20.0.7", "eth0"), Address("192.168.1.20", "wlan0"),
                                                Address("100.64.1.2", "wwan0")]


def test_the_first_private_address_is_chosen_and_the_others_named() -> None:
    found = [Address("100.64.1.2", "wwan0"), Address("192.168.1.20", "wlan0"), Address("10.0.0.5", "eth0")]
    choice = network.choose_address(found, None)
    assert choice.address == "192.168.1.20"
    assert "100.64.1.2 (wwan0), 192.168.1.20 (wlan0), 10.0.0.5 (eth0)" in choice.note and "--address" in choice.note
    assert network.choose_address(found[:1], None) == network.Choice("100.64.1.2", "")
    assert network.choose_address(found, "10.0.0.5").address == "10.0.0.5"
    with pytest.raises(VenueError, match="not an IPv4 address"):
        network.choose_address(found, "venue")
    with pytest.raises(VenueError, match="--address"):
        network.choose_address([], None)


def _decode_terminal(text: str) -> list[str]:
    rows: list[list[bool]] = []
    for line in text.splitlines():
        top = [ch in "█▀" for ch in line]
        bottom = [ch in "█▄" for ch in line]
        rows += [top, bottom]
    scale = 8
    image = Image.new("L", (len(rows[0]) * scale, len(rows) * scale), 255)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                image.paste(0, (x * scale, y * scale, (x + 1) * scale, (y + 1) * scale))
    return [r.text for r in zxingcpp.read_barcodes(image)]


def test_the_terminal_qr_code_reads_back_as_the_address() -> None:
    url = "http://192.168.1.20:8000"
    assert _decode_terminal(network.terminal_qr(url)) == [url]
    coloured = network.terminal_qr(url, colour=True)
    assert coloured.startswith("\x1b[30;107m") and coloured.replace("\x1b[30;107m", "").replace("\x1b[0m", "") \
        == network.terminal_qr(url)


def test_no_address_is_refused_with_advice(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(network, "local_addresses", lambda: [])
    result = app.test_cli_runner().invoke(args=["venue"])
    assert result.exit_code == 2
    assert "no network address besides 127.0.0.1" in result.output and "--address" in result.output


def test_a_taken_port_is_refused_with_advice(app: Flask) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.2", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = app.test_cli_runner().invoke(args=["venue", "--address", "127.0.0.2", "--port", str(port)])
    assert result.exit_code == 2
    assert f"Port {port} on 127.0.0.2 is already taken" in result.output and "--port" in result.output


@pytest.mark.parametrize("behind_proxy", [False, True])
def test_forwarded_headers_are_trusted_only_behind_the_proxy_on_loopback(
        app: Flask, monkeypatch: pytest.MonkeyPatch, behind_proxy: bool) -> None:
    """A PROXY_FIX left in the environment must not follow the venue command onto the venue
    network; behind Caddy it listens on loopback only."""
    started: list[tuple[list[str], dict[str, str]]] = []
    monkeypatch.setenv("ORGANIZER_PROXY_FIX", "1")
    monkeypatch.setattr(os, "execve", lambda _path, command, env: started.append((command, env)))
    port = _free_port("127.0.0.1")
    args = ["venue", "--address", "127.0.0.2", "--port", str(port)] + (["--behind-proxy"] if behind_proxy else [])
    result = app.test_cli_runner().invoke(args=args)
    assert result.exit_code == 0, result.output
    [(command, env)] = started
    bind = command[command.index("-b") + 1]
    if behind_proxy:
        assert bind == f"127.0.0.1:{port}" and env["ORGANIZER_PROXY_FIX"] == "1"
    else:
        assert bind == f"127.0.0.2:{port}" and env["ORGANIZER_PROXY_FIX"] == "0"


def test_a_foreign_address_is_refused(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["venue", "--address", "127.0.0.300"])
    assert result.exit_code == 2 and "not an IPv4 address" in result.output


@pytest.mark.system
def test_the_venue_command_serves_the_chosen_address(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "ORGANIZER_INSTANCE_PATH": str(tmp_path / "instance"), "ORGANIZER_WORKERS": "1",
           "ORGANIZER_THREADS": "2"}
    env.pop("DATABASE_URL", None)
    flask = Path(sys.executable).parent / "flask"
    server = subprocess.Popen([str(flask), "--app", "organizer", "venue", "--address", "127.0.0.2", "--port", str(port)],
                              cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.2:{port}/healthz", timeout=2) as response:
                    assert response.read().decode().strip() == "ok"
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    server.kill()
                    raise AssertionError("the venue command did not answer:\n"
                                         + (server.stdout.read().decode() if server.stdout else "")) from None
                time.sleep(0.2)
        # the organizer's pages, from the same production server
        with urllib.request.urlopen(f"http://127.0.0.2:{port}/first-run", timeout=5) as response:
            assert response.status == 200
    finally:
        server.send_signal(signal.SIGINT)  # what Ctrl-C sends
        try:
            output = server.communicate(timeout=60)[0].decode()
        except subprocess.TimeoutExpired:
            server.kill()
            output = server.communicate()[0].decode()
    url = f"http://127.0.0.2:{port}"
    assert f"Arboretum Organizer for the venue: {url}" in output
    assert "127.0.0.2 is a loopback address" in output
    qr = "\n".join(line for line in output.splitlines() if line and set(line) <= set(" ▀▄█"))
    assert _decode_terminal(qr) == [url]
    assert server.returncode == 0, output
