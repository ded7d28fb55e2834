"""Whole games: starting one; what its owner does to it later (rename it, change what it is
played to, delete it) and the rematch with the same players once it is over.

The functions that change a game expect it locked (``sheet.get_game(..., lock=True)``) in the
caller's transaction, which the caller commits; the edit token was checked before.
"""

from __future__ import annotations

import secrets
from typing import Any, Callable, Optional

from sqlalchemy import func, select
from sqlalchemy.orm import Session

import referee

from .changes import audit, record_change
from .ending import end_of, parse_target, target_json
from .exceptions import Conflict, Invalid, unknown_fields
from .models import Game, Player, Round
from .names import clean_device, clean_player_name, clean_title, name_key
from .sheet import game_json, load_game, totals_of
from .tokens import hash_token

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def create_game(db: Session, body: Any, actor: Optional[str],
                make_token: Optional[Callable[[str], str]] = None) -> tuple[dict[str, Any], str]:
    """Returns (the response body, the game id). The edit token appears only in this response;
    only its hash is stored. ``make_token(game_id)`` makes the token (default: random)."""
    if not isinstance(body, dict):
        raise Invalid('send a JSON object like {"players": ["Ann", "Ben"], "rules": "sabra"}')
    unknown = set(body) - {"players", "rules", "device", "title", "target"}
    if unknown:
        raise Invalid(f"{unknown_fields(unknown)}; a game takes players, rules, target, title "
                      f"and device", field=sorted(map(str, unknown))[0])
    raw = body.get("players")
    if not isinstance(raw, list):
        raise Invalid('"players" must be a list of 2 to 6 names in seat order, like '
                      '["Ann", "Ben", "Cy"]', field="players")
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        raise Invalid(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players; {len(raw)} given",
                      field="players")
    names = [clean_player_name(n, i) for i, n in enumerate(raw)]
    seen: dict[str, str] = {}
    for n in names:
        k = name_key(n)
        if k in seen:
            raise Invalid(f"two players are called {seen[k]!r}"
                          + (f" and {n!r}" if n != seen[k] else "")
                          + ": give each player a different name (case does not count)",
                          field="players", player=n)
        seen[k] = n
    rules_name = body.get("rules")
    if rules_name is None:
        rules = referee.get_rules(None)
    elif not isinstance(rules_name, str):
        raise Invalid(f'"rules" is the name of a preset: {", ".join(referee.PRESETS)}',
                      field="rules")
    else:
        try:
            rules = referee.get_rules(rules_name)
        except referee.RummirefError as e:
            raise Invalid(str(e), field="rules") from None
    if "device" in body and body["device"] is not None and not isinstance(body["device"], str):
        raise Invalid('"device" is a short name for this phone, like "Ann\'s phone"',
                      field="device")
    actor = clean_device(body.get("device")) or actor or "owner"
    title = clean_title(body.get("title"))
    target_kind, target = parse_target(body.get("target"),
                                       lambda message: Invalid(message, field="target"))
    game_id = secrets.token_urlsafe(6)
    token = make_token(game_id) if make_token else secrets.token_urlsafe(24)
    game = new_game_row(db, names, rules.name, actor, token_hash=hash_token(token), title=title,
                        target_kind=target_kind, target=target, game_id=game_id)
    return ({"id": game.id, "token": token, "url": f"/api/games/{game.id}",
             "game": game_json(game)}, game.id)


