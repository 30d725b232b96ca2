"""Scoring a finished table under each rule set (RULES.md §2–§4).

Each rule set is a small subclass of :class:`ScoringRules` overriding a few hooks: how the right
to score a species is decided, what a species is worth, the bonus, and who wins."""

from __future__ import annotations

import json
import json.encoder
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from .arboretum import Arboretum
from .cards import Card
from .errors import CaseError
from .paths import EIGHT_BONUS_DRAFT, EIGHT_BONUS_STANDARD, Path, PathFinder


@dataclass(frozen=True)
class Seat:
    """One player's position at the end of a game."""

    name: str
    arboretum: Arboretum
    hand: tuple[Card, ...] = ()


@dataclass(frozen=True)
class SpeciesScore:
    species: str
    right: bool
    #: the sum that decided the right (hand sum with the 8-versus-1 rule, or the arboretum sum)
    claim: int
    points: int
    #: the path the points came from (None when nothing scored)
    path: Path | None
    #: a draft player without the right who scores the flat 2 for having a path
    flat: bool = False

    def explain(self) -> list[tuple[str, int]]:
        if self.path is None or self.points == 0 and not self.right:
            return []
        if self.flat:
            return [("a path without the right to score", self.points)]
        lines = self.path.explain()
        if self.points != self.path.points:  # the draft's floor at 0
            lines.append(("a species never scores below 0", self.points - self.path.points))
        return lines


@dataclass(frozen=True)
class PlayerScore:
    name: str
    species: dict[str, SpeciesScore]
    bonus: int
    total: int
    #: distinct species in the arboretum (the 2018 tie-break)
    species_in_arboretum: int

    @property
    def species_scored(self) -> int:
        """Species that earned this player points (solo's win condition)."""
        return sum(1 for s in self.species.values() if s.points > 0)


@dataclass(frozen=True)
class TableScore:
    rules: str
    species: tuple[str, ...]
    players: tuple[PlayerScore, ...]
    #: seat indices of the winners after tie-breaks (several only when the tie is shared)
    winners: tuple[int, ...]
    ranks: tuple[int, ...] = field(default=())

    @property
    def winner_names(self) -> list[str]:
        return [self.players[i].name for i in self.winners]

    def to_json(self) -> dict[str, object]:
        """The result object of the score-case format."""
        return {
            "players": [
                {
                    "name": p.name,
                    "total": p.total,
                    "species": {
                        name: {
                            "right": s.right,
                            "points": s.points,
                            "path": [{"x": x, "y": y} for x, y in (s.path.cells if s.path else ())],
                        }
                        for name, s in p.species.items()
                    },
                    "bonus": p.bonus,
                }
                for p in self.players
            ],
            "winners": self.winner_names,
        }

    def to_json_text(self) -> str:
        """``json.dumps(self.to_json(), ensure_ascii=False)``, the line ``arboretum score`` prints,
        written directly: for a command scoring thousands of tables, building the nested dicts
        only to encode them cost more than the scoring."""
        text = _json_text
        players = []
        for p in self.players:
            species = []
            for name, s in p.species.items():
                if s.path is None:
                    path = ""
                else:
                    path = ", ".join([f'{{"x": {x}, "y": {y}}}' for x, y in s.path.cells])
                species.append(
                    f'{text(name)}: {{"right": {"true" if s.right else "false"}, "points": {s.points}, "path": [{path}]}}'
                )
            players.append(
                f'{{"name": {text(p.name)}, "total": {p.total}, "species": {{{", ".join(species)}}}, "bonus": {p.bonus}}}'
            )
        winners = ", ".join([text(name) for name in self.winner_names])
        return f'{{"players": [{", ".join(players)}], "winners": [{winners}]}}'


def _hand_sums(hand: Sequence[Card]) -> tuple[dict[str, int], set[str], set[str]]:
    """A hand's sum of values by species, and the species of its 1s and of its 8s."""
    sums: dict[str, int] = {}
    ones, eights = set(), set()
    for card in hand:
        sums[card.species] = sums.get(card.species, 0) + card.value
        if card.value == 1:
            ones.add(card.species)
        elif card.value == 8:
            eights.add(card.species)
    return sums, ones, eights


#: a JSON string literal exactly as ``json.dumps(..., ensure_ascii=False)`` writes one
_json_text: Callable[[str], str] = json.encoder.encode_basestring


