"""The live referee's answers as JSON: the live state, a turn, the dispute view of a turn. Every
verdict comes from the round's turn log (:mod:`webapp.live.store`); nothing is judged here."""

from __future__ import annotations

from typing import Any, Optional

from sqlalchemy.orm import Session

import referee
from vision.reading import Reading

from .. import service
from ..models import Game
from ..service import NotFound
from . import store
from .models import LiveSession, LiveTurn


def picture_url(game_id: str, snapshot_id: Optional[int], *, annotated: bool = True
                ) -> Optional[str]:
    """The address of a snapshot's picture: drawn on by ``vision.annotate`` unless
    ``annotated`` is false (the live page draws its own outlines over the camera's picture)."""
    if snapshot_id is None:
        return None
    url = f"/api/games/{game_id}/live/snapshots/{snapshot_id}.jpg"
    return url + "?annotated=1" if annotated else url


def turn_json(turn: referee.Turn, row: LiveTurn, game_id: str) -> dict:
    """One turn: the log's verdict and the row's when, why and corrections."""
    return {"number": turn.number, "at": service.iso(row.at), "player": turn.player,
            "seat": turn.seat, "reason": row.reason, "legal": turn.legal,
            "verdict": turn.verdict.to_dict() if turn.verdict is not None else None,
            "problem": turn.problem, "summary": turn.summary(), "unrestored": turn.unrestored,
            "elapsed": turn.elapsed, "corrections": list(row.corrections or []),
            "before": {"snapshot": turn.before_ref,
                       "image": picture_url(game_id, turn.before_ref)},
            "after": {"snapshot": turn.after_ref, "image": picture_url(game_id, turn.after_ref)},
            "delay": row.delay}


def watcher_json(s: Optional[LiveSession]) -> dict:
    if s is None or not s.watcher:
        return {"state": "none", "detail": "no camera has reported for this game", "at": None}
    return {**s.watcher, "at": service.iso(s.watcher_at)}


def state_json(db: Session, game: Game) -> dict:
    """``GET /api/games/<id>/live``: the camera, whose turn it is, the last verdict, the table
    as it should be and its picture."""
    players = [p.name for p in game.players]
    s = store.current_session(db, game, create=False)
    out: dict[str, Any] = {"game": game.id, "players": players, "rules": game.rules,
                           "watcher": watcher_json(s), "session": None, "turns": 0,
                           "last_turn": None,
                           "next_player": players[(game.timer_seat or 0) % len(players)],
                           "table": None, "image": None, "restore_pending": False,
                           "end_turn": None, "version": game.version}
    if s is None:
        return out
    log = store.load(s)
    last = log.turns[-1] if log.turns else None
    out.update({"session": s.id, "turns": len(log.turns),
                "last_turn": turn_json(last, store.turn_rows(db, s)[last.number], game.id)
                if last else None,
                "next_player": log.to_move, "table": str(log.table) if log.started else None,
                "image": picture_url(game.id, last.after_ref if last else log.table_ref),
                "restore_pending": log.restore_pending, "end_turn": s.end_turn})
    return out


def turns_json(db: Session, game: Game) -> dict:
    """``GET /api/games/<id>/live/turns``: every turn of the round, in order."""
    s = store.current_session(db, game, create=False)
    if s is None:
        return {"session": None, "turns": []}
    rows = store.turn_rows(db, s)
    return {"session": s.id,
            "turns": [turn_json(t, rows[t.number], game.id) for t in store.load(s).turns]}


def find_turn(db: Session, game: Game, number: int
              ) -> tuple[LiveSession, referee.TurnLog, referee.Turn, LiveTurn]:
    """(session, log, turn, row) of turn ``number`` of the round, or a 404 that says so."""
    s = store.current_session(db, game, create=False)
    log = store.load(s) if s is not None else None
    if log is None or not 1 <= number <= len(log.turns):
        raise NotFound(f"there is no live turn {number} in this game", turn=number)
    return s, log, log.turns[number - 1], store.turn_rows(db, s)[number]


def dispute_json(db: Session, game: Game, number: int) -> dict:
    """A turn with what changed, the tiles of both readings (to correct one) and the answer to
    "could these tiles have been laid validly?"."""
    s, log, turn, row = find_turn(db, game, number)
    out = turn_json(turn, row, game.id)
    for side, ref, table in (("before", turn.before_ref, turn.before),
                             ("after", turn.after_ref, turn.after)):
        snap = store.snapshot(db, s, ref)
        reading = Reading.from_json(snap.reading) if snap is not None else Reading()
        doubted = reading.uncertain_indices
        out[side].update({"table": str(table),
                          "tiles": [{"tile": t.tile, "uncertain": i in doubted}
                                    for i, t in enumerate(reading.tiles)]})
    out["changes"] = referee.diff_tables(turn.before, turn.after).to_dict()
    out["solver"] = referee.could_lay(turn.before, turn.after, log.rules).to_dict()
    out["rules"] = {"name": log.rules.name, "title": log.rules.title,
                    "failed_turn_draw": log.rules.failed_turn_draw}
    return out
