"""The draft, "Wonders of the Arboretum" (RULES.md §3), as a state machine with simultaneous
hidden picks.

Every seat chooses a card of the hand in front of it and a cell of its own arboretum (or the
discard). A choice stays hidden and may be changed until the last seat has chosen; then all
choices are carried out at once and the hands pass: to the next seat in rounds 1 and 3, to the
previous seat in round 2. After 7 picks the eighth card of every hand leaves the game and the
next round deals 8 cards to each seat from the one shuffled deck."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from .actions import Action, Pick, trusted_pick
from .arboretum import Cell
from .cards import Card
from .errors import GameOverError, IllegalActionError
from .game import SIMULTANEOUS, TERMINAL, State
from .scoring import Seat
from .standard import find_card
from .views import DraftView, Phase, Progress, PublicMove, Reveal

if TYPE_CHECKING:
    from .games import Game

HAND_SIZE = 8
_SET_PICK_CARD = Pick.__dict__["card"].__set__
_SET_PICK_CELL = Pick.__dict__["cell"].__set__
PICKS_PER_ROUND = 7


class DraftState(State):
    mode = "draft"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.rounds = game.rounds
        #: the undealt rest of the shuffled deck; its top is the end of the list
        self.deck: list[Card] = game.shuffled_deck()
        self.hands: list[list[Card]] = []
        #: each seat's hidden choice for the current pick (None: not chosen yet)
        self.pending: list[Pick | None] = [None] * self.seats
        #: discarded picks and eighth cards: face down, out of the game
        self.out: list[Card] = []
        self.discarded = [0] * self.seats
        self.round = 0  # 0-based
        self.pick = 0  # 0-based, within the round
        self.reveals = 0  # picks carried out so far, over all rounds
        #: the picks carried out at the last reveal, as every seat saw them
        self.last_reveal: tuple[Reveal, ...] = ()
        #: history index of each seat's pending pick; and of every pick planted at a reveal
        #: (those cards became public; replaced and discarded picks never do)
        self._pending_index: list[int] = [-1] * self.seats
        self._planted_moves: set[int] = set()
        self._deal()

    def _deal(self) -> None:
        deck = self.deck
        self.hands = [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(self.seats)]

    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.terminal else Phase.PICK

    def phase_now(self) -> Phase:
        return self.phase

    def stamp(self, seat: int | None = None) -> int:
        # a seat's pick goes stale only when the picks are revealed and its hand changes
        return self.reveals

    @property
    def direction(self) -> int:
        """+1: hands pass to the next seat (rounds 1 and 3); -1: to the previous (round 2)."""
        return -1 if self.round % 2 == 1 else 1

    # -- reading --------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.terminal else SIMULTANEOUS

    def awaited_seats(self) -> list[int]:
        if self.terminal:
            return []
        return [seat for seat, pick in enumerate(self.pending) if pick is None]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every pick open to ``seat``: for each card of its hand, each legal cell, then the
        discard. A seat that has chosen may still change its choice, so it keeps them all."""
        if self.terminal:
            return []
        seat = self._need_seat(seat, "legal_actions")
        cells: list[Cell | None] = list(self.arboretums[seat].legal_cells_view())
        cells.append(None)
        # trusted_pick written out: the bots ask for every pick of every seat
        new, set_card, set_cell = object.__new__, _SET_PICK_CARD, _SET_PICK_CELL
        actions: list[Action] = []
        add = actions.append
        for card in self.hands[seat]:
            for cell in cells:
                action = new(Pick)
                set_card(action, card)
                set_cell(action, cell)
                add(action)
        return actions

    def random_action(self, rng: random.Random, seat: int | None = None) -> Action:
        if self.terminal:
            raise GameOverError("the draft is over: there is no pick to choose")
        seat = self._need_seat(seat, "random_action")
        cells = self.arboretums[seat].legal_cells_view()
        options = len(cells) + 1
        hand = self.hands[seat]
        index = getattr(rng, "_randbelow", rng.randrange)(len(hand) * options)  # as rng.choice draws
        choice = index % options
        return trusted_pick(hand[index // options], cells[choice] if choice < len(cells) else None)

    def _need_seat(self, seat: int | None, what: str) -> int:
        if seat is None:
            raise IllegalActionError(f"{what}: the draft's picks are simultaneous; name the seat")
        return self._check_seat_range(seat)

    # -- acting ---------------------------------------------------------------------------
    def apply_action(self, action: Action, seat: int | None = None) -> None:
        """Record ``seat``'s hidden pick (replacing an earlier one this pick); once every seat
        has chosen, reveal and carry out all picks and pass the hands. Choosing again exactly
        what is already chosen changes nothing and is not logged (a resent form)."""
        if self.terminal:
            raise GameOverError(f"{action}: the draft is over")
        seat = self._need_seat(seat, str(action))
        if type(action) is not Pick:
            raise IllegalActionError(
                f"{self.who(seat)}: {action}: the draft takes picks (pick CARD at X,Y, or pick CARD discard)"
            )
        card, cell = action.card, action.cell
        if find_card(self.hands[seat], card) < 0:
            where = "" if card.species in self.species else f" ({card.species} is not a species in this game)"
            raise IllegalActionError(
                f"{self.who(seat)}: cannot pick {card}: it is not in the hand in front of them"
                f" (round {self.round + 1}, pick {self.pick + 1}){where}"
            )
        arboretum = self.arboretums[seat]
        if cell is not None and not arboretum.is_legal_cell(cell):
            self._check_placement(seat, arboretum, card, cell, "their arboretum")
        if self.pending[seat] == action:
            return
        self.pending[seat] = action
        self._pending_index[seat] = len(self.history)
        self.history.append((seat, action))
        if None not in self.pending:
            self._reveal()

    def apply_trusted(self, action: Action, seat: int | None = None) -> None:
        assert seat is not None  # a legal pick names its seat
        if self.pending[seat] == action:
            return
        self.pending[seat] = action  # type: ignore[assignment]
        self._pending_index[seat] = len(self.history)
        self.history.append((seat, action))
        if None not in self.pending:
            self._reveal()

    def _reveal(self) -> None:
        reveal: list[Reveal] = []
        for seat, chosen in enumerate(self.pending):
            pick = cast(Pick, chosen)  # every seat has chosen: the caller checked
            hand = self.hands[seat]
            card = hand.pop(find_card(hand, pick.card))
            if pick.cell is None:
                self.out.append(card)
                self.discarded[seat] += 1
                reveal.append(Reveal(seat, None, None))
            else:
                # the pick's cell was checked when it was chosen, and only this seat plants here
                self.arboretums[seat].place_trusted(card, pick.cell)
                self._planted_moves.add(self._pending_index[seat])
                reveal.append(Reveal(seat, card, pick.cell))
        self.last_reveal = tuple(reveal)
        self.pending = [None] * self.seats
        self.reveals += 1
        self.pick += 1
        if self.pick < PICKS_PER_ROUND:
            step = self.direction
            passed: list[list[Card]] = [[] for _ in range(self.seats)]
            for seat, hand in enumerate(self.hands):
                passed[(seat + step) % self.seats] = hand
            self.hands = passed
            return
        # the eighth card of every hand is discarded, face down
        for hand in self.hands:
            self.out.extend(hand)
            hand.clear()
        self.pick = 0
        self.round += 1
        if self.round == self.rounds:
            self.terminal = True
        else:
            self._deal()

    # -- views, scores, copies --------------------------------------------------------------
    def _hands(self) -> list[list[Card]]:
        return self.hands

    def _visible_hand(self, seat: int | None) -> tuple[Card, ...] | None:
        return None if seat is None else self.sorted_hand(self.hands[seat])

    def _viewer_cells(self, seat: int | None) -> list[Cell]:
        return [] if seat is None or self.terminal else self.arboretums[seat].legal_cells()

    def _draft_view(self, seat: int | None) -> DraftView:
        return DraftView(
            round=min(self.round + 1, self.rounds),
            rounds=self.rounds,
            pick=self.pick + 1,
            picks_per_round=PICKS_PER_ROUND,
            reveals=self.reveals,
            direction="next" if self.direction > 0 else "previous",
            chosen=tuple(pick is not None for pick in self.pending),
            discarded=tuple(self.discarded),
            out_of_game=len(self.out),
            undealt=len(self.deck),
            last_reveal=self.last_reveal,
            pending=None if seat is None else self.pending[seat],
        )

    def _hidden_pick(self, seat: int) -> Pick | None:
        return self.pending[seat]

    def progress(self) -> Progress:
        return Progress(
            mode=self.mode,
            phase=self.phase,
            finished=self.terminal,
            awaiting=tuple(self.awaited_seats()),
            actor=None,
            actor_name=None,
            turn=None,
            round=min(self.round + 1, self.rounds),
            rounds=self.rounds,
            pick=self.pick + 1,
            picks_per_round=PICKS_PER_ROUND,
            draw_pile=len(self.deck),
            cards_in_hands=sum(len(hand) for hand in self.hands),
        )

    def _public_move(self, index: int, seat: int, action: Action) -> PublicMove:
        name = self.names[seat]
        pick = cast(Pick, action)
        if index in self._planted_moves:
            return PublicMove(index, seat, name, "pick", f"pick {pick.card} at {pick.cell[0]},{pick.cell[1]}",  # type: ignore[index]
                              pick.card, pick.cell)
        # still hidden, replaced before the reveal, or discarded face down
        return PublicMove(index, seat, name, "pick", "pick a card")

    def _score_seats(self) -> list[Seat]:
        return [Seat(name, arb, ()) for name, arb in zip(self.names, self.arboretums, strict=True)]

    def _score_rounds(self) -> int | None:
        return self.rounds

    def zones(self) -> dict[str, list[Card]]:
        zones = {"deck": list(self.deck), "out": list(self.out)}
        for seat in range(self.seats):
            zones[f"hand {seat}"] = list(self.hands[seat])
            zones[f"arboretum {seat}"] = list(self.arboretums[seat].cards())
        return zones

    def _clone_into(self, new: State) -> None:
        new = cast(DraftState, new)
        new.deck = list(self.deck)
        new.hands = [list(hand) for hand in self.hands]
        new.pending = list(self.pending)
        new.out = list(self.out)
        new.discarded = list(self.discarded)
        new._pending_index = list(self._pending_index)
        new._planted_moves = set(self._planted_moves)
