"""a sign-up remembers the organizer's last move of it (approved, made a player, to the waiting
list, refused), which the person's own page tells them

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0021'
down_revision: str | None = '0020'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('signup') as batch_op:
        batch_op.add_column(sa.Column('moved', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('signup') as batch_op:
        batch_op.drop_column('moved')
