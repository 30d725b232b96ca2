"""RULES.md §2–§4: rights to score, points per species, bonuses, winners."""

import pytest

from engine.arboretum import Arboretum
from engine.errors import CaseError
from engine.scoring import score_table

from .helpers import grid, seat

OAKS = grid("Oak 2 | Oak 5")  # an Oak path worth 2


def seven(*cards: str, pad: str = "Willow") -> list[str]:
    """A 7-card end-of-game hand: the cards named, topped up with low cards of ``pad``."""
    names = list(cards)
    value = 1
    while len(names) < 7:
        names.append(f"{pad} {value}")
        value += 1
    return names


SPECIES_6 = ["Cassia", "Dogwood", "Maple", "Oak", "Willow", "Jacaranda"]


class TestRightToScore:
    def test_eight_counts_zero_when_another_player_holds_the_one(self) -> None:
        a = seat("A", grid("Oak 2 | Oak 5"), *seven("Oak 8"))
        b = seat("B", grid("Oak 3 | Oak 4"), *seven("Oak 1", pad="Cassia"))
        result = score_table("standard-2018", [a, b], SPECIES_6)
        oak_a, oak_b = (p.species["Oak"] for p in result.players)
        assert (oak_a.claim, oak_b.claim) == (0, 1)
        assert not oak_a.right and oak_b.right and oak_b.points == 2

    def test_the_one_still_counts_and_own_one_does_not_cancel_own_eight(self) -> None:
        a = seat("A", grid("Oak 2 | Oak 5"), *seven("Oak 8", "Oak 1"))
        b = seat("B", grid("Oak 3 | Oak 4"), *seven("Oak 7", pad="Cassia"))
        oak_a, oak_b = (p.species["Oak"] for p in score_table("standard-2018", [a, b], SPECIES_6).players)
        assert (oak_a.claim, oak_b.claim) == (9, 7) and oak_a.right and not oak_b.right

    def test_ties_give_every_tied_player_the_right(self) -> None:
        a = seat("A", grid("Oak 2 | Oak 5"), *seven("Oak 7"))
        b = seat("B", grid("Oak 3 | Oak 4"), *seven("Oak 6", "Oak 1", pad="Cassia"))
        oak_a, oak_b = (p.species["Oak"] for p in score_table("standard-2018", [a, b], SPECIES_6).players)
        assert oak_a.right and oak_b.right and oak_a.points == 2 and oak_b.points == 2

    def test_nobody_holding_the_species_gives_everyone_the_right(self) -> None:
        a = seat("A", grid("Oak 2 | Oak 5"), *seven())
        b = seat("B", grid("Oak 3 | Oak 4"), *seven(pad="Cassia"))
        oak = [p.species["Oak"] for p in score_table("standard-2018", [a, b], SPECIES_6).players]
        assert all(s.right and s.points == 2 for s in oak)

    def test_right_without_a_path_scores_nothing(self) -> None:
        a = seat("A", grid("Maple 3"), *seven("Oak 8"))
        b = seat("B", OAKS, *seven(pad="Cassia"))
        oak_a, oak_b = (p.species["Oak"] for p in score_table("standard-2018", [a, b], SPECIES_6).players)
        assert oak_a.right and oak_a.points == 0 and oak_a.path is None
        assert not oak_b.right and oak_b.points == 0


