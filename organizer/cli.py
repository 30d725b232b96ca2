"""Flask CLI commands: accounts (``create-organizer NAME``, ``invite``, ``reset-link``, ``set-role``,
``disable``, ``enable``, ``sign-out-everywhere``, ``accounts``), ``db-upgrade``, ``demo``, ``prune``, and the
venue's: ``venue`` (serve the venue network from this laptop), ``backup FILE``, ``restore FILE``."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import with_appcontext as _with_appcontext
from sqlmodel import Session

from organizer.accounts import service as accounts
from organizer.accounts import sessions
from organizer.core import public_urls
from organizer.core.db import get_engine, upgrade_database
from organizer.core.errors import InputError
from organizer.core.models import ROLES, Organizer, Role
from organizer.core.public_address import BaseUrlError, join_url, parse_base_url
from organizer.core.translate import _, ngettext


def _terminal_language() -> str:
    """The terminal's language as an Accept-Language value ("de_DE.UTF-8" → "de-DE")."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG"):
        value = os.environ.get(name, "").split(":")[0].split(".")[0]
        if value and value not in ("C", "POSIX"):
            return value.replace("_", "-")
    return "en"


def with_appcontext(command: Callable[..., Any]) -> Callable[..., Any]:
    """Flask's app context, and a request context whose language is the terminal's, so the
    messages a command prints (and those of the services it calls) speak it."""

    @functools.wraps(command)
    def speaking(*args: Any, **kwargs: Any) -> Any:
        with current_app.test_request_context(headers={"Accept-Language": _terminal_language()}):
            return command(*args, **kwargs)

    return _with_appcontext(speaking)


