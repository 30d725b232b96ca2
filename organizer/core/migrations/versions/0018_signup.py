"""an event's sign-up on its public page: its settings, and each person's sign-up with their
own token, status and place on the waiting list

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0018'
down_revision: str | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'signupsettings',
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('event.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('open', sa.Boolean(), nullable=False),
        sa.Column('cap', sa.Integer(), nullable=True),
        sa.Column('closes_at', sa.DateTime(), nullable=True),
        sa.Column('approval', sa.Boolean(), nullable=False),
        sa.Column('question', sa.String(length=200), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
    )
    op.create_table(
        'signup',
        sa.Column('id', sa.Integer(), primary_key=True),
        sa.Column('event_id', sa.Integer(), sa.ForeignKey('event.id', ondelete='CASCADE'), nullable=False),
        sa.Column('token', sa.String(length=64), nullable=False, unique=True),
        sa.Column('email_code', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('name_key', sa.String(length=80), nullable=False),
        sa.Column('club', sa.String(length=80), nullable=False),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('email_key', sa.String(length=254), nullable=False),
        sa.Column('note', sa.String(length=500), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('queued', sa.Integer(), nullable=True),
        sa.Column('player_id', sa.Integer(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('confirmed_at', sa.DateTime(), nullable=True),
        sa.Column('promoted', sa.Boolean(), nullable=False),
    )
    op.create_index('ix_signup_event_id', 'signup', ['event_id'])
    op.create_index('ix_signup_email_key', 'signup', ['email_key'])


def downgrade() -> None:
    op.drop_table('signup')
    op.drop_table('signupsettings')
