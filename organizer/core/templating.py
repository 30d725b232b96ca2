"""What every template can use."""

from __future__ import annotations

from typing import Any

from babel import numbers
from flask import Flask, g

from engine.cards import species_code
from organizer.core.models import ENTRY_MODES, ROUND_FORMATS
from organizer.core.public_urls import public_base, public_base_unreachable, public_url
from organizer.core.translate import N_, current_locale, format_points, format_rating, species_name

HTMX_SCRIPT = "core/vendor/htmx-2.0.11.min.js"

#: Marked for translation (N_); a template shows them with _(label).
ENTRY_MODE_LABELS = {
    "totals": N_("Totals (points and species count per player)"),
    "scorepad": N_("Scorepad (points per species, as on paper)"),
    "assistant": N_("Scoring assistant (arboretums and hands, scored by the engine)"),
}
FORMAT_LABELS = {"standard": N_("Standard game"), "draft": N_("Draft (Wonders of the Arboretum)")}


def fixed_decimals(value: float, places: int = 2) -> str:
    """A number with exactly ``places`` decimals in the page's language: 1.50 in English, 1,50 in
    German (standings and the projector line up their figures this way)."""
    return str(numbers.format_decimal(value, format="0." + "0" * places if places else "0", locale=current_locale()))


def init_app(app: Flask) -> None:
    # every card carries its species code beside its colour, its name in the reader's language
    app.jinja_env.filters["species_code"] = species_code
    app.jinja_env.filters["species_name"] = species_name
    app.jinja_env.filters["fixed"] = fixed_decimals
    # tournament points and club ratings: one format each for every page
    app.jinja_env.filters["points"] = format_points
    app.jinja_env.filters["rating"] = format_rating
    app.add_template_global(public_url, "public_url")  # every QR code and link a phone follows
    app.add_template_global(public_base, "public_base")
    app.add_template_global(public_base_unreachable, "public_base_unreachable")

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
