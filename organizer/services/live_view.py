"""What a seat's screen shows, built only from the engine's typed ``state.view(seat)`` (a
:class:`engine.SeatView`, so it can show nothing that seat may not see): hands as cards,
arboretums as grids with the legal cells, the choices open now, and at the end the scores with
their paths. Pure functions, no Flask."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine import Card, SeatView, TableScore
from engine.views import DraftView, Phase, Planted, TurnView, outcome_json


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
    def of(cls, text: str) -> CardFace:
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


Cell = tuple[int, int]


def face(card: Card) -> CardFace:
    return CardFace(str(card), card.species, card.value, species_class(card.species))


def grid(seat: int, name: str, cards: tuple[Planted, ...], legal: tuple[Cell, ...] | None = None,
         path_cells: set[Cell] | None = None, pending: Cell | None = None, fresh: Cell | None = None) -> Grid:
    """An arboretum as rows of cells spanning its cards and the cells open to the next card."""
    placed = {p.cell: face(p.card) for p in cards}
    legal_set = set(legal or ())
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

    view: SeatView
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
    #: the viewer's own hidden draft pick: {"card", "cell", "text"}
    pending: dict[str, Any] | None = None
    #: cards drawn this turn: {"source", "card"} (the card only for the seat that drew it)
    drawn: list[dict[str, Any]] = field(default_factory=list)
    piles: list[tuple[str, CardFace | None, int]] = field(default_factory=list)
    #: the scored table as JSON (``engine.views.outcome_json``)
    outcome: dict[str, Any] | None = None
    path_species: str = ""
    hands_at_end: list[tuple[str, list[CardFace]]] = field(default_factory=list)
    reveal: list[str] = field(default_factory=list)
    #: solo, Q placing by its rule: the cards the viewer may give Q (Q chooses the cell)
    gifts: list[CardFace] = field(default_factory=list)
    #: solo, Q placing by its rule: where Q put the last card and why ("Q put Oak 3 at 1,0: ...")
    q_note: str = ""


def _path_cells(outcome: TableScore | None, seat: int, species: str) -> set[Cell]:
    if outcome is None:
        return set()
    cells: set[Cell] = set()
    for name, scored in outcome.players[seat].species.items():
        if (not species or name == species) and scored.points > 0 and scored.path is not None:
            cells.update(scored.path.cells)
    return cells


_PHASE_WORDS = {Phase.DRAW1: "draw a first card", Phase.DRAW2: "draw a second card", Phase.PLAY: "play a card",
                Phase.DISCARD: "discard a card", Phase.GIVE: "give Q a card"}


def build_screen(view: SeatView, path_species: str = "") -> Screen:
    """The screen for ``view``: a seat's view, or a spectator's (a replay adds the hands)."""
    viewer = view.viewer
    names = list(view.names)
    awaiting = list(view.awaiting)
    if view.mode == "solo":
        awaiting = [s for s in awaiting if s == 0]
    outcome = view.outcome
    screen = Screen(view, viewer, names, [], awaited=[names[s] for s in awaiting],
                    my_turn=viewer is not None and viewer in awaiting,
                    outcome=None if outcome is None else outcome_json(outcome), path_species=path_species)
    if view.hand is not None:
        screen.hand = [face(card) for card in view.hand]
    target = viewer
    pending_cell: Cell | None = None
    fresh_cells: dict[int, Cell] = {}
    if view.draft is not None:
        _draft_screen(screen, view, view.draft)
        pending = view.draft.pending
        pending_cell = pending.cell if pending is not None else None
        fresh_cells = {r.seat: r.cell for r in view.draft.last_reveal if r.cell is not None}
    elif view.turns is not None:
        if _turn_screen(screen, view, view.turns):
            target = 1  # solo: the card goes into Q's arboretum
    for info in view.seats:
        screen.grids.append(grid(
            info.seat, info.name, info.arboretum,
            view.legal_cells if (info.seat == target and screen.place_verb) else None,
            _path_cells(outcome, info.seat, path_species),
            pending_cell if info.seat == viewer else None,
            fresh_cells.get(info.seat)))
    if view.hands_at_end is not None:
        screen.hands_at_end = [(names[i], [face(c) for c in hand]) for i, hand in enumerate(view.hands_at_end)]
    return screen


def _draft_screen(screen: Screen, view: SeatView, draft: DraftView) -> None:
    pending = draft.pending
    if pending is not None:
        screen.pending = {"card": str(pending.card), "cell": None if pending.cell is None else list(pending.cell),
                          "text": str(pending)}
    if view.viewer is not None and not view.terminal and screen.hand:
        screen.place_verb = "pick"
        screen.draft_discard = True
    for reveal in draft.last_reveal:
        who = screen.names[reveal.seat]
        screen.reveal.append(f"{who} discarded a card" if reveal.cell is None else
                             f"{who} planted {reveal.card} at {reveal.cell[0]},{reveal.cell[1]}")
    if view.terminal:
        screen.headline = "The draft is over."
    else:
        direction = "to the next player" if draft.direction == "next" else "to the previous player"
        screen.headline = (f"Round {draft.round} of {draft.rounds} · pick {draft.pick} of "
                           f"{draft.picks_per_round} · hands pass {direction}")


def _turn_screen(screen: Screen, view: SeatView, turns: TurnView) -> bool:
    """Fill in a standard or solo turn; True when the card to place goes into Q's arboretum."""
    viewer, names, phase = view.viewer, screen.names, view.phase
    into_q = False
    if viewer is not None and screen.my_turn:
        if phase is Phase.DRAW1 or phase is Phase.DRAW2:
            screen.sources = _sources(view, turns)
        elif phase is Phase.PLAY:
            screen.place_verb = "play"
        elif phase is Phase.DISCARD:
            screen.discards = list(screen.hand)
        elif phase is Phase.GIVE and not view.legal_cells:
            screen.gifts = list(screen.hand)  # Q places the card by its rule: no cell to choose
        elif phase is Phase.GIVE:
            screen.place_verb = "give"
            into_q = True
    screen.q_note = turns.q_note or ""
    if view.mode == "solo":
        pile = turns.piles[0] if turns.piles else None
        top = pile.top if pile else None
        screen.piles = [("Discard pile", face(top) if top else None, len(pile.cards) if pile else 0)]
    else:
        screen.piles = [("Your discard pile" if i == viewer else f"{names[i]}'s discard pile",
                         face(p.top) if p.top else None, len(p.cards)) for i, p in enumerate(turns.piles)]
    screen.drawn = [{"source": d.source_text, "card": None if d.card is None else str(d.card)} for d in turns.drawn]
    if view.terminal or turns.actor is None:
        screen.headline = "The game is over."
    else:
        actor = turns.actor
        mine = actor == viewer
        words = _PHASE_WORDS.get(phase, str(phase))
        if not mine:
            first, _, rest = words.partition(" ")
            words = f"{first}s {rest}"
        who = "Your turn: you" if mine else names[actor]
        screen.headline = f"Turn {turns.turn} · {who} {words} · {turns.draw_pile} cards in the draw pile"
    return into_q


def _sources(view: SeatView, turns: TurnView) -> list[Source]:
    out = []
    if turns.draw_pile > 0:
        out.append(Source(f"Draw pile ({turns.draw_pile} cards)", "draw deck"))
    if view.mode == "solo":
        top = turns.piles[0].top if turns.piles else None
        if top is not None:
            out.append(Source("Discard pile", "draw discard", face(top)))
        return out
    for seat, pile in enumerate(turns.piles):
        if pile.top is not None:
            owner = "your" if seat == view.viewer else f"{view.names[seat]}'s"
            out.append(Source(f"Top of {owner} discard pile", f"draw discard {seat}", face(pile.top)))
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
