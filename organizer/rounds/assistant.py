"""The scoring assistant: a table's final arboretums and hands (typed per seat, or a score-case
file) are checked and scored by the engine; the case and the engine's output are stored."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine import ArboretumError, limits
from engine.cards import SPECIES_CODES
from engine.case import parse_case
from organizer.core.errors import InputError
from organizer.core.models import EntryMode, Event
from organizer.core.translate import _, engine_error, species_from_text, species_name
from organizer.core.uploads import read_json
from organizer.rounds.service import TableSeating
from organizer.rounds.submission import SeatEntry, Submission
from organizer.scoring.rules import rules_name

# x,y Species value; the species in any language or as its code ("0,1 Eiche 3", "0,1 Ok 3")
_PLANTED = re.compile(r"^\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s+([^\W\d_](?:[^\W\d_]|[ .'-])*?)\s+(\d+)\s*$")
_HELD = re.compile(r"^(.*?\S)\s+(\d+)$")
MAX_CASE_BYTES = 200_000


def rules_for_round(event: Event, round_format: str) -> str:
    return rules_name(event.edition, round_format)


def _seat_name(view: TableSeating, index: int) -> str:
    player = view.seats[index].player
    return player.name if player else _("Seat %(number)d", number=index + 1)


def case_from_form(view: TableSeating, rules: str, form: Mapping[str, str]) -> dict[str, Any]:
    """Build a score case from the per-seat fields ``arboretum_<seat id>`` (one card a line:
    ``x,y Species value``) and ``hand_<seat id>`` (``Species value`` separated by commas)."""
    errors: dict[str, str] = {}
    players = []
    example = view.table.species[0] if view.table.species else "Oak"  # a species this table plays
    allowed = list(view.table.species) or list(SPECIES_CODES)
    for index, seat_view in enumerate(view.seats):
        name = _seat_name(view, index)
        arb_key, hand_key = f"arboretum_{seat_view.seat.id}", f"hand_{seat_view.seat.id}"
        planted = []
        for number, line in enumerate(form.get(arb_key, "").splitlines(), start=1):
            if not line.strip():
                continue
            match = _PLANTED.match(line)
            if not match:
                errors[arb_key] = _("Line %(number)d ('%(line)s'): write a card as x,y Species value, like 0,0 %(species)s 3.",
                                    number=number, line=line.strip(), species=species_name(example))
                break
            x, y, species, value = match.groups()
            planted.append({"x": int(x), "y": int(y), "species": species_from_text(species, allowed), "value": int(value)})
        hand = [_held_card(part, allowed) for part in re.split(r"[,\n;]", form.get(hand_key, "")) if part.strip()]
        players.append({"name": name, "arboretum": planted, "hand": [] if rules == "draft" else hand})
    if errors:
        raise InputError(errors)
    case: dict[str, Any] = {"rules": rules, "players": players}
    if view.table.species:
        case["species"] = list(view.table.species)
    return case


def _held_card(text: str, allowed: list[str]) -> str:
    """A hand's card as the engine writes it ("Oak 3"), from "Eiche 3" or "Ok 3"."""
    match = _HELD.match(" ".join(text.split()))
    return f"{species_from_text(match[1], allowed)} {match[2]}" if match else " ".join(text.split())


def case_from_upload(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_CASE_BYTES:
        raise InputError({"case_file": _("That file is too large for a score case.")})
    data = read_json(raw, "case_file", _("a score case"))
    if not isinstance(data, dict):
        raise InputError({"case_file": _("Not a score case: expected a JSON object with rules and players.")})
    return data


def _check_planted(view: TableSeating, rules: str, planted: list[int], field: str) -> None:
    """Refuse arboretums whose sizes no finished game leaves (:func:`engine.limits.planted_spread`):
    the player furthest from the others is named."""
    spread = limits.planted_spread(rules)
    if spread is None or not planted or max(planted) - min(planted) <= spread:
        return
    middle = sorted(planted)[len(planted) // 2]
    odd = max(range(len(planted)), key=lambda index: abs(planted[index] - middle))
    others = planted[:odd] + planted[odd + 1:]
    key = field or f"arboretum_{view.seats[odd].seat.id}"
    raise InputError({key: _("%(name)s planted %(cards)d cards, the other players %(low)d to %(high)d: in a finished "
                             "game every player plants one card a turn, so the counts differ by at most %(spread)d.",
                             name=_seat_name(view, odd), cards=planted[odd], low=min(others), high=max(others),
                             spread=spread)})


def score_submission(view: TableSeating, rules: str, case: dict[str, Any], field: str = "") -> Submission:
    """Check the case with the engine, put its players in seat order and score it."""
    if case.get("rules") != rules:
        raise InputError({field: _("This table plays %(rules)s; the case says '%(case)s'.", rules=rules,
                                   case=case.get("rules"))})
    seated = {(_seat_name(view, i)).casefold(): i for i in range(len(view.seats))}
    players = case.get("players")
    if not isinstance(players, list) or len(players) != len(view.seats):
        raise InputError({field: _("The case must list the %(count)d players of this table.", count=len(view.seats))})
    order: dict[int, Any] = {}
    for entry in players:
        name = entry.get("name") if isinstance(entry, dict) else None
        index = seated.get(str(name).casefold()) if isinstance(name, str) else None
        if index is None or index in order:
            names = ", ".join(_seat_name(view, i) for i in range(len(view.seats)))
            raise InputError({field: _("'%(name)s' is not a player of this table (%(names)s).", name=name, names=names)})
        order[index] = entry
    ordered = {**case, "players": [order[i] for i in range(len(view.seats))]}
    try:
        parsed = parse_case(ordered)
        score = parsed.score()
    except ArboretumError as bad:
        raise InputError({field: _("The engine refuses this table: %(reason)s", reason=engine_error(bad))}) from None
    _check_planted(view, rules, [len(seat.arboretum) for seat in parsed.seats], field)
    seats = []
    for seat_view, player_score in zip(view.seats, score.players, strict=True):
        assert seat_view.seat.player_id is not None
        seats.append(SeatEntry(seat_view.seat.player_id, player_score.total, player_score.species_in_arboretum))
    return Submission(EntryMode.ASSISTANT, seats, score_case=parsed.to_json(), score_output=score.to_json())
