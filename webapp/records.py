"""Looking back across games: the list of games, each player's record, a game's change log."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Optional

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session, selectinload

import referee

from .ending import end_of, target_json
from .models import AuditEntry, Game, Player, Round, RoundScore
from .names import name_key
from .sheet import get_game
from .stamps import iso


def list_games(db: Session, *, limit: int = 50, offset: int = 0,
               player: Optional[str] = None) -> dict[str, Any]:
    base = select(Game.id)
    if player:
        base = base.where(Game.id.in_(select(Player.game_id)
                                      .where(Player.name_key == name_key(player))))
    total = db.execute(select(func.count()).select_from(base.subquery())).scalar_one()
    games = db.execute(select(Game).where(Game.id.in_(base))
                       .order_by(Game.created_at.desc(), Game.id)
                       .limit(limit).offset(offset)
                       .options(selectinload(Game.players))).scalars().all()
    ids = [g.id for g in games]
    sums: dict[int, int] = {}
    rounds_per_game: dict[str, int] = {}
    if ids:
        for pid, total_score in db.execute(
                select(RoundScore.player_id, func.sum(RoundScore.score))
                .join(Player, Player.id == RoundScore.player_id)
                .where(Player.game_id.in_(ids)).group_by(RoundScore.player_id)):
            sums[pid] = int(total_score or 0)
        for gid, n in db.execute(select(Round.game_id, func.count()).where(Round.game_id.in_(ids))
                                 .group_by(Round.game_id)):
            rounds_per_game[gid] = int(n)
    out = []
    for g in games:
        totals = {p.name: sums.get(p.id, 0) for p in g.players}
        n_rounds = rounds_per_game.get(g.id, 0)
        best = max(totals.values()) if totals else 0
        rules = referee.PRESETS.get(g.rules)
        out.append({"id": g.id, "created_at": iso(g.created_at), "updated_at": iso(g.updated_at),
                    "title": g.title, "target": target_json(g.target_kind, g.target),
                    **end_of(g.target_kind, g.target, totals, n_rounds),
                    "rules": g.rules, "rules_title": rules.title if rules else g.rules,
                    "players": [p.name for p in g.players], "rounds": n_rounds, "totals": totals,
                    "leaders": [n for n, t in totals.items() if t == best] if n_rounds else []})
    return {"games": out, "total": int(total), "limit": limit, "offset": offset}


def player_records(db: Session) -> dict[str, Any]:
    """Each player's record across all games; the same name in any case is one player."""
    rows = db.execute(
        select(Player.id, Player.game_id, Player.name, Player.name_key, Game.updated_at,
               func.coalesce(func.sum(RoundScore.score), 0),
               func.count(RoundScore.round_id),
               func.coalesce(func.sum(case((RoundScore.won, 1), else_=0)), 0))
        .join(Game, Game.id == Player.game_id)
        .outerjoin(RoundScore, RoundScore.player_id == Player.id)
        .group_by(Player.id, Player.game_id, Player.name, Player.name_key, Game.updated_at)
    ).all()
    by_game: dict[str, list] = {}
    for row in rows:
        by_game.setdefault(row[1], []).append(row)
    records: dict[str, dict[str, Any]] = {}
    seen_at: dict[str, datetime] = {}    # the newest game of each player: its name spelling
    played_at: dict[str, datetime] = {}  # the newest game with rounds
    for game_rows in by_game.values():
        played = any(r[6] for r in game_rows)
        best = max(int(r[5]) for r in game_rows)
        for _pid, _gid, name, key, updated, total, n_rounds, n_won in game_rows:
            rec = records.setdefault(key, {"name": name, "games": 0, "won": 0, "total_score": 0,
                                           "rounds": 0, "rounds_won": 0, "last_played": None})
            if key not in seen_at or updated > seen_at[key]:
                seen_at[key], rec["name"] = updated, name
            if played:
                rec["games"] += 1
                rec["won"] += int(int(total) == best)
                if key not in played_at or updated > played_at[key]:
                    played_at[key] = updated
                    rec["last_played"] = iso(updated)
            rec["total_score"] += int(total)
            rec["rounds"] += int(n_rounds)
            rec["rounds_won"] += int(n_won)
    out = list(records.values())
    out.sort(key=lambda r: (-r["won"], -r["total_score"], r["name"].casefold()))
    return {"players": out}


def audit_json(db: Session, game_id: str) -> dict[str, Any]:
    get_game(db, game_id)
    entries = db.execute(select(AuditEntry).where(AuditEntry.game_id == game_id)
                         .order_by(AuditEntry.id)).scalars().all()
    return {"entries": [{"id": e.id, "at": iso(e.at), "actor": e.actor, "action": e.action,
                         "round": e.round_number, "before": e.before, "after": e.after}
                        for e in entries]}