class ScoringRules:
    """The standard game, 2018 edition; the other rule sets override its hooks."""

    name: ClassVar[str] = "standard-2018"
    eight_bonus: ClassVar[int] = EIGHT_BONUS_STANDARD
    #: a tie on points goes to the player with the most species in their arboretum
    species_tiebreak: ClassVar[bool] = True
    #: whether a species may score without the right to it (the draft's flat 2); when not, a
    #: species without the right is not searched at all
    scores_without_right: ClassVar[bool] = False

    def claims(self, seats: Sequence[Seat], species: Sequence[str]) -> list[list[int]]:
        """For each of ``species``, each seat's sum for the right to score it: the hand, where an 8
        counts 0 if a different player holds that species' 1."""
        hands = [_hand_sums(seat.hand) for seat in seats]
        if any(eights for _, _, eights in hands):
            one_holders = Counter(name for _, ones, _ in hands for name in ones)
            for sums, ones, eights in hands:
                for name in eights:
                    if one_holders[name] - (name in ones) > 0:
                        sums[name] -= 8
        return [[sums.get(name, 0) for sums, _, _ in hands] for name in species]

    def rights(self, seats: Sequence[Seat], species: str, claims: list[int]) -> list[bool]:
        best = max(claims)
        return [claim == best for claim in claims]

    def species_score(self, seat: Seat, species: str, right: bool, claim: int, finder: PathFinder) -> SpeciesScore:
        """What ``species`` scores for ``seat``; asked only where the arboretum holds two cards
        of it or more (with fewer there is no path, and :func:`nothing_scored` is the score)."""
        path = finder.best_path(species, self.eight_bonus) if right else None
        if path is None:
            return nothing_scored(species, right, claim)
        return SpeciesScore(species, right, claim, max(0, path.points), path)

    def bonus(self, seat: Seat) -> int:
        return 0

    def winners(self, players: Sequence[PlayerScore]) -> tuple[int, ...]:
        keys = [self.rank_key(p) for p in players]
        best = max(keys)
        return tuple(i for i, key in enumerate(keys) if key == best)

    def rank_key(self, player: PlayerScore) -> tuple[int, ...]:
        if self.species_tiebreak:
            return (player.total, player.species_in_arboretum)
        return (player.total,)

    def ranks(self, players: Sequence[PlayerScore]) -> tuple[int, ...]:
        """Competition ranks (1, 2, 2, 4) by the same order that decides the winner."""
        keys = [self.rank_key(p) for p in players]
        # key < other: how many players rank above this one
        return tuple([1 + sum(map(key.__lt__, keys)) for key in keys])

    def check_seats(self, seats: Sequence[Seat]) -> None:
        """Rule-set specific checks on a finished table (hand sizes and the like)."""
        if not 2 <= len(seats) <= 4:
            raise CaseError(f"{self.name}: {len(seats)} players, the game is for 2 to 4")
        for seat in seats:
            if len(seat.hand) != 7:
                raise CaseError(f"{seat.name}: {len(seat.hand)} cards in hand, a standard game ends with 7")

    def score(self, seats: Sequence[Seat], species: Sequence[str]) -> TableScore:
        self.check_seats(seats)
        # one path finder per arboretum, asked for every species (it searches only what needs it)
        finders = [PathFinder(seat.arboretum) for seat in seats]
        per_player: list[dict[str, SpeciesScore]] = [{} for _ in seats]
        totals = [0] * len(seats)
        without_right = self.scores_without_right
        # the plain rule (the highest claims have the right) without a call per species
        plain_rights = type(self).rights is ScoringRules.rights
        species_score = self.species_score
        nothing = _NOTHING_SCORED
        for name, claims in zip(species, self.claims(seats, species), strict=True):
            if plain_rights:
                best = max(claims)
                rights = [claim == best for claim in claims]
            else:
                rights = self.rights(seats, name, claims)
            i = 0
            for right, claim, scores in zip(rights, claims, per_player, strict=True):
                if (right or without_right) and finders[i].counts.get(name, 0) >= 2:
                    score = species_score(seats[i], name, right, claim, finders[i])
                    totals[i] += score.points
                else:
                    # no right, or fewer than two cards: no path, nothing scored
                    score = nothing.get((name, right, claim)) or nothing_scored(name, right, claim)
                scores[name] = score
                i += 1
        players = []
        for seat, scores, finder, total in zip(seats, per_player, finders, totals, strict=True):
            bonus = self.bonus(seat)
            players.append(
                PlayerScore(
                    name=seat.name,
                    species=scores,
                    bonus=bonus,
                    total=total + bonus,
                    species_in_arboretum=finder.species_count,
                )
            )
        return TableScore(self.name, tuple(species), tuple(players), self.winners(players), self.ranks(players))


def nothing_scored(species: str, right: bool, claim: int) -> SpeciesScore:
    """The score of a species without a path (or without the right to score it): shared, since
    most of a table's species are like that and the record is frozen."""
    key = (species, right, claim)
    score = _NOTHING_SCORED.get(key)
    if score is None:
        score = SpeciesScore(species, right, claim, 0, None)
        if len(_NOTHING_SCORED) < 4096:  # species names come from the caller: keep the cache bounded
            _NOTHING_SCORED[key] = score
    return score


