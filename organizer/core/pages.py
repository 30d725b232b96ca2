"""One helper to answer with a whole page or, for an HTMX request, just its fragment."""

from __future__ import annotations

from typing import Any

from flask import redirect, render_template
from werkzeug.wrappers import Response

from organizer.core.extensions import htmx


def render_page(template: str, partial: str, status: int = 200, **context: Any) -> tuple[str, int]:
    """``template`` is a whole page that includes the template ``partial``; HTMX requests get
    only the fragment, so the swap target receives exactly what the page would show there."""
    if htmx and not htmx.boosted:
        return render_template(partial, **context), status
    return render_template(template, **context), status


def go_to(url: str) -> Response:
    """After a successful change: a normal redirect, or for HTMX an instruction to load the new
    page (a plain redirect would be followed inside the swap target)."""
    if htmx:
        return Response(status=200, headers={"HX-Redirect": url})
    return redirect(url)
