"""a club player may have a public profile (their consent and its unguessable address), and each
event's league figures are stored

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = '0011'
down_revision: str | None = '0010'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ADD COLUMN, no batch: a batch copy of a table on SQLite drops the old one (and with
    # foreign keys on, what hangs below it); nobody's profile is public until they agree
    op.add_column('clubplayer', sa.Column('public_profile', sa.Boolean(), nullable=False, server_default='0'))
    op.add_column('clubplayer', sa.Column('public_code', sa.String(length=32), nullable=True))
    connection = op.get_bind()
    for (row_id,) in connection.execute(sa.text("SELECT id FROM clubplayer WHERE public_code IS NULL")).all():
        # each entry its own random code, made here (no database makes good random text)
        connection.execute(sa.text("UPDATE clubplayer SET public_code = :value WHERE id = :id"),
                           {"value": secrets.token_urlsafe(12), "id": row_id})
    op.create_index('uq_clubplayer_public_code', 'clubplayer', ['public_code'], unique=True)
    if connection.dialect.name == 'postgresql':
        op.alter_column('clubplayer', 'public_code', existing_type=sa.String(length=32), nullable=False)
    op.create_table(
        'leaguetally',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('event_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('units', sa.Integer(), nullable=False),
        sa.Column('game_points', sa.Integer(), nullable=False),
        sa.Column('species', sa.Integer(), nullable=False),
        sa.Column('stamp', sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['player_id'], ['player.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('event_id', 'player_id', name='uq_leaguetally_event_player'),
    )
    op.create_index('ix_leaguetally_event_id', 'leaguetally', ['event_id'], unique=False)


def downgrade() -> None:
    op.drop_index('ix_leaguetally_event_id', table_name='leaguetally')
    op.drop_table('leaguetally')
    op.drop_index('uq_clubplayer_public_code', table_name='clubplayer')
    op.drop_column('clubplayer', 'public_code')
    op.drop_column('clubplayer', 'public_profile')
