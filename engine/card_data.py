"""The cards' plain data: each edition's species (scorepad order, colour name, hex) and their
two-letter codes, keyed by the edition's text ("2018", "2010").

Kept apart from :mod:`engine.cards` (which re-exports it keyed by :class:`engine.cards.Edition`)
so that ``arboretum score``'s fast path (:mod:`engine.score_line`) reads it without importing
``dataclasses``, ``enum``, ``re`` and ``random``: about a third of the command's start-up."""

#: Species of each edition in scorepad order, with the colour named by the rulebooks and a
#: hex value the screens and PDFs use for that colour.
SPECIES_ROWS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "2018": (
        ("Blue Spruce", "blue", "#2f6db5"),
        ("Cassia", "yellow", "#e8c31c"),
        ("Cherry Blossom", "pink", "#e98bb5"),
        ("Dogwood", "gray", "#8d8f93"),
        ("Jacaranda", "purple", "#7d4fa6"),
        ("Maple", "orange", "#ea8424"),
        ("Oak", "brown", "#8a5a2b"),
        ("Royal Poinciana", "red", "#cf2e2e"),
        ("Tulip Poplar", "light green", "#8cc63f"),
        ("Willow", "dark green", "#2e6b34"),
    ),
    "2010": (
        ("Cassia", "yellow", "#e8c31c"),
        ("Crabapple", "white", "#f4f1ea"),
        ("Dogwood", "gray", "#8d8f93"),
        ("Jacaranda", "purple", "#7d4fa6"),
        ("Lilac", "blue", "#2f6db5"),
        ("Magnolia", "pink", "#e98bb5"),
        ("Myrtle", "red", "#cf2e2e"),
        ("Poinciana", "orange", "#ea8424"),
        ("Poplar", "light green", "#8cc63f"),
        ("Willow", "dark green", "#2e6b34"),
    ),
}

#: each edition's ten species in scorepad order
EDITION_SPECIES: dict[str, tuple[str, ...]] = {
    edition: tuple(name for name, _, _ in rows) for edition, rows in SPECIES_ROWS.items()
}

#: A two-letter code per species, printed on every card beside its colour so that no one needs
#: colour to tell species apart (colour-blind players, greyscale prints). Unique within each
#: edition; the same in every language, like a card's notation.
SPECIES_CODES: dict[str, str] = {
    "Blue Spruce": "BS", "Cassia": "Ca", "Cherry Blossom": "CB", "Dogwood": "Dw", "Jacaranda": "Ja",
    "Maple": "Ma", "Oak": "Ok", "Royal Poinciana": "RP", "Tulip Poplar": "TP", "Willow": "Wi",
    "Crabapple": "Cr", "Lilac": "Li", "Magnolia": "Mg", "Myrtle": "My", "Poinciana": "Po", "Poplar": "Pp",
}

#: points for a path ending on an 8 in the standard game (``engine.paths.EIGHT_BONUS_STANDARD``,
#: which a test holds equal to this)
EIGHT_BONUS_STANDARD = 2
