"""the installation's shared secrets (the key that signs sessions) in the database, so every
server behind a load balancer signs and checks cookies with the same key

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0015'
down_revision: str | None = '0014'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'installationsecret',
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('value', sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )


def downgrade() -> None:
    op.drop_table('installationsecret')
