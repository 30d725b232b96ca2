"""Caddy's local root certificate, which the venue's tablets install once so they trust the
organizer's HTTPS (``tls internal`` in deploy/Caddyfile.venue): where it is, and its fingerprint
to compare on the tablet. No web framework here; the page is :mod:`organizer.venue.views`."""

from __future__ import annotations

import hashlib
import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: where Caddy keeps its local authority's root, under its data directory
CADDY_ROOT = Path("caddy") / "pki" / "authorities" / "local" / "root.crt"
#: Debian's caddy service: the caddy user's home is /var/lib/caddy
SERVICE_DATA = Path("/var/lib/caddy/.local/share")


def candidates(configured: str | None, environ: Mapping[str, str]) -> list[Path]:
    """Where to look, first match wins: ``CADDY_ROOT_CERT`` when set (then only there), else
    Caddy's data directory (``$XDG_DATA_HOME``, ``~/.local/share``), else the Debian service's."""
    if configured:
        return [Path(configured).expanduser()]
    found: list[Path] = []
    if environ.get("XDG_DATA_HOME"):
        found.append(Path(environ["XDG_DATA_HOME"]) / CADDY_ROOT)
    if environ.get("HOME"):
        found.append(Path(environ["HOME"]) / ".local" / "share" / CADDY_ROOT)
    found.append(SERVICE_DATA / CADDY_ROOT)
    return found


@dataclass(frozen=True)
class RootCertificate:
    path: Path
    pem: bytes
    der: bytes

    @property
    def sha256(self) -> str:
        """The SHA-256 fingerprint as the phones show it, pairs of hex digits with colons."""
        digest = hashlib.sha256(self.der).hexdigest().upper()
        return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def find_root_certificate(configured: str | None, environ: Mapping[str, str] | None = None) -> RootCertificate | None:
    """The first readable PEM certificate among :func:`candidates`, or None."""
    for path in candidates(configured, os.environ if environ is None else environ):
        try:
            pem = path.read_bytes()
        except OSError:
            continue
        try:
            der = ssl.PEM_cert_to_DER_cert(pem.decode("ascii", errors="replace"))
        except ValueError:
            continue
        return RootCertificate(path, pem, der)
    return None
