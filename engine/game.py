"""Whole games as state machines, one interface for every mode.

A :class:`~engine.games.Game` is a game's parameters (mode, players, edition, seed, species,
names); its :meth:`~engine.games.Game.new_initial_state` deals the cards from the seed. A
:class:`State` is driven by
actions in the style of OpenSpiel: :meth:`State.current_player` (a seat, or
:data:`SIMULTANEOUS` while a draft awaits picks, or :data:`TERMINAL`),
:meth:`State.legal_actions` and :meth:`State.apply_action`, which validates before it changes
anything. :meth:`State.view` gives one seat exactly what that seat may see. A game is saved as
its parameters plus its action log (:meth:`State.to_json`) and rebuilt by replaying it
(:func:`engine.games.replay`). Each mode is a small subclass overriding a few hooks, named in
:data:`engine.games.GAME_MODES` under its ``mode``.

The fast path, for simulations and the bots' search (the public methods above validate
everything and raise precise errors; these trust their caller):

- :meth:`State.apply_trusted` applies an action known to be legal now (one of
  ``legal_actions(seat)``, or what ``random_action`` returned) without checking it. Anything else
  leaves a corrupt state, silently.
- :meth:`State.playout` plays uniformly random actions to the end: exactly the states, log and
  random numbers of ``apply_action(random_action(rng, seat), seat)`` for every awaited seat in
  turn (a draft's seats in seat order), several times faster in the standard game.
- :meth:`State.clone` copies only what an action changes (the log, hands, piles, arboretums);
  the game's parameters and the cards are shared, being immutable.

What leaves a state is typed and public (:mod:`engine.views`): :meth:`State.view`,
:meth:`State.progress`, :meth:`State.last_moves`, :meth:`State.score_case`, and, for the replay
of a finished game only, :meth:`State.face_up_hands`."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from .actions import Action, Pick
from .arboretum import Arboretum, Cell
from .cards import Card
from .case import ScoreCase
from .errors import (
    IllegalActionError,
    NotYourTurnError,
    PlacementError,
    StaleActionError,
)
from .scoring import Seat, TableScore
from .views import DraftView, FaceUpHand, Phase, Progress, PublicMove, SeatInfo, SeatView, TurnView, planted

if TYPE_CHECKING:
    from .games import Game  # the games module imports every mode, each a State subclass

#: ``current_player()`` while a draft awaits every seat's hidden pick.
SIMULTANEOUS = -2
#: ``current_player()`` once the game is over.
TERMINAL = -4

#: solo: Q places each card given to it by the rule of RULES.md §4 / the player chooses the cell
Q_BY_RULE = "rule"
Q_BY_PLAYER = "player"
Q_PLACES = (Q_BY_RULE, Q_BY_PLAYER)


class State(ABC):
    """The state of one game. Subclasses implement the hooks marked below."""

    mode: ClassVar[str]

    def __init__(self, game: Game) -> None:
        self.game = game
        self.names: tuple[str, ...] = game.names or ()
        self.species: tuple[str, ...] = game.species or ()
        self.seats = game.seats
        self.history: list[tuple[int, Action]] = []
        self.terminal = False
        self._outcome: TableScore | None = None
        self.arboretums: list[Arboretum] = [Arboretum() for _ in range(self.seats)]

    # -- the interface --------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        ...

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        ...

    @abstractmethod
    def apply_action(self, action: Action, seat: int | None = None) -> None:
        ...

    def awaited_seats(self) -> list[int]:
        """Seats whose action the game is waiting for (for "who is holding the table up")."""
        player = self.current_player()
        return [player] if player >= 0 else []

    @abstractmethod
    def random_action(self, rng: random.Random, seat: int | None = None) -> Action:
        """Exactly ``rng.choice(self.legal_actions(seat))`` (same result, same random numbers
        used) without building the whole list: the random bot's hot path."""
        ...

    def apply_trusted(self, action: Action, seat: int | None = None) -> None:
        """:meth:`apply_action` for an action known to be legal now (one of
        ``legal_actions(seat)`` or ``random_action(rng, seat)``), without checking it: the fast
        path of simulations and search. An illegal action corrupts the state silently."""
        self.apply_action(action, seat)

    def playout(self, rng: random.Random) -> None:
        """Play uniformly random actions to the end: the same states, log and random numbers as
        ``apply_action(random_action(rng, seat), seat)`` for each seat of
        :meth:`awaited_seats` in turn until the game is over."""
        random_action = self.random_action
        apply = self.apply_trusted
        while not self.terminal:
            for seat in self.awaited_seats():
                apply(random_action(rng, seat), seat)

    def is_terminal(self) -> bool:
        return self.terminal

    def outcome(self) -> TableScore | None:
        """The scored table once the game is over, else None."""
        if not self.terminal:
            return None
        if self._outcome is None:
            self._outcome = self._score()
        return self._outcome

    @property
    def version(self) -> int:
        """Grows by one with every applied action: "changed since N?" is ``version != N``."""
        return len(self.history)

    def stamp(self, seat: int | None = None) -> int:
        """A number that changes whenever the situation ``seat`` chose its action in has passed:
        the version in turn-based games; the draft overrides it (other seats' hidden picks do
        not make a seat's pick stale, only a reveal does)."""
        return len(self.history)

    def apply_stamped(self, action: Action, seat: int | None, stamp: int) -> None:
        """:meth:`apply_action`, but only if :meth:`stamp` is still ``stamp`` (the value shown
        with the form the action came from): a double tap or a resent form is refused with
        :class:`StaleActionError` instead of being applied twice."""
        now = self.stamp(seat)
        if stamp != now:
            who = "the table" if seat is None else self.who(self._check_seat_range(seat))
            raise StaleActionError(
                f"{who}: {action}: the game has moved on since this was chosen (stamp {stamp}, now {now});"
                " nothing was done"
            )
        self.apply_action(action, seat)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see; ``None`` is a spectator (public information only)."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.seats):
            raise IllegalActionError(f"seat {seat!r}: this table has seats 0 to {self.seats - 1}")
        hands = self._hands()
        return SeatView(
            mode=self.mode,
            edition=self.game.edition.value,
            species=self.species,
            viewer=seat,
            version=self.version,
            stamp=self.stamp(seat),
            terminal=self.terminal,
            phase=self.phase_now(),
            awaiting=tuple(self.awaited_seats()),
            seats=tuple(
                SeatInfo(index, self.names[index], planted(self.arboretums[index]), len(hands[index]))
                for index in range(self.seats)
            ),
            hand=self._visible_hand(seat),
            legal_cells=tuple(self._viewer_cells(seat)),
            turns=self._turn_view(seat),
            draft=self._draft_view(seat),
            hands_at_end=self._hands_at_end(),
            outcome=self.outcome(),
        )

    @abstractmethod
    def phase_now(self) -> Phase:
        """The phase as shown: :attr:`Phase.OVER` once the game is over."""
        ...

    @abstractmethod
    def progress(self) -> Progress:
        """How far the game has come (public information only), for an overview of tables."""
        ...

    def last_moves(self, count: int) -> list[PublicMove]:
        """The last ``count`` logged actions, oldest first, as everyone may know them: no card
        drawn from the deck, no hidden or face-down draft pick (see :class:`PublicMove`)."""
        if type(count) is not int or count < 0:
            raise IllegalActionError(f"last_moves({count!r}): expected a whole number of moves, 0 or more")
        start = max(0, len(self.history) - count)
        return [
            self._public_move(index, seat, action)
            for index, (seat, action) in enumerate(self.history[start:], start=start)
        ]

    def score_case(self) -> ScoreCase | None:
        """The finished table as a score case (the score-case format's seats: names,
        arboretums, hands where the rules count them, the draft's rounds); ``case.score()``
        equals :meth:`outcome`. None while the game is being played."""
        if not self.terminal:
            return None
        return ScoreCase(self.game.rules, self.species, tuple(self._score_seats()), self._score_rounds())

    def face_up_hands(self) -> tuple[FaceUpHand, ...]:
        """Every seat's hand (sorted as on screen) and hidden draft pick, nothing hidden. Only
        for showing a game that is over (a replay steps through a finished game's positions,
        which are not over themselves, so the engine cannot check this: the caller must)."""
        hands = self._hands()
        return tuple(
            FaceUpHand(seat, self.names[seat], self.sorted_hand(hands[seat]), self._hidden_pick(seat))
            for seat in range(self.seats)
        )

    @abstractmethod
    def zones(self) -> dict[str, list[Card]]:
        """Every card of the game by where it is (for checks and tests; never shown to a seat)."""
        ...

    def clone(self) -> State:
        """An independent copy (for search: apply actions to it, the original stays as it was)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new.arboretums = [arb.copy() for arb in self.arboretums]
        self._clone_into(new)
        return new

    # -- saving and replaying -------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out = self.game.to_json()
        out["actions"] = [[seat, str(action)] for seat, action in self.history]
        return out

    # -- helpers for subclasses -----------------------------------------------------------
    def sorted_hand(self, cards: list[Card]) -> tuple[Card, ...]:
        """A hand as shown on screen: scorepad order of the species, then value."""
        rank = {name: index for index, name in enumerate(self.species)}
        return tuple(sorted(cards, key=lambda card: (rank.get(card.species, 99), card.value)))

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.names[seat]})"

    def _check_seat_range(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise NotYourTurnError(f"seat {seat!r}: this table has seats 0 to {self.seats - 1}")
        return seat

    def _check_placement(self, seat: int, arboretum: Arboretum, card: Card, cell: Cell, whose: str) -> None:
        if arboretum.is_legal_cell(cell):
            return
        x, y = cell
        if cell in arboretum:
            raise PlacementError(
                f"{self.who(seat)}: cannot put {card} at {x},{y}: {whose} already holds {arboretum[cell]} there"
            )
        raise PlacementError(
            f"{self.who(seat)}: cannot put {card} at {x},{y}: the cell is not next to a card in {whose}"
        )

    # -- hooks ----------------------------------------------------------------------------
    @abstractmethod
    def _hands(self) -> list[list[Card]]:
        """Every seat's hand (in the draft: the hand in front of it); never shown as such."""
        ...

    @abstractmethod
    def _visible_hand(self, seat: int | None) -> tuple[Card, ...] | None:
        """The hand ``seat`` may see (sorted), None if it may see none."""
        ...

    @abstractmethod
    def _viewer_cells(self, seat: int | None) -> list[Cell]:
        """Cells open to ``seat``'s next card now; empty when it is not that seat's move."""
        ...

    def _turn_view(self, seat: int | None) -> TurnView | None:
        return None

    def _draft_view(self, seat: int | None) -> DraftView | None:
        return None

    def _hands_at_end(self) -> tuple[tuple[Card, ...], ...] | None:
        return None

    def _hidden_pick(self, seat: int) -> Pick | None:
        return None

    @abstractmethod
    def _public_move(self, index: int, seat: int, action: Action) -> PublicMove:
        """History entry ``index`` as everyone may know it."""
        ...

    @abstractmethod
    def _score_seats(self) -> list[Seat]:
        """The seats as the rules score them."""
        ...

    def _score_rounds(self) -> int | None:
        return None

    def _score(self) -> TableScore:
        case = self.score_case()
        assert case is not None  # outcome() asks only once the game is over
        return case.score()

    @abstractmethod
    def _clone_into(self, new: State) -> None:
        """Give ``new`` its own copies of the subclass's mutable containers."""
        ...
