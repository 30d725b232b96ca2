"""Changes whose validity depends on a status or a version (races): the check and the
write happen in one transaction that no other request can interleave with.

:func:`lock` takes the row's write lock before anything is checked and returns the row as
committed now: ``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite, which locks the whole
database, an immediate write transaction (``BEGIN IMMEDIATE``), because pysqlite's own
transaction starts only at the first write, after the checks have read a state another process
may already have changed. A second request locking the same row waits until the first commits
or rolls back, then reads what it left. Rows are always locked parent first (event, round,
table), so two requests never wait on each other in a circle.

:func:`check_version` then compares the version a form was rendered with to the locked row's:
a form made from a version that no longer holds is :class:`StaleChange`, nothing saved.

Audit entries are added after the lock in the same transaction, so the log's order (time,
then id) is the order in which the changes were committed."""

from __future__ import annotations

from typing import Any, TypeVar

from sqlmodel import Session, SQLModel, select

from organizer.core.errors import InputError
from organizer.core.translate import _

Row = TypeVar("Row", bound=SQLModel)

class StaleChange(InputError):
    """A form made from a version that no longer holds: nothing was saved. The message (key "")
    says so; the page shows the current state beside it. ``what`` names the thing, translated
    ("The event"); the sentence around it is translated whole."""

    def __init__(self, what: str, hint: str | None = None) -> None:
        sentence = _("%(what)s changed since you opened it; nothing was saved.", what=what)
        hint = hint or _("Check it as it is now and try again.")
        super().__init__({"": f"{sentence} {hint}"})


def begin_write(session: Session) -> None:
    """Make the session's transaction a write transaction that holds the database's write lock
    from now on (SQLite; PostgreSQL locks rows instead and needs nothing here). Objects read
    before are expired: what is read next is what is committed now."""
    connection = session.connection()
    if connection.dialect.name == "sqlite":
        raw: Any = connection.connection.dbapi_connection
        # in_transaction: this transaction wrote already, so it holds the write lock
        if raw is not None and not raw.in_transaction:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
    session.expire_all()


def lock(session: Session, model: type[Row], row_id: int | None) -> Row | None:
    """The row ``row_id`` of ``model`` as committed now, locked for this transaction (None when
    it is gone). Call before reading what the change depends on, and before changing anything:
    objects loaded earlier in the session are reloaded."""
    begin_write(session)
    if row_id is None:
        return None
    return session.exec(
        select(model).where(model.id == row_id)  # type: ignore[attr-defined]
        .with_for_update().execution_options(populate_existing=True)
    ).first()


def lock_key(session: Session, key: int) -> None:
    """Hold the lock named ``key`` for this transaction, for a change that depends on many rows
    none of which stands for it (the club's ratings, replayed from the points before the
    replayed events): PostgreSQL's transaction-level advisory lock, SQLite's write transaction.
    A second request taking the same key waits until the first commits or rolls back. Objects
    loaded earlier in the session are reloaded."""
    begin_write(session)
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({int(key)})")


def lock_all(session: Session, model: type[Row], *where: Any) -> list[Row]:
    """Every row of ``model`` matching ``where`` as committed now, locked for this transaction in
    id order, for a rule over several rows ("at least one owner stays"): two requests changing
    different rows of the set are served one after the other. On PostgreSQL a request that
    waited reads the rows again and leaves out those that no longer match."""
    begin_write(session)
    return list(session.exec(
        select(model).where(*where).order_by(model.id)  # type: ignore[attr-defined]
        .with_for_update().execution_options(populate_existing=True)
    ).all())


def check_version(current: int, seen: int, what: str, hint: str | None = None) -> None:
    """Refuse a form made from version ``seen`` when the row (read under :func:`lock`) is at
    ``current``."""
    if current != seen:
        raise StaleChange(what, hint)
