"""The key that signs session cookies, CSRF tokens and known-device marks, one for the whole
installation: kept in its database, which every server behind a load balancer shares, rather
than in an instance folder, which each server has its own of. A cookie signed by one server is
then good on every other, and a backup carries the key, so a restore signs nobody out."""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path

from sqlalchemy import Engine, inspect
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlmodel import Session

from organizer.core.models import InstallationSecret

log = logging.getLogger(__name__)

NAME = "session_key"
#: the file an installation kept its key in before the database did; read once to seed the
#: database, so the first start with the key in the database signs nobody out
INSTANCE_FILE = "secret_key"


def installation_key(engine: Engine, instance: Path) -> str:
    """The installation's signing key: the database's, made on first use (from the instance
    folder's key file when there is one). Several servers starting at once agree on the first
    one stored. A database without the table (migrations turned off and not run) falls back to
    the instance folder's file, which is then what the servers must share; a database out of
    reach raises (servers left to make keys of their own would not accept each other's cookies)."""
    try:
        with Session(engine) as session:
            stored = session.get(InstallationSecret, NAME)
            if stored is not None:
                return stored.value
            session.add(InstallationSecret(name=NAME, value=_seed(instance)))
            try:
                session.commit()
            except IntegrityError:  # another server stored its key first: that one counts
                session.rollback()
            stored = session.get(InstallationSecret, NAME)
            assert stored is not None
            return stored.value
    except (OperationalError, ProgrammingError) as missing:
        if inspect(engine).has_table(str(InstallationSecret.__tablename__)):
            raise  # not a missing table: a database out of reach stops the start, as a migration would
        log.warning("The signing key is kept in the instance folder: the database has no place for it (%s). "
                    "Run flask --app organizer db-upgrade; until then servers sharing this database need the "
                    "same ORGANIZER_SECRET_KEY.", type(missing).__name__)
        return instance_file_key(instance)
    finally:
        engine.dispose()  # the master of a preloading server forks after this: no inherited connections


def _seed(instance: Path) -> str:
    key_file = instance / INSTANCE_FILE
    try:
        kept = key_file.read_text().strip()
    except OSError:
        kept = ""
    return kept if 32 <= len(kept) <= 200 else secrets.token_hex(32)


def instance_file_key(instance: Path) -> str:
    """A key kept in ``instance/secret_key`` (mode 0600), made once; when several workers start at
    once, the first one's key wins for all (O_EXCL)."""
    key_file = instance / INSTANCE_FILE
    if key_file.exists():
        return key_file.read_text().strip()
    key = secrets.token_hex(32)
    try:
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return key_file.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key
