"""an index on audit entries (event_id, id): an event's log is read newest first by id, a page
at a time, without sorting all of the event's entries

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index('ix_auditentry_event_id_id', 'auditentry', ['event_id', 'id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_auditentry_event_id_id', table_name='auditentry')
