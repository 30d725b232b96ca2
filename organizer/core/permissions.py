"""Who may open which page: every endpoint's rule, in this one table.

One ``before_request`` hook (``enforce``, installed by ``auth.init_app``) applies it to every
request, so blueprints carry no decorators. An endpoint missing from ``RULES`` is refused to
everyone (and ``tests/security/test_roles.py`` fails), so a new page cannot be open by accident.

Roles nest: an owner may do all an organizer may; an organizer all a judge may, at every event;
a judge only at the events an organizer assigned them to (``organizer/core/staff.py``).
"""

from __future__ import annotations

import logging
from enum import StrEnum

from flask import abort, g, request

from organizer.core import staff
from organizer.core.db import get_session
from organizer.core.models import Event, Organizer, Role

log = logging.getLogger(__name__)


class Need(StrEnum):
    PUBLIC = "anyone"  # no account: signing in, seats' own links, practice games, blank scorepad
    SIGNED_IN = "any account"
    OWNER = "owner"
    ORGANIZER = "organizer"  # an organizer or owner
    EVENT_STAFF = "event staff"  # an organizer, or a judge assigned to the event in the URL
    EVENT_SEATING = "event seating"  # as EVENT_STAFF, judges only when the event allows it


RULES: dict[str, Need] = {
    "static": Need.PUBLIC,
    "offline.service_worker": Need.PUBLIC, "offline.manifest": Need.PUBLIC,  # no event data in them
    "offline.favicon": Need.PUBLIC,  # the icon browsers ask for at /favicon.ico
    "auth.sign_in": Need.PUBLIC,
    "auth.sign_out": Need.PUBLIC,  # without a session it just shows the sign-in page
    "auth.first_run": Need.PUBLIC,  # only while no account exists
    "auth.welcome": Need.PUBLIC,  # the one-time link is the credential
    "live.health": Need.PUBLIC,
    # a seat's private link carries its own credential (the token)
    "live.seat": Need.PUBLIC, "live.act": Need.PUBLIC, "live.changed": Need.PUBLIC, "live.tick": Need.PUBLIC,
    "replay.seat": Need.PUBLIC, "replay.practice": Need.PUBLIC,
    "practice.new": Need.PUBLIC, "practice.create": Need.PUBLIC, "practice.play": Need.PUBLIC,
    "practice.act": Need.PUBLIC, "practice.changed": Need.PUBLIC, "practice.tick": Need.PUBLIC,
    "prints.scorepad": Need.PUBLIC, "prints.scorepad_pdf": Need.PUBLIC,  # no event data in it
    # the players' side: the event's public code, or a player's own token, is the credential
    "public.event": Need.PUBLIC, "public.event_changed": Need.PUBLIC,
    "public.player": Need.PUBLIC, "public.player_changed": Need.PUBLIC, "public.player_check_in": Need.PUBLIC,
    "public.player_drop": Need.PUBLIC, "public.player_report": Need.PUBLIC, "public.player_confirm": Need.PUBLIC,
    "public.player_dispute": Need.PUBLIC, "public.player_call_judge": Need.PUBLIC,
    "language.choose": Need.PUBLIC,  # a cookie on the chooser's own device, nothing stored
    "venue.certificate": Need.PUBLIC, "venue.root_certificate": Need.PUBLIC,  # a public certificate, no event data
    "venue.health": Need.PUBLIC,  # "ok" or "database unavailable", nothing else

    "events.index": Need.SIGNED_IN, "events.archive": Need.SIGNED_IN,  # a judge sees only their events
    "accounts.index": Need.SIGNED_IN,  # one's own sessions and password; owners see all accounts
    "accounts.change_password": Need.SIGNED_IN,
    "accounts.end_session": Need.SIGNED_IN,
    "accounts.sign_out_everywhere": Need.SIGNED_IN,

    "accounts.add": Need.OWNER,  # an invitation link
    "accounts.reset": Need.OWNER,
    "accounts.disable": Need.OWNER,
    "accounts.enable": Need.OWNER,
    "accounts.set_role": Need.OWNER,
    "accounts.sign_out_account": Need.OWNER,  # every session of another account, as its own "sign out everywhere"

    "events.new": Need.ORGANIZER, "events.edit": Need.ORGANIZER, "events.round_formats": Need.ORGANIZER,
    "events.set_archived": Need.ORGANIZER, "events.delete": Need.ORGANIZER,
    "exchange.export_json": Need.ORGANIZER, "exchange.export_zip": Need.ORGANIZER,
    "exchange.import_json": Need.ORGANIZER,
    "players.add": Need.ORGANIZER, "players.import_csv": Need.ORGANIZER, "players.edit": Need.ORGANIZER,
    "players.remove": Need.ORGANIZER, "players.drop": Need.ORGANIZER, "players.fixed_table": Need.ORGANIZER,
    "rounds.propose": Need.ORGANIZER, "rounds.publish": Need.ORGANIZER, "rounds.discard": Need.ORGANIZER,
    "rounds.close": Need.ORGANIZER, "rounds.reopen": Need.ORGANIZER,
    "finals.cut": Need.ORGANIZER, "finals.decline": Need.ORGANIZER, "finals.seat": Need.ORGANIZER,
    "tables.species": Need.ORGANIZER,
    "live.make_digital": Need.ORGANIZER, "live.bot": Need.ORGANIZER, "tables.paper": Need.ORGANIZER,
    "prints.report_pdf": Need.ORGANIZER, "prints.round_pack_pdf": Need.ORGANIZER,
    "staff.index": Need.ORGANIZER, "staff.assign": Need.ORGANIZER, "staff.unassign": Need.ORGANIZER,
    "staff.seating": Need.ORGANIZER,
    "public.settings": Need.ORGANIZER, "public.player_link": Need.ORGANIZER, "public.player_card": Need.ORGANIZER,
    "public.player_cards": Need.ORGANIZER, "public.send_link": Need.ORGANIZER,
    "events.announce": Need.ORGANIZER, "events.withdraw_announcement": Need.ORGANIZER,

    "events.show": Need.EVENT_STAFF,
    "players.index": Need.EVENT_STAFF, "players.row": Need.EVENT_STAFF, "players.check_in": Need.EVENT_STAFF,
    "players.check_in_all": Need.EVENT_STAFF,
    "rounds.index": Need.EVENT_STAFF, "rounds.show": Need.EVENT_STAFF, "rounds.clock": Need.EVENT_STAFF,
    "rounds.seated": Need.EVENT_STAFF,
    "tables.show": Need.EVENT_STAFF, "tables.enter": Need.EVENT_STAFF, "tables.confirm": Need.EVENT_STAFF,
    "tables.dispute": Need.EVENT_STAFF, "tables.case_download": Need.EVENT_STAFF, "audit.index": Need.EVENT_STAFF,
    "finals.index": Need.EVENT_STAFF,
    "standings.index": Need.EVENT_STAFF, "prints.standings_download": Need.EVENT_STAFF,
    "prints.score_sheet_pdf": Need.EVENT_STAFF,
    "projector.show": Need.EVENT_STAFF, "live.overview": Need.EVENT_STAFF, "replay.table": Need.EVENT_STAFF,
    "public.attention": Need.EVENT_STAFF,
    # judges answer players' calls at their events
    "public.take_call": Need.EVENT_STAFF, "public.resolve_call": Need.EVENT_STAFF,
    # plays what bots and the pick timer owe the overview's tables, as any seat's screen does
    "live.overview_tick": Need.EVENT_STAFF, "live.overview_events": Need.EVENT_STAFF,

    "rounds.swap": Need.EVENT_SEATING,

    # the club's registry, ratings and seasons: people's e-mails across events
    "club.index": Need.ORGANIZER, "club.players": Need.ORGANIZER, "club.merge": Need.ORGANIZER, "club.review": Need.ORGANIZER,
    "club.resolve": Need.ORGANIZER, "club.match_unlinked": Need.ORGANIZER, "club.profile": Need.ORGANIZER,
    "club.ratings_page": Need.ORGANIZER, "club.recompute": Need.ORGANIZER,
    "club.export_json": Need.ORGANIZER, "club.import_json": Need.ORGANIZER,
    "seasons.index": Need.ORGANIZER, "seasons.create": Need.ORGANIZER, "seasons.show": Need.ORGANIZER,
    "seasons.projector": Need.ORGANIZER, "seasons.league_download": Need.ORGANIZER,
    "club.public_profile": Need.ORGANIZER,
    # the unguessable code or the player's own link is the credential; a private profile is a 404
    "club_public.profile": Need.PUBLIC, "club_public.player_consent": Need.PUBLIC,
    # signing up: the event's public code, the sign-up's own token (and the e-mail's code) are the credential
    "signup.form": Need.PUBLIC, "signup.submit": Need.PUBLIC, "signup.page": Need.PUBLIC,
    "signup.confirm_page": Need.PUBLIC, "signup.confirm": Need.PUBLIC, "signup.withdraw": Need.PUBLIC,
    # the list holds people's e-mails and notes: organizers only, as the club's registry
    "signup.index": Need.ORGANIZER, "signup.settings": Need.ORGANIZER, "signup.move": Need.ORGANIZER,
    "signup.export_csv": Need.ORGANIZER,
}

