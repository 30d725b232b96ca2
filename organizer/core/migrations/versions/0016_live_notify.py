"""live tables tell every app server what changed: on PostgreSQL, a table's new log version and a
seat's bot flag are sent with NOTIFY by the transaction that writes them (delivered on commit,
whichever code path wrote)

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0016'
down_revision: str | None = '0015'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# the channel and payloads organizer/live/push.py listens for: "t<table id>:<log version>",
# "s<seat id>:<0|1>:<table id>"
UPGRADE = (
    """CREATE OR REPLACE FUNCTION arboretum_live_table_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('arboretum_live', 't' || NEW.id || ':' || NEW.log_version);
  RETURN NULL;
END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER arboretum_live_table AFTER UPDATE OF log_version ON gametable FOR EACH ROW
WHEN (OLD.log_version IS DISTINCT FROM NEW.log_version) EXECUTE FUNCTION arboretum_live_table_changed()""",
    """CREATE OR REPLACE FUNCTION arboretum_live_seat_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('arboretum_live', 's' || NEW.id || ':' || (CASE WHEN NEW.is_bot THEN 1 ELSE 0 END)
                    || ':' || NEW.table_id);
  RETURN NULL;
END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER arboretum_live_seat AFTER UPDATE OF is_bot ON seat FOR EACH ROW
WHEN (OLD.is_bot IS DISTINCT FROM NEW.is_bot) EXECUTE FUNCTION arboretum_live_seat_changed()""",
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # one machine: every process watches the file itself (organizer/live/push.py)
    for statement in UPGRADE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS arboretum_live_seat ON seat")
    op.execute("DROP TRIGGER IF EXISTS arboretum_live_table ON gametable")
    op.execute("DROP FUNCTION IF EXISTS arboretum_live_seat_changed()")
    op.execute("DROP FUNCTION IF EXISTS arboretum_live_table_changed()")
