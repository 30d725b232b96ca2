"""The venue's pages: ``/venue/certificate`` (no sign-in) explains how a tablet trusts the
venue's HTTPS and serves Caddy's root certificate as ``/venue/root.crt``; and the notice on a
judge's round and table pages when offline entry cannot work (plain HTTP)."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, Response, abort, current_app, g, render_template, request
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from organizer.accounts.qr import qr_svg
from organizer.core.db import get_engine
from organizer.core.public_address import is_loopback_url
from organizer.core.public_urls import public_url
from organizer.venue.certificate import candidates, find_root_certificate

bp = Blueprint("venue", __name__)

#: the judge's pages that the service worker keeps for offline entry
OFFLINE_PAGES = frozenset({"rounds.show", "tables.show"})


def _certificate() -> Any:
    return find_root_certificate(current_app.config.get("CADDY_ROOT_CERT"))


def plain_http_url(url: str) -> str:
    """``url`` over plain HTTP on the default port, where a tablet that does not trust the venue's
    certificate yet can open it without a warning (Caddy serves these pages over HTTP too)."""
    parts = urlsplit(url)
    if parts.scheme != "https":
        return url
    return urlunsplit(("http", parts.hostname or "", parts.path, parts.query, ""))


@bp.get("/venue/certificate")
def certificate() -> Any:
    found = _certificate()
    download = plain_http_url(public_url("venue.root_certificate"))
    return render_template("venue/certificate.html", found=found, download=download,
                           qr=qr_svg(download, 200) if found else None, https_address=public_url("events.index"),
                           looked_in=[str(path) for path in candidates(current_app.config.get("CADDY_ROOT_CERT"),
                                                                       os.environ)])


@bp.get("/venue/root.crt")
def root_certificate() -> Any:
    found = _certificate()
    if found is None:
        abort(404)
    # application/x-x509-ca-cert: Android offers to install it as a CA certificate, iPadOS as a profile
    return Response(found.pem, mimetype="application/x-x509-ca-cert",
                    headers={"Content-Disposition": "attachment; filename=venue-root.crt", "Cache-Control": "no-cache"})


@bp.app_template_global("offline_entry_unavailable")
def offline_entry_unavailable() -> bool:
    """True on a judge's round or table page served over plain HTTP to another device: browsers
    run service workers only on HTTPS (or on the machine itself), so nothing is kept for offline."""
    return (g.get("organizer") is not None and request.endpoint in OFFLINE_PAGES and request.scheme == "http"
            and not is_loopback_url(request.host_url))


@bp.get("/health")
def health() -> Any:
    """For a load balancer, Caddy's active health checks, systemd or an uptime monitor: 200 when
    this server answers and reaches its database, 503 when it cannot (then the proxy sends the
    players to the other servers). ``/healthz`` answers without asking the database."""
    try:
        with get_engine().connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as failed:
        current_app.logger.warning("health check: the database does not answer (%s)", type(failed).__name__)
        return Response("database unavailable\n", status=503, mimetype="text/plain",
                        headers={"Retry-After": "5", "Cache-Control": "no-store"})
    return Response("ok\n", mimetype="text/plain", headers={"Cache-Control": "no-store"})
