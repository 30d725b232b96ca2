"""What a seat's screen shows, built only from the engine's typed ``state.view(seat)`` (a
:class:`engine.SeatView`, so it can show nothing that seat may not see): hands as cards,
arboretums as grids with the legal cells, the choices open now, and at the end the scores with
their paths. Pure functions, no Flask."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine import Arboretum, Card, SeatView, TableScore
from engine.placement import describe_placement
from engine.views import DraftView, Phase, Planted, PublicMove, QPlacement, QReason, TurnView, outcome_json
from organizer.core.translate import N_, _, ngettext, species_name


def species_class(species: str) -> str:
    """The CSS class of a species colour (``static/core/organizer.css`` and ``static/live/live.css``)."""
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
    xs = [cell[0] for cell in spots]
    ys = [cell[1] for cell in spots]
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


@dataclass(frozen=True)
class MoveLine:
    """One line of the "what just happened" log. ``kind`` picks the sentence the template says
    (one translatable sentence per kind, for "you" and for another player):

    - ``draw_deck``, ``draw_pile`` (``owner``: whose discard pile, "" for the solo pile),
      ``draw_own_pile``, ``draw_solo_pile``: a draw; ``card`` only for the viewer's own draws this turn;
    - ``play``, ``discard``, ``give``: a card planted, discarded face up, given to Q;
    - ``planted``, ``discarded_hidden``: a draft pick at its reveal;
    - ``chose``: a draft pick still hidden."""

    kind: str
    mine: bool
    name: str
    card: CardFace | None = None
    owner: str = ""


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
    pending_face: CardFace | None = None
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
    #: solo, Q placing by its rule: where Q put the last card and why, in the reader's words
    #: ("Q planted Oak 3 (★) next to Oak 4, raising Q's Oak path to 3 cards (5 points).")
    q_note: str = ""
    #: solo, Q placing by its rule: the cell of the card Q placed last (marked ★ in Q's arboretum)
    q_cell: Cell | None = None
    #: what the current step asks of the viewer, in one translated sentence ("" when nothing)
    step: str = ""
    #: the last few moves, oldest first (see :func:`recent_moves`)
    moves: list[MoveLine] = field(default_factory=list)


def _path_cells(outcome: TableScore | None, seat: int, species: str) -> set[Cell]:
    if outcome is None:
        return set()
    cells: set[Cell] = set()
    for name, scored in outcome.players[seat].species.items():
        if (not species or name == species) and scored.points > 0 and scored.path is not None:
            cells.update(scored.path.cells)
    return cells


#: what a step asks of the seat whose turn it is, and what the others read meanwhile
_MY_STEP = {
    Phase.DRAW1: N_("Draw your first card: from the draw pile or the top of a discard pile."),
    Phase.DRAW2: N_("Draw your second card: from the draw pile or the top of a discard pile."),
    Phase.PLAY: N_("Play a card into your arboretum: choose it in your hand, then tap a highlighted cell."),
    Phase.DISCARD: N_("Discard a card from your hand onto your discard pile."),
    Phase.GIVE: N_("Give Q a card from your hand."),
}
#: solo: one discard pile, and the turn ends by giving Q a card
_MY_SOLO_STEP = {
    Phase.DRAW1: N_("Draw your first card: from the draw pile or the top of the discard pile."),
    Phase.DRAW2: N_("Draw your second card: from the draw pile or the top of the discard pile."),
}
_THEIR_STEP = {
    Phase.DRAW1: N_("%(name)s draws a first card."),
    Phase.DRAW2: N_("%(name)s draws a second card."),
    Phase.PLAY: N_("%(name)s plays a card."),
    Phase.DISCARD: N_("%(name)s discards a card."),
    Phase.GIVE: N_("%(name)s gives Q a card."),
}


def build_screen(view: SeatView, path_species: str = "", may_act: bool = True) -> Screen:
    """The screen for ``view``: a seat's view, or a spectator's (a replay adds the hands).
    Without ``may_act`` (a bot plays the seat) it shows the seat's cards but offers no move."""
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
        if screen.q_cell is not None:
            fresh_cells = {1: screen.q_cell}
    if not may_act:
        screen.place_verb, screen.draft_discard, screen.step, screen.my_turn = "", False, "", False
        screen.sources, screen.discards, screen.gifts = [], [], []
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
        screen.pending_face = face(pending.card)
    if view.viewer is not None and not view.terminal and screen.hand:
        screen.place_verb = "pick"
        screen.draft_discard = True
    for reveal in draft.last_reveal:
        mine = reveal.seat == view.viewer
        who = screen.names[reveal.seat]
        if reveal.cell is None or reveal.card is None:
            screen.reveal.append(_("You discarded a card.") if mine else _("%(name)s discarded a card.", name=who))
            screen.moves.append(MoveLine("discarded_hidden", mine, who))
        else:
            card = f"{species_name(reveal.card.species)} {reveal.card.value}"
            screen.reveal.append(_("You planted %(card)s.", card=card) if mine
                                 else _("%(name)s planted %(card)s.", name=who, card=card))
            screen.moves.append(MoveLine("planted", mine, who, face(reveal.card)))
    if view.terminal:
        screen.headline = _("The draft is over.")
    else:
        values = {"round": draft.round, "rounds": draft.rounds, "pick": draft.pick, "picks": draft.picks_per_round}
        if draft.direction == "next":
            screen.headline = _("Round %(round)d of %(rounds)d · pick %(pick)d of %(picks)d · "
                                "hands pass to the next player", **values)
        else:
            screen.headline = _("Round %(round)d of %(rounds)d · pick %(pick)d of %(picks)d · "
                                "hands pass to the previous player", **values)
        if screen.place_verb and pending is None:
            screen.step = (_("Pick a card to keep: plant it or discard it; the rest of the hand passes to the next "
                             "player.") if draft.direction == "next" else
                           _("Pick a card to keep: plant it or discard it; the rest of the hand passes to the "
                             "previous player."))


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
    if turns.q_placement is not None and len(view.seats) > 1:
        q_cards = view.seats[1].arboretum
        if any(p.cell == turns.q_placement.cell for p in q_cards):
            screen.q_note = q_placement_words(turns.q_placement, Arboretum.from_cells((p.cell, p.card) for p in q_cards))
            screen.q_cell = turns.q_placement.cell
    if view.mode == "solo":
        pile = turns.piles[0] if turns.piles else None
        top = pile.top if pile else None
        screen.piles = [(_("Discard pile"), face(top) if top else None, len(pile.cards) if pile else 0)]
    else:
        screen.piles = [(_("Your discard pile") if i == viewer else _("Discard pile of %(name)s", name=names[i]),
                         face(p.top) if p.top else None, len(p.cards)) for i, p in enumerate(turns.piles)]
    screen.drawn = [{"source": _source_words(view, d.source), "card": None if d.card is None else face(d.card)}
                    for d in turns.drawn]
    if view.terminal or turns.actor is None:
        screen.headline = _("The game is over.")
    else:
        actor = turns.actor
        screen.headline = ngettext("Turn %(turn)d · %(num)d card in the draw pile",
                                   "Turn %(turn)d · %(num)d cards in the draw pile", turns.draw_pile, turn=turns.turn)
        if actor == viewer and view.mode == "solo" and phase in _MY_SOLO_STEP:
            screen.step = _(_MY_SOLO_STEP[phase])
        elif actor == viewer and phase in _MY_STEP:
            screen.step = _(_MY_STEP[phase])
        elif phase in _THEIR_STEP:
            screen.step = _(_THEIR_STEP[phase], name=names[actor])
    return into_q


