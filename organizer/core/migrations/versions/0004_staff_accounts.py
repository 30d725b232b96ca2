"""staff accounts: roles, revocable sessions, one-time links, judges per event

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0004'
down_revision: Union[str, None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Every existing account could do everything: it stays an organizer (runs every event), and
    # the oldest one becomes the owner who manages accounts, as the first account is on a new
    # installation. Nothing is dropped; old password hashes are verified and replaced at sign-in.
    with op.batch_alter_table('organizer', schema=None) as batch_op:
        batch_op.add_column(sa.Column('role', sa.String(length=16), nullable=False, server_default='organizer'))
        batch_op.add_column(sa.Column('disabled_at', sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE organizer SET role = 'owner' WHERE id = (SELECT MIN(id) FROM organizer)")

    op.create_table('accountsession',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('organizer_id', sa.Integer(), nullable=False),
    sa.Column('device', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('last_seen_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('idle_minutes', sa.Integer(), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['organizer_id'], ['organizer.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    with op.batch_alter_table('accountsession', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_accountsession_organizer_id'), ['organizer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_accountsession_ended_at'), ['ended_at'], unique=False)

    op.create_table('accountlink',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('organizer_id', sa.Integer(), nullable=False),
    sa.Column('purpose', sa.String(length=16), nullable=False),
    sa.Column('created_by', sa.String(length=120), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['organizer_id'], ['organizer.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    with op.batch_alter_table('accountlink', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_accountlink_organizer_id'), ['organizer_id'], unique=False)

    op.create_table('eventjudge',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('organizer_id', sa.Integer(), nullable=False),
    sa.Column('assigned_by', sa.String(length=120), nullable=False),
    sa.Column('assigned_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['organizer_id'], ['organizer.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event_id', 'organizer_id', name='uq_eventjudge_event_organizer')
    )
    with op.batch_alter_table('eventjudge', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_eventjudge_event_id'), ['event_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_eventjudge_organizer_id'), ['organizer_id'], unique=False)

    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('judges_may_seat', sa.Boolean(), nullable=False, server_default=sa.false()))

    with op.batch_alter_table('auditentry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('role', sa.String(length=16), nullable=False, server_default=''))

    with op.batch_alter_table('signinattempt', schema=None) as batch_op:
        batch_op.add_column(sa.Column('device', sa.String(length=64), nullable=False, server_default=''))
        batch_op.create_index(batch_op.f('ix_signinattempt_device'), ['device'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('signinattempt', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_signinattempt_device'))
        batch_op.drop_column('device')
    with op.batch_alter_table('auditentry', schema=None) as batch_op:
        batch_op.drop_column('role')
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('judges_may_seat')
    op.drop_table('eventjudge')
    op.drop_table('accountlink')
    op.drop_table('accountsession')
    with op.batch_alter_table('organizer', schema=None) as batch_op:
        batch_op.drop_column('disabled_at')
        batch_op.drop_column('role')
