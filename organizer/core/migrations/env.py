"""Alembic environment: the organizer runs migrations itself (``organizer.core.db.upgrade_database``)
and hands over its connection; run alone, Alembic connects to ``sqlalchemy.url``."""

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from organizer.core import models  # noqa: F401  (registers the tables on SQLModel.metadata)

config = context.config
target_metadata = SQLModel.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as own_connection:
        _run(own_connection)


def _run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most things
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run them against a database")
run_migrations()
