"""Whole games as state machines, one interface for every mode.

A :class:`Game` is a game's parameters (mode, players, edition, seed, species, names); its
:meth:`Game.new_initial_state` deals the cards from the seed. A :class:`State` is driven by
actions in the style of OpenSpiel: :meth:`State.current_player` (a seat, or
:data:`SIMULTANEOUS` while a draft awaits picks, or :data:`TERMINAL`),
:meth:`State.legal_actions` and :meth:`State.apply_action`, which validates before it changes
anything. :meth:`State.view` gives one seat exactly what that seat may see. A game is saved as
its parameters plus its action log (:meth:`State.to_json`) and rebuilt by replaying it
(:meth:`State.from_json`). Each mode is a small subclass overriding a few hooks; defining
one registers it in :data:`GAME_MODES` under its ``mode``.

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

import functools
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar

from .actions import Action, Pick, parse_action
from .arboretum import Arboretum, Cell
from .cards import Card, Edition, choose_species, edition_species, make_deck, species_count
from .case import ScoreCase
from .errors import (
    ArboretumError,
    CaseError,
    GameSetupError,
    IllegalActionError,
    NotYourTurnError,
    PlacementError,
    StaleActionError,
)
from .scoring import Seat, TableScore, default_draft_rounds
from .views import DraftView, FaceUpHand, Phase, Progress, PublicMove, SeatInfo, SeatView, TurnView, planted

#: ``current_player()`` while a draft awaits every seat's hidden pick.
SIMULTANEOUS = -2
#: ``current_player()`` once the game is over.
TERMINAL = -4

MODES = ("standard", "draft", "solo")
#: solo: Q places each card given to it by the rule of RULES.md §4 / the player chooses the cell
Q_BY_RULE = "rule"
Q_BY_PLAYER = "player"
Q_PLACES = (Q_BY_RULE, Q_BY_PLAYER)
#: mode name -> its State subclass; a subclass that sets ``mode`` registers itself on definition
#: (``engine/__init__.py`` imports every mode, so the registry is full whenever engine is imported)
GAME_MODES: dict[str, type[State]] = {}


@functools.lru_cache(maxsize=64)
def _deck_of(species: tuple[str, ...]) -> tuple[Card, ...]:
    # cards are immutable, so games with the same species share one set of card objects
    return tuple(make_deck(species))


@functools.lru_cache(maxsize=16)
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """(i, i + 1, the bits drawn for a number below i + 1) for i from size - 1 down to 1."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


