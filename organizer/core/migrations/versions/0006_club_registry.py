"""club registry, ratings, seasons; existing events' players linked to the registry

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0006'
down_revision: Union[str, None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table('clubplayer',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('name_key', sa.String(length=80), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('merged_into_id', sa.Integer(), nullable=True),
    sa.Column('merged_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['merged_into_id'], ['clubplayer.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('clubplayer', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_clubplayer_name_key'), ['name_key'], unique=False)
        batch_op.create_index(batch_op.f('ix_clubplayer_email'), ['email'], unique=False)

    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.add_column(sa.Column('club_player_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_player_club_player_id', 'clubplayer', ['club_player_id'], ['id'],
                                    ondelete='SET NULL')
        batch_op.create_index(batch_op.f('ix_player_club_player_id'), ['club_player_id'], unique=False)

    op.create_table('registryreview',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('candidates', sa.JSON(), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('player_id')
    )

    op.create_table('ratingpoint',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('club_player_id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('sequence', sa.Integer(), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('tables', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['club_player_id'], ['clubplayer.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('ratingpoint', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ratingpoint_club_player_id'), ['club_player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ratingpoint_event_id'), ['event_id'], unique=False)

    op.create_table('season',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=120), nullable=False),
    sa.Column('starts_on', sa.Date(), nullable=False),
    sa.Column('ends_on', sa.Date(), nullable=False),
    sa.Column('rule', sa.String(length=16), nullable=False),
    sa.Column('best_of', sa.Integer(), nullable=False),
    sa.Column('min_events', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('seasonevent',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('season_id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['season_id'], ['season.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('season_id', 'event_id', name='uq_seasonevent_season_event')
    )
    with op.batch_alter_table('seasonevent', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seasonevent_season_id'), ['season_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seasonevent_event_id'), ['event_id'], unique=False)

    _link_existing_players()


def _link_existing_players() -> None:
    """Every existing player gets a registry entry, oldest events first: the same e-mail is the
    same person; else the same name is, unless both carry different e-mails (then two people,
    to be merged later if they are one). Nothing is deleted or renamed."""
    from datetime import UTC, datetime

    from organizer.core.text import name_key

    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT player.id, player.name, player.email FROM player JOIN event ON event.id = player.event_id "
        "ORDER BY event.date, event.id, player.id")).all()
    by_email: dict[str, int] = {}
    by_name: dict[str, list[int]] = {}
    emails: dict[int, str] = {}
    now = datetime.now(UTC)
    for player_id, name, email in rows:
        email = (email or "").strip().casefold()
        key = name_key(name)[:80]
        found = by_email.get(email) if email else None
        if found is None:
            same_name = [cid for cid in by_name.get(key, []) if not email or not emails[cid] or emails[cid] == email]
            found = same_name[0] if len(same_name) == 1 else None
        if found is None:
            found = bind.execute(sa.text(
                "INSERT INTO clubplayer (name, name_key, email, created_at) VALUES (:n, :k, :e, :t) RETURNING id"),
                {"n": name, "k": key, "e": email, "t": now}).scalar_one()
            by_name.setdefault(key, []).append(found)
            emails[found] = email
        elif email and not emails[found]:
            bind.execute(sa.text("UPDATE clubplayer SET email = :e WHERE id = :i"), {"e": email, "i": found})
            emails[found] = email
        if email:
            by_email.setdefault(email, found)
        bind.execute(sa.text("UPDATE player SET club_player_id = :c WHERE id = :p"), {"c": found, "p": player_id})


def downgrade() -> None:
    op.drop_table('seasonevent')
    op.drop_table('season')
    op.drop_table('ratingpoint')
    op.drop_table('registryreview')
    with op.batch_alter_table('player', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_club_player_id'))
        batch_op.drop_constraint('fk_player_club_player_id', type_='foreignkey')
        batch_op.drop_column('club_player_id')
    op.drop_table('clubplayer')
