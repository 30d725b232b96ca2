"""events carry a language for their printed matter and projector, and a time zone

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


revision: str = '0008'
down_revision: Union[str, None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # existing events keep what they showed before: English, times in UTC
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sa.String(length=8), nullable=False, server_default='en'))
        batch_op.add_column(sa.Column('time_zone', sa.String(length=64), nullable=False, server_default='UTC'))


def downgrade() -> None:
    with op.batch_alter_table('event', schema=None) as batch_op:
        batch_op.drop_column('time_zone')
        batch_op.drop_column('language')
