"""The score case: one finished table as JSON (``shared/formats/score-case.md``).

Reading a case checks everything RULES.md §5 calls bad input and names what is wrong and where."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from .arboretum import Arboretum, Cell
from .cards import VALUES, Card, Edition, edition_species, editions_of
from .errors import ArboretumError, CardError, CaseError, DuplicateCardError
from .scoring import RULE_SETS, Seat, TableScore, rules_for


@dataclass(frozen=True)
class ScoreCase:
    rules: str
    species: tuple[str, ...]
    seats: tuple[Seat, ...]
    rounds: int | None = None

    def score(self) -> TableScore:
        return rules_for(self.rules, len(self.seats), self.rounds).score(self.seats, self.species)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rules": self.rules, "species": list(self.species)}
        if self.rounds is not None:
            out["rounds"] = self.rounds
        out["players"] = [
            {"name": seat.name, "arboretum": seat.arboretum.to_json(), "hand": [str(c) for c in seat.hand]}
            for seat in self.seats
        ]
        return out


def parse_case_text(text: str) -> ScoreCase:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CaseError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        # json gives up on thousands of nested brackets with Python's own error, not a decode error.
        raise CaseError("not valid JSON for a score case: nested too deeply") from None
    return parse_case(data)


def parse_case(data: Any) -> ScoreCase:
    """Read and check a score case; raises a :class:`~engine.errors.ArboretumError` naming the fault."""
    if not isinstance(data, dict):
        raise CaseError("a score case must be a JSON object")
    unknown = set(data) - {"rules", "species", "rounds", "players"}
    if unknown:
        raise CaseError(f"unknown key(s) {', '.join(sorted(unknown))}: expected rules, species, rounds, players")
    rules = data.get("rules")
    if not isinstance(rules, str) or rules not in RULE_SETS:
        raise CaseError(f"rules {rules!r}: expected one of {', '.join(RULE_SETS)}")
    rounds = data.get("rounds")
    if rounds is not None:
        if rules != "draft":
            raise CaseError(f"rounds is for the draft only, not {rules}")
        if not isinstance(rounds, int) or isinstance(rounds, bool):
            raise CaseError(f"rounds {rounds!r}: expected 3, or 2 for the four-player draft")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise CaseError("players: expected a non-empty list of players in seat order")

    raw_seats = [_read_player(entry, i) for i, entry in enumerate(players)]
    names = [name for name, _, _ in raw_seats]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise CaseError(f"player {i + 1}: the name {name!r} is used twice at this table")

    listed = data.get("species")
    if listed is None:
        appearing = [card.species for _, arb, hand in raw_seats for card in [c for _, c in arb] + hand]
        species = _species_in_play(rules, None, appearing)
    else:
        species = _species_in_play(rules, listed, ())
    allowed = set(species)

    # every card of a species in play and none twice: checked at once, and card by card only to
    # name the fault (in the order a reader meets it: seat by seat, arboretum, hand, then shape)
    every_card = [card for _, arb_cards, hand in raw_seats for card in [c for _, c in arb_cards] + hand]
    if len({(card.species, card.value) for card in every_card}) == len(every_card) and (
        {card.species for card in every_card} <= allowed
    ):
        seats = [
            Seat(name, Arboretum.from_cells(arb_cards, owner=f"{name}'s arboretum"), tuple(hand))
            for name, arb_cards, hand in raw_seats
        ]
    else:
        seats = _seats_card_by_card(raw_seats, species)

    case = ScoreCase(rules, species, tuple(seats), rounds)
    # the rule set's own checks (player count, hand sizes, draft rounds) before anyone relies on it
    rules_for(rules, len(seats), rounds).check_seats(case.seats)
    return case


def _seats_card_by_card(
    raw_seats: list[tuple[str, list[tuple[Cell, Card]], list[Card]]], species: tuple[str, ...]
) -> list[Seat]:
    allowed = set(species)
    seen: dict[Card, str] = {}
    seats = []
    for name, arb_cards, hand in raw_seats:
        for where, card in [(f"{name}'s arboretum", c) for _, c in arb_cards] + [(f"{name}'s hand", c) for c in hand]:
            if card.species not in allowed:
                raise CardError(f"{where}: {card} is not of a species in play ({', '.join(species)})")
            if card in seen:
                raise DuplicateCardError(f"{card} appears twice: in {seen[card]} and in {where}")
            seen[card] = where
        seats.append(Seat(name, Arboretum.from_cells(arb_cards, owner=f"{name}'s arboretum"), tuple(hand)))
    return seats


def _read_player(entry: Any, index: int) -> tuple[str, list[tuple[Cell, Card]], list[Card]]:
    where = f"player {index + 1}"
    if not isinstance(entry, dict):
        raise CaseError(f"{where}: expected an object with name, arboretum and hand")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CaseError(f"{where}: expected a non-empty name")
    where = f"{where} ({name})"
    unknown = set(entry) - {"name", "arboretum", "hand"}
    if unknown:
        raise CaseError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    arboretum = entry.get("arboretum", [])
    hand = entry.get("hand", [])
    if arboretum is None:
        arboretum = []
    if hand is None:
        hand = []
    if not isinstance(arboretum, list):
        raise CaseError(f"{where}: arboretum must be a list of cards with x and y")
    if not isinstance(hand, list):
        raise CaseError(f"{where}: hand must be a list of cards")
    # The usual card is read with one look-up in the table of every card there is; anything
    # else (text with extra spaces, a "card" key, a fault) goes the long way, which names faults.
    known, known_texts, planted = _KNOWN_CARDS, _KNOWN_TEXTS, _PLANTED
    cells: list[tuple[Cell, Card]] = []
    for k, item in enumerate(arboretum):
        if type(item) is dict and "card" not in item:
            try:
                x, y, species, value = planted(item)
            except KeyError:
                pass
            else:
                # exact ints: JSON's true and 1.0 equal 1 and would find the card of value 1
                if (type(x), type(y), type(value)) == _INTS:
                    card = known.get((species, value)) if type(species) is str else None
                    if card is not None:
                        cells.append(((x, y), card))
                        continue
        cells.append(_read_planted(item, f"{where}, arboretum card {k + 1}"))
    cards: list[Card] = []
    for k, item in enumerate(hand):
        card = known_texts.get(item) if type(item) is str else None
        cards.append(card if card is not None else _read_card(item, f"{where}, hand card {k + 1}"))
    return name, cells, cards


#: Every card of both editions by (species, value) and by its text, so that reading a card of a
#: case is one look-up; cards are frozen, so every case shares these.
_KNOWN_CARDS: dict[tuple[str, int], Card] = {
    (species, value): Card(species, value) for edition in Edition for species in edition_species(edition) for value in VALUES
}
_KNOWN_TEXTS: dict[str, Card] = {str(card): card for card in _KNOWN_CARDS.values()}
_PLANTED = itemgetter("x", "y", "species", "value")
_INTS = (int, int, int)


def _read_card(item: Any, where: str) -> Card:
    try:
        if isinstance(item, str):
            return Card.parse(item)
        if isinstance(item, dict):
            species, value = item.get("species"), item.get("value")
            if not isinstance(species, str):
                raise CaseError(f"{where}: species must be a name, got {species!r}")
            if not isinstance(value, int) or isinstance(value, bool):
                raise CaseError(f"{where}: value must be a whole number 1..8, got {value!r}")
            return Card(species, value)
    except ArboretumError as exc:
        if str(exc).startswith(where):
            raise
        raise type(exc)(f"{where}: {exc}") from None
    raise CaseError(f"{where}: expected {{\"species\": ..., \"value\": ...}} or text like \"Oak 3\", got {item!r}")


def _read_planted(item: Any, where: str) -> tuple[Cell, Card]:
    if not isinstance(item, dict):
        raise CaseError(f"{where}: expected an object with x, y, species and value")
    x, y = item.get("x"), item.get("y")
    for axis, coordinate in (("x", x), ("y", y)):
        if not isinstance(coordinate, int) or isinstance(coordinate, bool):
            raise CaseError(f"{where}: {axis} must be a whole number, got {coordinate!r}")
    assert isinstance(x, int) and isinstance(y, int)  # narrowed above, for the type checker
    if "card" in item:
        card = _read_card(item["card"], where)
    else:
        card = _read_card({"species": item.get("species"), "value": item.get("value")}, where)
    return (x, y), card


def _species_in_play(rules: str, listed: Any, appearing: Iterable[str]) -> tuple[str, ...]:
    edition = {"standard-2018": Edition.E2018, "standard-2010": Edition.E2010}.get(rules)
    if listed is not None:
        if not isinstance(listed, list) or not all(isinstance(s, str) for s in listed):
            raise CaseError("species: expected a list of species names")
        if len(set(listed)) != len(listed):
            raise CaseError("species: a species is listed twice")
        names: Sequence[str] = listed
    else:
        names = list(dict.fromkeys(appearing))
    candidates = [edition] if edition else list(Edition)
    for name in names:
        if not any(name in edition_species(e) for e in candidates):
            known = ", ".join(edition_species(edition)) if edition else "the 2018 or 2010 species"
            raise CardError(f"species {name!r} is not a species of {rules} ({known})")
    fitting = [e for e in editions_of(names) if e in candidates]
    if not fitting:
        raise CaseError(f"species {', '.join(names)}: they do not all belong to one edition")
    if listed is not None:
        return tuple(listed)
    order = edition_species(fitting[0])
    return tuple(sorted(names, key=order.index))
