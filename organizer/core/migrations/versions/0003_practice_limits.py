"""practice games: limits per client address, pruning

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0003'
down_revision: Union[str, None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('ratewindow',
    sa.Column('key', sa.String(length=120), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    with op.batch_alter_table('ratewindow', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ratewindow_started_at'), ['started_at'], unique=False)

    # existing games keep everything; an old finished game has no finished_at and is told from
    # an unfinished one by replaying it when it has been idle for a day (services/practice.py)
    with op.batch_alter_table('practicegame', schema=None) as batch_op:
        batch_op.add_column(sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_practicegame_updated_at'), ['updated_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('practicegame', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_practicegame_updated_at'))
        batch_op.drop_column('finished_at')

    with op.batch_alter_table('ratewindow', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ratewindow_started_at'))

    op.drop_table('ratewindow')
