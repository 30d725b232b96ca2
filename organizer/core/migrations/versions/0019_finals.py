"""finals after the Swiss rounds: a round's stage, and an event's cut

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0019'
down_revision: str | None = '0018'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN: a batch copy of "round" on SQLite would drop the old table, and with it
    # (foreign keys on) every table and result of the event
    op.add_column('round', sa.Column('stage', sa.String(length=16), nullable=False, server_default='swiss'))
    op.create_table(
        'finals',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('cut_size', sa.Integer(), nullable=False),
        sa.Column('top_seed_chooses', sa.Boolean(), nullable=False),
        sa.Column('seeds', sa.JSON(), nullable=False),
        sa.Column('declined', sa.JSON(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('event_id'),
    )


def downgrade() -> None:
    op.drop_table('finals')
    op.drop_column('round', 'stage')
