"""What people and the watcher do besides sending snapshots: the watcher reports its state; on
the live pages people end a turn, say whose turn it is, start a new round, correct a misread
tile and declare what an ambiguous joker stands for (the log judges every turn again). Each function runs inside a write on the
locked game and tells the phones through the game's change feed."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy.orm import Session

import referee
from vision.reading import Reading, ReadingError

from .. import service
from ..models import Game
from ..exceptions import unknown_fields
from ..service import Conflict, Invalid
from . import store
from .models import LiveSnapshot
from .views import find_turn, turn_json, watcher_json


#: The fields of each owner's action (``device`` names the phone in the change log).
CORRECT_FIELDS = {"side", "index", "tile", "device"}
DECLARE_FIELDS = {"side", "meld", "tiles", "device"}
NEXT_PLAYER_FIELDS = {"player", "device"}


def _refuse_unknown(body: dict, fields: set[str], takes: str) -> None:
    """Invalid for a field the action does not take: a misspelt "tile" for "tiles" must not be
    read as a field left out (which, for a declaration, takes it back)."""
    unknown = set(map(str, body)) - fields
    if unknown:
        raise Invalid(f"{unknown_fields(unknown)}; {takes}", field=sorted(unknown)[0])


def request_end_turn(db: Session, game: Game, actor: str) -> dict:
    """A phone's "End turn": the watcher reads the table as soon as it is still."""
    s = store.current_session(db, game)
    if not store.load(s).started:
        raise Conflict("the camera has not seen the table yet; wait until the live page shows "
                       "a picture, then end the turn")
    if not s.end_turn:
        s.end_turn, s.end_turn_at = secrets.token_urlsafe(9), service.utcnow()
    service.record_change(db, game, "live-status", {"watcher": watcher_json(s),
                                                    "end_turn": s.end_turn, "actor": actor})
    return {"end_turn": s.end_turn}


def new_round(db: Session, game: Game, actor: str) -> dict:
    """Forget the table: the next table the camera sees starts a new round's log."""
    old = store.current_session(db, game, create=False)
    s = store.new_session(db, game, old)
    service.record_change(db, game, "live-reset", {"session": s.id, "actor": actor})
    return {"session": s.id}


def set_next_player(db: Session, game: Game, body: Any, actor: str) -> dict:
    """Say whose turn it is now (the camera cannot know who sat down first)."""
    if not isinstance(body, dict) or not isinstance(body.get("player"), str):
        raise Invalid('say whose turn it is: {"player": "Ann"}', field="player")
    _refuse_unknown(body, NEXT_PLAYER_FIELDS, "send player")
    raw = body["player"]
    match = [p for p in game.players if isinstance(raw, str)
             and p.name_key == service.name_key(raw)]
    if not match:
        raise Invalid(f"{raw!r} is not a player in this game; the players are "
                      f"{', '.join(p.name for p in game.players)}", field="player")
    s = store.current_session(db, game)
    log = store.load(s)
    log.set_to_move(match[0].name)
    store.save(db, s, log)
    service.record_change(db, game, "live-status", {"watcher": watcher_json(s),
                                                    "next_player": log.to_move, "actor": actor})
    return {"next_player": log.to_move}


def correct(db: Session, game: Game, number: int, body: Any, actor: str) -> dict:
    """Fix a misread tile of turn ``number``'s reading (``{"side": "after"|"before", "index",
    "tile"}``): the snapshot's reading changes, the log judges every turn again, the rows follow
    and the correction is kept with the turn."""
    s, log, turn, row = find_turn(db, game, number)
    if not isinstance(body, dict):
        raise Invalid('send {"side": "after", "index": <tile number>, "tile": "R7"}')
    _refuse_unknown(body, CORRECT_FIELDS, "a correction takes side, index and tile")
    side = body.get("side", "after")
    if side not in ("before", "after"):
        raise Invalid('side is "before" or "after"', field="side")
    entry = turn.entry if side == "after" else turn.before_entry
    snap = store.snapshot(db, s, turn.after_ref if side == "after" else turn.before_ref)
    if entry is None or snap is None:
        raise Invalid(f"turn {number} has no reading {side} it", field="side")
    reading = Reading.from_json(snap.reading)
    index = body.get("index")
    if not isinstance(index, int) or isinstance(index, bool):
        raise Invalid(f"index is a tile number from 0 to {len(reading) - 1}", field="index")
    try:
        fixed = reading.corrected(index, body.get("tile"))
    except ReadingError as e:
        raise Invalid(e.message if e.field == "index" else
                      f'tile is the right tile in notation, e.g. "R7" or "J" ({e.message})',
                      field=e.field, token=e.token) from None
    _store_reading(snap, fixed)
    recomputed = log.correct(entry, fixed.table)
    rows = store.save(db, s, log)
    judged = log.turns[number - 1]
    done = {"at": service.iso(service.utcnow()), "by": actor, "side": side, "index": index,
            "from": reading.tiles[index].tile, "to": fixed.tiles[index].tile,
            "legal_before": turn.legal, "legal_after": judged.legal,
            "summary_after": judged.summary()}
    rows[number].corrections = list(rows[number].corrections or []) + [done]
    db.flush()
    tj = turn_json(judged, rows[number], game.id)
    service.record_change(db, game, "live-fix", {"turn": tj, "correction": done,
                                                 "recomputed": recomputed, "actor": actor})
    return {"turn": tj, "correction": done, "recomputed": recomputed}


