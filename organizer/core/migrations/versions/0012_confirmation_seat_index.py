"""an index on confirmations' seat: removing a seat (discarding a proposal, a cascade) checks that
no confirmation names it, which without an index reads every confirmation once per seat; a
10,000-player proposal took 10 s to discard on SQLite

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24
"""
from collections.abc import Sequence

from alembic import op

revision: str = '0012'
down_revision: str | None = '0011'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index('ix_confirmation_seat_id', 'confirmation', ['seat_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_confirmation_seat_id', table_name='confirmation')