def q_placement_words(placement: QPlacement, q_arboretum: Arboretum) -> str:
    """Where Q put a card by its rule and why, in a sentence of the reader's language: by the
    cards it lies next to and the paths it raises (the screen shows no coordinates; the card is
    marked ★ in Q's arboretum)."""
    card = f"{species_name(placement.card.species)} {placement.card.value}"
    if placement.reason is QReason.FIRST:
        return _("Q planted %(card)s (★): Q's first card.", card=card)
    placed = describe_placement(q_arboretum, placement.cell, [species for species, _points in placement.raised])
    beside = ", ".join(f"{species_name(c.species)} {c.value}" for c in placed.neighbours)
    if placement.reason is QReason.NO_GAIN:
        return _("Q planted %(card)s (★) next to %(cards)s: no spot raises Q's paths, so Q took the first free "
                 "spot (top row first, then from the left).", card=card, cards=beside)
    raised = [_("%(species)s path to %(num)d cards (%(points)d points)", species=species_name(path.species),
                num=path.cards, points=path.points) for path in placed.paths]
    if not raised:  # a path the rule counts that the finder ties with another: say the points
        raised = [_("%(species)s path to %(points)d points", species=species_name(species), points=points)
                  for species, points in placement.raised]
    return _("Q planted %(card)s (★) next to %(cards)s, raising Q's %(paths)s.", card=card, cards=beside,
             paths=", ".join(raised))