_NOTHING_SCORED: dict[tuple[str, bool, int], SpeciesScore] = {}


class Standard2018(ScoringRules):
    pass


class Standard2010(ScoringRules):
    name = "standard-2010"
    species_tiebreak = False


class DraftScoring(ScoringRules):
    """"Wonders of the Arboretum": rights from the arboretum, the flat 2, the 8 penalty, the bonus."""

    name = "draft"
    eight_bonus = EIGHT_BONUS_DRAFT
    scores_without_right = True

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds

    @property
    def picks(self) -> int:
        return 7 * self.rounds

    def claims(self, seats: Sequence[Seat], species: Sequence[str]) -> list[list[int]]:
        sums = []
        for seat in seats:
            by_species: dict[str, int] = {}
            for card in seat.arboretum.cards():
                by_species[card.species] = by_species.get(card.species, 0) + card.value
            sums.append(by_species)
        return [[seat_sums.get(name, 0) for seat_sums in sums] for name in species]

    def species_score(self, seat: Seat, species: str, right: bool, claim: int, finder: PathFinder) -> SpeciesScore:
        path = finder.best_path(species, self.eight_bonus)
        if path is None:
            return nothing_scored(species, right, claim)
        if right:
            return SpeciesScore(species, right, claim, max(0, path.points), path)
        return SpeciesScore(species, right, claim, 2, path, flat=True)

    def bonus(self, seat: Seat) -> int:
        return 3 if len(seat.arboretum) == self.picks else 0

    def check_seats(self, seats: Sequence[Seat]) -> None:
        if not 2 <= len(seats) <= 4:
            raise CaseError(f"draft: {len(seats)} players, the draft is for 2 to 4")
        for seat in seats:
            if seat.hand:
                raise CaseError(f"{seat.name}: {len(seat.hand)} cards in hand, a finished draft leaves no hand")
            if len(seat.arboretum) > self.picks:
                raise CaseError(
                    f"{seat.name}: {len(seat.arboretum)} cards planted, {self.rounds} rounds allow at most {self.picks}"
                )


class SoloScoring(ScoringRules):
    """"The Garden of Non-Forking Paths": the player (seat 0) against Q (seat 1)."""

    name = "solo"

    def claims(self, seats: Sequence[Seat], species: Sequence[str]) -> list[list[int]]:
        (mine, my_ones, _), (qs, _, q_eights) = (_hand_sums(seat.hand) for seat in seats)
        # the exception works one way only: the player's 1 cancels Q's 8, never the reverse
        return [
            [mine.get(name, 0), qs.get(name, 0) - (8 if name in q_eights and name in my_ones else 0)]
            for name in species
        ]

    def rights(self, seats: Sequence[Seat], species: str, claims: list[int]) -> list[bool]:
        rights = super().rights(seats, species, claims)
        # Q may score only a species with at least two cards in Q's arboretum
        q_cards = sum(1 for card in seats[1].arboretum.cards() if card.species == species)
        return [rights[0], rights[1] and q_cards >= 2]

    def winners(self, players: Sequence[PlayerScore]) -> tuple[int, ...]:
        player, q = players
        wins = player.species_scored >= q.species_scored and player.total > q.total
        return (0,) if wins else (1,)

    def ranks(self, players: Sequence[PlayerScore]) -> tuple[int, ...]:
        return (1, 2) if self.winners(players) == (0,) else (2, 1)

    def check_seats(self, seats: Sequence[Seat]) -> None:
        if len(seats) != 2:
            raise CaseError(f"solo: {len(seats)} players given, solo needs exactly two: the player, then Q")


RULE_SETS: dict[str, type[ScoringRules]] = {
    "standard-2018": Standard2018,
    "standard-2010": Standard2010,
    "draft": DraftScoring,
    "solo": SoloScoring,
}


def default_draft_rounds(players: int) -> int:
    return 2 if players == 4 else 3


def rules_for(name: str, players: int, rounds: int | None = None) -> ScoringRules:
    """The rule set called ``name`` for a table of ``players``."""
    if name not in RULE_SETS:
        raise CaseError(f"unknown rules {name!r}: expected one of {', '.join(RULE_SETS)}")
    if name == "draft":
        expected = default_draft_rounds(players)
        if rounds is None:
            rounds = expected
        if rounds != expected:
            raise CaseError(f"draft with {players} players plays {expected} rounds, not {rounds!r}")
        return DraftScoring(rounds)
    return RULE_SETS[name]()


def score_table(
    rules: str | ScoringRules, seats: Sequence[Seat], species: Sequence[str], rounds: int | None = None
) -> TableScore:
    """Score a finished table: every species in play for every seat, bonus, totals, winners."""
    rule_set = rules if isinstance(rules, ScoringRules) else rules_for(rules, len(seats), rounds)
    return rule_set.score(seats, species)
