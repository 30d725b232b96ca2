"""a bot seat of a live table plays at a chosen level, and an event may seat its first round
by the club's ratings

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0010'
down_revision: str | None = '0009'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # existing bot seats keep playing as they did (the normal bot); existing events keep a
    # shuffled first round
    # plain ADD COLUMN: a batch copy of "event" on SQLite would drop the old table, and with it
    # (foreign keys on) every player of every event
    op.add_column('seat', sa.Column('bot_level', sa.String(length=16), nullable=False, server_default='normal'))
    op.add_column('event', sa.Column('first_round_by_rating', sa.Boolean(), nullable=False, server_default='0'))


def downgrade() -> None:
    op.drop_column('event', 'first_round_by_rating')
    op.drop_column('seat', 'bot_level')