def init_app(app: Flask) -> None:
    for command in (create_organizer_command, invite_command, reset_link_command, set_role_command, disable_command,
                    enable_command, sign_out_everywhere_command, accounts_command):
        app.cli.add_command(command)
    app.cli.add_command(db_upgrade_command)
    app.cli.add_command(demo_command)
    app.cli.add_command(prune_command)
    app.cli.add_command(venue_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


_ROLE = click.Choice([role.value for role in ROLES])


def _account(session: Session, name: str) -> Organizer:
    account = accounts.find_by_name(session, name)
    if account is None:
        raise click.ClickException(_("No account called “%(name)s”.", name=name))
    return account


def _input_error(bad: InputError) -> click.ClickException:
    return click.ClickException(" ".join(bad.errors.values()))


@click.command("create-organizer")
@with_appcontext
@click.argument("name")
@click.option("--password", envvar="ORGANIZER_PASSWORD",
              help="The password (default: asked for twice; or set ORGANIZER_PASSWORD).")
@click.option("--role", type=_ROLE, default=None,
              help="owner, organizer or judge (default: owner for the first account, organizer after it).")
@click.option("--reset", is_flag=True, help="Set a new password for an existing account (its sessions end).")
def create_organizer_command(name: str, password: str | None, role: str | None, reset: bool) -> None:
    """Create an account with a password (or with --reset, change its password)."""
    if password is None:
        password = click.prompt(_("Password"), hide_input=True, confirmation_prompt=True)
    with Session(get_engine()) as session:
        if reset:
            existing = _account(session, name)
            if len(password) < accounts.MIN_PASSWORD_LENGTH:
                raise click.ClickException(ngettext("Use a password of at least %(num)d character.",
                                                     "Use a password of at least %(num)d characters.",
                                                     accounts.MIN_PASSWORD_LENGTH))
            accounts.set_password(session, existing, password)
            click.echo(_("Password of %(name)s changed; its sessions have ended.", name=existing.name))
            return
        try:
            organizer = accounts.create_organizer(session, name, password, role=Role(role) if role else None)
        except InputError as bad:
            raise _input_error(bad) from None
    click.echo(_("Account %(name)s created (%(role)s).", name=organizer.name, role=organizer.role))


def _link_base(base_url: str | None) -> str:
    """--base-url checked, else the public address (ORGANIZER_BASE_URL), else the local one."""
    if not base_url:
        return str(current_app.config.get("BASE_URL") or public_urls.FALLBACK)
    try:
        return parse_base_url(base_url)
    except BaseUrlError as bad:
        raise click.ClickException(str(bad)) from None


def _print_link(link: accounts.IssuedLink, base: str) -> None:
    until = f"{link.expires_at:%Y-%m-%d %H:%M}"
    if link.purpose == "invite":
        click.echo(_("Invitation for %(name)s (%(role)s), valid once until %(until)s UTC:", name=link.account.name,
                     role=link.account.role, until=until))
    else:
        click.echo(_("Password reset for %(name)s (%(role)s), valid once until %(until)s UTC:", name=link.account.name,
                     role=link.account.role, until=until))
    click.echo(join_url(base, f"welcome/{link.token}"))


_BASE_URL = click.option("--base-url", default=None,
                         help="The address people reach the organizer at (the link starts with it; "
                              "default: ORGANIZER_BASE_URL, else http://127.0.0.1:5000).")


@click.command("invite")
@with_appcontext
@click.argument("name")
@click.option("--role", type=_ROLE, default=Role.JUDGE.value, show_default=True)
@_BASE_URL
def invite_command(name: str, role: str, base_url: str | None) -> None:
    """A new account and its one-time link (valid a day) to choose a password."""
    base = _link_base(base_url)
    with Session(get_engine()) as session:
        try:
            link = accounts.invite(session, name, Role(role), "command line")
        except InputError as bad:
            raise _input_error(bad) from None
        _print_link(link, base)


@click.command("reset-link")
@with_appcontext
@click.argument("name")
@_BASE_URL
def reset_link_command(name: str, base_url: str | None) -> None:
    """A one-time link (valid a day) that sets a new password for a forgotten one."""
    base = _link_base(base_url)
    with Session(get_engine()) as session:
        _print_link(accounts.reset_link(session, _account(session, name), "command line"), base)


@click.command("set-role")
@with_appcontext
@click.argument("name")
@click.argument("role", type=_ROLE)
def set_role_command(name: str, role: str) -> None:
    """Make an account an owner, organizer or judge."""
    with Session(get_engine()) as session:
        account = _account(session, name)
        try:
            accounts.set_role(session, account, Role(role))
        except InputError as bad:
            raise _input_error(bad) from None
        click.echo(_("%(name)s is now %(role)s.", name=account.name, role=account.role))


@click.command("disable")
@with_appcontext
@click.argument("name")
def disable_command(name: str) -> None:
    """Stop an account signing in and end its sessions (its name stays in the audit logs)."""
    with Session(get_engine()) as session:
        account = _account(session, name)
        try:
            accounts.disable(session, account)
        except InputError as bad:
            raise _input_error(bad) from None
        click.echo(_("%(name)s is disabled; its sessions have ended.", name=account.name))


@click.command("enable")
@with_appcontext
@click.argument("name")
def enable_command(name: str) -> None:
    """Let a disabled account sign in again."""
    with Session(get_engine()) as session:
        account = _account(session, name)
        accounts.enable(session, account)
        click.echo(_("%(name)s may sign in again.", name=account.name))


@click.command("sign-out-everywhere")
@with_appcontext
@click.argument("name")
def sign_out_everywhere_command(name: str) -> None:
    """End every session of an account (e.g. a tablet was lost)."""
    with Session(get_engine()) as session:
        ended = sessions.end_all(session, _account(session, name))
        click.echo(ngettext("%(num)d session ended.", "%(num)d sessions ended.", ended))


@click.command("accounts")
@with_appcontext
def accounts_command() -> None:
    """List the accounts with their roles."""
    with Session(get_engine()) as session:
        for account in accounts.all_accounts(session):
            state = _("disabled") if account.disabled_at else (_("invited") if not account.password_hash else _("active"))
            click.echo(f"{account.name}\t{account.role}\t{state}")


@click.command("db-upgrade")
@with_appcontext
def db_upgrade_command() -> None:
    """Bring the database schema up to date (the app also does this when it starts)."""
    upgrade_database(get_engine())
    click.echo(_("Database is up to date."))


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Create the demo organizer (demo / demo, for trying the app only) and a demo event."""
    from organizer.demo import ensure_demo

    with Session(get_engine()) as session:
        summary = ensure_demo(session)
    click.echo(summary)


@click.command("prune")
@with_appcontext
def prune_command() -> None:
    """Delete practice games idle 24 hours unfinished or finished 30 days ago (the app also
    does this on its own, at most once an hour, when a practice game is created)."""
    from organizer.live.practice import prune

    with Session(get_engine()) as session:
        pruned = prune(session)
    click.echo(_("Practice games deleted: %(unfinished)d left unfinished for a day, %(finished)d finished 30 days ago; "
                 "%(windows)d old rate counts cleared.", unfinished=pruned.unfinished, finished=pruned.finished,
                 windows=pruned.windows))


class VenueRefused(click.ClickException):
    """The venue cannot be served as asked (exit code 2, like a usage error)."""

    exit_code = 2


@click.command("venue")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="The port phones connect to (or Caddy, with --behind-proxy).")
@click.option("--address", default=None,
              help="This computer's address on the venue network (default: the only one, else the first private one).")
@click.option("--behind-proxy", is_flag=True,
              help="Caddy serves HTTPS in front (deploy/Caddyfile.venue): listen on 127.0.0.1 only, trust one proxy, "
                   "and give out https://ADDRESS.")
@click.option("--base-url", default=None,
              help="The public address to give out instead (https://venue.local, say).")
def venue_command(port: int, address: str | None, behind_proxy: bool, base_url: str | None) -> None:
    """Serve the organizer to the venue's network from this laptop with the production server
    (gunicorn), in the foreground until Ctrl-C; prints the address and its QR code."""
    from organizer.core.public_address import BaseUrlError, parse_base_url
    from organizer.venue import network

    try:
        choice = network.choose_address(network.local_addresses() if not address else [], address)
        bind_host = "127.0.0.1" if behind_proxy else choice.address
        network.check_port_free(bind_host, port)
        public = base_url or (f"https://{choice.address}" if behind_proxy else f"http://{choice.address}:{port}")
        public = parse_base_url(public)
    except (network.VenueError, BaseUrlError) as refused:
        raise VenueRefused(str(refused)) from None
    if choice.note:
        click.echo(choice.note)
    # Forwarded headers are trusted only behind the proxy, which alone reaches 127.0.0.1; serving
    # the venue network directly, a PROXY_FIX left in the environment would let any phone name
    # its own address.
    env = {**os.environ, "ORGANIZER_BASE_URL": public, "ORGANIZER_PROXY_FIX": "0"}
    if behind_proxy:
        env.update(ORGANIZER_PROXY_FIX="1", ORGANIZER_HTTPS="1")
    click.echo(f"Arboretum Organizer for the venue: {public}")
    click.echo(network.terminal_qr(public, colour=sys.stdout.isatty()))
    click.echo(f"Phones and tablets on the venue network open {public} (or scan the code above).")
    if behind_proxy:
        click.echo(f"Listening on 127.0.0.1:{port} for Caddy (deploy/Caddyfile.venue with VENUE_ADDRESS={choice.address}).")
    click.echo("Stop with Ctrl-C.", nl=True)
    sys.stdout.flush()
    command = [sys.executable, "-m", "gunicorn", "-c", "python:organizer.live_gunicorn", "-b", f"{bind_host}:{port}",
               "organizer:create_app()"]
    os.execve(sys.executable, command, env)  # gunicorn takes over this process: Ctrl-C stops it


@click.command("backup")
@with_appcontext
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup_command(file: Path) -> None:
    """Back the database up into FILE while the organizer runs (SQLite: a consistent online
    copy; PostgreSQL: pg_dump). Keep instance/secret_key with it."""
    from organizer.venue import backup

    try:
        click.echo(backup.backup(current_app.config["DATABASE_URL"], file))
    except backup.BackupError as refused:
        raise click.ClickException(str(refused)) from None


@click.command("restore")
@with_appcontext
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace a database that is not empty.")
def restore_command(file: Path, force: bool) -> None:
    """Restore a backup made by ``backup`` into this installation's empty database (stop the
    organizer first)."""
    from organizer.venue import backup

    engine = get_engine()
    try:
        click.echo(backup.restore(current_app.config["DATABASE_URL"], engine, file, force=force))
    except backup.BackupError as refused:
        raise click.ClickException(str(refused)) from None
    upgrade_database(engine)  # a backup of an older version gets the newest schema
    click.echo("Database is up to date.")