def new_game_row(db: Session, names: list[str], rules: str, actor: str, *, token_hash: str,
                 title: Optional[str] = None, target_kind: Optional[str] = None,
                 target: Optional[int] = None, rematch_of: Optional[str] = None,
                 game_id: Optional[str] = None) -> Game:
    """Store a new game of ``names`` (checked, in seat order) with its change log's first line
    and its first event."""
    game = Game(id=game_id or secrets.token_urlsafe(6), rules=rules, token_hash=token_hash,
                owner_device=actor, version=0, timer_state="idle", timer_seat=0, timer_turn=0,
                timer_elapsed_ms=0, title=title, target_kind=target_kind, target=target,
                rematch_of=rematch_of)
    game.players = [Player(seat=i, name=n, name_key=name_key(n)) for i, n in enumerate(names)]
    db.add(game)
    db.flush()
    made = {"players": names, "rules": rules}
    extra = {"title": title, "target": target_json(target_kind, target), "rematch_of": rematch_of}
    made.update({k: v for k, v in extra.items() if v is not None})
    audit(db, game, actor, "create-game", None, None, made)
    record_change(db, game, "game-created", {**made, "actor": actor})
    return game


def _settings(game: Game) -> dict[str, Any]:
    return {"title": game.title, "target": target_json(game.target_kind, game.target)}


def edit_game(db: Session, game: Game, body: Any, actor: str) -> dict[str, Any]:
    """Rename the game and/or change its target: ``{"title": ..., "target": ...}`` (either may be
    left out; null clears it). Answers the game as ``GET`` shows it."""
    if not isinstance(body, dict) or not set(body) - {"device"}:
        raise Invalid('send {"title": "Friday at Ann\'s"} and/or {"target": {"kind": "points", '
                      '"value": 200}} (null clears either)')
    unknown = set(body) - {"title", "target", "device"}
    if unknown:
        raise Invalid(f"{unknown_fields(unknown)}; a game's settings are title and "
                      f"target", field=sorted(map(str, unknown))[0])
    before = _settings(game)
    if "title" in body:
        game.title = clean_title(body["title"])
    if "target" in body:
        game.target_kind, game.target = parse_target(
            body["target"], lambda message: Invalid(message, field="target"))
    after = _settings(game)
    if after != before:
        audit(db, game, actor, "edit-game", None, before, after)
        record_change(db, game, "game-edited", {**after, "actor": actor})
    db.flush()
    return game_json(load_game(db, game.id))


def delete_game(db: Session, game: Game) -> dict[str, Any]:
    """Delete the game with its rounds, change log and live tables. Phones following it are woken
    by the caller and find it gone (``webapp.events``)."""
    out = {"deleted": game.id, "players": [p.name for p in game.players],
           "rounds": db.execute(select(func.count()).select_from(Round)
                                .where(Round.game_id == game.id)).scalar_one()}
    db.delete(game)
    db.flush()
    return out


def rematch(db: Session, game: Game, actor: str) -> tuple[dict[str, Any], bool]:
    """(the answer, created?): a new game with the same players in the same seats, the same
    rules, target and title, edited with the same token. A game has one rematch: asking again
    answers the one there is. Only a game that is over has a rematch (:class:`Conflict`)."""
    existing = db.execute(select(Game).where(Game.rematch_of == game.id)).scalar_one_or_none()
    if existing is not None:
        return _answer(db, existing), False
    players = list(game.players)
    totals = totals_of(players, game.rounds)
    end = end_of(game.target_kind, game.target, totals, len(game.rounds))
    if not end["over"]:
        why = ("it has no target: set one (points or rounds) to end it" if not game.target_kind
               else f"nobody has reached the target yet ({_target_text(game)})")
        raise Conflict(f"the game is not over, so there is no rematch yet: {why}")
    new = new_game_row(db, [p.name for p in players], game.rules, actor,
                               token_hash=game.token_hash, title=game.title,
                               target_kind=game.target_kind, target=game.target,
                               rematch_of=game.id)
    record_change(db, game, "rematch", {"rematch": new.id, "actor": actor})
    return _answer(db, new), True


def _target_text(game: Game) -> str:
    return f"played to {game.target} {game.target_kind}"


def _answer(db: Session, game: Game) -> dict[str, Any]:
    db.flush()
    return {"id": game.id, "url": f"/api/games/{game.id}",
            "game": game_json(load_game(db, game.id))}
