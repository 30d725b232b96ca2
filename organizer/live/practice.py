"""Solo and practice games in the browser: no event, no sign-in. The person at the screen plays
seat 0; bots play the other seats (solo: Q never acts) and act at once after each of the
person's actions. Stored like a live table (parameters plus action log) behind a private token."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from engine import Edition, Game, GameSetupError
from engine.bots import BOTS
from engine.game import Q_BY_PLAYER, Q_BY_RULE
from organizer.core import rate_windows
from organizer.core.errors import InputError
from organizer.core.models import PracticeGame, utcnow
from organizer.core.translate import N_, _, ngettext
from organizer.live import log as live_log
from organizer.live.games import LiveGame

KIND = "practice"
HUMAN = "human"
MODES = ("solo", "standard", "draft")
#: each mode's name (translated where shown: :func:`mode_label`)
MODE_LABELS = {
    "solo": N_("Solo against Q (The Garden of Non-Forking Paths)"),
    "standard": N_("Standard game against bots"),
    "draft": N_("Draft against bots (Wonders of the Arboretum)"),
}
#: what each mode asks of the player, in a line, beside its choice on the form
MODE_HELP = {
    "solo": N_("You against Q, a rival that never takes a turn: each turn you give Q a card of your hand and Q "
               "plants it by a fixed rule. You win with more points than Q and points in at least as many "
               "species."),
    "standard": N_("The usual game for 2 to 4 players: draw two cards, plant one, discard one. The bots play the "
                   "other seats."),
    "draft": N_("Everyone picks a card from the hand in front of them at the same time, plants or discards it, "
                "and passes the rest on. The bots play the other seats."),
}
#: the bots a practice seat may have, by the name stored in ``seat_kinds``: the three levels (the
#: normal level keeps its stored name "heuristic", so older games and links read the same), then
#: the random bot (translated where shown: :func:`bot_choices`)
BOT_LABELS = {"easy": N_("Easy (misses the best move now and then)"),
              "heuristic": N_("Normal (plays to win)"),
              "strong": N_("Strong (thinks about a second a move)"),
              "random": N_("Random (plays any legal move)")}
#: how a bot seat is named at the table (written into the game when it is dealt)
BOT_NAMES = {"easy": N_("Easy bot %(number)d"), "heuristic": N_("Normal bot %(number)d"),
             "normal": N_("Normal bot %(number)d"), "strong": N_("Strong bot %(number)d"),
             "random": N_("Random bot %(number)d")}
#: a bot level's short name, for the form's error message
BOT_LEVELS = {"easy": N_("easy"), "heuristic": N_("normal"), "strong": N_("strong"), "random": N_("random")}
#: solo: who places the cards given to Q (RULES.md §4): Q by its rule, or the gentler variant
Q_PLACES = {Q_BY_RULE: N_("Q places its own cards (standard)"), Q_BY_PLAYER: N_("You place Q's cards (gentler)")}
#: what each way asks of the player, beside its choice on the form
Q_PLACES_HELP = {Q_BY_RULE: N_("Q plants each card you give it where its paths gain the most: you choose only the card."),
                 Q_BY_PLAYER: N_("You choose the card and the cell of Q's arboretum it goes to: easier to keep Q "
                                 "from scoring.")}
#: the editions, as the form offers them
EDITIONS = {"2018": N_("2018 edition (Renegade Game Studios)"), "2010": N_("2010 edition (the first)")}


def mode_label(mode: str) -> str:
    """A mode's name in the current language ("Standard game against bots")."""
    return _(MODE_LABELS[mode]) if mode in MODE_LABELS else mode


def mode_choices() -> list[tuple[str, str, str]]:
    """The form's game choices: (mode, name, what it asks), translated."""
    return [(mode, _(MODE_LABELS[mode]), _(MODE_HELP[mode])) for mode in MODES]


