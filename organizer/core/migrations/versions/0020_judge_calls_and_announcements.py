"""players call a judge from their own page; organizers post announcements for the players'
pages, the public page and the projector

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0020'
down_revision: str | None = '0019'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('judgecall',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('table_number', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('player_name', sa.String(length=80), nullable=False),
    sa.Column('note', sa.String(length=200), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('called_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('taken_by', sa.String(length=120), nullable=False),
    sa.Column('taken_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('resolved_by', sa.String(length=120), nullable=False),
    sa.Column('resolved_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['round_id'], ['round.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_judgecall_event_id', 'judgecall', ['event_id'], unique=False)
    op.create_index('ix_judgecall_round_id', 'judgecall', ['round_id'], unique=False)
    op.create_index('ix_judgecall_round_id_status', 'judgecall', ['round_id', 'status'], unique=False)

    op.create_table('announcement',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('text', sa.String(length=280), nullable=False),
    sa.Column('language', sa.String(length=8), nullable=False),
    sa.Column('second_text', sa.String(length=280), nullable=False),
    sa.Column('second_language', sa.String(length=8), nullable=False),
    sa.Column('created_by', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_announcement_event_id', 'announcement', ['event_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_announcement_event_id', table_name='announcement')
    op.drop_table('announcement')
    op.drop_index('ix_judgecall_round_id_status', table_name='judgecall')
    op.drop_index('ix_judgecall_round_id', table_name='judgecall')
    op.drop_index('ix_judgecall_event_id', table_name='judgecall')
    op.drop_table('judgecall')
