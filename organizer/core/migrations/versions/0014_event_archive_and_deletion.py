"""events can be archived (they leave the main list) and deleted (a row outside the event keeps
who deleted it); an imported event is marked as an imported copy

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0014'
down_revision: str | None = '0013'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column('event', sa.Column('archived_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('event', sa.Column('imported_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        'eventdeletion',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=120), nullable=False),
        sa.Column('date', sa.Date(), nullable=False),
        sa.Column('imported', sa.Boolean(), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('actor', sa.String(length=120), nullable=False),
        sa.Column('role', sa.String(length=16), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_eventdeletion_at', 'eventdeletion', ['at'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_eventdeletion_at', table_name='eventdeletion')
    op.drop_table('eventdeletion')
    with op.batch_alter_table('event') as batch_op:
        batch_op.drop_column('imported_at')
        batch_op.drop_column('archived_at')
