"""The 2018 rulebook's scoring example as a score case: Talia, Jonte and Rina; Talia scores 19.

The rulebook gives the hands and Talia's paths but draws the arboretums as a picture, so the
arboretums below are built to hold exactly the paths the rulebook describes. The engine's tests
and the tests of the command line and the hostile-input suite take it from here."""



TALIA_ARBORETUM = [
    # Oak 1-2-4-5: 4 cards, all Oak, starts with a 1 -> 4 + 4 + 1 = 9
    (0, 0, "Oak 1"), (1, 0, "Oak 2"), (2, 0, "Oak 4"), (3, 0, "Oak 5"),
    # Jacaranda 3 - Willow 4 - Dogwood 5 - Blue Spruce 6 - Jacaranda 8: 5 cards, ends on 8 -> 7
    (0, 1, "Jacaranda 3"), (1, 1, "Willow 4"), (2, 1, "Dogwood 5"), (3, 1, "Blue Spruce 6"), (4, 1, "Jacaranda 8"),
    # Royal Poinciana 2 - Cassia 3 - Royal Poinciana 4: 3 cards -> 3
    (0, 2, "Royal Poinciana 2"), (1, 2, "Cassia 3"), (2, 2, "Royal Poinciana 4"),
]


def planted(cells: list[tuple[int, int, str]]) -> list[dict[str, object]]:
    out = []
    for x, y, text in cells:
        species, value = text.rsplit(" ", 1)
        out.append({"x": x, "y": y, "species": species, "value": int(value)})
    return out


CASE = {
    "rules": "standard-2018",
    "players": [
        {
            "name": "Talia",
            "arboretum": planted(TALIA_ARBORETUM),
            "hand": ["Jacaranda 7", "Maple 6", "Maple 7", "Oak 3", "Oak 8", "Royal Poinciana 1", "Royal Poinciana 5"],
        },
        {
            "name": "Jonte",
            "arboretum": planted([(0, 0, "Blue Spruce 2"), (1, 0, "Blue Spruce 3"), (2, 0, "Cassia 1"), (3, 0, "Cassia 2"),
                                  (0, 1, "Jacaranda 1"), (1, 1, "Jacaranda 4")]),
            "hand": ["Blue Spruce 4", "Cassia 6", "Jacaranda 2", "Jacaranda 5", "Maple 4", "Maple 5", "Royal Poinciana 3"],
        },
        {
            "name": "Rina",
            "arboretum": planted([(0, 0, "Dogwood 1"), (1, 0, "Dogwood 3"),
                                  (0, 1, "Willow 2"), (1, 1, "Willow 5"), (2, 1, "Willow 6"), (3, 1, "Willow 7"),
                                  (0, 2, "Royal Poinciana 6"), (1, 2, "Royal Poinciana 7")]),
            "hand": ["Cassia 5", "Dogwood 2", "Oak 7", "Royal Poinciana 8", "Willow 1", "Willow 3", "Willow 8"],
        },
    ],
}
