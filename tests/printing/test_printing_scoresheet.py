"""The score sheet of a finished table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.arboretum import Arboretum
from engine.cards import Card
from engine.paths import best_path
from organizer.printing import PlayerSheet, PrintingError, ScoreSheetData, SheetSpecies, score_sheet
from organizer.printing.samples import sample_score_sheet
from organizer.printing.scoresheet import explain
from tests.printing.support import has_colour, is_pdf, pages_text, render


def test_sample_sheet_matches_the_engine() -> None:
    """The sample printed in the docs is the engine's own scoring, not numbers typed by hand."""
    data = sample_score_sheet()
    for player in data.players:
        arboretum = Arboretum.from_cells({(x, y): Card(s, v) for x, y, s, v in player.arboretum})
        for score in player.species:
            if score.right:
                path = best_path(arboretum, score.species)
                assert score.points == (path.points if path else 0)
        assert player.total == sum(s.points for s in player.species)


def test_summary_page_ranks_players_and_gives_points_per_species() -> None:
    data = sample_score_sheet()
    texts = pages_text(score_sheet(data))
    assert len(texts) == 1 + len(data.players)
    summary = texts[0]
    assert "Score sheet: Round 3 · table 4" in summary
    assert "from the scoring assistant" in summary
    ranked = sorted(data.players, key=lambda p: p.rank)
    positions = [summary.index(p.name) for p in ranked]
    assert positions == sorted(positions)
    for player, place in zip(ranked, ("1st", "2nd", "3rd"), strict=False):
        assert f"{place} {player.name} {player.total}" in summary
    for species in data.species_in_play:
        assert species in summary
    assert "Total 14 11 11" in summary
    assert "most species in their arboretum" in summary


def test_each_player_page_explains_every_species() -> None:
    data = sample_score_sheet()
    texts = pages_text(score_sheet(data))
    zoe_page = texts[1]
    zoe = data.players[0]
    assert zoe.name == "Zoë Ångström"
    assert "Zoë Ångström" in zoe_page and f"{zoe.total} points" in zoe_page and "1st place" in zoe_page
    assert "Oak 1 → Oak 3 → Oak 5 → Oak 8" in zoe_page
    assert "4 cards (4), 4+ cards all Oak (+4), starts with a 1 (+1), ends with an 8 (+2)" in zoe_page
    assert "Cassia 2 → Maple 4 → Cassia 6" in zoe_page
    assert "no right: Łukasz Kowalski holds 13 against 0" in zoe_page
    assert "Hand at the end" in zoe_page
    sofia_page = texts[3]
    assert "Σοφία Παπαδοπούλου" in sofia_page
    assert "Tulip Poplar 1 → Tulip Poplar 4 → Tulip Poplar 6 →" in sofia_page


def test_arboretum_is_drawn_in_species_colours() -> None:
    pdf = score_sheet(sample_score_sheet())
    zoe = render(pdf, 1, dpi=50)
    for hex_value in ("#8a5a2b", "#e8c31c", "#ea8424", "#2e6b34", "#7d4fa6"):  # Oak Cassia Maple Willow Jacaranda
        assert has_colour(zoe, hex_value, at_least=100), hex_value
    assert not has_colour(zoe, "#cf2e2e", at_least=100), "no Royal Poinciana card was played"


def _crabapple_sheet() -> ScoreSheetData:
    cards = ((0, 0, "Crabapple", 2), (1, 0, "Crabapple", 5), (2, 0, "Lilac", 7), (2, 1, "Crabapple", 8))
    in_play = ("Cassia", "Crabapple", "Dogwood", "Jacaranda", "Lilac", "Magnolia")
    arboretum = Arboretum.from_cells({(x, y): Card(s, v) for x, y, s, v in cards})
    path = best_path(arboretum, "Crabapple")
    assert path is not None
    scores = tuple(
        SheetSpecies("Crabapple", True, path.points, path.cells, tuple(path.explain())) if s == "Crabapple"
        else SheetSpecies(s, True, 0, (), ("right, but no path",))
        for s in in_play
    )
    other = PlayerSheet("Ana", ((0, 0, "Cassia", 1), (0, 1, "Cassia", 3)),
                        tuple(SheetSpecies(s, s == "Cassia", 3 if s == "Cassia" else 0,
                                           ((0, 0), (0, 1)) if s == "Cassia" else ()) for s in in_play), 3, 2)
    return ScoreSheetData(edition="2010", species_in_play=in_play, game_format="standard", source="from the digital game",
                          players=(PlayerSheet("Łukasz", cards, scores, path.points, 1), other))


