"""Replays of finished digital games, move by move, every hand shown.

A replay shows every hand and hidden draft pick at every step, so it is offered only once the
whole game is over: each lookup below returns None for a game that is not (the page is then a
404, as for a game that does not exist). Pure of Flask: the view builds the URLs."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from babel import numbers
from sqlmodel import Session

from engine import ArboretumError, Card, Discard, Draw, Game, Pick, Play, State, parse_action
from engine.bots import DEFAULT_PLAYOUTS, StrongBot
from engine.bots.search import Reason
from organizer.core.models import Event, GameTable, Round
from organizer.core.translate import _, current_locale, format_list, format_number, round_name, species_name
from organizer.live import log as live_log
from organizer.live import practice as practice_service
from organizer.live import seats as live_seats
from organizer.live import tables as live_tables
from organizer.live.view import CardFace, MoveLine, Screen, build_screen, face


@dataclass(frozen=True)
class ReplayMove:
    """One move of a replay, told as a sentence by the template (``replay_line`` in
    templates/live/live_replay.html, over the seat screen's ``move_line``). The game is over,
    so every card is named, a draw's and a hidden draft pick's too. Besides the seat screen's
    kinds, ``line.kind`` may be ``pick_plant`` or ``pick_discard`` (a draft pick as chosen, before
    its reveal). ``by``: "bot", "timer" (the pick timer chose) or "" (the person)."""

    number: int
    line: MoveLine
    by: str = ""


@dataclass(frozen=True)
class ReplayPage:
    """One step of a replay: the table after ``step`` of ``total`` moves."""

    title: str
    screen: Screen
    #: every seat's hand at this step: (name, cards, its hidden draft pick or None: (card, True
    #: when it is to be planted, False when to be discarded face down))
    hands: list[tuple[str, list[CardFace], tuple[CardFace, bool] | None]]
    step: int
    total: int
    #: every move of the game, numbered from 1
    moves: list[ReplayMove]
    #: why a bot made move ``step``, in one line ("" for a person's move)
    why: str = ""
    #: the seat of the person looking (a seat's or a practice game's replay), so the end of the
    #: game can say "you: 31 points, place 2 of 4"; None for the organizer's replay
    reader: int | None = None


#: the strong bot's budget when a replay asks it again why it moved (no time cap, so the same
#: seed gives the same search as at the table unless the table's 1-second cap cut it short)
EXPLAIN_PLAYOUTS = DEFAULT_PLAYOUTS


def _card_words(card: Card) -> str:
    return f"{species_name(card.species)} {card.value}"


def action_words(text: str, names: Sequence[str]) -> str:
    """An action as the engine writes it ("play Oak 3 at 0,1") in the reader's words ("plant Oak
    3 at 0, 1", species translated), for the bot's reasons; the engine's text if it is no action."""
    try:
        action = parse_action(text)
    except ArboretumError:
        return text
    if isinstance(action, Draw):
        source = action.source
        if source == "deck":
            return _("draw from the draw pile")
        if type(source) is int and 0 <= source < len(names):
            return _("take the top card of the discard pile of %(name)s", name=names[source])
        return _("take the top card of the discard pile")
    card = _card_words(action.card)
    if isinstance(action, Play):
        return _("plant %(card)s at %(x)d, %(y)d", card=card, x=action.cell[0], y=action.cell[1])
    if isinstance(action, Discard):
        return _("discard %(card)s", card=card)
    if isinstance(action, Pick):
        if action.cell is None:
            return _("pick %(card)s to discard face down", card=card)
        return _("pick %(card)s to plant at %(x)d, %(y)d", card=card, x=action.cell[0], y=action.cell[1])
    if action.cell is None:
        return _("give Q %(card)s", card=card)
    return _("give Q %(card)s to plant at %(x)d, %(y)d", card=card, x=action.cell[0], y=action.cell[1])


def explain(before: State, seat: int, logged: str, kind: str | None) -> str:
    """Why the bot at ``seat`` played ``logged`` in the position ``before``, in one line. The
    strong bot is asked again with the seed the table gave it (``live_log.bot_entries``): what it
    compared, in :func:`reason_words`."""
    if kind == "random":
        return _("The random bot: any legal move.")
    if kind == "easy":
        return _("The easy bot: the move it rates best, or now and then one of its next two.")
    if kind != "strong":
        return _("The normal bot: the move it rates best.")
    bot = StrongBot(iterations=EXPLAIN_PLAYOUTS, seconds=None)
    rng = random.Random(f"arboretum-live-bot:{before.game.seed}:{before.version}:{seat}")
    chosen = bot.choose(before, seat, rng)
    reason = bot.last_reason
    names = list(before.names)
    if not isinstance(reason, Reason):
        return _("The strong bot: the move it rates best.")
    text = reason_words(reason, names)
    if str(chosen) != logged:
        text += " " + _("(At the table its time cap cut the search short; asked again it prefers %(move)s.)",
                        move=action_words(str(chosen), names))
    return text


def _percent(share: float) -> str:
    """A share as the reader's language writes a percentage ("62 %" in German, "62%" in English)."""
    return numbers.format_percent(round(share, 2), locale=current_locale())


def reason_words(reason: Reason, names: Sequence[str]) -> str:
    """The strong bot's reason (the engine's numbers) as sentences in the reader's language: the
    move it played, what it compared it with and by how much, whom it assumed it played against,
    and in the draft what it read from the others' passing."""
    move = action_words(reason.action, names)
    if reason.playouts == 0:
        if reason.runner_up is None:
            return _("The strong bot: %(move)s was its only sensible move.", move=move)
        return _("The strong bot plays the early turns by its rules without searching: they rate %(move)s best, "
                 "ahead of %(other)s.", move=move, other=action_words(reason.runner_up, names))
    futures = format_number(reason.playouts)
    if reason.runner_up is None or reason.runner_up_wins is None or reason.runner_up_points is None:
        return _("The strong bot: %(move)s was the only move worth trying; it won %(wins)s of %(futures)s sampled "
                 "futures.", move=move, wins=_percent(reason.wins), futures=futures)
    other = action_words(reason.runner_up, names)
    parts = [_("The strong bot compared %(count)s moves in %(futures)s sampled futures of this game: %(move)s won "
               "%(wins)s of them, with %(points)s points on average.", count=format_number(reason.candidates),
               futures=futures, move=move, wins=_percent(reason.wins), points=format_number(round(reason.points, 1)))]
    difference = format_number(abs(round(reason.points - reason.runner_up_points, 1)))
    if reason.kept_rating:
        parts.append(_("The next best, %(other)s, did a little better in these few futures (won %(wins)s), but not "
                       "clearly enough to leave the move its rules rate first.", other=other,
                       wins=_percent(reason.runner_up_wins)))
    elif reason.runner_up_points <= reason.points:
        parts.append(_("The next best, %(other)s, won %(wins)s and scored %(points)s points less.", other=other,
                       wins=_percent(reason.runner_up_wins), points=difference))
    else:
        parts.append(_("The next best, %(other)s, won %(wins)s: it scored %(points)s points more but won less "
                       "often.", other=other, wins=_percent(reason.runner_up_wins), points=difference))
    if reason.collecting:
        read = [_("%(name)s seems to collect %(species)s", name=names[seat] if seat < len(names) else str(seat),
                  species=format_list([species_name(name) for name in species]))
                for seat, species in reason.collecting]
        parts.append(_("It dealt the cards it has not seen by what the others took and passed on: %(read)s.",
                       read=format_list(read)))
    if reason.opponents_mixed:
        parts.append(_("It played the others as a mix of careful and careless players, not as copies of itself."))
    return " ".join(parts)


def replay_step(game: Game, log: Sequence[Sequence[Any]], step: int | None, path_species: str,
                title: str, kinds: Sequence[str | None] = (), reader: int | None = None) -> ReplayPage:
    """The finished game ``game`` with its whole ``log``, shown after ``step`` moves (None: the
    end; out of range: clamped). ``kinds``: the bot kind of each seat where known (practice
    games), so the strong bot's moves can say why."""
    total = len(log)
    step = total if step is None else max(0, min(step, total))
    state = live_log.replay(game, log[:step], step, 0.0).state
    # the whole game is over (the callers checked): a replay may show every hand, Q's too
    hands = [(hand.name, [face(card) for card in hand.cards],
              None if hand.pending is None else (face(hand.pending.card), hand.pending.cell is not None))
             for hand in state.face_up_hands()]
    moves = replay_moves(game, log, reader)
    why = ""
    if step and str(log[step - 1][2]).startswith("bot:"):
        seat = int(log[step - 1][0])
        # the entry names the bot that moved ("bot:V:S:strong"); older entries: the seat's kind
        named = str(log[step - 1][2]).split(":")
        kind = named[3] if len(named) > 3 else kinds[seat] if seat < len(kinds) else None
        before = live_log.replay(game, log[:step - 1], step - 1, 0.0).state if kind == "strong" else state
        why = explain(before, seat, str(log[step - 1][1]), kind)
    return ReplayPage(title, build_screen(state.view(None), path_species), hands, step, total, moves, why, reader)


def replay_moves(game: Game, log: Sequence[Sequence[Any]], reader: int | None = None) -> list[ReplayMove]:
    """Every move of the finished game ``game`` as lines to tell, for ``reader`` (the seat whose
    moves say "you"; None: nobody). Only for a game that is over: a draw names the card drawn (found
    by replaying the log and comparing the hand before and after) and a draft pick names its card."""
    state = game.new_initial_state()
    names = list(state.names)
    lines = []
    for index, entry in enumerate(log, start=1):
        seat = int(entry[0])
        action = parse_action(str(entry[1]))
        before = Counter(state.face_up_hands()[seat].cards) if isinstance(action, Draw) else Counter()
        state.apply_action(action, seat)
        mine, name = seat == reader, names[seat]
        line: MoveLine
        if isinstance(action, Draw):
            gained = list((Counter(state.face_up_hands()[seat].cards) - before).elements())
            card = face(gained[0]) if gained else None
            source = action.source
            if source == "deck":
                line = MoveLine("draw_deck", mine, name, card)
            elif type(source) is int and source == seat:
                line = MoveLine("draw_own_pile", mine, name, card)
            elif type(source) is int:
                line = MoveLine("draw_pile", mine, name, card, "" if source == reader else names[source])
            else:
                line = MoveLine("draw_solo_pile", mine, name, card)
        elif isinstance(action, Pick):
            line = MoveLine("pick_plant" if action.cell is not None else "pick_discard", mine, name, face(action.card))
        elif isinstance(action, Play):
            line = MoveLine("play", mine, name, face(action.card))
        elif isinstance(action, Discard):
            line = MoveLine("discard", mine, name, face(action.card))
        else:  # a card given to Q
            line = MoveLine("give", mine, name, face(action.card))
        nonce = str(entry[2])
        by = "bot" if nonce.startswith("bot:") else "timer" if nonce.startswith("timer:") else ""
        lines.append(ReplayMove(index, line, by))
    return lines


def _finished_log(replayed: live_log.Replayed) -> list[list[Any]] | None:
    if not replayed.state.is_terminal():
        return None
    return [list(entry) for entry in replayed.entries]


def _table_replay(session: Session, table: GameTable, step: int | None, path_species: str,
                  title: str, reader: int | None = None) -> ReplayPage | None:
    if table.game is None or table.log_version == 0:
        return None
    log = _finished_log(live_tables.load_state(session, table))
    if log is None:
        return None
    return replay_step(live_tables.game_of(table), log, step, path_species, title, reader=reader)


def for_seat(session: Session, token: str, step: int | None, path_species: str) -> ReplayPage | None:
    """The replay behind a seat's token, once its table's game is over."""
    ctx = live_seats.seat_context(session, token)
    if ctx is None:
        return None
    title = _("%(event)s · %(round)s · table %(table)d", event=ctx.event.name,
              round=round_name(ctx.round.number, ctx.round.stage), table=ctx.table.number)
    return _table_replay(session, ctx.table, step, path_species, title, ctx.position)


def for_table(session: Session, event: Event, rnd: Round, number: int, step: int | None,
              path_species: str) -> ReplayPage | None:
    """The replay of table ``number`` of ``rnd``, once its game is over (the organizer's page)."""
    view = live_tables.find_table(session, rnd, number)
    if view is None:
        return None
    title = _("%(event)s · %(round)s · table %(table)d", event=event.name,
              round=round_name(rnd.number, rnd.stage), table=number)
    return _table_replay(session, view.table, step, path_species, title)


def for_practice(session: Session, token: str, step: int | None, path_species: str) -> ReplayPage | None:
    """The replay of a practice game, once it is over."""
    row = practice_service.find(session, token)
    if row is None:
        return None
    replayed = practice_service.load_state(session, row)
    log = _finished_log(replayed)
    if log is None:
        return None
    title = practice_service.mode_label(replayed.state.mode)
    return replay_step(practice_service.game_of(row), log, step, path_species, title, row.seat_kinds, reader=0)