def bot_choices() -> dict[str, str]:
    """The form's bot choices by stored kind, translated."""
    return {kind: _(label) for kind, label in BOT_LABELS.items()}


def q_places_choices() -> list[tuple[str, str, str]]:
    """The solo form's choices of who places Q's cards: (value, name, what it asks), translated."""
    return [(key, _(label), _(Q_PLACES_HELP[key])) for key, label in Q_PLACES.items()]


def edition_choices() -> dict[str, str]:
    return {edition: _(label) for edition, label in EDITIONS.items()}


@dataclass(frozen=True)
class PracticeSetup:
    mode: str
    players: int
    edition: str
    bots: tuple[str, ...]
    name: str
    #: solo: who places the cards given to Q ("rule" or "player"); None in the other modes
    q_places: str | None = None


def parse_setup(form: Mapping[str, str]) -> PracticeSetup:
    """Read the practice form; raises InputError with a message beside each bad field."""
    errors: dict[str, str] = {}
    mode = form.get("mode", "")
    if mode not in MODES:
        errors["mode"] = _("Choose solo, a standard game or a draft.")
    edition = form.get("edition", "2018")
    if edition not in ("2018", "2010"):
        errors["edition"] = _("Choose the 2018 or the 2010 edition.")
    players = 1
    if mode in ("standard", "draft"):
        try:
            players = int(form.get("players", ""))
            if not 2 <= players <= 4:
                raise ValueError
        except ValueError:
            errors["players"] = _("A table seats 2, 3 or 4 players.")
            players = 2
    bots: list[str] = []
    for seat in range(1, players if mode != "solo" else 1):
        kind = form.get(f"bot_{seat}", "heuristic")
        if kind not in BOTS:
            errors[f"bot_{seat}"] = _("Choose one of: %(levels)s.",
                                      levels=", ".join(_(level) for level in BOT_LEVELS.values()))
        kind = "heuristic" if kind == "normal" else kind
        bots.append(kind)
    q_places = None
    if mode == "solo":
        q_places = form.get("q_places", "") or Q_BY_RULE
        if q_places not in Q_PLACES:
            errors["q_places"] = _("Choose who places Q's cards: Q itself, or you.")
    name = " ".join(form.get("name", "").split()) or _("Player")
    if len(name) > 40:
        errors["name"] = _("Keep the name to 40 characters.")
    if errors:
        raise InputError(errors)
    return PracticeSetup(mode, players, edition, tuple(bots), name, q_places)


def _new_game(setup: PracticeSetup, seed: int | None) -> tuple[Game, list[str]]:
    """The engine's game and who plays each seat; raises InputError when the engine refuses."""
    seed = secrets.randbits(48) if seed is None else seed
    if setup.mode == "solo":
        names: tuple[str, ...] = (setup.name, "Q")
        kinds = [HUMAN, "q"]
    else:
        names = (setup.name, *(_(BOT_NAMES[kind], number=i + 1) if kind in BOT_NAMES
                               else f"{kind.capitalize()} {i + 1}" for i, kind in enumerate(setup.bots)))
        kinds = [HUMAN, *setup.bots]
    try:
        game = Game(mode=setup.mode, players=setup.players, seed=seed, edition=Edition.parse(setup.edition), names=names,
                    q_places=setup.q_places)
    except GameSetupError as bad:
        raise InputError({"": _("The game could not be dealt: %(detail)s", detail=str(bad))}) from None
    return game, kinds


def create_game(session: Session, setup: PracticeSetup, seed: int | None = None,
                dealt: tuple[Game, list[str]] | None = None) -> PracticeGame:
    """Store a new practice game (no limits: :func:`start_game` is the public way in) and play
    what its bots owe at once."""
    game, kinds = _new_game(setup, seed) if dealt is None else dealt
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

    def on_finish(self, session: Session, replayed: live_log.Replayed) -> None:
        # the end is kept 30 days (see prune); a conditional UPDATE, so calling again is harmless
        session.execute(update(PracticeGame).where(col(PracticeGame.id) == self.row_id,
                                                   col(PracticeGame.finished_at).is_(None))
                        .values(finished_at=utcnow()))
        session.commit()


