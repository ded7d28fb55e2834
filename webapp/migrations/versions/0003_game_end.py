"""the end of a game: a target (points or rounds), a title, and the rematch a game was followed by

Revision ID: 0003
Revises: live0002
Create Date: 2026-11-23
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0003'
down_revision = 'live0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', recreate='never') as batch:
        batch.add_column(sa.Column('title', sa.String(length=60), nullable=True))
        batch.add_column(sa.Column('target_kind', sa.String(length=8), nullable=True))
        batch.add_column(sa.Column('target', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('rematch_of', sa.String(length=16), nullable=True))
    # One rematch per game: a retried or doubled "rematch" finds the first one.
    op.create_index(op.f('ix_games_rematch_of'), 'games', ['rematch_of'], unique=True)


def downgrade() -> None:
    op.drop_index(op.f('ix_games_rematch_of'), table_name='games')
    with op.batch_alter_table('games') as batch:
        batch.drop_column('rematch_of')
        batch.drop_column('target')
        batch.drop_column('target_kind')
        batch.drop_column('title')
