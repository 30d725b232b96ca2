"""Rendering shared by the live seat pages, the practice games and the replays, and the one way a
seat's action form is handled (:func:`act_and_show`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, request
from jinja2 import TemplateNotFound
from markupsafe import Markup

from engine import ArboretumError
from organizer.accounts.qr import qr_svg
from organizer.core.db import get_session
from organizer.core.pages import render_page
from organizer.core.public_urls import public_url
from organizer.core.translate import N_, _
from organizer.live import stream
from organizer.live import tables as live_tables
from organizer.live.games import LiveGame
from organizer.live.log import ActionRefused, Replayed, refusal
from organizer.live.poll import since_mark
from organizer.live.view import Screen, build_screen, compose_action, recent_moves

ALREADY_DONE = N_("That was already done (the same form arrived twice); nothing more was changed.")
#: how many of the last moves the seat's screen lists
RECENT_MOVES = 6
#: what the live pages' scripts may show (static/offline/reconnect.js, static/core/organizer.js),
#: rendered in the page's language into the layout's strings block, by their English
SCRIPT_STRINGS = (
    N_("Reconnecting… the game goes on as soon as the connection returns."),
    N_("The server could not be reached. Check the connection; what you typed is still here."),
    N_("The server took too long to answer. Try again; what you typed is still here."),
)


@dataclass(frozen=True)
class SeatUrls:
    page: str
    act: str
    changed: str
    replay: str | None = None
    #: the POST that plays what bots and the pick timer owe (GETs never change a game)
    tick: str | None = None
    #: the stream that tells the page of each change (:mod:`organizer.live.stream`), where served
    stream: str | None = None


def push_enabled() -> bool:
    return stream.streams_enabled(current_app)


def selected_card(screen: Screen) -> str:
    """The card the seat had chosen before a refresh (kept through polls and refusals)."""
    wanted = (request.values.get("card") or "").strip()
    return wanted if any(card.text == wanted for card in screen.hand) else ""


def has_help() -> bool:
    """Whether the short "how this game works" explanation exists (``live/live_help.html``)."""
    try:
        current_app.jinja_env.get_template("live/live_help.html")
    except TemplateNotFound:
        return False
    return True


def render_seat(replayed: Replayed, seat: int, urls: SeatUrls, title: str, status: int = 200,
                message: str = "", message_kind: str = "error", owed: bool = False, **extra: Any) -> tuple[str, int]:
    """The seat's screen as a page, or just the ``#live`` fragment for HTMX (polls and forms).
    ``owed``: bots or the pick timer owe the game a move, so the screen sends the tick POST."""
    state = replayed.state
    view = state.view(seat)
    screen = build_screen(view, request.args.get("path", ""), may_act=not extra.get("bot_seat", False))
    if view.turns is not None:  # a draft's log is its last reveal (build_screen)
        screen.moves = recent_moves(state.last_moves(RECENT_MOVES), view)
    return render_page("live/seat.html", "live/live_seat.html", status, screen=screen, urls=urls, title=title,
                       has_help=has_help(), q_places=state.game.q_places,
                       nonce=secrets.token_urlsafe(12), version=replayed.version, selected=selected_card(screen),
                       mark=since_mark(replayed.version, bool(extra.get("bot_seat", False))),
                       message=message, message_kind=message_kind, owed=owed and urls.tick is not None, **extra)


def form_stamp() -> int | None:
    try:
        return int(request.form.get("stamp", ""))
    except ValueError:
        return None


#: shows the seat's screen: (status, message, message kind, state already at hand)
ShowSeat = Callable[[int, str, str, "Replayed | None"], Any]


def act_and_show(game: LiveGame, seat: int, show: ShowSeat) -> Any:
    """The seat's action form: apply it to ``game``, then show the screen (refused: 422 with the
    reason; the same form twice: a notice, nothing more done)."""
    db = get_session()
    form = {key: request.form.get(key, "") for key in ("action", "verb", "card", "cell")}
    try:
        applied = game.act(db, seat, compose_action(form), request.form.get("nonce", ""), form_stamp())
    except ArboretumError as bad:  # the engine's own words are for the log, not the screen
        db.rollback()
        return show(422, str(refusal(bad, seat, str(form))), "error", None)
    except (ValueError, ActionRefused) as refused:
        db.rollback()
        return show(422, str(refused), "error", None)
    if applied.repeated:
        return show(200, _(ALREADY_DONE), "notice", applied.replayed)
    return show(200, "", "error", applied.replayed)


def seat_qr_svg(token: str) -> Markup:
    """The QR code of a seat's private link (for the table's page)."""
    return qr_svg(public_url("live.seat", token=token))


def live_page_strings() -> dict[str, str]:
    """The live pages' script strings in the page's language (the page's ``#page-strings``)."""
    return {message: _(message) for message in SCRIPT_STRINGS}


def register_template_globals(app: Flask) -> None:
    """The live tables' functions templates call (the app factory calls this once)."""
    app.add_template_global(seat_qr_svg, "seat_qr_svg")
    app.add_template_global(live_page_strings, "live_page_strings")
    # a bot seat shown as "Bot (strong)" on the overview, the table's page and the seats' screens
    app.add_template_global(live_tables.bot_label, "bot_label")
    app.add_template_global(live_tables.level_word, "level_word")
