"""Solo and practice games in the browser: no event, no sign-in. The person at the screen plays
seat 0; bots play the other seats (solo: Q never acts) and act at once after each of the
person's actions. Stored like a live table (parameters plus action log) behind a private token."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import select as sa_select
from sqlalchemy import update
from sqlmodel import Session, col, select

from engine import Edition, Game, GameSetupError
from engine.bots import BOTS

from ..models import PracticeGame, utcnow
from . import live_log
from .errors import InputError

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
    return practice


def find(session: Session, token: str) -> PracticeGame | None:
    if not token or len(token) > 64:
        return None
    return session.exec(select(PracticeGame).where(PracticeGame.token == token)).first()


def game_of(practice: PracticeGame) -> Game:
    return Game.from_json(practice.game)


def seat_players(practice: PracticeGame) -> list[str | None]:
    # Q (solo seat 1) never acts, so it needs no player
    return [None if kind in (HUMAN, "q") else kind for kind in practice.seat_kinds]


def _loader(session: Session, practice: PracticeGame) -> Callable[[live_log.StoredLog], live_log.Replayed]:
    game = game_of(practice)
    started = practice.created_at.timestamp()
    assert practice.id is not None
    key = live_log.cache_key(session, KIND, practice.id)

    def load(stored: live_log.StoredLog) -> live_log.Replayed:
        return live_log.CACHE.get(key, game, stored.log, stored.version, started)

    return load


def load_state(session: Session, practice: PracticeGame) -> live_log.Replayed:
    assert practice.id is not None
    stored = live_log.read_log(session, PracticeGame, practice.id)
    assert stored is not None
    load = _loader(session, practice)
    replayed = load(stored)
    if not replayed.state.is_terminal():
        # bots that are due (a draft's bots pick as soon as the hands are dealt)
        settled = live_log.settle_bots(session, PracticeGame, practice.id, load, seat_players(practice),
                                       game_of(practice).seed)
        if settled is not None:
            replayed = settled
    return replayed


def act(session: Session, practice: PracticeGame, action_text: str, nonce: str, stamp: int | None) -> live_log.Applied:
    assert practice.id is not None
    applied = live_log.submit(session, PracticeGame, practice.id, _loader(session, practice), 0, action_text, nonce, stamp,
                              seat_players(practice), game_of(practice).seed)
    if applied.changed:
        session.execute(update(PracticeGame).where(col(PracticeGame.id) == practice.id).values(updated_at=utcnow()))
        session.commit()
    return applied


def version_of(session: Session, token: str) -> int | None:
    if not token or len(token) > 64:
        return None
    row = session.execute(sa_select(PracticeGame.log_version).where(col(PracticeGame.token) == token)).first()  # type: ignore[call-overload]
    return None if row is None else int(row[0])


def now() -> float:
    return time.time()
