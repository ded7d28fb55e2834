"""round versions (ETag / If-Match), idempotency answers that expire, player-name keys by NFKC

Revision ID: 0002
Revises: live0001
Create Date: 2026-11-23
"""
from __future__ import annotations

import unicodedata

from alembic import op
import sqlalchemy as sa


revision = '0002'
down_revision = 'live0001'
branch_labels = None
depends_on = None


def _nfkc_key(name: str) -> str:
    """webapp.service.name_key as of this revision."""
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    return unicodedata.normalize("NFKC", text.casefold())


def _nfc_key(name: str) -> str:
    """The key before this revision."""
    return unicodedata.normalize("NFC", name).strip().casefold()


def _rekey(key) -> None:
    """Recompute players.name_key; a game where two names would get one key keeps its keys."""
    conn = op.get_bind()
    players = sa.table("players", sa.column("id", sa.Integer), sa.column("game_id", sa.String),
                       sa.column("name", sa.String), sa.column("name_key", sa.String))
    games: dict[str, list] = {}
    for pid, game_id, name, old in conn.execute(sa.select(players.c.id, players.c.game_id,
                                                          players.c.name, players.c.name_key)):
        games.setdefault(game_id, []).append((pid, key(name), old))
    for rows in games.values():
        if len({new for _, new, _ in rows}) < len(rows):
            continue
        for pid, new, old in rows:
            if new != old:
                conn.execute(players.update().where(players.c.id == pid).values(name_key=new))


def upgrade() -> None:
    op.add_column('rounds', sa.Column('version', sa.Integer(), server_default='0', nullable=False))
    op.create_index(op.f('ix_idempotency_keys_created_at'), 'idempotency_keys', ['created_at'],
                    unique=False)
    _rekey(_nfkc_key)


def downgrade() -> None:
    _rekey(_nfc_key)
    op.drop_index(op.f('ix_idempotency_keys_created_at'), table_name='idempotency_keys')
    with op.batch_alter_table('rounds') as batch:
        batch.drop_column('version')
