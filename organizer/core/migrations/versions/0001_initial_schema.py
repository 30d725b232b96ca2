"""initial schema

Revision ID: 0001
Revises: 
Create Date: 2026-11-21
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0001'
down_revision: Union[str, None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:

    op.create_table('organizer',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('password_hash', sa.String(length=256), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('organizer', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_organizer_name'), ['name'], unique=True)

    op.create_table('signinattempt',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('signinattempt', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_signinattempt_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_signinattempt_client'), ['client'], unique=False)
        batch_op.create_index(batch_op.f('ix_signinattempt_name'), ['name'], unique=False)

    op.create_table('event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('date', sa.Date(), nullable=False),
    sa.Column('edition', sa.String(length=4), nullable=False),
    sa.Column('round_formats', sa.JSON(), nullable=False),
    sa.Column('preferred_table_size', sa.Integer(), nullable=False),
    sa.Column('point_scheme', sa.String(length=32), nullable=False),
    sa.Column('tiebreak_order', sa.JSON(), nullable=False),
    sa.Column('entry_modes', sa.JSON(), nullable=False),
    sa.Column('pick_timer_seconds', sa.Integer(), nullable=True),
    sa.Column('created_by_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['created_by_id'], ['organizer.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('auditentry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=True),
    sa.Column('result_id', sa.Integer(), nullable=True),
    sa.Column('actor', sa.String(length=120), nullable=False),
    sa.Column('action', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('old', sa.JSON(), nullable=True),
    sa.Column('new', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('auditentry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_auditentry_at'), ['at'], unique=False)
        batch_op.create_index(batch_op.f('ix_auditentry_event_id'), ['event_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_auditentry_table_id'), ['table_id'], unique=False)

    op.create_table('player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('name_key', sa.String(length=80), nullable=False),
    sa.Column('club', sa.String(length=80), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('checked_in', sa.Boolean(), nullable=False),
    sa.Column('dropped', sa.Boolean(), nullable=False),
    sa.Column('dropped_after_round', sa.Integer(), nullable=True),
    sa.Column('fixed_table', sa.Integer(), nullable=True),
    sa.Column('joined_round', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event_id', 'name_key', name='uq_player_event_name')
    )
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_event_id'), ['event_id'], unique=False)

    op.create_table('round',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('format', sa.String(length=16), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('duration_minutes', sa.Integer(), nullable=True),
    sa.Column('clock_started_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('published_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event_id', 'number', name='uq_round_event_number')
    )
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_event_id'), ['event_id'], unique=False)

    op.create_table('gametable',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('species', sa.JSON(), nullable=False),
    sa.Column('digital', sa.Boolean(), nullable=False),
    sa.Column('game', sa.JSON(), nullable=True),
    sa.Column('action_log', sa.JSON(), nullable=False),
    sa.Column('log_version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['round_id'], ['round.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('round_id', 'number', name='uq_table_round_number')
    )
    with op.batch_alter_table('gametable', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_gametable_round_id'), ['round_id'], unique=False)

    op.create_table('result',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('entry_mode', sa.String(length=16), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('score_case', sa.JSON(), nullable=True),
    sa.Column('score_output', sa.JSON(), nullable=True),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('dispute_note', sa.String(length=500), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('entered_by', sa.String(length=120), nullable=False),
    sa.Column('entered_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['gametable.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id')
    )
    op.create_table('seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=True),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('is_bot', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], ),
    sa.ForeignKeyConstraint(['table_id'], ['gametable.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('table_id', 'position', name='uq_seat_table_position'),
    sa.UniqueConstraint('token')
    )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seat_table_id'), ['table_id'], unique=False)

    op.create_table('confirmation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('result_id', sa.Integer(), nullable=False),
    sa.Column('result_version', sa.Integer(), nullable=False),
    sa.Column('seat_id', sa.Integer(), nullable=True),
    sa.Column('organizer_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['organizer_id'], ['organizer.id'], ),
    sa.ForeignKeyConstraint(['result_id'], ['result.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['seat_id'], ['seat.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('result_id', 'result_version', 'seat_id', name='uq_confirmation_seat')
    )
    with op.batch_alter_table('confirmation', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_confirmation_result_id'), ['result_id'], unique=False)



def downgrade() -> None:

    with op.batch_alter_table('confirmation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_confirmation_result_id'))

    op.drop_table('confirmation')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_table_id'))
        batch_op.drop_index(batch_op.f('ix_seat_player_id'))

    op.drop_table('seat')
    op.drop_table('result')
    with op.batch_alter_table('gametable', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_gametable_round_id'))

    op.drop_table('gametable')
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_event_id'))

    op.drop_table('round')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_event_id'))

    op.drop_table('player')
    with op.batch_alter_table('auditentry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_auditentry_table_id'))
        batch_op.drop_index(batch_op.f('ix_auditentry_event_id'))
        batch_op.drop_index(batch_op.f('ix_auditentry_at'))

    op.drop_table('auditentry')
    op.drop_table('event')
    with op.batch_alter_table('signinattempt', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_signinattempt_name'))
        batch_op.drop_index(batch_op.f('ix_signinattempt_client'))
        batch_op.drop_index(batch_op.f('ix_signinattempt_at'))

    op.drop_table('signinattempt')
    with op.batch_alter_table('organizer', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_organizer_name'))

    op.drop_table('organizer')