class TestWinners:
    def test_2018_tie_goes_to_most_species_in_arboretum(self) -> None:
        a = seat("A", grid("Oak 2 | Oak 5 | Maple 1"), *seven())
        b = seat("B", grid("Oak 3 | Oak 4"), *seven(pad="Cassia"))
        result = score_table("standard-2018", [a, b], SPECIES_6)
        assert [p.total for p in result.players] == [2, 2]
        assert result.winner_names == ["A"] and result.ranks == (1, 2)

    def test_2018_tie_on_species_too_is_shared(self) -> None:
        a = seat("A", grid("Oak 2 | Oak 5"), *seven())
        b = seat("B", grid("Oak 3 | Oak 4"), *seven(pad="Cassia"))
        assert score_table("standard-2018", [a, b], SPECIES_6).winner_names == ["A", "B"]

    def test_2010_tie_is_shared_whatever_the_species(self) -> None:
        species = ["Cassia", "Dogwood", "Lilac", "Magnolia", "Willow", "Poplar"]
        a = seat("A", grid("Lilac 2 | Lilac 5 | Cassia 1"), *seven())
        b = seat("B", grid("Lilac 3 | Lilac 4"), *seven(pad="Poplar"))
        result = score_table("standard-2010", [a, b], species)
        assert result.winner_names == ["A", "B"] and result.ranks == (1, 1)

    def test_wrong_hand_size_is_refused(self) -> None:
        a = seat("A", OAKS, "Willow 1")
        b = seat("B", grid("Oak 3 | Oak 4"), *seven(pad="Cassia"))
        with pytest.raises(CaseError, match="A: 1 cards in hand"):
            score_table("standard-2018", [a, b], SPECIES_6)


def full_arboretum(rows: int, species: list[str]) -> Arboretum:
    """``rows`` rows of 7 distinct cards; each row is one species valued 1..7 rising."""
    return grid(*(" | ".join(f"{s} {v}" for v in range(1, 8)) for s in species[:rows]))


class TestDraft:
    SPECIES = ["Blue Spruce", "Cassia", "Cherry Blossom", "Dogwood", "Jacaranda", "Maple", "Oak"]

    def test_right_comes_from_the_arboretum_and_others_get_a_flat_two(self) -> None:
        a = seat("A", grid("Oak 2 | Oak 5 | Oak 6 | Oak 7"))  # oak sum 20, path all oak: 8
        b = seat("B", grid("Oak 3 | Oak 4"))  # oak sum 7: no right, has a path: 2
        oak_a, oak_b = (p.species["Oak"] for p in score_table("draft", [a, b], self.SPECIES).players)
        assert oak_a.right and oak_a.points == 8
        assert not oak_b.right and oak_b.points == 2 and oak_b.flat

    def test_no_path_no_flat_two(self) -> None:
        a = seat("A", grid("Oak 2 | Oak 5 | Oak 6"))
        b = seat("B", grid("Oak 3 | Maple 4"))
        oak_b = score_table("draft", [a, b], self.SPECIES).players[1].species["Oak"]
        assert not oak_b.right and oak_b.points == 0

    def test_ending_on_an_eight_costs_two_and_never_below_zero(self) -> None:
        a = seat("A", grid("Oak 1 | Oak 2 | Oak 3 | Oak 8"))  # 4+4+1-2 = 7
        b = seat("B", grid("Maple 7 | Maple 8"))  # 2-2 = 0
        result = score_table("draft", [a, b], self.SPECIES)
        assert result.players[0].species["Oak"].points == 7
        maple = result.players[1].species["Maple"]
        assert maple.right and maple.points == 0

    def test_floor_at_zero_applies_to_penalised_path(self) -> None:
        b = seat("B", grid("Maple 7 | Maple 8"))
        a = seat("A", grid("Oak 1 | Oak 2"))
        assert score_table("draft", [a, b], self.SPECIES).players[1].total == 0

    def test_bonus_for_planting_every_pick(self) -> None:
        a = seat("A", full_arboretum(3, self.SPECIES))  # 21 cards
        b = seat("B", grid("Oak 3 | Oak 4"))
        result = score_table("draft", [a, b], self.SPECIES)
        assert result.players[0].bonus == 3 and result.players[1].bonus == 0
        # three rows of 1..7 of one species: 7 + 7 + 1 = 15 each
        assert result.players[0].total == 15 * 3 + 3

    def test_two_round_game_bonus_at_fourteen_cards(self) -> None:
        species = ["Blue Spruce", "Cassia", "Cherry Blossom", "Dogwood", "Jacaranda", "Maple", "Oak", "Willow", "Tulip Poplar"]
        seats = [seat("A", full_arboretum(2, species))] + [seat(n, grid(f"Willow {i}")) for i, n in enumerate("BCD", 1)]
        result = score_table("draft", seats, species)
        assert result.players[0].bonus == 3

    def test_draft_winner_uses_species_tiebreak(self) -> None:
        a = seat("A", grid("Oak 3 | Oak 4 | Maple 1"))
        b = seat("B", grid("Oak 2 | Oak 5"))
        result = score_table("draft", [a, b], self.SPECIES)
        # A: Oak sum 7 < B's 7? equal -> both have the right: 2 each; A also has Maple (no path)
        assert [p.total for p in result.players] == [2, 2]
        assert result.winner_names == ["A"]

    def test_too_many_cards_and_hands_refused(self) -> None:
        with pytest.raises(CaseError, match="cards in hand"):
            score_table("draft", [seat("A", OAKS, "Oak 1"), seat("B", grid("Maple 1"))], self.SPECIES)
        with pytest.raises(CaseError, match="plays 2 rounds"):
            score_table("draft", [seat(n, grid(f"Oak {i}")) for i, n in enumerate("ABCD", 1)], self.SPECIES, rounds=3)


