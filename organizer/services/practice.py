"""Solo and practice games in the browser: no event, no sign-in. The person at the screen plays
seat 0; bots play the other seats (solo: Q never acts) and act at once after each of the
person's actions. Stored like a live table (parameters plus action log) behind a private token."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from engine import Edition, Game, GameSetupError
from engine.bots import BOTS

from ..models import PracticeGame, utcnow
from . import live_log
from .errors import InputError
from .live_games import LiveGame

KIND = "practice"
HUMAN = "human"
MODES = ("solo", "standard", "draft")
MODE_LABELS = {
    "solo": "Solo against Q (The Garden of Non-Forking Paths)",
    "standard": "Standard game against bots",
    "draft": "Draft against bots (Wonders of the Arboretum)",
}
BOT_LABELS = {"heuristic": "Heuristic bot (plays to win)", "random": "Random bot"}


@dataclass(frozen=True)
class PracticeSetup:
    mode: str
    players: int
    edition: str
    bots: tuple[str, ...]
    name: str


def parse_setup(form: Mapping[str, str]) -> PracticeSetup:
    """Read the practice form; raises InputError with a message beside each bad field."""
    errors: dict[str, str] = {}
    mode = form.get("mode", "")
    if mode not in MODES:
        errors["mode"] = "Choose solo, a standard game or a draft."
    edition = form.get("edition", "2018")
    if edition not in ("2018", "2010"):
        errors["edition"] = "Choose the 2018 or the 2010 edition."
    players = 1
    if mode in ("standard", "draft"):
        try:
            players = int(form.get("players", ""))
            if not 2 <= players <= 4:
                raise ValueError
        except ValueError:
            errors["players"] = "A table seats 2, 3 or 4 players."
            players = 2
    bots: list[str] = []
    for seat in range(1, players if mode != "solo" else 1):
        kind = form.get(f"bot_{seat}", "heuristic")
        if kind not in BOTS:
            errors[f"bot_{seat}"] = f"Choose one of: {', '.join(BOTS)}."
        bots.append(kind)
    name = " ".join(form.get("name", "").split()) or "Player"
    if len(name) > 40:
        errors["name"] = "Keep the name to 40 characters."
    if errors:
        raise InputError(errors)
    return PracticeSetup(mode, players, edition, tuple(bots), name)


def create_game(session: Session, setup: PracticeSetup, seed: int | None = None) -> PracticeGame:
    seed = secrets.randbits(48) if seed is None else seed
    if setup.mode == "solo":
        names: tuple[str, ...] = (setup.name, "Q")
        kinds = [HUMAN, "q"]
    else:
        names = (setup.name, *(f"{kind.capitalize()} bot {i + 1}" for i, kind in enumerate(setup.bots)))
        kinds = [HUMAN, *setup.bots]
    try:
        game = Game(mode=setup.mode, players=setup.players, seed=seed, edition=Edition.parse(setup.edition), names=names)
    except GameSetupError as bad:
        raise InputError({"": str(bad)}) from None
    practice = PracticeGame(game=game.to_json(), seat_kinds=kinds, action_log=[], log_version=0)
    session.add(practice)
    session.commit()
    session.refresh(practice)
    settle(session, practice)
    return practice


def find(session: Session, token: str) -> PracticeGame | None:
    if not token or len(token) > 64:
        return None
    return session.exec(select(PracticeGame).where(PracticeGame.token == token)).first()


def game_of(practice: PracticeGame) -> Game:
    return Game.from_json(practice.game)


class PracticeLiveGame(LiveGame):
    """A practice game as a live game: the person plays seat 0, bots the others (solo: Q never
    acts, so it needs no player); no timer, and nothing to record at the end."""

    def __init__(self, practice: PracticeGame) -> None:
        players = [None if kind in (HUMAN, "q") else kind for kind in practice.seat_kinds]
        super().__init__(PracticeGame, KIND, practice.id, game_of(practice), practice.created_at.timestamp(), players)

    def written_with(self) -> dict[str, Any]:
        return {"updated_at": utcnow()}


def load_state(session: Session, practice: PracticeGame) -> live_log.Replayed:
    """The game as stored (nothing played for the bots)."""
    return PracticeLiveGame(practice).load(session)


def view_state(session: Session, practice: PracticeGame) -> tuple[live_log.Replayed, bool]:
    """The game as stored, for the person's screen (a GET: nothing is played here), and whether
    bots owe it a move (then the page sends :func:`settle`)."""
    game = PracticeLiveGame(practice)
    replayed = game.load(session)
    return replayed, game.owes(replayed, time.time())


def settle(session: Session, practice: PracticeGame) -> live_log.Replayed:
    """Play what the bots owe the game now (a draft's bots pick as soon as the hands are dealt);
    on POSTs only: creating the game, the page's tick."""
    return PracticeLiveGame(practice).settle(session)


def version_of(session: Session, token: str) -> int | None:
    if not token or len(token) > 64:
        return None
    row = session.execute(sa_select(PracticeGame.log_version).where(col(PracticeGame.token) == token)).first()  # type: ignore[call-overload]
    return None if row is None else int(row[0])
