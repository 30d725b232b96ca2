"""the public page, the players' pages and the live overview told of their event's changes: on
PostgreSQL, every write to what those pages show sends NOTIFY with the event's id (or the round's,
for a live table's move) in the transaction that makes it, so it is delivered on commit

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0022'
down_revision: str | None = '0021'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# the payloads organizer/live/push.py listens for besides migration 0016's: "e<event id>" (anything
# the event's pages show changed), "r<round id>" (a live table's move in that round)
_EVENT_OF = {
    "event": "found := changed.id;",
    "round": "found := changed.event_id;",
    "player": "found := changed.event_id;",
    "announcement": "found := changed.event_id;",
    "judgecall": "found := changed.event_id;",
    "gametable": "SELECT r.event_id INTO found FROM round r WHERE r.id = changed.round_id;",
    "seat": "SELECT r.event_id INTO found FROM gametable t JOIN round r ON r.id = t.round_id"
            " WHERE t.id = changed.table_id;",
    "result": "SELECT r.event_id INTO found FROM gametable t JOIN round r ON r.id = t.round_id"
              " WHERE t.id = changed.table_id;",
    "confirmation": "SELECT r.event_id INTO found FROM result res JOIN gametable t ON t.id = res.table_id"
                    " JOIN round r ON r.id = t.round_id WHERE res.id = changed.result_id;",
}
#: a live table's move writes only its log: the round's overview hears of it ("r"), the event's
#: other pages show nothing of it
_GAMETABLE_COLUMNS = "round_id, number, species, digital, game"


def _function(table: str) -> str:
    # a row deleted with its event finds no event any more: the event's own delete tells
    return f"""CREATE OR REPLACE FUNCTION arboretum_event_{table}_changed() RETURNS trigger AS $$
DECLARE
  changed "{table}"%ROWTYPE;
  found integer;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  {_EVENT_OF[table]}
  IF found IS NOT NULL THEN
    PERFORM pg_notify('arboretum_live', 'e' || found);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql"""


def _trigger(table: str) -> str:
    events = f"INSERT OR DELETE OR UPDATE OF {_GAMETABLE_COLUMNS}" if table == "gametable" else "INSERT OR UPDATE OR DELETE"
    return (f"CREATE TRIGGER arboretum_event_{table} AFTER {events} ON {table} FOR EACH ROW"
            f" EXECUTE FUNCTION arboretum_event_{table}_changed()")


UPGRADE = (
    *(statement for table in _EVENT_OF for statement in (_function(table), _trigger(table))),
    """CREATE OR REPLACE FUNCTION arboretum_round_move() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('arboretum_live', 'r' || NEW.round_id);
  RETURN NULL;
END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER arboretum_round_move AFTER UPDATE OF log_version ON gametable FOR EACH ROW
WHEN (OLD.log_version IS DISTINCT FROM NEW.log_version) EXECUTE FUNCTION arboretum_round_move()""",
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # one machine: every process watches the file itself (organizer/live/push.py)
    for statement in UPGRADE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS arboretum_round_move ON gametable")
    op.execute("DROP FUNCTION IF EXISTS arboretum_round_move()")
    for table in _EVENT_OF:
        op.execute(f"DROP TRIGGER IF EXISTS arboretum_event_{table} ON {table}")
        op.execute(f"DROP FUNCTION IF EXISTS arboretum_event_{table}_changed()")
