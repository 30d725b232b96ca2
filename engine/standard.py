"""The standard game (RULES.md §2), both editions, as a state machine.

A turn is four phases: ``draw1``, ``draw2``, ``play``, ``discard``. The solo game
(:mod:`engine.solo`) is the same turn with other hooks: one shared discard pile, a ``give``
phase instead of ``discard``, and the refill at the end of the turn.

Simulations and search take the fast path of :class:`engine.game.State`: :meth:`apply_trusted`
for an action already known to be legal, and :meth:`playout`, which plays uniformly random
actions to the end in one loop (the standard game's turns without an action call each); both
leave exactly the state, log and random numbers of :meth:`apply_action` and :meth:`random_action`."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, cast

from .actions import DECK, Action, Discard, Draw, Give, Play, trusted_discard, trusted_play
from .arboretum import Arboretum, Cell
from .cards import Card, Edition
from .errors import GameOverError, IllegalActionError, NotYourTurnError
from .game import TERMINAL, State
from .scoring import Seat
from .views import Drawn, Phase, Pile, Progress, PublicMove, TurnView

if TYPE_CHECKING:
    from .games import Game

HAND_SIZE = 7

#: n.bit_length() for the small n of the playout's draws and discards
_BITS = tuple(n.bit_length() for n in range(64))
# the slots of the playout's actions, set directly as actions.trusted_play does
_SET_PLAY_CARD = Play.__dict__["card"].__set__
_SET_PLAY_CELL = Play.__dict__["cell"].__set__
_SET_DISCARD_CARD = Discard.__dict__["card"].__set__

DRAW1 = Phase.DRAW1
DRAW2 = Phase.DRAW2
PLAY = Phase.PLAY
DISCARD = Phase.DISCARD


def find_card(cards: list[Card], card: Card) -> int:
    """Index of ``card`` in ``cards``, or -1. Actions built from legal actions carry the very
    card objects of the hand, so an identity scan usually finds them without calling the
    dataclass ``__eq__``."""
    index = 0
    for held in cards:
        if held is card:
            return index
        index += 1
    try:
        return cards.index(card)
    except ValueError:
        return -1


class StandardState(State):
    """Draw 2 (deck or the top of any discard pile), play 1, discard 1; the game ends after the
    turn that drew the last card of the draw pile."""

    mode = "standard"
    #: the turn's last phase
    last_phase: ClassVar[Phase] = DISCARD
    #: what the seat to act is waiting to do, for messages ("it is X's turn to ...")
    phase_words: ClassVar[dict[Phase, str]] = {
        DRAW1: "to draw a first card",
        DRAW2: "to draw a second card",
        PLAY: "to play a card",
        DISCARD: "to discard a card",
    }
    #: every seat has its own discard pile, drawn from by seat number
    seat_piles: ClassVar[bool] = True

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        #: the draw pile; its top is the end of the list
        self.deck: list[Card] = game.shuffled_deck()
        self.hands: list[list[Card]] = self._deal_hands()
        #: discard piles, bottom first
        self.piles: list[list[Card]] = self._initial_piles()
        self.seat = 0
        self.phase: Phase = DRAW1
        self.turn = 1
        #: (source, card) drawn in the current turn: the first card is known before the second draw
        self.drawn: list[tuple[int | str, Card]] = []
        #: history index -> the card a draw took from a discard pile: it lay face up there, so
        #: every seat saw it taken (a card drawn from the deck stays hidden)
        self.pile_draws: dict[int, Card] = {}
        self.skipped_draws = 0
        self._draws: dict[int | str, Draw] = {source: Draw(source) for source in self._all_sources()}

    # -- setup hooks ----------------------------------------------------------------------
    def _deal_hands(self) -> list[list[Card]]:
        deck = self.deck
        return [[deck.pop() for _ in range(HAND_SIZE)] for _ in range(self.seats)]

    def _initial_piles(self) -> list[list[Card]]:
        # 2010: one card face up onto every discard pile except the start player's (seat 0)
        if self.game.edition == Edition.E2010:
            return [[] if seat == 0 else [self.deck.pop()] for seat in range(self.seats)]
        return [[] for _ in range(self.seats)]

    def _all_sources(self) -> list[int | str]:
        return [DECK, *range(self.seats)]

    def _pile(self, source: int | str) -> list[Card] | None:
        if type(source) is int and 0 <= source < len(self.piles):
            return self.piles[source]
        return None

    def _source_text(self, source: int | str) -> str:
        return "the draw pile" if source == DECK else f"the discard pile of {self.who(source)}"  # type: ignore[arg-type]

    # -- reading --------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.terminal else self.seat

    def sources(self) -> list[int | str]:
        """Where a card can be drawn from now, in legal-action order."""
        out: list[int | str] = [DECK] if self.deck else []
        seat = 0
        for pile in self.piles:
            if pile:
                out.append(seat)
            seat += 1
        return out

    def legal_cells(self) -> list[Cell]:
        """Cells where the card of the current phase may go (empty in a phase that places no
        card)."""
        if self.terminal or not self._places_card():
            return []
        return self._target_arboretum().legal_cells()

    def _places_card(self) -> bool:
        """Whether the current phase puts a card into an arboretum."""
        return self.phase is PLAY

    def _target_arboretum(self) -> Arboretum:
        return self.arboretums[self.seat]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if self.terminal or (seat is not None and seat != self.seat):
            return []
        phase = self.phase
        hand = self.hands[self.seat]
        if phase is PLAY:
            cells = self.arboretums[self.seat].legal_cells_view()
            # trusted_play written out: a hand of 9 and 20 cells make 180 actions a turn
            new, set_card, set_cell = object.__new__, _SET_PLAY_CARD, _SET_PLAY_CELL
            actions: list[Action] = []
            add = actions.append
            for card in hand:
                for cell in cells:
                    action = new(Play)
                    set_card(action, card)
                    set_cell(action, cell)
                    add(action)
            return actions
        if phase is DRAW1 or phase is DRAW2:
            draws = self._draws
            return [draws[source] for source in self.sources()]
        return self._last_phase_actions(hand)

    def _last_phase_actions(self, hand: list[Card]) -> list[Action]:
        return [trusted_discard(card) for card in hand]

    def random_action(self, rng: random.Random, seat: int | None = None) -> Action:
        if self.terminal:
            raise GameOverError("the game is over: there is no action to choose")
        if seat is not None and seat != self.seat:
            raise NotYourTurnError(f"{self.who(self._check_seat_range(seat))}: it is {self.who(self.seat)}'s turn")
        # rng.choice(seq) is seq[rng._randbelow(len(seq))]; calling it directly draws the same
        # numbers with two fewer calls on the bots' hottest path
        below = getattr(rng, "_randbelow", rng.randrange)
        phase = self.phase
        if phase is DRAW1 or phase is DRAW2:
            sources = self.sources()
            return self._draws[sources[below(len(sources))]]
        hand = self.hands[self.seat]
        if phase is PLAY:
            cells = self.arboretums[self.seat].legal_cells_view()
            n = len(cells)
            index = below(len(hand) * n)
            return trusted_play(hand[index // n], cells[index % n])
        return self._random_last_action(below, hand)

    def _random_last_action(self, below: Callable[[int], int], hand: list[Card]) -> Action:
        """The last phase's part of :meth:`random_action` (``below(n)``: rng.choice's draw)."""
        return trusted_discard(hand[below(len(hand))])

    # -- acting ---------------------------------------------------------------------------
    def apply_action(self, action: Action, seat: int | None = None) -> None:
        actor = self.seat
        if self.terminal:
            raise GameOverError(f"{action}: the game is over")
        if seat is not None and seat != actor:
            self._check_seat_range(seat)
            raise NotYourTurnError(
                f"{self.who(seat)}: {action}: it is {self.who(actor)}'s turn {self.phase_words[self.phase]}"
            )
        phase = self.phase
        kind = type(action)
        if phase is DRAW1 or phase is DRAW2:
            if kind is not Draw:
                raise self._wrong_kind(actor, action)
            source = action.source  # type: ignore[union-attr]
            deck = self.deck
            if type(source) is not int and source == DECK:
                if not deck:
                    raise IllegalActionError(f"{self.who(actor)}: {action}: the draw pile is empty")
                card = deck.pop()
            else:
                piles = self.piles
                pile = (
                    piles[source]
                    if self.seat_piles and type(source) is int and 0 <= source < len(piles)
                    else self._pile(source)
                )
                if pile is None:
                    raise IllegalActionError(
                        f"{self.who(actor)}: {action}: there is no such discard pile ({self._phase_example()})"
                    )
                if not pile:
                    raise IllegalActionError(f"{self.who(actor)}: {action}: {self._source_text(source)} is empty")
                card = pile.pop()
                self.pile_draws[len(self.history)] = card
            self.hands[actor].append(card)
            self.drawn.append((source, card))
            self.history.append((actor, action))
            self.phase = DRAW2 if phase is DRAW1 else PLAY
            if not deck:
                self._skip_empty_draws()
        elif phase is PLAY:
            if kind is not Play:
                raise self._wrong_kind(actor, action)
            card = action.card  # type: ignore[union-attr]
            cell: Cell = action.cell  # type: ignore[union-attr,assignment]
            hand = self.hands[actor]
            index = find_card(hand, card)
            if index < 0:
                raise self._not_in_hand(actor, card, "play")
            arboretum = self.arboretums[actor]
            if not arboretum.is_legal_cell(cell):
                self._check_placement(actor, arboretum, card, cell, "their arboretum")
            arboretum.place_trusted(hand.pop(index), cell)  # checked above; the hand's own card object
            self.history.append((actor, action))
            if len(hand) > HAND_SIZE or self.last_phase is not DISCARD:
                self.phase = self.last_phase
            else:
                # a skipped draw already left the hand at 7: there is nothing to discard
                self._finish_turn()
        else:
            self._apply_last(actor, action)

    def apply_trusted(self, action: Action, seat: int | None = None) -> None:
        phase = self.phase
        actor = self.seat
        if phase is PLAY:
            hand = self.hands[actor]
            card = action.card  # type: ignore[union-attr]
            self.arboretums[actor].place_trusted(hand.pop(find_card(hand, card)), action.cell)  # type: ignore[union-attr,arg-type]
            self.history.append((actor, action))
            if len(hand) > HAND_SIZE or self.last_phase is not DISCARD:
                self.phase = self.last_phase
            else:
                self._finish_turn()
        elif phase is DRAW1 or phase is DRAW2:
            source = action.source  # type: ignore[union-attr]
            deck = self.deck
            if type(source) is not int and source == DECK:
                card = deck.pop()
            else:
                pile = self.piles[source] if self.seat_piles else self._pile(source)  # type: ignore[index]
                card = pile.pop()  # type: ignore[union-attr]
                self.pile_draws[len(self.history)] = card
            self.hands[actor].append(card)
            self.drawn.append((source, card))
            self.history.append((actor, action))
            self.phase = DRAW2 if phase is DRAW1 else PLAY
            if not deck:
                self._skip_empty_draws()
        elif phase is DISCARD and self.last_phase is DISCARD:
            hand = self.hands[actor]
            self.piles[actor].append(hand.pop(find_card(hand, action.card)))  # type: ignore[union-attr]
            self.history.append((actor, action))
            self._finish_turn()
        else:
            self._apply_last(actor, action)

    def playout(self, rng: random.Random) -> None:
        if type(self) is not StandardState or type(rng) is not random.Random:
            # another mode's hooks, or a generator whose draws the loop below would not repeat
            super().playout(rng)
            return
        # finish a turn already begun one action at a time; then whole turns in one loop
        while not self.terminal and self.phase is not DRAW1:
            self.apply_trusted(self.random_action(rng))
        if self.terminal:
            return
        # Each choice below is rng.choice's (random.Random._randbelow: k = n.bit_length() bits,
        # drawn again while >= n), written out; tests/engine/test_fast_path.py holds the loop
        # to apply_action(random_action(rng)) action by action.
        getrandbits = rng.getrandbits
        bits = _BITS
        new = object.__new__
        set_play_card, set_play_cell, set_discard_card = _SET_PLAY_CARD, _SET_PLAY_CELL, _SET_DISCARD_CARD
        deck, hands, piles, arboretums = self.deck, self.hands, self.piles, self.arboretums
        history = self.history
        log = history.append
        pile_draws = self.pile_draws
        draws = self._draws
        seats = self.seats
        pile_range = range(seats)
        seat, turn, skipped = self.seat, self.turn, self.skipped_draws
        drawn = self.drawn
        phase: Phase
        while True:
            hand = hands[seat]
            for _draw in (DRAW1, DRAW2):
                sources: list[int | str] = [DECK] if deck else []
                for index in pile_range:
                    if piles[index]:
                        sources.append(index)
                n = len(sources)
                if not n:
                    skipped += 1  # RULES.md §2 decision: a draw with no card anywhere is skipped
                    continue
                k = bits[n]
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                source = sources[r]
                if source is DECK:
                    card = deck.pop()
                else:
                    card = piles[source].pop()  # type: ignore[index]
                    pile_draws[len(history)] = card
                hand.append(card)
                drawn.append((source, card))
                log((seat, draws[source]))
            arboretum = arboretums[seat]
            cells = arboretum.legal_cells_view()
            width = len(cells)
            n = len(hand) * width
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            card = hand.pop(r // width)
            cell = cells[r % width]
            action = new(Play)
            set_play_card(action, card)
            set_play_cell(action, cell)
            log((seat, action))
            arboretum.place_trusted(card, cell)
            n = len(hand)
            if n > HAND_SIZE:
                k = bits[n]
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                card = hand.pop(r)
                piles[seat].append(card)
                discard = new(Discard)
                set_discard_card(discard, card)
                log((seat, discard))
                phase = DISCARD
            else:
                phase = PLAY  # a skipped draw left the hand at 7: nothing to discard
            if not deck:
                break
            seat = (seat + 1) % seats
            turn += 1
            drawn = []
        self.seat, self.turn, self.skipped_draws, self.drawn, self.phase = seat, turn, skipped, drawn, phase
        self.terminal = True

    def _apply_last(self, actor: int, action: Action) -> None:
        if type(action) is not Discard:
            raise self._wrong_kind(actor, action)
        hand = self.hands[actor]
        index = find_card(hand, action.card)
        if index < 0:
            raise self._not_in_hand(actor, action.card, "discard")
        self.piles[actor].append(hand.pop(index))
        self.history.append((actor, action))
        self._finish_turn()

    def _skip_empty_draws(self) -> None:
        """RULES.md §2 decision: a draw with no card anywhere to take is skipped."""
        while (self.phase is DRAW1 or self.phase is DRAW2) and not self.deck and not any(self.piles):
            self.skipped_draws += 1
            self.phase = DRAW2 if self.phase is DRAW1 else PLAY

    def _finish_turn(self) -> None:
        """The game ends after the turn that drew the last card of the draw pile."""
        if not self.deck:
            self.terminal = True
            return
        self._next_turn((self.seat + 1) % self.seats)

    def _next_turn(self, seat: int) -> None:
        self.seat = seat
        self.turn += 1
        self.phase = DRAW1
        self.drawn = []
        if not self.deck:
            self._skip_empty_draws()

    # -- errors ---------------------------------------------------------------------------
    def _wrong_kind(self, actor: int, action: Action) -> IllegalActionError:
        return IllegalActionError(
            f"{self.who(actor)}: {action}: the turn is waiting {self.phase_words[self.phase]}"
            f" ({self._phase_example()})"
        )

    def _phase_example(self) -> str:
        return {
            DRAW1: "draw deck, or draw discard N for seat N's pile",
            DRAW2: "draw deck, or draw discard N for seat N's pile",
            PLAY: "play CARD at X,Y",
            DISCARD: "discard CARD",
        }[self.phase]

    def _not_in_hand(self, actor: int, card: Card, verb: str) -> IllegalActionError:
        if card.species not in self.species:
            return IllegalActionError(
                f"{self.who(actor)}: cannot {verb} {card}: {card.species} is not a species in this game"
            )
        return IllegalActionError(f"{self.who(actor)}: cannot {verb} {card}: it is not in their hand")

    # -- views, scores, copies --------------------------------------------------------------
    def phase_now(self) -> Phase:
        return Phase.OVER if self.terminal else self.phase

    def _hands(self) -> list[list[Card]]:
        return self.hands

    def _visible_hand(self, seat: int | None) -> tuple[Card, ...] | None:
        if seat is None or not self._hand_visible_to_owner(seat):
            return None
        return self.sorted_hand(self.hands[seat])

    def _viewer_cells(self, seat: int | None) -> list[Cell]:
        return self.legal_cells() if seat is not None and not self.terminal and seat == self.seat else []

    def _turn_view(self, seat: int | None) -> TurnView:
        actor = None if self.terminal else self.seat
        return TurnView(
            actor=actor,
            turn=self.turn,
            draw_pile=len(self.deck),
            piles=tuple(Pile(index if self.seat_piles else None, tuple(pile)) for index, pile in enumerate(self.piles)),
            # only the drawing player learns which cards they drew; the others see the sources
            # (a discard-pile card drawn is public, but it is now in a hand, and a view never
            # names a card in another player's hand)
            drawn=tuple(
                Drawn(source, str(self._draws[source]).removeprefix("draw "), card if seat == actor else None)
                for source, card in ([] if self.terminal else self.drawn)
            ),
            turn_log=() if self.terminal else tuple(
                str(a) for _, a in self.history[len(self.history) - self._turn_actions() :]
            ),
            place_into=self._place_into(),
        )

    def _place_into(self) -> int | None:
        return None

    def _hands_at_end(self) -> tuple[tuple[Card, ...], ...] | None:
        return tuple(self.sorted_hand(hand) for hand in self.hands) if self.terminal else None

    def _turn_actions(self) -> int:
        """Actions taken so far in the turn in progress: its draws, then its play."""
        return len(self.drawn) + (1 if self.phase is self.last_phase else 0)

    def _hand_visible_to_owner(self, seat: int) -> bool:
        return True

    def progress(self) -> Progress:
        actor = None if self.terminal else self.seat
        return Progress(
            mode=self.mode,
            phase=self.phase_now(),
            finished=self.terminal,
            awaiting=tuple(self.awaited_seats()),
            actor=actor,
            actor_name=None if actor is None else self.names[actor],
            turn=self.turn,
            round=None,
            rounds=None,
            pick=None,
            picks_per_round=None,
            draw_pile=len(self.deck),
            cards_in_hands=sum(len(hand) for hand in self.hands),
        )

    def _public_move(self, index: int, seat: int, action: Action) -> PublicMove:
        name = self.names[seat]
        kind = type(action)
        if kind is Draw:
            source = cast(Draw, action).source
            # a card from the deck went into a hand unseen; one from a discard pile was face up
            return PublicMove(index, seat, name, "draw", str(action), self.pile_draws.get(index), source=source)
        played = cast("Play | Give | Discard", action)
        cell = None if kind is Discard else cast("Play | Give", action).cell
        return PublicMove(index, seat, name, str(action).split(" ", 1)[0], str(action), played.card, cell)

    def _score_seats(self) -> list[Seat]:
        return [Seat(name, arb, tuple(hand)) for name, arb, hand in zip(self.names, self.arboretums, self.hands, strict=True)]

    def zones(self) -> dict[str, list[Card]]:
        zones = {"deck": list(self.deck)}
        for seat in range(self.seats):
            zones[f"hand {seat}"] = list(self.hands[seat])
            zones[f"arboretum {seat}"] = list(self.arboretums[seat].cards())
        for index, pile in enumerate(self.piles):
            zones[f"discard {index}"] = list(pile)
        return zones

    def _clone_into(self, new: State) -> None:
        new = cast(StandardState, new)
        new.deck = list(self.deck)
        new.hands = [list(hand) for hand in self.hands]
        new.piles = [list(pile) for pile in self.piles]
        new.drawn = list(self.drawn)
        new.pile_draws = dict(self.pile_draws)

