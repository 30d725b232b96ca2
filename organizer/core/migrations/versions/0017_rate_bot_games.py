"""an event may let the club's ratings count games a bot played part of, or played against only
bots (left out by default)

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0017'
down_revision: str | None = '0016'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN: a batch copy of "event" on SQLite would drop the old table, and with it
    # (foreign keys on) every player of every event
    op.add_column('event', sa.Column('rate_bot_games', sa.Boolean(), nullable=False, server_default='0'))


def downgrade() -> None:
    op.drop_column('event', 'rate_bot_games')
