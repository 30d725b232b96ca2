"""the players' side of an event: public page code and settings, player links

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fill(table: str, column: str, nbytes: int) -> None:
    """Existing rows get their own random code, made here (no database makes good random text)."""
    connection = op.get_bind()
    rows = connection.execute(sa.text(f"SELECT id FROM {table} WHERE {column} IS NULL")).all()
    for (row_id,) in rows:
        connection.execute(sa.text(f"UPDATE {table} SET {column} = :value WHERE id = :id"),
                           {"value": secrets.token_urlsafe(nbytes), "id": row_id})


def upgrade() -> None:
    # No batch operations: on SQLite a batch may recreate a table, and dropping the old event
    # table would cascade to every player.
    op.add_column('event', sa.Column('public_code', sa.String(length=32), nullable=True))
    op.add_column('event', sa.Column('public_page', sa.Boolean(), nullable=False, server_default='1'))
    op.add_column('event', sa.Column('self_check_in', sa.Boolean(), nullable=False, server_default='0'))
    op.add_column('event', sa.Column('self_report', sa.String(length=16), nullable=False, server_default='off'))
    op.add_column('event', sa.Column('attention_minutes', sa.Integer(), nullable=False, server_default='45'))
    op.add_column('player', sa.Column('token', sa.String(length=64), nullable=True))
    op.add_column('player', sa.Column('self_checked_in_at', sa.DateTime(timezone=True), nullable=True))
    _fill('event', 'public_code', 12)
    _fill('player', 'token', 24)
    # Unique indexes do the constraints' work without recreating a table; on SQLite the columns
    # stay nullable in the file (the app always fills them).
    op.create_index('uq_event_public_code', 'event', ['public_code'], unique=True)
    op.create_index('uq_player_token', 'player', ['token'], unique=True)
    if op.get_bind().dialect.name == 'postgresql':
        op.alter_column('event', 'public_code', existing_type=sa.String(length=32), nullable=False)
        op.alter_column('player', 'token', existing_type=sa.String(length=64), nullable=False)


def downgrade() -> None:
    # plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+): a batch would recreate the event table
    op.drop_index('uq_player_token', table_name='player')
    op.drop_index('uq_event_public_code', table_name='event')
    op.drop_column('player', 'self_checked_in_at')
    op.drop_column('player', 'token')
    op.drop_column('event', 'attention_minutes')
    op.drop_column('event', 'self_report')
    op.drop_column('event', 'self_check_in')
    op.drop_column('event', 'public_page')
    op.drop_column('event', 'public_code')
