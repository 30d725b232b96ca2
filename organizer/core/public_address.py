"""The public address: where players' phones and the tablets reach the organizer
(``ORGANIZER_BASE_URL``, configuration ``BASE_URL``), checked once at start, and the links built
from it. No web framework here: the command line and the services use :func:`join_url` with a
base they are given; pages use :func:`organizer.core.public_urls.public_url`."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

EXAMPLES = "https://venue.local or http://192.168.1.20:8000"


class BaseUrlError(ValueError):
    """A public address that no phone could use, with the reason in words."""


def parse_base_url(value: str) -> str:
    """``value`` checked (http or https, a host, an optional port and path, nothing else) and
    written without a trailing slash; :class:`BaseUrlError` says what is wrong otherwise."""
    text = str(value).strip()
    problem = _problem(text)
    if problem:
        raise BaseUrlError(f"The public address (ORGANIZER_BASE_URL) {text!r} is not usable: {problem}. "
                           f"Give the scheme, the host and, if needed, the port, for example {EXAMPLES}.")
    return text.rstrip("/")


def _problem(text: str) -> str:
    if not text:
        return "it is empty"
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return "its port is not a number from 1 to 65535"
    if parts.scheme not in ("http", "https"):
        return "it must start with http:// or https://"
    if not parts.hostname:
        return "it has no host"
    if parts.username is not None or parts.password is not None:
        return "it must not contain a user name or password"
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        return "it must not contain a query (?) or fragment (#)"
    if port == 0:
        return "its port is not a number from 1 to 65535"
    if any(char.isspace() for char in text):
        return "it must not contain spaces"
    return ""


def join_url(base: str, path: str) -> str:
    """``base`` (a checked public address, with or without a path) followed by ``path``."""
    return base.rstrip("/") + "/" + path.lstrip("/")


def is_loopback_url(url: str) -> bool:
    """True when the address names this machine only (``localhost``, ``127.x.x.x``, ``::1``):
    no phone or tablet can open it."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
