"""The solo game, "The Garden of Non-Forking Paths" (RULES.md §4), as a state machine.

The player (seat 0) plays the standard turn with other hooks: one shared discard pile, a
``give`` phase (a hand card into Q's arboretum, at a cell the player chooses) instead of the
discard, then the refill of the discard pile and Q's face-down hand. Q is seat 1 and never acts."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from .actions import DECK, SHARED_DISCARD, Action, Give, trusted_give
from .arboretum import Arboretum
from .cards import Card
from .errors import NotYourTurnError
from .standard import HAND_SIZE, PLAY, StandardState, find_card
from .views import Phase

PLAYER = 0
Q = 1
GIVE = Phase.GIVE


class SoloState(StandardState):
    """The player against Q: draw 2, play 1, give Q 1, refill; the game ends after the turn in
    which the draw pile became empty."""

    mode = "solo"
    last_phase = GIVE
    seat_piles = False
    phase_words: ClassVar[dict[Phase, str]] = {**StandardState.phase_words, GIVE: "to give Q a card"}

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
        return self.phase is PLAY or self.phase is GIVE

    def _target_arboretum(self) -> Arboretum:
        return self.arboretums[Q] if self.phase is GIVE else self.arboretums[PLAYER]

    def _last_phase_actions(self, hand: list[Card]) -> list[Action]:
        cells = self.arboretums[Q].legal_cells()
        return [trusted_give(card, cell) for card in hand for cell in cells]

    def _random_last_action(self, below: Callable[[int], int], hand: list[Card]) -> Action:
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
        if not q_arboretum.is_legal_cell(cell):
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
            GIVE: "give CARD at X,Y for a cell of Q's arboretum",
        }[self.phase]

    # -- views and scores -----------------------------------------------------------------
    def _hand_visible_to_owner(self, seat: int) -> bool:
        return seat == PLAYER  # Q's hand stays face down until the end

    def _place_into(self) -> int | None:
        return Q if self.phase is GIVE and not self.terminal else PLAYER
