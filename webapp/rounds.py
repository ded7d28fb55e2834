"""Entering, correcting and undoing rounds. Every score comes from :func:`referee.settle_round`;
this module stores what it returns and adds rounds up (in SQL).

Functions that change something expect the game locked (``sheet.get_game(..., lock=True)``) in
a Session whose transaction the caller commits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional

from sqlalchemy import func, select
from sqlalchemy.orm import Session

import referee

from .changes import audit, next_version, record_change
from .ending import end_of
from .exceptions import Conflict, Invalid, unknown_fields
from .models import RACK_TEXT_MAX, Game, Player, Round, RoundScore, utcnow
from .names import name_key
from .presets import game_rules
from .sheet import get_round, ranking_of, round_json
from .timer import reset_timer, starter_seat, timer_json


@dataclass
class RoundInput:
    winner: Optional[str]
    racks: dict[str, Any]      # what settle_round gets, in seat order
    entered: dict[str, Any]    # what was typed, per player (None where nothing was)


def parse_round(body: Any, players: list[Player]) -> RoundInput:
    example = '{"winner": "Ann", "racks": {"Ben": "R5 K13 J", "Cy": 12}}'
    if not isinstance(body, dict):
        raise Invalid(f"send a JSON object like {example}")
    unknown = set(body) - {"winner", "racks", "device"}
    if unknown:
        raise Invalid(f"{unknown_fields(unknown)}; a round takes winner and racks",
                      field=sorted(map(str, unknown))[0])
    by_key = {p.name_key: p for p in players}
    names = ", ".join(p.name for p in players)

    def player_of(raw: Any, what: str) -> Player:
        if not isinstance(raw, str) or name_key(raw) not in by_key:
            shown = raw if isinstance(raw, str) else json.dumps(raw)
            raise Invalid(f"{what}: {shown!r} is not a player in this game; the players are "
                          f"{names}", field=what, player=shown if isinstance(shown, str) else None)
        return by_key[name_key(raw)]

    if "winner" not in body:
        raise Invalid('say who went out: "winner": a player\'s name, or null when the pool ran '
                      'out and nobody did', field="winner")
    winner = None if body["winner"] is None else player_of(body["winner"], "winner")
    racks_in = body.get("racks")
    if not isinstance(racks_in, dict):
        raise Invalid(f'"racks" must map each player to what is left on their rack, like {example}',
                      field="racks")
    given: dict[str, Any] = {}
    for raw_name, value in racks_in.items():
        p = player_of(raw_name, "racks")
        if p.name in given:
            raise Invalid(f"{p.name}'s rack is given twice", field=f"racks.{p.name}", player=p.name)
        if isinstance(value, bool) or not (
                value is None or isinstance(value, (int, float, str)) or (
                    isinstance(value, list) and all(isinstance(t, str) for t in value))):
            raise Invalid(f"{p.name}'s rack: give the points as a whole number (12) or the tiles "
                          f'as text ("R5 K13 J")', field=f"racks.{p.name}", player=p.name)
        if isinstance(value, str) and len(value) > RACK_TEXT_MAX:
            raise Invalid(f"{p.name}'s rack text is too long ({len(value)} characters)",
                          field=f"racks.{p.name}", player=p.name)
        if isinstance(value, list) and len(value) > 106:
            raise Invalid(f"{p.name}'s rack lists {len(value)} tiles; a set has 106",
                          field=f"racks.{p.name}", player=p.name)
        given[p.name] = value
    racks: dict[str, Any] = {}
    for p in players:
        value = given.get(p.name)
        if winner is not None and p.name == winner.name:
            racks[p.name] = 0 if value is None else value
        elif value is None:
            what = "the points or tiles left on their rack (0 if none)"
            raise Invalid(f"no rack for {p.name}: enter {what}", field=f"racks.{p.name}",
                          player=p.name)
        else:
            racks[p.name] = value
    return RoundInput(winner.name if winner else None, racks,
                      {p.name: given.get(p.name) for p in players})


def settle(inp: RoundInput, rules: referee.Rules) -> referee.RoundResult:
    try:
        return referee.settle_round(inp.racks, inp.winner, rules)
    except referee.RummirefError as e:
        cause = e.__cause__ if isinstance(e.__cause__, referee.NotationError) else e
        token = getattr(cause, "token", None)
        raise Invalid(str(e), token=token) from None


def stored_racks(inp: RoundInput, result: referee.RoundResult) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in inp.entered.items():
        if value is None:
            out[name] = None
        elif result.racks.get(name) is not None:
            out[name] = result.racks[name]
        else:
            out[name] = int(result.rack_values[name])
    return out


def _scores_rows(players: list[Player], result: referee.RoundResult) -> list[RoundScore]:
    won = result.winner if isinstance(result.winner, list) else [result.winner]
    return [RoundScore(player_id=p.id, score=int(result.scores[p.name]),
                       rack_value=int(result.rack_values[p.name]), won=p.name in won)
            for p in players]


def change_json(db: Session, game: Game) -> dict[str, Any]:
    """Totals, ranking and who starts next, after a change (summed in SQL)."""
    players = list(game.players)
    sums = dict(db.execute(
        select(RoundScore.player_id, func.sum(RoundScore.score))
        .join(Round, Round.id == RoundScore.round_id).where(Round.game_id == game.id)
        .group_by(RoundScore.player_id)).all())
    totals = {p.name: int(sums.get(p.id) or 0) for p in players}
    last = db.execute(select(func.max(Round.number)).where(Round.game_id == game.id)).scalar()
    next_round = (last or 0) + 1
    n_rounds = db.execute(select(func.count()).select_from(Round)
                          .where(Round.game_id == game.id)).scalar_one()
    return {"totals": totals, "ranking": ranking_of(players, totals),
            **end_of(game.target_kind, game.target, totals, n_rounds),
            "next_round": next_round,
            "next_starter": players[starter_seat(next_round, len(players))].name,
            "timer": timer_json(game, players, game_rules(game))}


def add_round(db: Session, game: Game, body: Any, actor: str) -> dict[str, Any]:
    """``game`` must be locked (``get_game(..., lock=True)``). A game that is over takes no
    more rounds (:class:`Conflict`); its rounds can still be corrected or undone."""
    players = list(game.players)
    rules = game_rules(game)
    inp = parse_round(body, players)
    if game.target_kind:
        now = change_json(db, game)
        if now["over"]:
            raise Conflict(f"the game is over ({game_over_text(game, now)}); start a rematch, "
                           f"or raise the target to play on", winners=now["winners"])
    result = settle(inp, rules)
    last = db.execute(select(func.max(Round.number)).where(Round.game_id == game.id)).scalar()
    number = (last or 0) + 1
    now = utcnow()
    starter = players[starter_seat(number, len(players))].name
    racks, res = stored_racks(inp, result), result.to_dict()
    r = Round(game_id=game.id, number=number, starter=starter, winner=inp.winner, racks=racks,
              result=res, edits=0, version=next_version(game), created_at=now, updated_at=now)
    r.scores = _scores_rows(players, result)
    db.add(r)
    after = round_json(r)
    audit(db, game, actor, "add-round", number, None, after)
    reset_timer(game, number + 1, len(players))
    change = change_json(db, game)
    version = record_change(db, game, "round-added",
                            {"round": after, **change, "actor": actor})
    assert version == r.version
    return {"round": after, "scores": after["scores"], **change, "version": version}


def game_over_text(game: Game, state: dict[str, Any]) -> str:
    """Why the game is over, in words: ``Ann reached 200 points`` / ``8 rounds played``."""
    who = " and ".join(state["winners"])
    if game.target_kind == "points":
        return f"{who} reached {game.target} points"
    n = game.target
    return f"{n} round{'' if n == 1 else 's'} played; {who} won"


def edit_round(db: Session, game: Game, number: int, body: Any, actor: str) -> dict[str, Any]:
    players = list(game.players)
    rules = game_rules(game)
    r = get_round(db, game.id, number)
    inp = parse_round(body, players)
    result = settle(inp, rules)
    before = round_json(r)
    racks = stored_racks(inp, result)
    if r.winner == inp.winner and r.racks == racks and r.result == result.to_dict():
        change = change_json(db, game)
        return {"round": before, "scores": before["scores"], **change, "version": game.version}
    r.winner = inp.winner
    r.racks = racks
    r.result = result.to_dict()
    r.edits = (r.edits or 0) + 1
    r.version = next_version(game)
    r.updated_at = utcnow()
    by_player = {s.player_id: s for s in r.scores}
    won = result.winner if isinstance(result.winner, list) else [result.winner]
    for p in players:
        row = by_player[p.id]
        row.score = int(result.scores[p.name])
        row.rack_value = int(result.rack_values[p.name])
        row.won = p.name in won
    db.flush()
    after = round_json(r)
    audit(db, game, actor, "edit-round", number, before, after)
    change = change_json(db, game)
    version = record_change(db, game, "round-edited",
                    {"round": after, "before": before, **change, "actor": actor})
    assert version == r.version
    return {"round": after, "scores": after["scores"], **change, "version": version}


def undo_round(db: Session, game: Game, number: int, actor: str) -> dict[str, Any]:
    r = get_round(db, game.id, number)
    last = db.execute(select(func.max(Round.number)).where(Round.game_id == game.id)).scalar()
    if number != last:
        raise Conflict(f"only the last round ({last}) can be undone; to change round {number}, "
                       f"edit it instead", round=number, last_round=last)
    before = round_json(r)
    db.delete(r)
    db.flush()
    players = list(game.players)
    audit(db, game, actor, "undo-round", number, before, None)
    reset_timer(game, number, len(players))
    change = change_json(db, game)
    version = record_change(db, game, "round-undone",
                            {"round": before, **change, "actor": actor})
    return {"deleted": before, **change, "version": version}
