"""The organizer web app's factory, :func:`create_app`, with everything it wires together.

Imported only when an app is built (``organizer.create_app`` imports it then), so the
``arboretum`` command, which shares the package, does not pay for Flask and the database.

Importing every feature's views imports every feature package, and with them the receivers of
:mod:`organizer.core.signals` (the club's in :mod:`organizer.club`, the live tables' in
:mod:`organizer.live`): an app's services always have their listeners."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from organizer import DEFAULT_INSTANCE, STATIC, TEMPLATES, cli
from organizer.accounts import auth_views as auth
from organizer.accounts import views as accounts
from organizer.club import public_views as club_public
from organizer.club import seasons_views as seasons
from organizer.club import views as club
from organizer.core import db, i18n, security, signing_key, templating
from organizer.core import error_pages as errors
from organizer.core.extensions import csrf, htmx
from organizer.core.public_address import parse_base_url
from organizer.events import audit_views as audit
from organizer.events import staff_views as staff
from organizer.events import views as events
from organizer.exchange import views as exchange
from organizer.finals import views as finals
from organizer.live import fastpoll as live_fastpoll
from organizer.live import pages as live_pages
from organizer.live import poll as live_poll
from organizer.live import practice_gate
from organizer.live import practice_views as practice
from organizer.live import replay_views as replay
from organizer.live import stream as live_stream
from organizer.live import views as live
from organizer.offline import views as offline
from organizer.players import views as players
from organizer.prints import views as prints
from organizer.public import views as public
from organizer.rounds import tables_views as tables
from organizer.rounds import views as rounds
from organizer.signup import views as signup
from organizer.standings import projector_views as projector
from organizer.standings import views as standings
from organizer.venue import views as venue

#: Every feature's blueprint, registered in this order (one list, so a page is easy to find).
BLUEPRINTS = (
    auth.bp,  # sign-in, first run, the session's organizer
    events.bp,
    players.bp,
    signup.bp,  # sign-up on the public page, the organizer's list of sign-ups
    rounds.bp,
    finals.bp,
    tables.bp,  # a table's result entry, confirmations
    audit.bp,  # the event's audit log, a page at a time
    standings.bp,
    prints.bp,  # PDF downloads
    projector.bp,
    exchange.bp,  # JSON/CSV export and import
    accounts.bp,
    staff.bp,  # an event's judges
    live.bp,  # seats' private pages and the TO's live overview
    practice.bp,  # solo and practice games, no sign-in
    replay.bp,
    public.bp,  # the public event page /e/<code>, players' own pages /p/<token>
    offline.bp,  # the service worker and the web app manifest, served from the root
    club.bp,  # the club's players across events, their ratings and profiles
    seasons.bp,  # seasons and their league tables
    club_public.bp,  # a club player's public profile /profile/<code>, and their say in it
    i18n.bp,  # the language menu
    venue.bp,  # the venue's certificate for tablets, no sign-in
)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. Configuration, lowest priority first: defaults, ``instance/config.py``,
    environment (``DATABASE_URL``, ``ORGANIZER_*``), then ``test_config`` when given."""
    app = Flask(
        "organizer",  # the package, not this module: the app (and its logger) keep the name organizer
        instance_path=os.environ.get("ORGANIZER_INSTANCE_PATH", str(DEFAULT_INSTANCE)),
        instance_relative_config=True,
        template_folder=str(TEMPLATES),
        static_folder=str(STATIC),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL="sqlite:///" + str(Path(app.instance_path) / "organizer.sqlite3"),
        HTTPS=False,
        AUTO_MIGRATE=True,
        SQLITE_WAL=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,  # a tablet left on a form all round must still submit
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        SIGN_IN_MAX_FAILURES=3,  # failures per (name, address) or known device before the waits begin
        SIGN_IN_WINDOW_MINUTES=60,  # failures older than this are forgotten
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["DATABASE_URL"] = os.environ["DATABASE_URL"]
        app.config.from_prefixed_env("ORGANIZER")
    else:
        app.config.from_mapping(test_config)
    if app.config.get("BASE_URL"):  # the public address of every QR code and link, checked before anything is served
        app.config["BASE_URL"] = parse_base_url(app.config["BASE_URL"])
    practice_gate.install(app)  # a refused address's next practice games refused before Flask (inside ProxyFix)
    if app.config.get("PROXY_FIX"):
        # Behind nginx/caddy: take the client address and scheme from X-Forwarded-* (one proxy),
        # so the sign-in rate limit counts real clients rather than the proxy; believed only
        # from the proxy's hop, since anyone else could name any address.
        from organizer.core.proxy import TrustedProxyFix

        trusted = str(app.config.get("PROXY_ADDRESSES") or "").split(",")
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, trusted)  # type: ignore[method-assign]
    if app.config["HTTPS"]:
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["PREFERRED_URL_SCHEME"] = "https"
    csrf.init_app(app)
    htmx.init_app(app)
    db.init_app(app)
    if not app.config.get("SECRET_KEY"):  # one key for every server sharing the database
        app.config["SECRET_KEY"] = signing_key.installation_key(app.extensions["db_engine"], Path(app.instance_path))
    security.init_app(app)
    errors.init_app(app)
    templating.init_app(app)
    i18n.init_app(app)  # languages (Flask-Babel) and the event's time zone
    auth.init_app(app)  # the signed-in account, and permissions.RULES applied to every request
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    live_fastpoll.install(app)  # the seats' "changed since N?" answered before Flask
    live_stream.install(app, lambda: live_poll.board_for(app.extensions["db_engine"]))  # the seats' streams
    live_pages.register_template_globals(app)
    cli.init_app(app)
    return app
