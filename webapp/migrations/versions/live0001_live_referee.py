"""live referee: live sessions, snapshots and turns (owner: the live referee, webapp/live/)

Revision ID: live0001
Revises: 0001
Create Date: 2026-11-21
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = 'live0001'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('live_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('base_snapshot_id', sa.Integer(), nullable=True),
    sa.Column('restore_pending', sa.Boolean(), nullable=False),
    sa.Column('end_turn', sa.String(length=32), nullable=True),
    sa.Column('end_turn_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('watcher', sa.JSON(), nullable=True),
    sa.Column('watcher_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_live_sessions_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_live_sessions'))
    )
    op.create_index(op.f('ix_live_sessions_game_id'), 'live_sessions', ['game_id'], unique=False)
    op.create_table('live_snapshots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('table', sa.Text(), nullable=False),
    sa.Column('reading', sa.JSON(), nullable=False),
    sa.Column('image', sa.LargeBinary(), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['live_sessions.id'], name=op.f('fk_live_snapshots_session_id_live_sessions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_live_snapshots'))
    )
    op.create_index(op.f('ix_live_snapshots_session_id'), 'live_snapshots', ['session_id'], unique=False)
    op.create_table('live_turns',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('player', sa.String(length=40), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('before_id', sa.Integer(), nullable=False),
    sa.Column('after_id', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=20), nullable=False),
    sa.Column('verdict', sa.JSON(), nullable=False),
    sa.Column('legal', sa.Boolean(), nullable=True),
    sa.Column('corrections', sa.JSON(), nullable=False),
    sa.Column('delay', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['after_id'], ['live_snapshots.id'], name=op.f('fk_live_turns_after_id_live_snapshots')),
    sa.ForeignKeyConstraint(['before_id'], ['live_snapshots.id'], name=op.f('fk_live_turns_before_id_live_snapshots')),
    sa.ForeignKeyConstraint(['session_id'], ['live_sessions.id'], name=op.f('fk_live_turns_session_id_live_sessions'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_live_turns')),
    sa.UniqueConstraint('session_id', 'number', name='uq_live_turns_session_number')
    )
    op.create_index(op.f('ix_live_turns_session_id'), 'live_turns', ['session_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_live_turns_session_id'), table_name='live_turns')
    op.drop_table('live_turns')
    op.drop_index(op.f('ix_live_snapshots_session_id'), table_name='live_snapshots')
    op.drop_table('live_snapshots')
    op.drop_index(op.f('ix_live_sessions_game_id'), table_name='live_sessions')
    op.drop_table('live_sessions')
