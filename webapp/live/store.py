"""Keeping a round's :class:`referee.TurnLog` in the database.

Each live session holds its log (``LiveSession.log``). A change loads it, lets the log decide
(a table seen, a correction, whose turn it is), and :func:`save` writes it back together with
its mirrors: the session's seat / base snapshot / restore flag and one ``LiveTurn`` row per turn
of the log, so the rows say what the log says after every correction. Callers hold the game's
write lock (``service.get_game(..., lock=True)``).
"""

from __future__ import annotations

from typing import Optional

from sqlalchemy import select
from sqlalchemy.orm import Session

import referee

from .. import service
from ..models import Game
from .models import LiveSession, LiveSnapshot, LiveTurn


def current_session(db: Session, game: Game, *, create: bool = True) -> Optional[LiveSession]:
    """The game's live session (the round being watched), started when ``create``."""
    s = db.execute(select(LiveSession).where(LiveSession.game_id == game.id)
                   .order_by(LiveSession.id.desc()).limit(1)).scalar_one_or_none()
    if s is None and create:
        s = new_session(db, game)
    return s


def new_session(db: Session, game: Game, old: Optional[LiveSession] = None) -> LiveSession:
    """A new round: an empty log, the scoresheet timer's player to move first (the camera's
    state carried over from ``old``)."""
    players = [p.name for p in game.players]
    log = referee.TurnLog(players, service.game_rules(game),
                          first_seat=(game.timer_seat or 0) % len(players))
    s = LiveSession(game_id=game.id, watcher=old.watcher if old else None,
                    watcher_at=old.watcher_at if old else None)
    db.add(s)
    save(db, s, log)
    return s


def load(session: LiveSession) -> referee.TurnLog:
    """The session's log, as saved (nothing is judged again)."""
    return referee.TurnLog.from_dict(session.log)


def save(db: Session, session: LiveSession, log: referee.TurnLog, *,
         reason: Optional[str] = None, delay: Optional[float] = None) -> dict[int, LiveTurn]:
    """Write ``log`` to ``session`` and bring the mirrors in step. A turn new to the rows gets
    ``reason`` and ``delay``. Returns the turn rows by number."""
    session.log = log.to_dict()
    session.seat = log.seat
    session.base_snapshot_id = log.table_ref
    session.restore_pending = log.restore_pending
    db.flush()  # the session's id, for new rows
    rows = turn_rows(db, session)
    for turn in log.turns:
        row = rows.get(turn.number)
        if row is None:
            row = rows[turn.number] = LiveTurn(session_id=session.id, number=turn.number,
                                               reason=reason or "still", corrections=[],
                                               delay=delay)
            db.add(row)
        row.player, row.seat = turn.player, turn.seat
        row.before_id, row.after_id = turn.before_ref, turn.after_ref
        row.verdict = turn.verdict.to_dict() if turn.verdict is not None \
            else {"problem": turn.problem}
        row.legal = turn.legal
    for number in [n for n in rows if n > len(log.turns)]:
        db.delete(rows.pop(number))
    db.flush()
    return rows


def turn_rows(db: Session, session: LiveSession) -> dict[int, LiveTurn]:
    return {t.number: t for t in db.execute(
        select(LiveTurn).where(LiveTurn.session_id == session.id)).scalars()}


def snapshot(db: Session, session: LiveSession, snapshot_id: Optional[int]
             ) -> Optional[LiveSnapshot]:
    """A snapshot of this session, or None."""
    if snapshot_id is None:
        return None
    snap = db.get(LiveSnapshot, snapshot_id)
    return snap if snap is not None and snap.session_id == session.id else None


def forget_sessions(db: Session, game: Game, *, keep: int) -> None:
    """Delete the game's live sessions other than ``keep``, with their turns and pictures."""
    from sqlalchemy import delete

    old = select(LiveSession.id).where(LiveSession.game_id == game.id, LiveSession.id != keep)
    db.execute(delete(LiveTurn).where(LiveTurn.session_id.in_(old)))
    db.execute(delete(LiveSnapshot).where(LiveSnapshot.session_id.in_(old)))
    db.execute(delete(LiveSession).where(LiveSession.id.in_(old)))
