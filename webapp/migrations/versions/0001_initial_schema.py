"""initial schema: games, players, rounds and their scores, audit trail, events, idempotency keys

Revision ID: 0001
Revises: 
Create Date: 2026-11-21
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('games',
    sa.Column('id', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('rules', sa.String(length=40), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('owner_device', sa.String(length=60), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('timer_state', sa.String(length=8), nullable=False),
    sa.Column('timer_seat', sa.Integer(), nullable=False),
    sa.Column('timer_turn', sa.Integer(), nullable=False),
    sa.Column('timer_started_ms', sa.BigInteger(), nullable=True),
    sa.Column('timer_elapsed_ms', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_games'))
    )
    op.create_index(op.f('ix_games_updated_at'), 'games', ['updated_at'], unique=False)

    op.create_table('idempotency_keys',
    sa.Column('scope', sa.String(length=40), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('request_hash', sa.String(length=64), nullable=False),
    sa.Column('status', sa.Integer(), nullable=False),
    sa.Column('body', sa.JSON(), nullable=False),
    sa.Column('location', sa.String(length=200), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('scope', 'key', name=op.f('pk_idempotency_keys'))
    )
    op.create_table('audit_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('actor', sa.String(length=60), nullable=False),
    sa.Column('action', sa.String(length=20), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=True),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_audit_entries_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_entries'))
    )
    op.create_index(op.f('ix_audit_entries_game_id'), 'audit_entries', ['game_id'], unique=False)

    op.create_table('game_events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('type', sa.String(length=20), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_game_events_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_events')),
    sa.UniqueConstraint('game_id', 'version', name='uq_game_events_game_version')
    )
    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('name_key', sa.String(length=120), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_players_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('game_id', 'name_key', name='uq_players_game_name'),
    sa.UniqueConstraint('game_id', 'seat', name='uq_players_game_seat')
    )
    op.create_index(op.f('ix_players_game_id'), 'players', ['game_id'], unique=False)
    op.create_index(op.f('ix_players_name_key'), 'players', ['name_key'], unique=False)

    op.create_table('rounds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('starter', sa.String(length=40), nullable=False),
    sa.Column('winner', sa.String(length=40), nullable=True),
    sa.Column('racks', sa.JSON(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('edits', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], name=op.f('fk_rounds_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rounds')),
    sa.UniqueConstraint('game_id', 'number', name='uq_rounds_game_number')
    )
    op.create_index(op.f('ix_rounds_game_id'), 'rounds', ['game_id'], unique=False)

    op.create_table('round_scores',
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('score', sa.Integer(), nullable=False),
    sa.Column('rack_value', sa.Integer(), nullable=False),
    sa.Column('won', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_round_scores_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], name=op.f('fk_round_scores_round_id_rounds'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('round_id', 'player_id', name=op.f('pk_round_scores'))
    )
    op.create_index(op.f('ix_round_scores_player_id'), 'round_scores', ['player_id'], unique=False)



def downgrade() -> None:
    op.drop_index(op.f('ix_round_scores_player_id'), table_name='round_scores')

    op.drop_table('round_scores')
    op.drop_index(op.f('ix_rounds_game_id'), table_name='rounds')

    op.drop_table('rounds')
    op.drop_index(op.f('ix_players_name_key'), table_name='players')
    op.drop_index(op.f('ix_players_game_id'), table_name='players')

    op.drop_table('players')
    op.drop_table('game_events')
    op.drop_index(op.f('ix_audit_entries_game_id'), table_name='audit_entries')

    op.drop_table('audit_entries')
    op.drop_table('idempotency_keys')
    op.drop_index(op.f('ix_games_updated_at'), table_name='games')

    op.drop_table('games')
