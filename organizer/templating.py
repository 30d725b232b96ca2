"""What every template can use."""

from __future__ import annotations

from typing import Any

from flask import Flask, g

from engine.cards import species_code

from .models import ENTRY_MODES, ROUND_FORMATS
from .services.translate import species_name

HTMX_SCRIPT = "vendor/htmx-2.0.11.min.js"

ENTRY_MODE_LABELS = {
    "totals": "Totals (points and species count per player)",
    "scorepad": "Scorepad (points per species, as on paper)",
    "assistant": "Scoring assistant (arboretums and hands, scored by the engine)",
}
FORMAT_LABELS = {"standard": "Standard game", "draft": "Draft (Wonders of the Arboretum)"}


def init_app(app: Flask) -> None:
    # every card carries its species code beside its colour (issue 13), its name in the reader's language
    app.jinja_env.filters["species_code"] = species_code
    app.jinja_env.filters["species_name"] = species_name

    @app.context_processor
    def globals_for_templates() -> dict[str, Any]:
        return {
            "current_organizer": g.get("organizer"),
            "htmx_script": HTMX_SCRIPT,
            "entry_mode_labels": ENTRY_MODE_LABELS,
            "format_labels": FORMAT_LABELS,
            "all_entry_modes": ENTRY_MODES,
            "all_round_formats": ROUND_FORMATS,
        }