def load_state(session: Session, practice: PracticeGame) -> live_log.Replayed:
    """The game as stored (nothing played for the bots)."""
    return PracticeLiveGame(practice).load(session)


def view_state(session: Session, practice: PracticeGame) -> tuple[live_log.Replayed, bool]:
    """The game as stored, for the person's screen (a GET: nothing is played here), and whether
    bots owe it a move (then the page sends :func:`settle`)."""
    game = PracticeLiveGame(practice)
    replayed = game.load(session)
    return replayed, game.owes(replayed, time.time())


def owes(practice: PracticeGame, replayed: live_log.Replayed) -> bool:
    """Whether the bots owe the game a move in ``replayed`` (a state an action or a tick just
    wrote: a strong bot may leave moves owed, which the screen's tick then plays)."""
    return PracticeLiveGame(practice).owes(replayed, time.time())


def settle(session: Session, practice: PracticeGame) -> live_log.Replayed:
    """Play what the bots owe the game now (a draft's bots pick as soon as the hands are dealt);
    on POSTs only: creating the game, the page's tick."""
    return PracticeLiveGame(practice).settle(session)


def version_of(session: Session, token: str) -> int | None:
    if not token or len(token) > 64:
        return None
    row = session.execute(sa_select(PracticeGame.log_version).where(col(PracticeGame.token) == token)).first()  # type: ignore[call-overload]
    return None if row is None else int(row[0])


# -- limits: per client address, the total, and pruning --------------------------------

#: an unfinished game untouched this long is deleted; a finished one this long after its end
IDLE_UNFINISHED = timedelta(hours=24)
KEEP_FINISHED = timedelta(days=30)
#: when the store is full, pruning runs again at most this often
FULL_PRUNE_SECONDS = 60


@dataclass(frozen=True)
class PracticeLimits:
    #: practice games one client address may start per window
    per_address: int = 20
    window_seconds: int = 600
    #: practice games stored at most (a creation is refused when full, after pruning)
    max_games: int = 10_000
    #: the app prunes on its own at most this often (on a creation)
    prune_every_seconds: int = 3600

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> PracticeLimits:
        """From the app's settings ``PRACTICE_PER_ADDRESS``, ``PRACTICE_WINDOW_SECONDS``,
        ``PRACTICE_MAX_GAMES``, ``PRACTICE_PRUNE_SECONDS`` (``ORGANIZER_...`` in the environment)."""
        base = cls()
        return cls(int(config.get("PRACTICE_PER_ADDRESS", base.per_address)),
                   int(config.get("PRACTICE_WINDOW_SECONDS", base.window_seconds)),
                   int(config.get("PRACTICE_MAX_GAMES", base.max_games)),
                   int(config.get("PRACTICE_PRUNE_SECONDS", base.prune_every_seconds)))


