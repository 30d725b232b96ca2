"""The client's address and scheme behind one reverse proxy, trusted only from the proxy's hop.

werkzeug's ``ProxyFix(x_for=1)`` believes the last ``X-Forwarded-For`` entry of every request, so
it is safe only when nobody but the proxy can reach the server: reached directly, any client
names its own address (one client becomes any number of them for the sign-in throttle and the
practice limits). Here the forwarded headers are believed only from a peer that can be the proxy:
a loopback address, a unix socket (no address), or one listed in ``PROXY_ADDRESSES``. From any
other peer they are dropped, and the first such request logs an error saying the server is
reachable past its proxy (bind it to 127.0.0.1 or a socket: docs/deployment.md)."""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Iterable
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

logger = logging.getLogger("organizer.proxy")

_FORWARDED = ("HTTP_FORWARDED", "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
              "HTTP_X_FORWARDED_PORT", "HTTP_X_FORWARDED_PREFIX")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address, or "localhost") can be reached only from this machine."""
    host = host.strip().strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def unsafe_binds(binds: Iterable[str]) -> list[str]:
    """The gunicorn bind addresses others can reach: every one but loopback and unix sockets."""
    unsafe = []
    for bind in binds:
        if bind.startswith(("unix:", "fd://")):
            continue
        host = bind.rsplit(":", 1)[0] if bind.count(":") == 1 or bind.startswith("[") else bind
        if not is_loopback(host):
            unsafe.append(bind)
    return unsafe


class TrustedProxyFix:
    """ProxyFix for requests from the proxy's hop; forwarded headers dropped from anyone else."""

    def __init__(self, app: Any, trusted: Iterable[str] = ()) -> None:
        self.app = app
        self.fixed = ProxyFix(app, x_for=1, x_proto=1)
        self.trusted = {address.strip() for address in trusted if address.strip()}
        self.warned = False

    def from_proxy(self, peer: str) -> bool:
        # gunicorn gives a unix socket's peer as an empty address
        return not peer or peer in self.trusted or is_loopback(peer)

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        peer = str(environ.get("REMOTE_ADDR") or "")
        if self.from_proxy(peer):
            return self.fixed(environ, start_response)
        if not self.warned:
            self.warned = True
            logger.error("ORGANIZER_PROXY_FIX is set but %s reached the server directly, not through the proxy: "
                         "its X-Forwarded-* headers are ignored. Bind the server to 127.0.0.1 or a unix socket "
                         "behind the proxy (docs/deployment.md).", peer)
        for header in _FORWARDED:
            environ.pop(header, None)
        return self.app(environ, start_response)