def declare(db: Session, game: Game, number: int, body: Any, actor: str) -> dict:
    """Declare what the jokers of a meld of turn ``number``'s table stand for (``{"side":
    "after"|"before", "meld": <meld number from 0>, "tiles": "B1 O1"}``, the tiles in the order
    the jokers lie; ``"tiles": null`` takes the declaration back): the log judges every turn
    again, and the declaration is kept with the turn. A declaration no reading of the meld
    allows is refused (the rules text 001 asks two jokers in a set to be declared, not any
    tiles a player names)."""
    s, log, turn, row = find_turn(db, game, number)
    if not isinstance(body, dict):
        raise Invalid('send {"side": "after", "meld": <meld number>, "tiles": "B1 O1"}')
    _refuse_unknown(body, DECLARE_FIELDS, "a declaration takes side, meld and tiles")
    if "tiles" not in body:
        raise Invalid('tiles is what the jokers stand for, in the order they lie ("B1 O1"); '
                      'send "tiles": null to take the declaration back', field="tiles")
    side = body.get("side", "after")
    if side not in ("before", "after"):
        raise Invalid('side is "before" or "after"', field="side")
    entry = turn.entry if side == "after" else turn.before_entry
    table = turn.after if side == "after" else turn.before
    if entry is None:
        raise Invalid(f"turn {number} has no table {side} it", field="side")
    meld = body.get("meld")
    if not isinstance(meld, int) or isinstance(meld, bool) or not 0 <= meld < len(table):
        raise Invalid(f"meld is a meld number from 0 to {len(table) - 1}", field="meld")
    tiles = body.get("tiles")
    if tiles is not None and not isinstance(tiles, str):
        raise Invalid('tiles is what the jokers stand for, in the order they lie ("B1 O1"), '
                      'or null to take the declaration back', field="tiles")
    if tiles is not None:
        try:
            fits = referee.meld_readings(table[meld], log.rules, jokers=tiles)
        except referee.RummirefError as e:
            raise Invalid(f"tiles: {e}", field="tiles", token=getattr(e, "token", None)) from None
        if not fits:
            options = sorted({referee.format_tiles(t for t, x in zip(r.stands_for, table[meld])
                                                   if x.is_joker)
                              for r in referee.meld_readings(table[meld], log.rules)})
            raise Invalid(f"{tiles} does not make a run or a group of {table[meld]}"
                          + (f"; it can stand for {' or '.join(options)}" if options else ""),
                          field="tiles")
    before_legal = turn.legal
    recomputed = log.declare(entry, meld, tiles)
    rows = store.save(db, s, log)
    judged = log.turns[number - 1]
    done = {"at": service.iso(service.utcnow()), "by": actor, "kind": "declaration",
            "side": side, "meld": meld, "meld_tiles": str(table[meld]), "declared": tiles,
            "legal_before": before_legal, "legal_after": judged.legal,
            "summary_after": judged.summary()}
    rows[number].corrections = list(rows[number].corrections or []) + [done]
    db.flush()
    tj = turn_json(judged, rows[number], game.id)
    service.record_change(db, game, "live-fix", {"turn": tj, "declaration": done,
                                                 "recomputed": recomputed, "actor": actor})
    return {"turn": tj, "declaration": done, "recomputed": recomputed}


def _store_reading(snap: LiveSnapshot, reading: Reading) -> None:
    snap.reading = reading.to_json()
    snap.table = str(reading.table)


def status_change(db: Session, game: Game, body: dict) -> tuple[dict, bool]:
    """Keep the watcher's report (``vision.snapshot.WatcherStatus.to_json()``); tell the phones
    only when its state, detail or hand-over-the-table changed (not on every frame). Returns
    (the answer, whether the phones were told)."""
    from vision.sources import STATES

    if not isinstance(body, dict) or body.get("state") not in STATES:
        raise Invalid(f"state is one of {', '.join(STATES)}", field="state")
    w = {"state": body["state"], "detail": str(body.get("detail") or "")[:200],
         "source": str(body.get("source") or "")[:120],
         "hand": bool(body.get("hand")), "still": bool(body.get("still")),
         "frames": body.get("frames") if isinstance(body.get("frames"), int) else None,
         "dropped": body.get("dropped") if isinstance(body.get("dropped"), int) else None}
    s = store.current_session(db, game)
    old = s.watcher or {}
    s.watcher, s.watcher_at = w, service.utcnow()
    changed = (old.get("state"), old.get("detail"), old.get("hand")) != \
        (w["state"], w["detail"], w["hand"])
    if changed:
        service.record_change(db, game, "live-status", {"watcher": watcher_json(s)})
    return {"ok": True, "end_turn": s.end_turn}, changed
