"""How every change of a game is recorded, in the caller's transaction: the game's version goes
up, an event goes to the phones (``webapp.events``), and the change log keeps who did what."""

from __future__ import annotations

from typing import Any, Optional

from sqlalchemy.orm import Session

from .models import AuditEntry, Game, GameEvent, utcnow


def next_version(game: Game) -> int:
    """The version that the change being made gives ``game`` (:func:`record_change` sets it)."""
    return (game.version or 0) + 1


def record_change(db: Session, game: Game, type_: str, data: dict[str, Any]) -> int:
    """Record a change of ``game``: bump its version and write its event in the caller's
    transaction. Every phone's event stream then sends ``type_`` (at most 20 characters) with
    ``data`` plus ``version``; returns the new version. ``game`` must be locked."""
    game.version = (game.version or 0) + 1
    game.updated_at = utcnow()
    payload = {"version": game.version, **data}
    db.add(GameEvent(game_id=game.id, version=game.version, type=type_, data=payload,
                     at=game.updated_at))
    return game.version


def audit(db: Session, game: Game, actor: str, action: str, round_number: Optional[int],
           before: Optional[dict], after: Optional[dict]) -> None:
    db.add(AuditEntry(game_id=game.id, actor=actor, action=action, round_number=round_number,
                      before=before, after=after, at=utcnow()))
