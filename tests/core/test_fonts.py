"""The PDFs print every language we ship: the bundled DejaVu faces have a glyph for
every character of every catalog, so no translated heading prints as "?"."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from organizer.printing.fonts import covers

TRANSLATIONS = Path(__file__).resolve().parents[2] / "organizer" / "core" / "translations"


@pytest.mark.parametrize("language", ["de", "fr", "es", "nl"])
def test_the_bundled_fonts_draw_every_character_of_the_catalog(language: str) -> None:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle, locale=language)
    text = "".join("".join(m.string) if isinstance(m.string, tuple) else m.string for m in catalog if m.id)
    missing = sorted({char for char in text if char.isprintable() and not char.isspace() and not covers(char)})
    assert len(text) > 10_000  # the catalog is there, not an empty file
    assert not missing, f"{language}: no glyph for {missing}"
