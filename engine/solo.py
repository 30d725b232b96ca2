"""The solo game, "The Garden of Non-Forking Paths" (RULES.md §4), as a state machine.

The player (seat 0) plays the standard turn with other hooks: one shared discard pile, a
``give`` phase (a hand card into Q's arboretum) instead of the discard, then the refill of the
discard pile and Q's face-down hand. Q is seat 1 and never acts.

Where the card goes (RULES.md §4): by default Q places it itself (``Game.q_places ==
"rule"``): of the legal cells, the one where the sum over species of Q's best-path points is
then highest, ties to the smallest y, then the smallest x. The player names only the card
(``give Oak 3``); the log keeps the cell the rule chose (``give Oak 3 at 1,0``), and a give
naming another cell is refused. In the gentler variant (``"player"``, also every saved solo game
that names no ``q_places``) the player chooses the cell."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, cast

from .actions import DECK, SHARED_DISCARD, Action, Give, trusted_give
from .arboretum import Arboretum, Cell
from .bots.paths import PathTable
from .cards import Card
from .errors import IllegalActionError, NotYourTurnError
from .game import Q_BY_RULE, State
from .standard import HAND_SIZE, PLAY, StandardState, find_card
from .views import Phase, PublicMove, QPlacement, QReason, TurnView

if TYPE_CHECKING:
    from .games import Game

PLAYER = 0
Q = 1
GIVE = Phase.GIVE
#: §2's bonus for a path ending on an 8 (Q's paths are worth §2's points)
EIGHT_BONUS = 2


def rule_cell(arboretum: Arboretum, card: Card, table: PathTable | None = None) -> tuple[Cell, list[tuple[str, int]]]:
    """Where Q places ``card`` by the rule of RULES.md §4, and the species whose best path it
    raises there with their new points. ``table``: Q's arboretum's :class:`PathTable`, when the
    caller places several cards into the same arboretum."""
    if not len(arboretum):
        return (0, 0), []
    if table is None:
        table = PathTable(arboretum, EIGHT_BONUS)
    best_cell: Cell | None = None
    best_gain = -1
    best_gains: list[tuple[str, int]] = []
    # legal_cells() is sorted by x, then y; the rule's tie-break is the smallest y, then x
    for cell in sorted(arboretum.legal_cells(), key=lambda c: (c[1], c[0])):
        gains = table.gains(cell, card.value, card.species)
        gain = sum(points for _, points in gains)
        if gain > best_gain:
            best_cell, best_gain, best_gains = cell, gain, gains
    assert best_cell is not None  # a non-empty arboretum always has an empty neighbour
    return best_cell, [(species, table.best(species) + points) for species, points in best_gains]


def rule_placement(card: Card, cell: Cell, raised: list[tuple[str, int]], first: bool) -> QPlacement:
    """Where Q put ``card`` and why, as data (the screens say it in their reader's words)."""
    if first:
        return QPlacement(card, cell, QReason.FIRST)
    if not raised:
        return QPlacement(card, cell, QReason.NO_GAIN)
    return QPlacement(card, cell, QReason.RAISES, tuple(raised))


class SoloState(StandardState):
    """The player against Q: draw 2, play 1, give Q 1, refill; the game ends after the turn in
    which the draw pile became empty."""

    mode = "solo"
    last_phase = GIVE
    seat_piles = False
    phase_words: ClassVar[dict[Phase, str]] = {**StandardState.phase_words, GIVE: "to give Q a card"}

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        #: Q places the cards it is given (the rule) instead of the player
        self.q_by_rule = game.q_places == Q_BY_RULE
        #: history index of each rule placement -> where Q put the card and why
        self.q_placements: dict[int, QPlacement] = {}
        #: the rule's last answer: (cards in Q's arboretum, card) -> (cell, raised paths); a
        #: random or listed gift is then applied without working the rule out again
        self._rule_memo: dict[tuple[int, Card], tuple[Cell, list[tuple[str, int]]]] = {}

    def _rule(self, card: Card, table: PathTable | None = None) -> tuple[Cell, list[tuple[str, int]]]:
        q_arboretum = self.arboretums[Q]
        key = (len(q_arboretum), card)
        found = self._rule_memo.get(key)
        if found is None:
            if len(self._rule_memo) > 16:
                self._rule_memo = {}
            found = self._rule_memo[key] = rule_cell(q_arboretum, card, table)
        return found

    # -- setup hooks ----------------------------------------------------------------------
    def _deal_hands(self) -> list[list[Card]]:
        deck = self.deck
        return [[deck.pop() for _ in range(HAND_SIZE)], []]

    def _initial_piles(self) -> list[list[Card]]:
        return [[self.deck.pop()]]

    def _all_sources(self) -> list[int | str]:
        return [DECK, SHARED_DISCARD]

    def _pile(self, source: int | str) -> list[Card] | None:
        return self.piles[0] if source == SHARED_DISCARD else None

    def _source_text(self, source: int | str) -> str:
        return "the draw pile" if source == DECK else "the discard pile"

    # -- reading --------------------------------------------------------------------------
    def sources(self) -> list[int | str]:
        out: list[int | str] = [DECK] if self.deck else []
        if self.piles[0]:
            out.append(SHARED_DISCARD)
        return out

    def _places_card(self) -> bool:
        # under the rule the player chooses no cell of Q's
        return self.phase is PLAY or (self.phase is GIVE and not self.q_by_rule)

    def _target_arboretum(self) -> Arboretum:
        return self.arboretums[Q] if self.phase is GIVE else self.arboretums[PLAYER]

    def _last_phase_actions(self, hand: list[Card]) -> list[Action]:
        q_arboretum = self.arboretums[Q]
        if self.q_by_rule:
            table = PathTable(q_arboretum, EIGHT_BONUS) if len(q_arboretum) else None
            return [trusted_give(card, self._rule(card, table)[0]) for card in hand]
        cells = q_arboretum.legal_cells()
        return [trusted_give(card, cell) for card in hand for cell in cells]

    def _random_last_action(self, below: Callable[[int], int], hand: list[Card]) -> Action:
        if self.q_by_rule:
            card = hand[below(len(hand))]
            return trusted_give(card, self._rule(card)[0])
        cells = self.arboretums[Q].legal_cells()
        n = len(cells)
        index = below(len(hand) * n)
        return trusted_give(hand[index // n], cells[index % n])

    # -- acting ---------------------------------------------------------------------------
    def apply_action(self, action: Action, seat: int | None = None) -> None:
        if seat == Q and not self.terminal:
            raise NotYourTurnError(f"{self.who(Q)}: {action}: Q never acts; the player (seat 0) plays every turn")
        super().apply_action(action, seat)

    def _apply_last(self, actor: int, action: Action) -> None:
        if type(action) is not Give:
            raise self._wrong_kind(actor, action)
        card, cell = action.card, action.cell
        hand = self.hands[PLAYER]
        index = find_card(hand, card)
        if index < 0:
            raise self._not_in_hand(actor, card, "give")
        q_arboretum = self.arboretums[Q]
        if self.q_by_rule:
            first = not len(q_arboretum)
            chosen, raised = self._rule(card)
            if cell is not None and cell != chosen:
                raise IllegalActionError(
                    f"{self.who(actor)}: {action}: Q places the cards it is given by its rule, and {card} goes to"
                    f" {chosen[0]},{chosen[1]} (give {card})"
                )
            self.q_placements[len(self.history)] = rule_placement(hand[index], chosen, raised, first)
            action = trusted_give(hand[index], chosen)  # the log keeps the cell the rule chose
            cell = chosen
        elif cell is None:
            raise IllegalActionError(f"{self.who(actor)}: {action}: in this game you choose Q's cell (give CARD at X,Y)")
        elif not q_arboretum.is_legal_cell(cell):
            self._check_placement(actor, q_arboretum, card, cell, "Q's arboretum")
        q_arboretum.place(hand.pop(index), cell)
        self.history.append((actor, action))
        self._finish_turn()

    def _finish_turn(self) -> None:
        # one card face up onto the discard pile, the next face down into Q's hand, as far as
        # the draw pile allows; the game ends after the turn in which it became empty
        deck = self.deck
        if deck:
            self.piles[0].append(deck.pop())
        if deck:
            self.hands[Q].append(deck.pop())
        if not deck:
            self.terminal = True
            return
        self._next_turn(PLAYER)

    def _phase_example(self) -> str:
        return {
            Phase.DRAW1: "draw deck, or draw discard",
            Phase.DRAW2: "draw deck, or draw discard",
            PLAY: "play CARD at X,Y",
            GIVE: "give CARD: Q places it by its rule" if self.q_by_rule else "give CARD at X,Y for a cell of Q's arboretum",
        }[self.phase]

    # -- views and scores -----------------------------------------------------------------
    def _hand_visible_to_owner(self, seat: int) -> bool:
        return seat == PLAYER  # Q's hand stays face down until the end

    def _place_into(self) -> int | None:
        return Q if self.phase is GIVE and not self.terminal else PLAYER

    def _turn_view(self, seat: int | None) -> TurnView:
        view = super()._turn_view(seat)
        if not self.q_placements:
            return view
        return replace(view, q_placement=self.q_placements[max(self.q_placements)])

    def _public_move(self, index: int, seat: int, action: Action) -> PublicMove:
        move = super()._public_move(index, seat, action)
        placement = self.q_placements.get(index)
        return move if placement is None else replace(move, q_placement=placement)

    def _clone_into(self, new: State) -> None:
        super()._clone_into(new)
        new = cast(SoloState, new)
        new.q_placements = dict(self.q_placements)
        new._rule_memo = {}