_RUNS_EVENTS = (Role.OWNER, Role.ORGANIZER)


def allows(need: Need, account: Organizer | None, event_id: int | None) -> bool:
    """Whether ``account`` (None: signed out) may use an endpoint with this rule for the event
    in the URL (None when the URL names none)."""
    if need is Need.PUBLIC:
        return True
    if account is None:
        return False
    if need is Need.SIGNED_IN:
        return True
    if need is Need.OWNER:
        return account.role == Role.OWNER
    if account.role in _RUNS_EVENTS:
        return True
    if need is Need.ORGANIZER or event_id is None or account.role != Role.JUDGE or account.id is None:
        return False
    db = get_session()
    if not staff.is_judge_of(db, account.id, event_id):
        return False
    if need is Need.EVENT_SEATING:
        event = db.get(Event, event_id)
        return event is not None and event.judges_may_seat
    return True


def may(endpoint: str, event_id: int | None = None) -> bool:
    """For templates: show a control only to whoever may use it."""
    need = RULES.get(endpoint)
    return need is not None and allows(need, g.get("organizer"), event_id)


def enforce() -> str | None:
    """The request's verdict: None to go on, "sign in" when a signed-out visitor must sign in
    first; refuses with 403 otherwise."""
    endpoint = request.endpoint
    if endpoint is None:  # no route matched: the 404 or 405 comes next
        return None
    need = RULES.get(endpoint)
    if need is None:
        log.error("no access rule for endpoint %s: refused (add it to organizer/core/permissions.py)", endpoint)
        abort(403)
    account: Organizer | None = g.get("organizer")
    if need is not Need.PUBLIC and account is None:
        return "sign in"
    event_id = (request.view_args or {}).get("event_id")
    if not allows(need, account, event_id if isinstance(event_id, int) else None):
        abort(403)
    return None
