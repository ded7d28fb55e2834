"""The table's shared turn timer: who is to play, for how long, and the owner's taps (start,
next player, pause, reset)."""

from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import func, select
from sqlalchemy.orm import Session

import referee

from .changes import record_change
from .exceptions import Invalid, unknown_fields
from .models import Game, Player, Round
from .names import name_key
from .presets import game_rules, timeout_penalty
from . import stamps
from .stamps import iso_ms

TIMER_WARNING_SECONDS = 10


def starter_seat(round_number: int, n_players: int) -> int:
    """Who starts round ``round_number`` (1-based): the deal rotates one seat per round."""
    return (round_number - 1) % n_players


def timer_json(game: Game, players: list[Player], rules: referee.Rules,
               at_ms: Optional[int] = None) -> dict[str, Any]:
    at_ms = stamps.now_ms() if at_ms is None else at_ms
    elapsed_ms = game.timer_elapsed_ms or 0
    if game.timer_state == "running" and game.timer_started_ms is not None:
        elapsed_ms += max(0, at_ms - game.timer_started_ms)
    limit = rules.turn_time_limit or None
    seat = game.timer_seat % len(players) if players else 0
    remaining = None if limit is None else round(limit - elapsed_ms / 1000, 3)
    return {"state": game.timer_state, "player": players[seat].name if players else None,
            "seat": seat, "turn": game.timer_turn, "limit": limit,
            "warning": min(TIMER_WARNING_SECONDS, limit) if limit else None,
            "elapsed": round(elapsed_ms / 1000, 3), "remaining": remaining,
            "expired": remaining is not None and remaining <= 0,
            "started_at": iso_ms(game.timer_started_ms) if game.timer_state == "running" else None,
            "server_time": iso_ms(at_ms), "penalty": timeout_penalty(rules)}


def reset_timer(game: Game, next_round: int, n_players: int) -> None:
    game.timer_state = "idle"
    game.timer_seat = starter_seat(next_round, n_players)
    game.timer_turn = 0
    game.timer_started_ms = None
    game.timer_elapsed_ms = 0


TIMER_ACTIONS = ("start", "next", "pause", "reset")


def timer_action(db: Session, game: Game, body: Any, actor: str) -> dict[str, Any]:
    if not isinstance(body, dict) or body.get("action") not in TIMER_ACTIONS:
        raise Invalid(f'send {{"action": ...}} with one of {", ".join(TIMER_ACTIONS)}',
                      field="action")
    unknown = set(body) - {"action", "player", "device"}
    if unknown:
        raise Invalid(f"{unknown_fields(unknown)}; the timer takes action and player",
                      field=sorted(map(str, unknown))[0])
    players = list(game.players)
    action = body["action"]
    seat = None
    if body.get("player") is not None:
        if action not in ("start", "next"):
            raise Invalid(f'"player" goes with start or next, not {action}', field="player")
        raw = body["player"]
        match = [p for p in players if isinstance(raw, str) and p.name_key == name_key(raw)]
        if not match:
            raise Invalid(f"{raw!r} is not a player in this game; the players are "
                          f"{', '.join(p.name for p in players)}", field="player")
        seat = match[0].seat
    t = stamps.now_ms()
    if action == "start":
        if seat is not None and seat != game.timer_seat:
            game.timer_seat, game.timer_elapsed_ms = seat, 0
            game.timer_turn = (game.timer_turn or 0) + 1
            game.timer_state, game.timer_started_ms = "running", t
        elif game.timer_state != "running":
            if game.timer_state == "idle":
                game.timer_elapsed_ms = 0
                game.timer_turn = (game.timer_turn or 0) + 1
            game.timer_state, game.timer_started_ms = "running", t
    elif action == "next":
        game.timer_seat = seat if seat is not None else (game.timer_seat + 1) % len(players)
        game.timer_elapsed_ms = 0
        game.timer_turn = (game.timer_turn or 0) + 1
        game.timer_state, game.timer_started_ms = "running", t
    elif action == "pause":
        if game.timer_state == "running":
            game.timer_elapsed_ms = (game.timer_elapsed_ms or 0) + max(0, t - game.timer_started_ms)
            game.timer_state, game.timer_started_ms = "paused", None
    else:
        n = db.execute(select(func.max(Round.number)).where(Round.game_id == game.id)).scalar()
        reset_timer(game, (n or 0) + 1, len(players))
    state = timer_json(game, players, game_rules(game), t)
    record_change(db, game, "timer", {"timer": state, "actor": actor})
    return state
