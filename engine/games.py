"""The games: a game's parameters (:class:`Game`), the registry of game modes
(:data:`GAME_MODES`) and :func:`replay`.

Each mode is a :class:`~engine.game.State` subclass in a module of its own
(:mod:`engine.standard`, :mod:`engine.draft`, :mod:`engine.solo`); this module imports them all
and names them in one table, so :meth:`Game.new_initial_state` and :func:`replay` find every mode
wherever a game is built."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from .actions import parse_action
from .cards import Card, Edition, choose_species, edition_species, make_deck, species_count
from .draft import DraftState
from .errors import ArboretumError, CaseError, GameSetupError
from .game import Q_BY_PLAYER, Q_BY_RULE, Q_PLACES, State
from .scoring import default_draft_rounds
from .solo import SoloState
from .standard import StandardState

#: mode name -> its State subclass
GAME_MODES: dict[str, type[State]] = {"standard": StandardState, "draft": DraftState, "solo": SoloState}
#: the mode names, in the order above
MODES = tuple(GAME_MODES)


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
    #: solo only: who places the cards given to Q. "rule" (the default, RULES.md §4): Q places
    #: each card itself by the fixed rule; "player": the player chooses the cell (the gentler
    #: variant). A saved solo game without the key is read as "player".
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
                # a saved solo game without the key is one where the player placed Q's cards
                q_places=obj.get("q_places", Q_BY_PLAYER if obj["mode"] == "solo" else None),
            )
        except GameSetupError as exc:
            raise CaseError(f"saved game: {exc}") from None


def replay(obj: Any) -> State:
    """Rebuild a saved game (the JSON of :meth:`State.to_json`) by replaying its actions; a bad
    save raises CaseError naming the action index."""
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
