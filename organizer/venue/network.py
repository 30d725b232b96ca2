"""The venue laptop's side of the network, for ``flask --app organizer venue``: its addresses on
the venue network, whether a port is free, and a QR code of the address drawn in the terminal.
No web framework here; the command itself is in :mod:`organizer.cli`."""

from __future__ import annotations

import errno
import ipaddress
import shutil
import socket
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass


class VenueError(Exception):
    """The venue cannot be served as asked; the message says what to do instead."""


@dataclass(frozen=True)
class Address:
    address: str  # an IPv4 address, dotted
    interface: str  # "wlan0", or "" when unknown

    @property
    def private(self) -> bool:
        """On a home or club network (192.168.x.x, 10.x.x.x, 172.16–31.x.x), where the venue's
        Wi-Fi hands out addresses."""
        return ipaddress.ip_address(self.address).is_private

    def __str__(self) -> str:
        return f"{self.address} ({self.interface})" if self.interface else self.address


def parse_ip_addr(output: str) -> list[Address]:
    """The non-loopback IPv4 addresses in the output of ``ip -o -4 addr show``, one line each
    (``2: wlan0    inet 192.168.1.20/24 brd 192.168.1.255 scope global dynamic wlan0 ...``)."""
    found: list[Address] = []
    for line in output.splitlines():
        fields = line.split()
        if "inet" not in fields or len(fields) < 4:
            continue
        value = fields[fields.index("inet") + 1].split("/")[0]
        interface = fields[1].rstrip(":").split("@")[0]
        try:
            parsed = ipaddress.IPv4Address(value)
        except ValueError:
            continue
        if not (parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified):
            found.append(Address(value, interface))
    return found


def local_addresses() -> list[Address]:
    """This machine's non-loopback IPv4 addresses: from ``ip -o -4 addr`` where it exists, else
    what the host name resolves to."""
    ip = shutil.which("ip")
    if ip:
        try:
            done = subprocess.run([ip, "-o", "-4", "addr", "show"], capture_output=True, text=True, timeout=5,
                                  check=False)
        except (OSError, subprocess.SubprocessError):
            done = None
        if done is not None and done.returncode == 0:
            return parse_ip_addr(done.stdout)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    seen: list[Address] = []
    for info in infos:
        value = str(info[4][0])
        if not ipaddress.IPv4Address(value).is_loopback and Address(value, "") not in seen:
            seen.append(Address(value, ""))
    return seen


@dataclass(frozen=True)
class Choice:
    address: str
    note: str  # what was chosen and why, when there was a choice; "" otherwise


def choose_address(found: Sequence[Address], requested: str | None) -> Choice:
    """The address to serve on: ``requested`` when given, else the only one found, else the
    first private one (saying so and listing the others). :class:`VenueError` when there is none."""
    if requested:
        try:
            parsed = ipaddress.IPv4Address(requested.strip())
        except ValueError:
            raise VenueError(f"--address {requested!r} is not an IPv4 address such as 192.168.1.20.") from None
        note = ""
        if parsed.is_loopback:
            note = f"{parsed} is a loopback address: only this computer reaches it, no phone or tablet."
        return Choice(str(parsed), note)
    if not found:
        raise VenueError("This computer has no network address besides 127.0.0.1, so no phone or tablet could reach "
                         "it. Join the venue's Wi-Fi (or plug in its cable) and try again, or give the address "
                         "with --address 192.168.1.20.")
    if len(found) == 1:
        return Choice(found[0].address, "")
    chosen = next((a for a in found if a.private), found[0])
    listed = ", ".join(str(a) for a in found)
    why = "the first private one" if chosen.private else "the first one"
    return Choice(chosen.address, f"This computer has several addresses: {listed}. Serving on {chosen.address} "
                                  f"({why}); choose another with --address.")


def check_port_free(address: str, port: int) -> None:
    """:class:`VenueError` when ``address:port`` cannot be listened on (another server has it,
    or the address is not this machine's)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does: a closing socket is no obstacle
        try:
            probe.bind((address, port))
            probe.listen(1)
        except OSError as refused:
            if refused.errno == errno.EADDRINUSE:
                raise VenueError(f"Port {port} on {address} is already taken by another program (another organizer "
                                 f"still running?). Stop it, or choose another port with --port.") from None
            if refused.errno == errno.EADDRNOTAVAIL:
                raise VenueError(f"{address} is not an address of this computer; leave out --address to pick one, "
                                 f"or give one of its own.") from None
            if refused.errno == errno.EACCES:
                raise VenueError(f"Port {port} needs administrator rights; choose one from 1024 up with --port "
                                 f"(8000, say).") from None
            raise VenueError(f"Cannot listen on {address}:{port}: {refused.strerror}.") from None


def terminal_qr(text: str, colour: bool = False) -> str:
    """A QR code of ``text`` in half blocks (two module rows per line), ink as "█" with a quiet
    zone around; ``colour`` forces black on white, whatever the terminal's own colours."""
    from organizer.printing.qr import qr_modules

    modules = qr_modules(text)
    quiet = 2
    size = len(modules) + 2 * quiet

    def dark(x: int, y: int) -> bool:
        x, y = x - quiet, y - quiet
        return 0 <= y < len(modules) and 0 <= x < len(modules) and bool(modules[y][x])

    glyphs = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    lines = []
    for y in range(0, size, 2):
        row = "".join(glyphs[(dark(x, y), dark(x, y + 1))] for x in range(size))
        lines.append(f"\x1b[30;107m{row}\x1b[0m" if colour else row)
    return "\n".join(lines)