class PracticeRefused(Exception):
    """No practice game was created; the message says why and when to try again."""

    def __init__(self, message: str, retry_after: int, status: int, until: datetime | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        #: 429 (this address started too many) or 503 (the store is full)
        self.status = status
        #: 429: when the address's window ends; until then every creation from it is refused
        self.until = until


def too_many_from_address(limits: PracticeLimits, wait: str) -> str:
    """The 429's sentence, ``wait`` (when to try again) already in words (:func:`wait_in_words`)."""
    return _("Too many practice games from your address: %(limit)d in %(window)s is the limit. Try again in "
             "%(wait)s; the games you started are still at their links.", limit=limits.per_address,
             window=wait_in_words(limits.window_seconds), wait=wait)


def wait_in_words(seconds: int) -> str:
    """A wait in the current language: seconds up to 89, then minutes, then hours."""
    if seconds < 90:
        return ngettext("%(num)d second", "%(num)d seconds", seconds)
    minutes = round(seconds / 60)
    if minutes < 90:
        return ngettext("%(num)d minute", "%(num)d minutes", minutes)
    return ngettext("%(num)d hour", "%(num)d hours", round(minutes / 60))


def stored_games(session: Session) -> int:
    return int(session.execute(sa_select(func.count()).select_from(PracticeGame)).scalar_one())


def start_game(session: Session, setup: PracticeSetup, client: str, limits: PracticeLimits,
               now: datetime | None = None) -> PracticeGame:
    """A new practice game for ``client`` (its address), within the limits: raises
    :class:`PracticeRefused` when the address started its share in this window, or when the store
    is full even after pruning. Prunes now and then on its own (claimed, so one process does)."""
    now = utcnow() if now is None else now
    dealt = _new_game(setup, None)  # a setup the engine refuses is refused before anything is counted
    claim = rate_windows.claim(session, f"practice:{client[:100]}", limits.per_address, limits.window_seconds, now)
    if not claim.allowed:
        raise PracticeRefused(too_many_from_address(limits, wait_in_words(claim.retry_after)), claim.retry_after, 429,
                              claim.ends_at)
    if rate_windows.claim(session, "practice:prune", 1, limits.prune_every_seconds, now).allowed:
        prune(session, now)
    if stored_games(session) >= limits.max_games:
        if rate_windows.claim(session, "practice:prune-full", 1, FULL_PRUNE_SECONDS, now).allowed:
            prune(session, now)
        if stored_games(session) >= limits.max_games:
            raise PracticeRefused(
                _("The practice room is full (%(games)d games are stored); nothing was created. Try again in an "
                  "hour, when old games have been cleared.", games=limits.max_games), 3600, 503)
    return create_game(session, setup, dealt=dealt)


@dataclass(frozen=True)
class Pruned:
    unfinished: int
    finished: int
    windows: int


#: games looked at per batch when telling old finished games (stored before finished_at) apart
PRUNE_BATCH = 500


def prune(session: Session, now: datetime | None = None) -> Pruned:
    """Delete practice games idle for 24 hours without finishing and those finished 30 days
    ago, and rate windows over a day old. A game stored before its end was recorded
    (``finished_at``) is replayed once, when idle for a day, to tell which it is."""
    now = utcnow() if now is None else now
    idle_before = now - IDLE_UNFINISHED
    unfinished = int(session.execute(  # never played: nothing to replay
        delete(PracticeGame).where(col(PracticeGame.finished_at).is_(None), col(PracticeGame.log_version) == 0,
                                   col(PracticeGame.updated_at) < idle_before)
    ).rowcount)  # type: ignore[attr-defined]
    session.commit()
    after = 0
    while True:
        rows = session.exec(
            select(PracticeGame).where(col(PracticeGame.finished_at).is_(None), col(PracticeGame.updated_at) < idle_before,
                                       col(PracticeGame.id) > after)
            .order_by(col(PracticeGame.id)).limit(PRUNE_BATCH)
        ).all()
        if not rows:
            break
        gone: list[int] = []
        for row in rows:
            assert row.id is not None
            after = row.id
            state = live_log.replay(game_of(row), row.action_log, row.log_version, 0.0).state
            if state.is_terminal():
                row.finished_at = row.updated_at
                session.add(row)
            else:
                gone.append(row.id)
        if gone:
            session.execute(delete(PracticeGame).where(col(PracticeGame.id).in_(gone)))
        session.commit()
        unfinished += len(gone)
    finished = int(session.execute(
        delete(PracticeGame).where(col(PracticeGame.finished_at) < now - KEEP_FINISHED)
    ).rowcount)  # type: ignore[attr-defined]
    session.commit()
    windows = rate_windows.forget_before(session, now - timedelta(days=1))
    return Pruned(unfinished, finished, windows)
