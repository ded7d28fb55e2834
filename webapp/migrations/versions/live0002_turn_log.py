"""live referee: each live session keeps its round's turn log (referee.TurnLog.to_dict())

Existing sessions get theirs from their snapshots and turns: the first snapshot starts the log,
each turn's after-snapshot is a turn (a person's "next player" where the turn's seat was not the
one to move), any other snapshot is the table put back; the log then judges every turn, and the
turn rows and the session's mirrors take its verdicts.

Revision ID: live0002
Revises: 0002
Create Date: 2026-11-22
"""
from __future__ import annotations

from alembic import op
import sqlalchemy as sa


revision = 'live0002'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('live_sessions', schema=None, recreate='never') as batch_op:
        batch_op.add_column(sa.Column('log', sa.JSON(), nullable=True))
    _fill_logs(op.get_bind())


def downgrade() -> None:
    with op.batch_alter_table('live_sessions', schema=None, recreate='never') as batch_op:
        batch_op.drop_column('log')


def _fill_logs(conn) -> None:
    import referee

    meta = sa.MetaData()
    games = sa.Table('games', meta, sa.Column('id', sa.String), sa.Column('rules', sa.String))
    players = sa.Table('players', meta, sa.Column('game_id', sa.String),
                       sa.Column('seat', sa.Integer), sa.Column('name', sa.String))
    sessions = sa.Table('live_sessions', meta, sa.Column('id', sa.Integer),
                        sa.Column('game_id', sa.String), sa.Column('seat', sa.Integer),
                        sa.Column('base_snapshot_id', sa.Integer),
                        sa.Column('restore_pending', sa.Boolean), sa.Column('log', sa.JSON))
    snaps = sa.Table('live_snapshots', meta, sa.Column('id', sa.Integer),
                     sa.Column('session_id', sa.Integer), sa.Column('table', sa.Text))
    turns = sa.Table('live_turns', meta, sa.Column('id', sa.Integer),
                     sa.Column('session_id', sa.Integer), sa.Column('number', sa.Integer),
                     sa.Column('player', sa.String), sa.Column('seat', sa.Integer),
                     sa.Column('before_id', sa.Integer), sa.Column('after_id', sa.Integer),
                     sa.Column('verdict', sa.JSON), sa.Column('legal', sa.Boolean))
    for s in conn.execute(sa.select(sessions)).mappings().all():
        rules = conn.execute(sa.select(games.c.rules).where(games.c.id == s['game_id'])).scalar()
        names = list(conn.execute(sa.select(players.c.name).where(
            players.c.game_id == s['game_id']).order_by(players.c.seat)).scalars())
        rows = conn.execute(sa.select(turns).where(turns.c.session_id == s['id'])
                            .order_by(turns.c.number)).mappings().all()
        by_after = {t['after_id']: t for t in rows}
        first_seat = rows[0]['seat'] if rows else s['seat']
        entries, seat = [], first_seat
        for snap in conn.execute(sa.select(snaps).where(snaps.c.session_id == s['id'])
                                 .order_by(snaps.c.id)).mappings():
            t = by_after.get(snap['id'])
            if t is None:
                kind = 'start' if not entries else 'restore'
                entries.append({'kind': kind, 'table': snap['table'], 'ref': snap['id']})
                continue
            if t['seat'] != seat:
                entries.append({'kind': 'seat', 'seat': t['seat']})
            entries.append({'kind': 'turn', 'table': snap['table'], 'ref': snap['id'],
                            'elapsed': (t['verdict'] or {}).get('elapsed')})
            seat = (t['seat'] + 1) % len(names)
        log = referee.TurnLog.from_dict({'players': names, 'rules': rules,
                                         'first_seat': first_seat, 'entries': entries})
        if log.seat != s['seat'] % len(names):
            log.set_to_move(names[s['seat'] % len(names)])
        conn.execute(sessions.update().where(sessions.c.id == s['id']).values(
            log=log.to_dict(), seat=log.seat, base_snapshot_id=log.table_ref,
            restore_pending=log.restore_pending))
        for turn in log.turns:
            conn.execute(turns.update().where(turns.c.session_id == s['id'],
                                              turns.c.number == turn.number).values(
                player=turn.player, seat=turn.seat, before_id=turn.before_ref,
                after_id=turn.after_ref, legal=turn.legal,
                verdict=turn.verdict.to_dict() if turn.verdict is not None
                else {'problem': turn.problem}))