@dataclass(frozen=True)
class Game:
    """A game's parameters. Species not named are drawn from the seed (RULES.md §1 decision);
    names default to "Player 1", ... (solo: the player, then "Q")."""

    mode: str
    players: int
    seed: int = 0
    edition: Edition = Edition.E2018
    species: tuple[str, ...] | None = None
    left_out: tuple[str, ...] | None = None
    names: tuple[str, ...] | None = None
    #: solo only: who places the cards given to Q. "rule" (the default since RULES.md §4 was
    #: revised): Q places each card itself by the fixed rule; "player": the player chooses the
    #: cell (the gentler variant). A saved solo game without the key is of the old form, "player".
    q_places: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise GameSetupError(f"mode {self.mode!r}: expected standard, draft or solo")
        if type(self.players) is not int:
            raise GameSetupError(f"players {self.players!r}: expected a whole number")
        try:
            count = species_count(self.mode, self.players)
        except ArboretumError as exc:
            raise GameSetupError(str(exc)) from None
        if type(self.seed) is not int:
            raise GameSetupError(f"seed {self.seed!r}: expected a whole number")
        try:
            edition = Edition.parse(self.edition)
        except ArboretumError as exc:
            raise GameSetupError(str(exc)) from None
        if self.species is not None and self.left_out is not None:
            raise GameSetupError("name either the species in play or the species left out, not both")
        for key in ("species", "left_out"):
            value = getattr(self, key)
            if value is not None and (isinstance(value, str) or not all(isinstance(s, str) for s in value)):
                raise GameSetupError(f"{key} {value!r}: expected a list of species names")
        try:
            if self.species is None and self.left_out is None and count == len(edition_species(edition)):
                # every species is in play: nothing to draw (choose_species would draw all of them)
                species = edition_species(edition)
            else:
                species = choose_species(
                    edition,
                    count,
                    random.Random(self.seed) if self.species is None and self.left_out is None else None,
                    left_out=list(self.left_out) if self.left_out is not None else None,
                    in_play=list(self.species) if self.species is not None else None,
                )
        except ArboretumError as exc:
            raise GameSetupError(f"{self.mode} game for {self.players} players: {exc}") from None
        seats = self.players + 1 if self.mode == "solo" else self.players
        names = self.names
        if names is None:
            names = ("Player 1", "Q") if self.mode == "solo" else tuple(f"Player {i + 1}" for i in range(seats))
        else:
            if isinstance(names, str) or not all(isinstance(n, str) and n.strip() for n in names):
                raise GameSetupError(f"names {names!r}: expected a list of non-empty names")
            names = tuple(n.strip() for n in names)
            if self.mode == "solo" and len(names) == 1:
                names = names + ("Q",)
            if len(names) != seats:
                raise GameSetupError(f"{len(names)} names given for {seats} seats")
            for i, name in enumerate(names):
                if name in names[:i]:
                    raise GameSetupError(f"seat {i}: the name {name!r} is used twice at this table")
        q_places = self.q_places
        if self.mode == "solo":
            q_places = Q_BY_RULE if q_places is None else q_places
            if q_places not in Q_PLACES:
                raise GameSetupError(f"q_places {q_places!r}: expected 'rule' (Q places its cards) or 'player'")
        elif q_places is not None:
            raise GameSetupError(f"q_places {q_places!r}: only the solo game gives cards to Q")
        object.__setattr__(self, "q_places", q_places)
        object.__setattr__(self, "edition", edition)
        object.__setattr__(self, "species", species)
        object.__setattr__(self, "left_out", tuple(s for s in edition_species(edition) if s not in species))
        object.__setattr__(self, "names", names)

    # -- derived --------------------------------------------------------------------------
    @property
    def seats(self) -> int:
        """Seats at the table: the players, plus Q in the solo game."""
        return self.players + 1 if self.mode == "solo" else self.players

    @property
    def rounds(self) -> int:
        """Draft rounds (3, or 2 with four players); 1 for the other modes."""
        return default_draft_rounds(self.players) if self.mode == "draft" else 1

    @property
    def rules(self) -> str:
        """The scoring rule set (see :func:`engine.scoring.rules_for`)."""
        if self.mode == "standard":
            return "standard-2010" if self.edition == Edition.E2010 else "standard-2018"
        return self.mode

    def shuffled_deck(self) -> list[Card]:
        """Every card in play, shuffled by the seed. The species are chosen with their own
        generator, so naming them or drawing them from the same seed deals the same cards."""
        deck = list(_deck_of(self.species or ()))
        # random.Random(seed).shuffle(deck) written out (a deal per simulated game): the same
        # swaps, each j drawn as Random._randbelow(i + 1) draws it, without a call per card
        getrandbits = random.Random(self.seed).getrandbits
        for i, n, k in _shuffle_steps(len(deck)):
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    def new_initial_state(self) -> State:
        if self.mode not in GAME_MODES:
            from . import games  # noqa: F401  (defining the mode classes registers them)
        try:
            state_class = GAME_MODES[self.mode]
        except KeyError:
            raise GameSetupError(f"mode {self.mode!r}: no game of that mode is registered") from None
        return state_class(self)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.mode,
            "players": self.players,
            "edition": self.edition.value,
            "seed": self.seed,
            "species": list(self.species or ()),
            "names": list(self.names or ()),
        }
        if self.q_places is not None:
            out["q_places"] = self.q_places
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Game:
        if not isinstance(obj, dict):
            raise CaseError("a saved game must be a JSON object")
        for key in ("mode", "players", "seed"):
            if key not in obj:
                raise CaseError(f"saved game: missing {key!r}")
        try:
            return cls(
                mode=obj["mode"],
                players=obj["players"],
                seed=obj["seed"],
                edition=obj.get("edition", "2018"),
                species=tuple(obj["species"]) if isinstance(obj.get("species"), list) else obj.get("species"),
                names=tuple(obj["names"]) if isinstance(obj.get("names"), list) else obj.get("names"),
                # a solo game saved before Q placed its own cards has no key: the player placed them
                q_places=obj.get("q_places", Q_BY_PLAYER if obj["mode"] == "solo" else None),
            )
        except GameSetupError as exc:
            raise CaseError(f"saved game: {exc}") from None


class State(ABC):
    """The state of one game. Subclasses implement the hooks marked below."""

    mode: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "mode" in cls.__dict__:
            GAME_MODES[cls.mode] = cls

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

    @staticmethod
    def from_json(obj: Any) -> State:
        """Rebuild a saved game by replaying its actions; a bad save raises CaseError naming
        the action index."""
        game = Game.from_json(obj)
        unknown = set(obj) - {"mode", "players", "edition", "seed", "species", "names", "q_places", "actions"}
        if unknown:
            raise CaseError(f"saved game: unknown key(s) {', '.join(sorted(unknown))}")
        actions = obj.get("actions", [])
        if not isinstance(actions, list):
            raise CaseError("saved game: actions must be a list of [seat, action text]")
        state = game.new_initial_state()
        for index, entry in enumerate(actions):
            if (
                not isinstance(entry, list)
                or len(entry) != 2
                or type(entry[0]) is not int
                or not isinstance(entry[1], str)
            ):
                raise CaseError(f"saved game: actions[{index}] {entry!r}: expected [seat, action text]")
            seat, text = entry
            try:
                state.apply_action(parse_action(text), seat)
            except ArboretumError as exc:
                raise CaseError(f"saved game: actions[{index}] (seat {seat}, {text!r}): {exc}") from None
        return state

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


def replay(obj: Any) -> State:
    """Rebuild a saved game (the JSON of :meth:`State.to_json`) by replaying it."""
    return State.from_json(obj)


__all__ = [
    "GAME_MODES", "Game", "GameSetupError", "MODES", "Q_BY_PLAYER", "Q_BY_RULE", "Q_PLACES", "SIMULTANEOUS",
    "StaleActionError", "State", "TERMINAL", "replay",
]
