"""Flask CLI commands: ``flask --app organizer create-organizer NAME``, ``db-upgrade``, ``demo``,
``prune``."""

from __future__ import annotations

import click
from flask import Flask
from flask.cli import with_appcontext
from sqlmodel import Session, select

from .db import get_engine, upgrade_database
from .models import Organizer
from .services import accounts
from .services.errors import InputError


def init_app(app: Flask) -> None:
    app.cli.add_command(create_organizer_command)
    app.cli.add_command(db_upgrade_command)
    app.cli.add_command(demo_command)
    app.cli.add_command(prune_command)


@click.command("create-organizer")
@with_appcontext
@click.argument("name")
@click.option("--password", envvar="ORGANIZER_PASSWORD",
              help="The password (default: asked for twice; or set ORGANIZER_PASSWORD).")
@click.option("--reset", is_flag=True, help="Set a new password for an existing organizer.")
def create_organizer_command(name: str, password: str | None, reset: bool) -> None:
    """Create an organizer account (or with --reset, change its password)."""
    if password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    with Session(get_engine()) as session:
        if reset:
            existing = session.exec(select(Organizer).where(Organizer.name == name)).first()
            if existing is None:
                raise click.ClickException(f"no organizer called {name!r}")
            if len(password) < accounts.MIN_PASSWORD_LENGTH:
                raise click.ClickException(f"use a password of at least {accounts.MIN_PASSWORD_LENGTH} characters")
            accounts.set_password(session, existing, password)
            click.echo(f"Password of {name} changed.")
            return
        try:
            organizer = accounts.create_organizer(session, name, password)
        except InputError as bad:
            raise click.ClickException(" ".join(bad.errors.values())) from None
    click.echo(f"Organizer {organizer.name} created.")


@click.command("db-upgrade")
@with_appcontext
def db_upgrade_command() -> None:
    """Bring the database schema up to date (the app also does this when it starts)."""
    upgrade_database(get_engine())
    click.echo("Database is up to date.")


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Create the demo organizer (demo / demo, for trying the app only) and a demo event."""
    from .services.demo import ensure_demo

    with Session(get_engine()) as session:
        summary = ensure_demo(session)
    click.echo(summary)


@click.command("prune")
@with_appcontext
def prune_command() -> None:
    """Delete practice games idle 24 hours unfinished or finished 30 days ago (the app also
    does this on its own, at most once an hour, when a practice game is created)."""
    from .services.practice import prune

    with Session(get_engine()) as session:
        pruned = prune(session)
    click.echo(f"Practice games deleted: {pruned.unfinished} left unfinished for a day, "
               f"{pruned.finished} finished 30 days ago; {pruned.windows} old rate counts cleared.")