def _source_words(view: SeatView, source: int | str) -> str:
    if source == "deck":
        return _("the draw pile")
    if type(source) is int and source != view.viewer:
        return _("the discard pile of %(name)s", name=view.names[source])
    if type(source) is int:
        return _("your discard pile")
    return _("the discard pile")


def recent_moves(moves: list[PublicMove], view: SeatView) -> list[MoveLine]:
    """The engine's public record of the last moves (``state.last_moves(n)``) as lines the
    viewer reads: names, not seat numbers; a draw says where from, and which card when it came
    from a discard pile (everyone saw it there) or when the viewer drew it from the deck this
    turn (only the drawer knows that one)."""
    viewer = view.viewer
    own_draws: list[Card | None] = []
    if view.turns is not None and view.turns.actor == viewer:
        own_draws = [d.card for d in view.turns.drawn]
    # the viewer's draws of the turn in progress are the last len(own_draws) draw moves
    draw_indexes = [m.index for m in moves if m.kind == "draw" and m.seat == viewer]
    drawn_card = dict(zip(draw_indexes[len(draw_indexes) - len(own_draws):] if own_draws else [], own_draws,
                          strict=False))
    lines = []
    for move in moves:
        mine = move.seat == viewer
        card = face(move.card) if move.card is not None else None
        if move.kind == "draw":
            known = move.card if move.card is not None else drawn_card.get(move.index)
            card = face(known) if known is not None else None
            if move.source == "deck":
                lines.append(MoveLine("draw_deck", mine, move.name, card))
            elif type(move.source) is int and move.source == move.seat:
                lines.append(MoveLine("draw_own_pile", mine, move.name, card))
            elif type(move.source) is int:
                owner = "" if move.source == viewer else view.names[move.source]
                lines.append(MoveLine("draw_pile", mine, move.name, card, owner))
            else:
                lines.append(MoveLine("draw_solo_pile", mine, move.name, card))
        elif move.kind == "pick":
            lines.append(MoveLine("planted" if card is not None else "chose", mine, move.name, card))
        elif move.kind in ("play", "discard", "give") and card is not None:
            lines.append(MoveLine(move.kind, mine, move.name, card))
    return lines


def _sources(view: SeatView, turns: TurnView) -> list[Source]:
    out = []
    if turns.draw_pile > 0:
        out.append(Source(ngettext("Draw pile (%(num)d card)", "Draw pile (%(num)d cards)", turns.draw_pile),
                          "draw deck"))
    if view.mode == "solo":
        top = turns.piles[0].top if turns.piles else None
        if top is not None:
            out.append(Source(_("Discard pile"), "draw discard", face(top)))
        return out
    for seat, pile in enumerate(turns.piles):
        if pile.top is not None:
            label = (_("Top of your discard pile") if seat == view.viewer
                     else _("Top of the discard pile of %(name)s", name=view.names[seat]))
            out.append(Source(label, f"draw discard {seat}", face(pile.top)))
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
        raise ValueError(_("This form is incomplete; reload the page and choose again."))
    if not card:
        raise ValueError(_("Choose a card of your hand first, then tap a highlighted cell or Discard.") if verb == "pick"
                         else _("Choose a card of your hand first, then tap a highlighted cell."))
    if not cell:
        raise ValueError(_("Tap a highlighted cell or Discard.") if verb == "pick" else _("Tap a highlighted cell."))
    if cell != "discard" and not _CELL.fullmatch(cell):
        raise ValueError(_("There is no cell %(cell)s; tap a highlighted cell.", cell=repr(cell)))
    if cell == "discard":
        if verb != "pick":
            raise ValueError(_("Only a draft pick can be discarded this way."))
        return f"pick {card} discard"
    return f"{verb} {card} at {cell}"
