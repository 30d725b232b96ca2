"""accounts' names matched by a stored key with full Unicode case folding (text.name_key), the
same on SQLite and PostgreSQL, unique

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0013'
down_revision: str | None = '0012'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from organizer.core.text import name_key

    op.add_column('organizer', sa.Column('name_key', sa.String(length=320), nullable=False, server_default=''))
    connection = op.get_bind()
    seen: set[str] = set()
    for row_id, name in connection.execute(sa.text("SELECT id, name FROM organizer ORDER BY id")).all():
        key = name_key(name)
        if key in seen:  # two accounts one name apart from case: the later keeps its own key
            key = f"{key} #{row_id}"
        seen.add(key)
        connection.execute(sa.text("UPDATE organizer SET name_key = :key WHERE id = :id"), {"key": key, "id": row_id})
    op.create_index('ix_organizer_name_key', 'organizer', ['name_key'], unique=True)


def downgrade() -> None:
    op.drop_index('ix_organizer_name_key', table_name='organizer')
    with op.batch_alter_table('organizer') as batch_op:
        batch_op.drop_column('name_key')
