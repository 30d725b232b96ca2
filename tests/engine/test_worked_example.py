"""The 2018 rulebook's scoring example: Talia, Jonte and Rina; Talia scores 19.

The rulebook gives the hands and Talia's paths but draws the arboretums as a picture, so the
arboretums below are built to hold exactly the paths the rulebook describes."""

from engine.case import parse_case

from .worked_example import CASE


def test_talia_scores_19() -> None:
    result = parse_case(CASE).score()
    talia, jonte, rina = result.players
    assert talia.species["Oak"].points == 9
    assert talia.species["Jacaranda"].points == 7
    assert talia.species["Royal Poinciana"].points == 3
    assert talia.total == 19
    assert dict(talia.species["Oak"].path.explain()) == {"4 cards": 4, "4+ cards all Oak": 4, "starts with a 1": 1}
    assert dict(talia.species["Jacaranda"].path.explain()) == {"5 cards": 5, "ends with an 8": 2}
    assert result.winner_names == ["Talia"]


def test_rights_as_the_rulebook_explains_them() -> None:
    talia, jonte, rina = parse_case(CASE).score().players
    scoring = {p.name: sorted(s for s, v in p.species.items() if v.right) for p in (talia, jonte, rina)}
    assert scoring["Talia"] == ["Jacaranda", "Maple", "Oak", "Royal Poinciana"]
    assert scoring["Jonte"] == ["Blue Spruce", "Cassia", "Jacaranda"]  # tied with Talia on Jacaranda
    assert scoring["Rina"] == ["Dogwood", "Willow"]
    # Talia blocks Jonte's Maples without having any herself
    assert talia.species["Maple"].points == 0 and not jonte.species["Maple"].right
    # Talia's Royal Poinciana 1 turns Rina's 8 into 0
    assert rina.species["Royal Poinciana"].claim == 0 and not rina.species["Royal Poinciana"].right


def test_case_output_follows_the_format() -> None:
    out = parse_case(CASE).score().to_json()
    talia = out["players"][0]
    assert talia["total"] == 19 and talia["bonus"] == 0
    assert talia["species"]["Oak"] == {
        "right": True, "points": 9, "path": [{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 2, "y": 0}, {"x": 3, "y": 0}],
    }
    assert talia["species"]["Willow"] == {"right": False, "points": 0, "path": []}
    assert list(talia["species"]) == ["Blue Spruce", "Cassia", "Dogwood", "Jacaranda", "Maple", "Oak",
                                      "Royal Poinciana", "Willow"]
    assert out["winners"] == ["Talia"]