def test_2010_sheet_with_white_crabapple_cards() -> None:
    data = _crabapple_sheet()
    pdf = score_sheet(data)
    assert is_pdf(pdf)
    texts = pages_text(pdf)
    assert "Crabapple 2 → Crabapple 5 → Lilac 7 → Crabapple 8" in texts[1]
    assert "Ties for the highest total are shared (2010 rules)" in texts[0]
    assert "Species (tie-break)" not in texts[0]
    image = render(pdf, 1, dpi=50)
    assert has_colour(image, "#f4f1ea", at_least=100), "Crabapple cards are printed off-white"


def test_draft_sheet_shows_the_bonus_and_no_hand_column() -> None:
    data = _crabapple_sheet()
    first = data.players[0]
    data = replace(data, game_format="draft", players=(
        replace(first, bonuses=(("Planted every pick", 3),), total=first.total + 3), data.players[1]))
    texts = pages_text(score_sheet(data))
    assert "Planted every pick" in texts[0] and "Planted every pick 3" in texts[1]
    assert "Species Right Path and points Points" in texts[1], "no hand column in the draft"
    assert "2 FEWER if it ends with an 8" in texts[0]


def test_explanations_read_like_a_referee() -> None:
    assert explain((("3 cards", 3), ("ends with an 8 (draft penalty)", -2))) == "3 cards (3), ends with an 8 (draft penalty) (−2)"
    assert explain(("no right: Ana holds 9 against 4",)) == "no right: Ana holds 9 against 4"


def _player(data: ScoreSheetData, **changes: object) -> ScoreSheetData:
    return replace(data, players=(replace(data.players[0], **changes),) + data.players[1:])  # type: ignore[arg-type]


def _species(data: ScoreSheetData, species: str, **changes: object) -> ScoreSheetData:
    player = data.players[0]
    scores = tuple(replace(s, **changes) if s.species == species else s for s in player.species)  # type: ignore[arg-type]
    return _player(data, species=scores)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: replace(d, players=()), "this table has no result yet"),
        (lambda d: replace(d, edition="2000"), "unknown edition '2000'"),
        (lambda d: replace(d, paper="tabloid"), "unknown paper 'tabloid'"),
        (lambda d: _player(d, arboretum=()), "Zoë Ångström has an empty arboretum"),
        (lambda d: _player(d, total=99), "add up to 14, not to the total 99"),
        (lambda d: _player(d, rank=0), "rank 0 must be 1 or more"),
        (lambda d: _player(d, arboretum=d.players[0].arboretum + ((0, 0, "Maple", 2),)), r"two cards in cell \(0, 0\)"),
        (lambda d: _player(d, arboretum=d.players[0].arboretum + ((9, 9, "Dogwood", 2),)),
         "Dogwood 2 at \\(9, 9\\) is not of a species in play"),
        (lambda d: _player(d, arboretum=d.players[0].arboretum + ((9, 9, "Maple", 9),)), "values are 1 to 8"),
        (lambda d: _player(d, species=d.players[0].species[1:]), "no score given for Blue Spruce"),
        (lambda d: _species(d, "Oak", path=((0, 0), (2, 0))), r"\(0, 0\) and \(2, 0\) are not adjacent"),
        (lambda d: _species(d, "Oak", path=((1, 0), (0, 0))), "values must rise along the path"),
        (lambda d: _species(d, "Oak", path=((0, 0), (0, 5))), r"no card at \(0, 5\)"),
        (lambda d: _species(d, "Oak", path=((0, 0), (0, 1))), "starts and ends on a card of its species"),
        (lambda d: replace(d, players=(d.players[0], replace(d.players[1], name="ZOË ÅNGSTRÖM"), d.players[2])),
         "two players at the table have the same name"),
    ],
)
def test_bad_results_are_refused_with_a_clear_message(change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(PrintingError, match=message):
        score_sheet(change(sample_score_sheet()))


def test_solo_sheet_states_the_solo_win_condition() -> None:
    data = replace(_crabapple_sheet(), game_format="solo")
    assert "You win only if you scored points in at least as many species as Q" in pages_text(score_sheet(data))[0]
    with pytest.raises(PrintingError, match="unknown game format 'team'"):
        score_sheet(replace(data, game_format="team"))
