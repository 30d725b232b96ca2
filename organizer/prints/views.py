"""PDF downloads: round pack, score sheet, standings, event report (organizers) and the blank
scorepad (anyone). A document that cannot be made sends the organizer back to the page the
button is on, with the reason shown there: never a broken file."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from werkzeug.routing import BuildError

from organizer.core.db import get_session
from organizer.core.errors import InputError
from organizer.core.i18n import use_event_language
from organizer.core.models import EDITIONS, Event
from organizer.core.public_address import join_url
from organizer.core.public_urls import public_base, public_url
from organizer.core.translate import _
from organizer.events.views import load_event as _load_event
from organizer.printing import PrintingError, blank_scorepad, event_report, round_pack, score_sheet, standings_pdf
from organizer.printing.data import Paper
from organizer.prints import service

bp = Blueprint("prints", __name__)

PAPERS: dict[str, str] = {"a4": "A4", "letter": "US Letter"}
SCOREPAD_PLAYERS: tuple[int, ...] = (4, 3, 2)


def slug(text: str) -> str:
    """'Spring Open — Café Łódź' -> 'spring-open-cafe-lodz': a file name every system keeps."""
    folded = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    ascii_text = folded.encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")[:60].strip("-") or "event"


def load_event(event_id: int) -> Event:
    """The event, and its language for everything printed: a pack speaks to the whole room."""
    event = _load_event(event_id)
    use_event_language(event)
    return event


def pdf_response(pdf: bytes, filename: str) -> Response:
    return Response(pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="{filename}"',
        # Round packs carry private seat links: never keep them in a shared cache.
        "Cache-Control": "private, no-store",
    })


def requested_paper() -> Paper:
    """?paper= when given, else the installation's default (ORGANIZER_PRINT_PAPER), else A4."""
    paper = str(request.args.get("paper") or current_app.config.get("PRINT_PAPER") or "a4").strip().lower()
    if paper not in PAPERS:
        # Cut short: the message travels in the session cookie.
        raise service.NothingToPrint(_("unknown paper %(paper)s: expected a4 or letter.", paper=repr(paper[:20])))
    return paper  # type: ignore[return-value]


def _deliver(make: Callable[[], bytes], filename: str, back_to: str) -> Any:
    try:
        pdf = make()
    except (InputError, PrintingError) as refused:
        message = refused.message if isinstance(refused, service.NothingToPrint) else str(refused)
        flash(_("No PDF made: %(reason)s", reason=message[:1].upper() + message[1:]), "error")
        return redirect(back_to)
    return pdf_response(pdf, filename)


def _table_url(event: Event) -> service.TableUrl:
    def table_url(round_number: int, table_number: int) -> str:
        return public_url("tables.show", event_id=event.id, number=round_number, table=table_number)
    return table_url


def seat_url(token: str) -> str:
    try:
        return public_url("live.seat", token=token)
    except BuildError:  # live tables not installed in this app: the same address by hand
        return join_url(public_base(), f"play/{token}")


@bp.get("/events/<int:event_id>/rounds/<int:number>/pack.pdf")
def round_pack_pdf(event_id: int, number: int) -> Any:
    event = load_event(event_id)

    def make() -> bytes:
        public = public_url("public.event", code=event.public_code)
        return round_pack(service.round_pack_data(get_session(), event, number, _table_url(event), seat_url,
                                                    requested_paper(), public_url=public))

    back = url_for("rounds.show", event_id=event_id, number=number)
    if service.round_missing(get_session(), event, number):
        back = url_for("rounds.index", event_id=event_id)
    return _deliver(make, f"{slug(event.name)}-round-{number}-pack.pdf", back)


@bp.get("/events/<int:event_id>/rounds/<int:number>/tables/<int:table>/score-sheet.pdf")
def score_sheet_pdf(event_id: int, number: int, table: int) -> Any:
    event = load_event(event_id)

    def make() -> bytes:
        return score_sheet(service.score_sheet_data(get_session(), event, number, table, requested_paper()))

    db = get_session()
    back = url_for("tables.show", event_id=event_id, number=number, table=table)
    if service.round_missing(db, event, number):
        back = url_for("rounds.index", event_id=event_id)
    elif service.table_missing(db, event, number, table):
        back = url_for("rounds.show", event_id=event_id, number=number)
    return _deliver(make, f"{slug(event.name)}-round-{number}-table-{table}-score-sheet.pdf", back)


@bp.get("/events/<int:event_id>/standings.pdf")
def standings_download(event_id: int) -> Any:
    event = load_event(event_id)
    back = url_for("standings.index", event_id=event_id)
    raw = request.args.get("after", "").strip()
    after: int | None = None
    if raw:
        try:
            after = int(raw)
        except ValueError:
            flash(_("No PDF made: choose the round after which to print the standings."), "error")
            return redirect(back)
    db = get_session()
    shown = after if after is not None else (service.played_rounds(db, event) or [0])[-1]

    def make() -> bytes:
        return standings_pdf(service.standings_data(db, event, after, requested_paper()))

    return _deliver(make, f"{slug(event.name)}-standings-after-round-{shown}.pdf", back)


@bp.get("/events/<int:event_id>/report.pdf")
def report_pdf(event_id: int) -> Any:
    event = load_event(event_id)

    def make() -> bytes:
        return event_report(service.event_report_data(get_session(), event, requested_paper()))

    return _deliver(make, f"{slug(event.name)}-report.pdf", url_for("events.show", event_id=event_id))


# -- the blank scorepad: public ------------------------------------------------------------------


def _scorepad_form() -> tuple[dict[str, str], dict[str, str]]:
    form = {"players": request.args.get("players", "4"), "edition": request.args.get("edition", "2018"),
            "paper": request.args.get("paper") or str(current_app.config.get("PRINT_PAPER") or "a4")}
    errors: dict[str, str] = {}
    if form["players"] not in {str(n) for n in SCOREPAD_PLAYERS}:
        errors["players"] = _("A scorepad is for 2, 3 or 4 players.")
    if form["edition"] not in EDITIONS:
        errors["edition"] = _("Choose the 2018 or the 2010 edition.")
    if form["paper"].lower() not in PAPERS:
        errors["paper"] = _("Choose A4 or US Letter.")
    return form, errors


def _scorepad_page(form: dict[str, str], errors: dict[str, str], status: int = 200) -> Any:
    return render_template("prints/scorepad.html", form=form, errors=errors, papers=PAPERS,
                           player_counts=SCOREPAD_PLAYERS, editions=EDITIONS), status


@bp.get("/scorepad")
def scorepad() -> Any:
    form, _ = _scorepad_form()
    return _scorepad_page(form, {})


@bp.get("/scorepad.pdf")
def scorepad_pdf() -> Any:
    form, errors = _scorepad_form()
    if errors:
        return _scorepad_page(form, errors, 422)
    players, edition, paper = int(form["players"]), form["edition"], form["paper"].lower()
    try:
        pdf = blank_scorepad(players, edition, paper)
    except PrintingError as refused:
        return _scorepad_page(form, {"": str(refused)}, 422)
    return pdf_response(pdf, f"arboretum-scorepad-{players}-players-{edition}-{paper}.pdf")