class TestSolo:
    SPECIES = ["Cassia", "Dogwood", "Maple", "Oak", "Willow", "Jacaranda"]

    def test_players_one_cancels_qs_eight_but_not_the_reverse(self) -> None:
        me = seat("Me", grid("Oak 2 | Oak 5"), "Oak 1", "Maple 8")
        q = seat("Q", grid("Oak 3 | Oak 4 | Maple 2 | Maple 3"), "Oak 8", "Maple 1")
        result = score_table("solo", [me, q], self.SPECIES)
        mine, qs = result.players
        assert (mine.species["Oak"].claim, qs.species["Oak"].claim) == (1, 0)  # Q's 8 counts 0
        assert mine.species["Oak"].right and not qs.species["Oak"].right
        assert (mine.species["Maple"].claim, qs.species["Maple"].claim) == (8, 1)  # my 8 still counts
        assert mine.species["Maple"].right and not qs.species["Maple"].right

    def test_q_needs_two_cards_of_the_species(self) -> None:
        me = seat("Me", grid("Oak 2 | Oak 5"))
        q = seat("Q", grid("Maple 3 | Oak 4"), "Maple 7")
        mine, qs = score_table("solo", [me, q], self.SPECIES).players
        assert mine.species["Oak"].right and not qs.species["Oak"].right  # one Oak: Q may not score it
        assert qs.species["Maple"].claim == 7 and not qs.species["Maple"].right  # one Maple

    def test_win_needs_more_points_and_at_least_as_many_species(self) -> None:
        me = seat("Me", grid("Oak 2 | Oak 5 | Oak 6 | Oak 7"))  # 8 points, 1 species
        q = seat("Q", grid("Maple 2 | Maple 3 | Willow 4 | Willow 5"))  # 2 + 2 = 4 points, 2 species
        result = score_table("solo", [me, q], self.SPECIES)
        assert [p.total for p in result.players] == [8, 4]
        assert result.winner_names == ["Q"]  # fewer species scored

    def test_equal_total_is_a_loss(self) -> None:
        me = seat("Me", grid("Oak 2 | Oak 5"))
        q = seat("Q", grid("Maple 2 | Maple 3"))
        assert score_table("solo", [me, q], self.SPECIES).winner_names == ["Q"]

    def test_player_wins(self) -> None:
        me = seat("Me", grid("Oak 2 | Oak 5 | Oak 6 | Oak 7 | Maple 6 | Maple 7"))  # Oak 8; Maple blocked
        q = seat("Q", grid("Maple 2 | Maple 3"), "Maple 8")  # Maple 2
        result = score_table("solo", [me, q], self.SPECIES)
        assert [p.species_scored for p in result.players] == [1, 1]
        assert result.winner_names == ["Me"]
