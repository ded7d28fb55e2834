"""One game as the API and the pages show it: its players, rounds, totals, ranking, timer, target
and winners; a round and its entity tag.

``get_game(..., lock=True)`` locks the game row first (``SELECT ... FOR UPDATE`` on PostgreSQL;
on SQLite the write transaction already holds the database's write lock), so two phones
changing one game at the same moment are applied one after the other.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Optional

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session, selectinload

from .ending import end_of, target_json
from .exceptions import NotFound, PreconditionFailed
from .models import AuditEntry, Game, Player, Round
from .presets import game_rules, rules_json
from .stamps import iso
from .timer import starter_seat, timer_json


def get_game(db: Session, game_id: str, *, lock: bool = False) -> Game:
    stmt = select(Game).where(Game.id == game_id)
    if lock:
        stmt = stmt.with_for_update()
    game = db.execute(stmt).scalar_one_or_none()
    if game is None:
        raise NotFound(f"there is no game {game_id!r}; check the link", game=game_id)
    return game


def load_game(db: Session, game_id: str) -> Game:
    stmt = (select(Game).where(Game.id == game_id)
            .options(selectinload(Game.players), selectinload(Game.rounds)))
    game = db.execute(stmt).scalar_one_or_none()
    if game is None:
        raise NotFound(f"there is no game {game_id!r}; check the link", game=game_id)
    return game


def round_json(r: Round) -> dict[str, Any]:
    return _round_dict(r.number, r.starter, r.winner, r.racks, r.result, r.created_at,
                       r.updated_at, r.edits, r.version or 0)


def round_etag(r: Round) -> str:
    """The round's entity tag (unquoted): its version."""
    return str(r.version or 0)


def _round_dict(number: int, starter: str, winner: Optional[str], racks: dict, res: dict,
                created_at: datetime, updated_at: datetime, edits: int,
                version: int) -> dict[str, Any]:
    return {"number": number, "version": version, "starter": starter, "winner": winner,
            "went_out": bool(res["went_out"]), "counted_winner": res["winner"],
            "racks": dict(racks), "rack_values": dict(res["rack_values"]),
            "scores": dict(res["scores"]), "total": res["total"],
            "explanation": list(res["explanation"]), "rules": res["rules"],
            "created_at": iso(created_at), "updated_at": iso(updated_at),
            "edited": edits > 0, "edits": edits}


def totals_of(players: list[Player], rounds: Iterable[Round]) -> dict[str, int]:
    totals = {p.name: 0 for p in players}
    for r in rounds:
        for name, score in r.result["scores"].items():
            totals[name] = totals.get(name, 0) + int(score)
    return totals


def ranking_of(players: list[Player], totals: dict[str, int]) -> list[dict[str, Any]]:
    """Highest total first; equal totals share a rank (1, 1, 3); ties keep seat order."""
    order = sorted(players, key=lambda p: (-totals[p.name], p.seat))
    out, rank = [], 0
    for i, p in enumerate(order):
        if i == 0 or totals[p.name] != totals[order[i - 1].name]:
            rank = i + 1
        out.append({"rank": rank, "name": p.name, "total": totals[p.name]})
    return out


def links(game_id: str) -> dict[str, str]:
    base = f"/api/games/{game_id}"
    return {"self": base, "events": f"{base}/events", "csv": f"{base}/export.csv",
            "audit": f"{base}/audit", "timer": f"{base}/timer", "rounds": f"{base}/rounds"}


def game_json(game: Game) -> dict[str, Any]:
    rules = game_rules(game)
    players = list(game.players)
    rounds = list(game.rounds)
    totals = totals_of(players, rounds)
    next_round = (rounds[-1].number if rounds else 0) + 1
    return {"id": game.id, "created_at": iso(game.created_at), "updated_at": iso(game.updated_at),
            "version": game.version, "title": game.title,
            "target": target_json(game.target_kind, game.target),
            **end_of(game.target_kind, game.target, totals, len(rounds)),
            **rematches(game), "rules": rules_json(rules),
            "players": [{"name": p.name, "seat": p.seat} for p in players],
            "rounds": [round_json(r) for r in rounds], "totals": totals,
            "ranking": ranking_of(players, totals), "next_round": next_round,
            "next_starter": players[starter_seat(next_round, len(players))].name,
            "timer": timer_json(game, players, rules), "links": links(game.id)}


def rematches(game: Game) -> dict[str, Optional[str]]:
    """The game this one is a rematch of and the game that followed it (ids of games that
    still exist, else None)."""
    db = object_session(game)
    after = db.execute(select(Game.id).where(Game.rematch_of == game.id)).scalar_one_or_none()
    before = None
    if game.rematch_of:
        before = db.execute(select(Game.id).where(Game.id == game.rematch_of)).scalar_one_or_none()
    return {"rematch_of": before, "rematch": after}


def game_state(db: Session, game_id: str) -> dict[str, Any]:
    """Exactly what ``GET /api/games/<id>`` returns."""
    return game_json(load_game(db, game_id))


def get_round(db: Session, game_id: str, number: int) -> Round:
    r = db.execute(select(Round).where(Round.game_id == game_id, Round.number == number)
                   ).scalar_one_or_none()
    if r is None:
        get_game(db, game_id)
        raise NotFound(f"game {game_id} has no round {number}", game=game_id, round=number)
    return r


_DONE = {"add-round": "entered again", "edit-round": "edited", "undo-round": "undone"}


def check_round_unchanged(db: Session, game: Game, number: int, if_match) -> None:
    """Refuse a change of round ``number`` made from an old copy of it: ``if_match`` is the
    request's parsed ``If-Match`` (werkzeug ``ETags``; empty when the header was not sent,
    which skips the check). Raises :class:`PreconditionFailed` naming who changed it."""
    if not if_match:
        return
    r = db.execute(select(Round).where(Round.game_id == game.id, Round.number == number)
                   ).scalar_one_or_none()
    if r is not None and (if_match.star_tag or if_match.contains(round_etag(r))):
        return
    last = db.execute(select(AuditEntry).where(AuditEntry.game_id == game.id,
                                               AuditEntry.round_number == number)
                      .order_by(AuditEntry.id.desc()).limit(1)).scalar_one_or_none()
    if r is None and last is None:
        raise NotFound(f"game {game.id} has no round {number}", game=game.id, round=number)
    who = last.actor if last is not None else "another phone"
    done = _DONE.get(last.action, "changed") if last is not None else "changed"
    when = f" at {iso(last.at)[11:16]} UTC" if last is not None else ""
    raise PreconditionFailed(
        f"round {number} was {done} by \"{who}\"{when}, after this phone loaded it, so nothing "
        f"was changed. Reload the sheet, check round {number}, and make your change again if "
        f"it is still needed", round=number, changed_by=who)
