"""Solo and practice games in the browser (``/practice``): anyone, no sign-in. The same seat
screen as the live tables; bots act at once after each of the player's actions."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, request, url_for

from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.models import PracticeGame
from organizer.core.pages import go_to, render_page
from organizer.core.translate import _
from organizer.live import practice as service
from organizer.live.log import Replayed
from organizer.live.pages import SeatUrls, act_and_show, render_seat

bp = Blueprint("practice", __name__, url_prefix="/practice")

#: where a refusal for too many games from an address leaves when it ends (time.time()) in the
#: request's WSGI environ, so the practice gate (:mod:`organizer.live.practice_gate`) refuses that address's
#: next creations itself until then, before Flask
REFUSED_UNTIL = "organizer.live.practice_views.refused_until"


def _form_defaults() -> dict[str, str]:
    return {"mode": "solo", "players": "2", "edition": "2018", "name": "", "bot_1": "heuristic", "bot_2": "heuristic",
            "bot_3": "heuristic", "q_places": "rule"}


def _choices() -> dict[str, Any]:
    return {"modes": service.mode_choices(), "bots": service.bot_choices(), "editions": service.edition_choices(),
            "q_places": service.q_places_choices()}


@bp.get("")
def new() -> Any:
    return render_page("live/practice_new.html", "live/live_practice_form.html", form=_form_defaults(), errors={},
                       **_choices())


@bp.post("")
def create() -> Any:
    form = {**_form_defaults(), **{key: request.form.get(key, "") for key in request.form if key != "csrf_token"}}
    db = get_session()
    try:
        practice = service.start_game(db, service.parse_setup(form), request.remote_addr or "unknown",
                                      service.PracticeLimits.from_config(current_app.config))
    except InputError as bad:
        db.rollback()
        return render_page("live/practice_new.html", "live/live_practice_form.html", 422, form=form, errors=bad.errors,
                           **_choices())
    except service.PracticeRefused as refused:
        db.rollback()
        if refused.until is not None:
            request.environ[REFUSED_UNTIL] = refused.until.timestamp()
        page, status = refusal_page(str(refused), refused.status)
        return page, status, {"Retry-After": str(refused.retry_after)}
    return go_to(url_for("practice.play", token=practice.token))


def refusal_page(message: str, status: int, **context: Any) -> tuple[str, int]:
    """The page (or HTMX fragment) saying no game was created, and why: a short page, as a flood
    of refused requests should cost the server little."""
    return render_page("live/practice_refused.html", "live/live_practice_refused.html", status,
                       title=_("Practice games"), message=message, **context)


def _load(token: str) -> PracticeGame:
    practice = service.find(get_session(), token)
    if practice is None:
        abort(404)
    return practice


def _show(practice: PracticeGame, status: int = 200, message: str = "", kind: str = "error",
          replayed: Replayed | None = None) -> Any:
    if replayed is None:
        replayed, owed = service.view_state(get_session(), practice)
    else:
        owed = service.owes(practice, replayed)
    token = practice.token
    finished = replayed.state.is_terminal()
    urls = SeatUrls(url_for("practice.play", token=token), url_for("practice.act", token=token),
                    url_for("practice.changed", token=token, since=replayed.version),
                    url_for("replay.practice", token=token) if finished else None, url_for("practice.tick", token=token))
    title = service.mode_label(replayed.state.mode)
    return render_seat(replayed, 0, urls, title, status, message, kind, owed=owed, practice=True)


@bp.get("/<token>")
def play(token: str) -> Any:
    return _show(_load(token))


@bp.get("/<token>/changed")
def changed(token: str) -> Any:
    version = service.version_of(get_session(), token)
    if version is None:
        abort(404)
    if request.args.get("since", "") == str(version):
        return Response(status=204)
    return _show(_load(token))


@bp.post("/<token>/tick")
def tick(token: str) -> Any:
    """Sent by the page when its screen says the bots owe a move (GETs never play one)."""
    practice = _load(token)
    return _show(practice, replayed=service.settle(get_session(), practice))


@bp.post("/<token>/act")
def act(token: str) -> Any:
    practice = _load(token)
    return act_and_show(service.PracticeLiveGame(practice), 0,
                        lambda status, message, kind, replayed: _show(practice, status, message, kind, replayed))
