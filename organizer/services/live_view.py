"""What a seat's screen shows, built only from the engine's ``state.view(seat)`` (so it can show
nothing that seat may not see): hands as cards, arboretums as grids with the legal cells, the
choices open now, and at the end the scores with their paths. Pure functions, no Flask."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine import Card, SeatView


def species_class(species: str) -> str:
    """The CSS class of a species colour (``static/organizer.css`` and ``static/live.css``)."""
    return "sp-" + species.lower().replace(" ", "-")


@dataclass(frozen=True)
class CardFace:
    text: str
    species: str
    value: int
    css: str

    @classmethod
    def of(cls, text: str) -> "CardFace":
        card = Card.parse(text)
        return cls(text, card.species, card.value, species_class(card.species))


@dataclass
class CellBox:
    x: int
    y: int
    card: CardFace | None = None
    legal: bool = False
    pending: bool = False
    in_path: bool = False
    fresh: bool = False


@dataclass
class Grid:
    seat: int
    name: str
    rows: list[list[CellBox]]
    cards: int
    is_target: bool = False


def grid(seat: int, name: str, cards: list[dict[str, Any]], legal: list[list[int]] | None = None,
         path_cells: set[tuple[int, int]] | None = None, pending: tuple[int, int] | None = None,
         fresh: tuple[int, int] | None = None) -> Grid:
    """An arboretum as rows of cells spanning its cards and the cells open to the next card."""
    placed = {(int(c["x"]), int(c["y"])): CardFace.of(f"{c['species']} {c['value']}") for c in cards}
    legal_set = {(int(x), int(y)) for x, y in (legal or [])}
    spots = set(placed) | legal_set | ({pending} if pending else set())
    if not spots:
        return Grid(seat, name, [], 0, bool(legal))
    xs = [x for x, _ in spots]
    ys = [y for _, y in spots]
    rows = []
    for y in range(min(ys), max(ys) + 1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            cell = (x, y)
            row.append(CellBox(x, y, placed.get(cell), cell in legal_set, cell == pending,
                               bool(path_cells and cell in path_cells), cell == fresh))
        rows.append(row)
    return Grid(seat, name, rows, len(placed), bool(legal))


@dataclass
class Source:
    label: str
    action: str
    top: CardFace | None = None


@dataclass
class Screen:
    """The seat screen's content; ``viewer`` None is a spectator or a replay."""

    view: dict[str, Any]
    viewer: int | None
    names: list[str]
    grids: list[Grid]
    hand: list[CardFace] = field(default_factory=list)
    #: verb of a card-and-cell action now open to the viewer ("pick", "play", "give"), or ""
    place_verb: str = ""
    draft_discard: bool = False
    sources: list[Source] = field(default_factory=list)
    discards: list[CardFace] = field(default_factory=list)
    awaited: list[str] = field(default_factory=list)
    my_turn: bool = False
    headline: str = ""
    pending: dict[str, Any] | None = None
    drawn: list[dict[str, Any]] = field(default_factory=list)
    piles: list[tuple[str, CardFace | None, int]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    path_species: str = ""
    hands_at_end: list[tuple[str, list[CardFace]]] = field(default_factory=list)
    reveal: list[str] = field(default_factory=list)


def _path_cells(outcome: dict[str, Any] | None, seat: int, species: str) -> set[tuple[int, int]]:
    if not outcome:
        return set()
    player = outcome["players"][seat]
    cells: set[tuple[int, int]] = set()
    for name, scored in player["species"].items():
        if (not species or name == species) and scored["points"] > 0:
            cells.update((int(c["x"]), int(c["y"])) for c in scored["path"])
    return cells


def build_screen(seat_view: SeatView, path_species: str = "", hands: list[list[str]] | None = None) -> Screen:
    """The screen for ``view`` (a seat's view, or the public view with ``hands`` revealed in a
    replay of a finished game)."""
    view = seat_view.to_json()
    viewer = view["viewer"]
    names: list[str] = list(view["names"])
    mode = view["mode"]
    phase = view.get("phase", "")
    outcome = view.get("outcome")
    awaiting: list[int] = list(view["awaiting"])
    if mode == "solo":
        awaiting = [s for s in awaiting if s == 0]
    screen = Screen(view, viewer, names, [], awaited=[names[s] for s in awaiting],
                    my_turn=viewer is not None and viewer in awaiting, outcome=outcome, path_species=path_species)
    if "hand" in view:
        screen.hand = [CardFace.of(text) for text in view["hand"]]
    legal = view.get("legal_cells") or []
    target = viewer
    pending_cell = None
    if mode == "draft":
        pending = view.get("pending")
        screen.pending = pending
        if pending and pending.get("cell") is not None:
            pending_cell = (int(pending["cell"][0]), int(pending["cell"][1]))
        if viewer is not None and not view["terminal"] and screen.hand:
            screen.place_verb = "pick"
            screen.draft_discard = True
        fresh_cells = {entry["seat"]: (int(entry["cell"][0]), int(entry["cell"][1]))
                       for entry in view.get("last_reveal", []) if "cell" in entry}
        for entry in view.get("last_reveal", []):
            who = names[entry["seat"]]
            screen.reveal.append(f"{who} discarded a card" if entry.get("discarded") else
                                 f"{who} planted {entry['card']} at {entry['cell'][0]},{entry['cell'][1]}")
        if view["terminal"]:
            screen.headline = "The draft is over."
        else:
            direction = "to the next player" if view["direction"] == "next" else "to the previous player"
            screen.headline = (f"Round {view['round']} of {view['rounds']} · pick {view['pick']} of "
                               f"{view['picks_per_round']} · hands pass {direction}")
    else:
        fresh_cells = {}
        if viewer is not None and screen.my_turn:
            if phase in ("draw1", "draw2"):
                screen.sources = _sources(view)
            elif phase == "play":
                screen.place_verb = "play"
            elif phase == "discard":
                screen.discards = list(screen.hand)
            elif phase == "give":
                screen.place_verb = "give"
                target = 1
        piles = view.get("discard_piles", [])
        if mode == "solo":
            top = piles[0][-1] if piles and piles[0] else None
            screen.piles = [("Discard pile", CardFace.of(top) if top else None, len(piles[0]) if piles else 0)]
        else:
            screen.piles = [("Your discard pile" if i == viewer else f"{names[i]}'s discard pile",
                             CardFace.of(p[-1]) if p else None, len(p)) for i, p in enumerate(piles)]
        screen.drawn = list(view.get("drawn_this_turn", []))
        if view["terminal"]:
            screen.headline = "The game is over."
        else:
            actor = int(view["turn"])
            mine = actor == viewer
            words = {"draw1": "draw a first card", "draw2": "draw a second card", "play": "play a card",
                     "discard": "discard a card", "give": "give Q a card"}.get(phase, phase)
            if not mine:
                first, _, rest = words.partition(" ")
                words = f"{first}s {rest}"
            who = "Your turn: you" if mine else names[actor]
            screen.headline = f"Turn {view['turn_number']} · {who} {words} · {view['draw_pile']} cards in the draw pile"
    for seat, cards in enumerate(view["arboretums"]):
        screen.grids.append(grid(
            seat, names[seat], cards,
            legal if (seat == target and screen.place_verb) else None,
            _path_cells(outcome, seat, path_species),
            pending_cell if seat == viewer else None,
            fresh_cells.get(seat)))
    if view["terminal"]:
        shown = hands if hands is not None else view.get("hands")
        if shown:
            screen.hands_at_end = [(names[i], [CardFace.of(t) for t in hand]) for i, hand in enumerate(shown)]
    return screen


def _sources(view: dict[str, Any]) -> list[Source]:
    out = []
    if view["draw_pile"] > 0:
        out.append(Source(f"Draw pile ({view['draw_pile']} cards)", "draw deck"))
    piles = view.get("discard_piles", [])
    if view["mode"] == "solo":
        if piles and piles[0]:
            out.append(Source("Discard pile", "draw discard", CardFace.of(piles[0][-1])))
        return out
    for seat, pile in enumerate(piles):
        if pile:
            owner = "your" if seat == view["viewer"] else f"{view['names'][seat]}'s"
            out.append(Source(f"Top of {owner} discard pile", f"draw discard {seat}", CardFace.of(pile[-1])))
    return out


_CELL = re.compile(r"-?\d{1,3},-?\d{1,3}")


def compose_action(form: dict[str, str]) -> str:
    """The action text a seat's form stands for: a whole action (``action``: draws, discards),
    or a verb, a card and a cell (``cell`` "x,y" or "discard" for a draft pick)."""
    if form.get("action"):
        return form["action"].strip()
    verb = form.get("verb", "").strip()
    card = form.get("card", "").strip()
    cell = form.get("cell", "").strip()
    if verb not in ("pick", "play", "give"):
        raise ValueError("This form is incomplete; reload the page and choose again.")
    if not card:
        raise ValueError("Choose a card of your hand first, then tap a highlighted cell"
                         + (" or Discard." if verb == "pick" else "."))
    if not cell:
        raise ValueError("Tap a highlighted cell" + (" or Discard." if verb == "pick" else "."))
    if cell != "discard" and not _CELL.fullmatch(cell):
        raise ValueError(f"There is no cell {cell!r}; tap a highlighted cell.")
    if cell == "discard":
        if verb != "pick":
            raise ValueError("Only a draft pick can be discarded this way.")
        return f"pick {card} discard"
    return f"{verb} {card} at {cell}"
