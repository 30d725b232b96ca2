"""Links that leave the page: every QR code, every link a phone, tablet or e-mail follows.
They start with the public address (``BASE_URL``) when it is set, else with the address the
request came in on; the framework-free helpers are in :mod:`organizer.core.public_address`."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import current_app, has_request_context, request

from organizer.core.public_address import is_loopback_url

#: the address when neither BASE_URL nor a request says one (a command line without --base-url)
FALLBACK = "http://127.0.0.1:5000"


def public_base() -> str:
    """The public address without a trailing slash: ``BASE_URL``, else the request's root."""
    configured = current_app.config.get("BASE_URL")
    if configured:
        return str(configured).rstrip("/")
    if has_request_context():
        return request.url_root.rstrip("/")
    return FALLBACK


def public_url(endpoint: str, **values: Any) -> str:
    """The full address of ``endpoint`` as players' devices reach it (like ``url_for(...,
    _external=True)``, but starting with the public address)."""
    base = urlsplit(public_base())
    adapter = current_app.url_map.bind(base.netloc, script_name=base.path or "/", url_scheme=base.scheme)
    return adapter.build(endpoint, values, force_external=True)


def public_base_unreachable() -> bool:
    """True when the public address is this machine's own (``127.0.0.1``, ``localhost``): the
    QR codes would lead no phone anywhere."""
    return is_loopback_url(public_base())
