"""The live referee on the scoresheet server: a watcher's snapshots in, verdicts out to phones.

JSON under ``/api/games/<id>/live`` (changes need the game's edit token, as every edit does):

``GET  .../live``                    the live state: watcher, whose turn, last verdict, table
``POST .../live/snapshots``          (watcher) a table snapshot: {table, tiles, melds, image,
                                     reason, end_turn}; judged against the table before it
``POST .../live/status``             (watcher) its state: connecting/live/stalled/...
``POST .../live/end-turn``           (phone) "end turn" tapped: the watcher reads the table now
``POST .../live/reset``              (phone) a new round: forget the table, start again
``POST .../live/next-player``        (phone) whose turn it is now {player}
``GET  .../live/turns``              the turn log
``GET  .../live/turns/<n>``          one turn, with the dispute view data
``POST .../live/turns/<n>/correct``  fix a misread tile {side, index, tile}; verdict recomputed
``GET  .../live/snapshots/<id>.jpg`` the picture; ``?annotated=1`` with melds outlined
``POST .../live/rack-photo``         (phone) a photo of a rack -> tiles and their value

Pages: ``/games/<id>/live`` (the live table), ``/games/<id>/live/log`` (turn log) and
``/games/<id>/live/turns/<n>`` (dispute view).

Phones hear of a new verdict through the game's event stream (``/api/games/<id>/events``):
``live-turn``, ``live-status``, ``live-fix`` and ``live-reset`` events, written with the
scoresheet's own change feed so a phone that reconnects misses nothing.

Wire it with :func:`init_app` (blueprint, upload limits); :func:`attach` also starts a watcher
in this process (``rummiref serve --camera`` / ``--demo``).
"""

from __future__ import annotations

import base64
import binascii
import logging
import secrets
import threading
from collections import Counter
from typing import Any, Optional

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request
from sqlalchemy import func, select
from sqlalchemy.orm import Session

import referee

from . import service
from .api import ApiError, actor, json_body, require_token, write
from .db import get_db
from .live_models import LiveSession, LiveSnapshot, LiveTurn
from .models import Game
from .service import Invalid, NotFound

log = logging.getLogger(__name__)

live_bp = Blueprint("live", __name__, template_folder="templates")

#: Largest snapshot body (JSON with a base64 JPEG) and rack photo accepted.
MAX_SNAPSHOT_BYTES = 8 * 1024 * 1024
MAX_PHOTO_BYTES = 12 * 1024 * 1024
MAX_TILES = 106 + 10
STATES = ("connecting", "live", "stalled", "reconnecting", "stopped")
_GID = "<string(maxlength=16):game_id>"


# --- wiring ------------------------------------------------------------------------------------

def init_app(app) -> None:
    """Register the live referee's blueprint (once)."""
    if "live" not in app.blueprints:
        app.register_blueprint(live_bp)
    app.extensions.setdefault("rummiref_live", {"reader": None, "watchers": [],
                                                "reader_lock": threading.Lock()})


def attach(app, camera: Optional[str] = None, demo: bool = False, game: Optional[str] = None,
           reader=None):
    """``rummiref serve --camera SOURCE`` / ``--demo``: the blueprint plus a watcher thread in
    this process posting to this app (same path as a separate ``rummiref watch``). A camera or
    reader that cannot be used is reported and the scoresheet is served anyway. Returns the
    watcher (or the demo's dict), None when nothing was started."""
    import sys

    init_app(app)
    try:
        if demo:
            from .demo import start_demo

            return start_demo(app)
        if camera:
            from vision.watch_cli import start_in_process

            return start_in_process(app, camera, game, reader=reader)
    except Exception as e:  # noqa: BLE001 - serve the scoresheet whatever the camera does
        print(f"rummiref: the live referee could not start: {e}. Serving the scoresheet only.",
              file=sys.stderr)
    return None


@live_bp.before_app_request
def _upload_limits():
    # The app takes 64 KiB bodies; snapshots carry a picture and rack photos are photos.
    if request.method == "POST" and "/live/" in request.path:
        if request.path.endswith("/live/snapshots"):
            request.max_content_length = MAX_SNAPSHOT_BYTES
        elif request.path.endswith("/live/rack-photo"):
            request.max_content_length = MAX_PHOTO_BYTES


# --- the reader ----------------------------------------------------------------------------------

def get_reader():
    """The tile reader (``vision.Reader``), loaded once per app; ApiError 503 if missing."""
    ext = current_app.extensions.setdefault("rummiref_live", {"reader": None, "watchers": [],
                                                              "reader_lock": threading.Lock()})
    if ext.get("reader") is None:
        with ext["reader_lock"]:
            if ext.get("reader") is None:
                ext["reader"] = load_reader()
    return ext["reader"]


def load_reader():
    try:
        import vision
        reader_cls = getattr(vision, "Reader", None)
        if reader_cls is not None:
            r = reader_cls()
            return getattr(r, "read", r)
        read_image = getattr(vision, "read_image", None)
        if read_image is not None:
            return read_image
    except Exception as e:  # noqa: BLE001 - a broken or absent model
        log.warning("the tile reader could not be loaded: %s", e)
        raise ApiError(503, f"the tile reader could not be loaded ({e}); install the vision "
                            f"extra: pip install 'rummiref[vision]'") from None
    raise ApiError(503, "the tile reader is not available in this installation; install the "
                        "vision extra: pip install 'rummiref[vision]'")


# --- helpers -------------------------------------------------------------------------------------

def _session(db: Session, game: Game, create: bool = True) -> Optional[LiveSession]:
    s = db.execute(select(LiveSession).where(LiveSession.game_id == game.id)
                   .order_by(LiveSession.id.desc()).limit(1)).scalar_one_or_none()
    if s is None and create:
        seat = game.timer_seat if game.timer_seat is not None else 0
        s = LiveSession(game_id=game.id, seat=seat % max(1, len(game.players)),
                        restore_pending=False)
        db.add(s)
        db.flush()
    return s


def _snap(db: Session, sid: Optional[int]) -> Optional[LiveSnapshot]:
    return db.get(LiveSnapshot, sid) if sid is not None else None


def table_key(table: str) -> tuple:
    """A table regardless of where tiles lie and of the order of melds and of tiles in melds."""
    try:
        t = referee.parse_table(table)
    except referee.RummirefError:
        melds = [m.split() for m in table.replace("\n", "|").split("|") if m.strip()]
        return tuple(sorted(tuple(sorted(m)) for m in melds))
    return tuple(sorted(tuple(sorted(str(x) for x in m)) for m in t.melds))


def _table_from(tiles: list[dict], melds: list[list[int]]) -> str:
    return " | ".join(" ".join(tiles[i]["tile"] for i in m) for m in melds)


def _clean_reading(body: Any) -> tuple[list[dict], list[list[int]]]:
    """Validate a snapshot's tiles and melds (422 naming what is wrong)."""
    if not isinstance(body, dict):
        raise Invalid("send a JSON object with tiles and melds (or table)")
    tiles_in = body.get("tiles")
    melds_in = body.get("melds")
    if tiles_in is None:
        # A bare table in notation (a person typing it, or a watcher without positions).
        text = body.get("table")
        if not isinstance(text, str):
            raise Invalid("send tiles and melds, or table in notation", field="table")
        # Parsed tile by tile: a reading may hold a third copy by mistake (to be corrected).
        tiles, melds = [], []
        for m_i, chunk in enumerate(m for m in text.replace("\n", "|").split("|") if m.strip()):
            melds.append([])
            for p, tok in enumerate(chunk.replace(",", " ").split()):
                try:
                    (t,) = referee.parse_tiles(tok)
                except referee.NotationError as e:
                    raise Invalid(str(e), field="table", token=e.token) from None
                except ValueError:
                    raise Invalid(f"{tok!r} is not one tile", field="table", token=tok) from None
                melds[-1].append(len(tiles))
                tiles.append({"tile": str(t), "confidence": 1.0, "corners": [], "meld": len(melds) - 1,
                              "pos": p, "uncertain": False})
        return tiles, melds
    if not isinstance(tiles_in, list) or len(tiles_in) > MAX_TILES:
        raise Invalid(f"tiles must be a list of at most {MAX_TILES} tiles", field="tiles")
    tiles: list[dict] = []
    for i, t in enumerate(tiles_in):
        if not isinstance(t, dict) or not isinstance(t.get("tile"), str):
            raise Invalid(f"tiles[{i}] needs a tile in notation", field=f"tiles[{i}]")
        try:
            parsed = referee.parse_tiles(t["tile"])
        except referee.NotationError as e:
            raise Invalid(str(e), field=f"tiles[{i}]", token=e.token) from None
        if len(parsed) != 1:
            raise Invalid(f"tiles[{i}] must be one tile, not {t['tile']!r}", field=f"tiles[{i}]")
        corners = t.get("corners") or []
        try:
            corners = [[float(x), float(y)] for x, y in corners][:8]
        except (TypeError, ValueError):
            raise Invalid(f"tiles[{i}].corners must be [[x, y], ...]",
                          field=f"tiles[{i}].corners") from None
        conf = t.get("confidence", 1.0)
        if not isinstance(conf, (int, float)) or isinstance(conf, bool):
            raise Invalid(f"tiles[{i}].confidence must be a number", field=f"tiles[{i}]")
        tiles.append({"tile": str(parsed[0]), "confidence": round(float(conf), 3),
                      "corners": corners, "uncertain": bool(t.get("uncertain", False))})
    for u in body.get("uncertain") or []:
        if isinstance(u, int) and 0 <= u < len(tiles):
            tiles[u]["uncertain"] = True
    if melds_in is None:
        melds_in = [[i] for i in range(len(tiles))]
    if not isinstance(melds_in, list):
        raise Invalid("melds must be lists of tile indices", field="melds")
    seen: set[int] = set()
    melds: list[list[int]] = []
    for m in melds_in:
        if not isinstance(m, list) or not all(isinstance(i, int) and not isinstance(i, bool)
                                              and 0 <= i < len(tiles) for i in m):
            raise Invalid("melds must be lists of tile indices", field="melds")
        if seen & set(m) or len(set(m)) != len(m):
            raise Invalid("a tile is in two melds", field="melds")
        seen |= set(m)
        if m:
            melds.append(list(m))
    for i in range(len(tiles)):  # a tile left out of every meld lies on its own
        if i not in seen:
            melds.append([i])
    for m_i, m in enumerate(melds):
        for p, i in enumerate(m):
            tiles[i]["meld"], tiles[i]["pos"] = m_i, p
    return tiles, melds


def _image_bytes(body: dict) -> Optional[bytes]:
    raw = body.get("image")
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise Invalid("image must be a base64 JPEG or PNG", field="image")
    try:
        data = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError):
        raise Invalid("image is not valid base64", field="image") from None
    if not (data[:3] == b"\xff\xd8\xff" or data[:8] == b"\x89PNG\r\n\x1a\n"):
        raise Invalid("image must be a JPEG or PNG picture", field="image")
    return data


def _opened_before(db: Session, session: LiveSession, player: str, before_number: int) -> bool:
    """Had ``player`` made the initial meld before turn ``before_number``?"""
    rows = db.execute(select(LiveTurn).where(LiveTurn.session_id == session.id,
                                             LiveTurn.player == player,
                                             LiveTurn.number < before_number)
                      .order_by(LiveTurn.number)).scalars()
    opened = False
    for t in rows:
        if t.verdict.get("opened"):
            opened = True
    return opened


def judge(before: str, after: str, rules: referee.Rules, opened: bool,
          notes: tuple[str, ...] = (), elapsed: Optional[float] = None
          ) -> tuple[dict, Optional[bool]]:
    """The verdict as stored: TurnVerdict.to_dict(), or an explanation when the reading itself
    cannot be a real table (then a person must correct a tile first). ``elapsed``: seconds the
    turn took on the scoresheet's timer (kept in the verdict, so a recomputation uses it)."""
    try:
        v = referee.check_turn(before, after, rules=rules, opened=opened, elapsed=elapsed)
    except referee.RummirefError as e:
        return ({"error": str(e), "legal": None, "opened": opened, "elapsed": elapsed,
                 "summary": f"The reading cannot be judged: {e}. Tap the misread tile to "
                            f"correct it.", "before": before, "after": after,
                 "notes": list(notes)}, None)
    d = v.to_dict()
    d["elapsed"] = elapsed
    if notes:
        d["notes"] = list(d.get("notes", [])) + list(notes)
        d["summary"] = d["summary"] + "".join(f"\nNote: {n}" for n in notes)
    return d, v.legal


def _emit(db: Session, game: Game, type_: str, data: dict) -> int:
    return service._emit(db, game, type_, data)


def _turn_json(t: LiveTurn, players: Optional[list] = None, *, game_id: str = "") -> dict:
    base = f"/api/games/{game_id}/live/snapshots"
    return {"number": t.number, "at": service.iso(t.at), "player": t.player, "seat": t.seat,
            "reason": t.reason, "legal": t.legal, "verdict": t.verdict,
            "summary": t.verdict.get("summary"), "corrections": list(t.corrections or []),
            "before": {"snapshot": t.before_id, "image": f"{base}/{t.before_id}.jpg?annotated=1"},
            "after": {"snapshot": t.after_id, "image": f"{base}/{t.after_id}.jpg?annotated=1"},
            "delay": t.delay}


def _watcher_json(s: Optional[LiveSession]) -> dict:
    if s is None or not s.watcher:
        return {"state": "none", "detail": "no camera has reported for this game", "at": None}
    w = dict(s.watcher)
    w["at"] = service.iso(s.watcher_at)
    return w


def state_json(db: Session, game: Game) -> dict:
    s = _session(db, game, create=False)
    players = [p.name for p in game.players]
    out: dict[str, Any] = {"game": game.id, "players": players, "rules": game.rules,
                           "watcher": _watcher_json(s), "session": None, "turns": 0,
                           "last_turn": None, "next_player": None, "table": None,
                           "image": None, "restore_pending": False, "end_turn": None,
                           "version": game.version}
    if s is None:
        if players:
            out["next_player"] = players[(game.timer_seat or 0) % len(players)]
        return out
    n = db.execute(select(func.count()).select_from(LiveTurn)
                   .where(LiveTurn.session_id == s.id)).scalar()
    last = db.execute(select(LiveTurn).where(LiveTurn.session_id == s.id)
                      .order_by(LiveTurn.number.desc()).limit(1)).scalar_one_or_none()
    base = _snap(db, s.base_snapshot_id)
    latest = last.after_id if last is not None else (base.id if base else None)
    out.update({"session": s.id, "turns": n,
                "last_turn": _turn_json(last, game_id=game.id) if last else None,
                "next_player": players[s.seat % len(players)] if players else None,
                "table": base.table if base else None,
                "image": (f"/api/games/{game.id}/live/snapshots/{latest}.jpg?annotated=1"
                          if latest else None),
                "restore_pending": s.restore_pending, "end_turn": s.end_turn})
    return out


# --- the core: a snapshot arrives ----------------------------------------------------------------

def receive_snapshot(db: Session, game: Game, body: Any, actor: str) -> dict:
    """Store a snapshot and judge the turn it ends (if it ends one). Returns what happened:
    ``{"result": "start"|"unchanged"|"restored"|"turn", "turn": Turn|None, ...}``."""
    tiles, melds = _clean_reading(body)
    image = _image_bytes(body) if isinstance(body, dict) else None
    reason = body.get("reason") if isinstance(body.get("reason"), str) else "still"
    reason = reason[:20]
    end_turn = body.get("end_turn") if isinstance(body.get("end_turn"), str) else None
    still_for = body.get("still_for")
    delay_start = float(still_for) if isinstance(still_for, (int, float)) and \
        not isinstance(still_for, bool) and 0 <= still_for < 3600 else None
    table = _table_from(tiles, melds)
    s = _session(db, game)
    players = list(game.players)
    if not players:
        raise Invalid("this game has no players")
    reading = {"tiles": tiles, "melds": melds, "reason": reason,
               "frames": body.get("frames") if isinstance(body.get("frames"), int) else None,
               "agreement": body.get("agreement") if isinstance(body.get("agreement"),
                                                                (int, float)) else None}
    base = _snap(db, s.base_snapshot_id)

    def store() -> LiveSnapshot:
        snap = LiveSnapshot(session_id=s.id, table=table, reading=reading, image=image)
        db.add(snap)
        db.flush()
        return snap

    if end_turn and s.end_turn == end_turn:
        s.end_turn, s.end_turn_at = None, None
    if base is None:
        snap = store()
        s.base_snapshot_id = snap.id
        _emit(db, game, "live-turn", {"result": "start", "table": table, "snapshot": snap.id,
                                      "actor": actor})
        return {"result": "start", "turn": None, "snapshot": snap.id, "table": table}
    same = table_key(table) == table_key(base.table)
    if same and not end_turn:
        if s.restore_pending:
            snap = store()
            s.restore_pending = False
            s.base_snapshot_id = snap.id
            _emit(db, game, "live-turn", {"result": "restored", "table": table,
                                          "snapshot": snap.id, "actor": actor})
            return {"result": "restored", "turn": None, "snapshot": snap.id, "table": table}
        return {"result": "unchanged", "turn": None, "snapshot": None, "table": table}
    snap = store()
    number = (db.execute(select(func.max(LiveTurn.number))
                         .where(LiveTurn.session_id == s.id)).scalar() or 0) + 1
    seat = s.seat % len(players)
    player = players[seat].name
    opened = _opened_before(db, s, player, number)
    notes: tuple[str, ...] = ()
    if s.restore_pending:
        notes = (f"the table was not restored after turn {number - 1}: judged against the table "
                 f"as it was before that turn",)
    rules = service.game_rules(game)
    # The scoresheet's turn timer, when running for this player, times the turn.
    elapsed = None
    timer_running = game.timer_state == "running"
    if timer_running and game.timer_seat % len(players) == seat:
        elapsed = service.timer_json(game, players, rules)["elapsed"]
    verdict, legal = judge(base.table, table, rules, opened, notes, elapsed)
    turn = LiveTurn(session_id=s.id, number=number, player=player, seat=seat, before_id=base.id,
                    after_id=snap.id, reason=reason if reason in ("still", "end-turn") else "still",
                    verdict=verdict, legal=legal, corrections=[], delay=delay_start)
    db.add(turn)
    _apply_outcome(s, turn, snap)
    s.seat = (seat + 1) % len(players)
    db.flush()
    if timer_running:  # the next player's turn starts on every phone's timer
        service.timer_action(db, game, {"action": "next", "player": players[s.seat].name}, actor)
    tj = _turn_json(turn, game_id=game.id)
    _emit(db, game, "live-turn", {"result": "turn", "turn": tj,
                                  "next_player": players[s.seat].name, "actor": actor})
    return {"result": "turn", "turn": tj, "snapshot": snap.id, "table": table,
            "next_player": players[s.seat].name}


def _apply_outcome(s: LiveSession, turn: LiveTurn, after: LiveSnapshot) -> None:
    """What the table should be after ``turn``: its after (valid, a draw, or unjudgeable), or
    its before restored (a failed turn)."""
    if turn.legal is False and turn.verdict.get("restore"):
        s.restore_pending = True
        s.base_snapshot_id = turn.before_id
    else:
        s.restore_pending = False
        s.base_snapshot_id = after.id


def update_watcher(db: Session, game: Game, body: Any) -> tuple[LiveSession, bool]:
    """Keep the watcher's report; announce it to the phones only when its state, detail or
    hand-over-the-table changed (not on every frame)."""
    if not isinstance(body, dict) or body.get("state") not in STATES:
        raise Invalid(f"state is one of {', '.join(STATES)}", field="state")
    w = {"state": body["state"], "detail": str(body.get("detail") or "")[:200],
         "source": str(body.get("source") or "")[:120],
         "hand": bool(body.get("hand")), "still": bool(body.get("still")),
         "frames": body.get("frames") if isinstance(body.get("frames"), int) else None,
         "dropped": body.get("dropped") if isinstance(body.get("dropped"), int) else None}
    s = _session(db, game)
    old = s.watcher or {}
    s.watcher, s.watcher_at = w, service.utcnow()
    changed = (old.get("state"), old.get("detail"), old.get("hand")) != \
        (w["state"], w["detail"], w["hand"])
    if changed:
        _emit(db, game, "live-status", {"watcher": _watcher_json(s)})
    return s, changed


# --- corrections ---------------------------------------------------------------------------------

def _turn(db: Session, game: Game, number: int):
    """(the game's live session, its turn ``number``), or a 404 that says so."""
    s = _session(db, game, create=False)
    turn = None if s is None else db.execute(
        select(LiveTurn).where(LiveTurn.session_id == s.id, LiveTurn.number == number)
    ).scalar_one_or_none()
    if turn is None:
        raise NotFound(f"there is no live turn {number} in this game", turn=number)
    return s, turn


def correct_turn(db: Session, game: Game, number: int, body: Any, actor: str) -> dict:
    s, turn = _turn(db, game, number)
    if not isinstance(body, dict):
        raise Invalid('send {"side": "after", "index": <tile number>, "tile": "R7"}')
    side = body.get("side", "after")
    if side not in ("before", "after"):
        raise Invalid('side is "before" or "after"', field="side")
    snap = db.get(LiveSnapshot, turn.after_id if side == "after" else turn.before_id)
    tiles = [dict(t) for t in snap.reading.get("tiles", [])]
    index = body.get("index")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(tiles):
        raise Invalid(f"index must be a tile number from 0 to {len(tiles) - 1}", field="index")
    raw = body.get("tile")
    if not isinstance(raw, str):
        raise Invalid('tile is the right tile in notation, e.g. "R7" or "J"', field="tile")
    try:
        parsed = referee.parse_tiles(raw)
    except referee.NotationError as e:
        raise Invalid(str(e), field="tile", token=e.token) from None
    if len(parsed) != 1:
        raise Invalid(f"give one tile, not {raw!r}", field="tile")
    old = tiles[index]["tile"]
    new = str(parsed[0])
    tiles[index].update({"tile": new, "uncertain": False, "corrected": True, "confidence": 1.0})
    melds = snap.reading.get("melds", [])
    reading = dict(snap.reading)
    reading["tiles"] = tiles
    snap.reading = reading
    snap.table = _table_from(tiles, melds)
    legal_before = turn.legal
    changed = replay(db, game, s)
    entry = {"at": service.iso(service.utcnow()), "by": actor, "side": side, "index": index,
             "from": old, "to": new, "legal_before": legal_before, "legal_after": turn.legal,
             "summary_after": turn.verdict.get("summary")}
    turn.corrections = list(turn.corrections or []) + [entry]
    db.flush()
    tj = _turn_json(turn, game_id=game.id)
    _emit(db, game, "live-fix", {"turn": tj, "correction": entry, "recomputed": changed,
                                 "actor": actor})
    return {"turn": tj, "correction": entry, "recomputed": changed}


def replay(db: Session, game: Game, s: LiveSession) -> list[int]:
    """Judge every turn of the session again from its snapshots (after a correction: a fixed
    tile can change this turn's verdict, whether the player has opened, and the next turn's).
    Returns the numbers of the turns whose verdict changed."""
    rules = service.game_rules(game)
    turns = list(db.execute(select(LiveTurn).where(LiveTurn.session_id == s.id)
                            .order_by(LiveTurn.number)).scalars())
    opened: dict[str, bool] = {}
    changed = []
    last_after = None
    for t in turns:
        before = db.get(LiveSnapshot, t.before_id)
        after = db.get(LiveSnapshot, t.after_id)
        notes = tuple(n for n in t.verdict.get("notes", []) if n.startswith("the table was not "
                                                                             "restored"))
        verdict, legal = judge(before.table, after.table, rules, opened.get(t.player, False),
                               notes, t.verdict.get("elapsed"))
        if verdict.get("summary") != t.verdict.get("summary") or legal != t.legal:
            changed.append(t.number)
        t.verdict, t.legal = verdict, legal
        if verdict.get("opened"):
            opened[t.player] = True
        last_after = (t, after)
    if last_after is not None:
        t, after = last_after
        if s.base_snapshot_id in (t.before_id, t.after_id):
            _apply_outcome(s, t, after)
    return changed


# --- the dispute view ----------------------------------------------------------------------------

def dispute_json(db: Session, game: Game, number: int) -> dict:
    _, turn = _turn(db, game, number)
    before = db.get(LiveSnapshot, turn.before_id)
    after = db.get(LiveSnapshot, turn.after_id)
    rules = service.game_rules(game)
    out = _turn_json(turn, game_id=game.id)
    out["before"].update({"table": before.table, "tiles": before.reading.get("tiles", [])})
    out["after"].update({"table": after.table, "tiles": after.reading.get("tiles", [])})
    out["changes"] = changes(before.table, after.table)
    out["solver"] = solver_answer(before.table, after.table, rules, turn)
    out["rules"] = {"name": rules.name, "title": rules.title,
                    "failed_turn_draw": rules.failed_turn_draw}
    return out


def changes(before: str, after: str) -> dict:
    """Tiles added, taken, and moved (on the table before and after, but in another meld)."""
    def melds(text: str) -> list[list[str]]:
        try:
            return [[str(t) for t in m] for m in referee.parse_table(text).melds]
        except referee.RummirefError:
            return [m.split() for m in text.replace("\n", "|").split("|") if m.strip()]

    b, a = melds(before), melds(after)
    bc = Counter(t for m in b for t in m)
    ac = Counter(t for m in a for t in m)
    added = _tile_sorted((ac - bc).elements())
    taken = _tile_sorted((bc - ac).elements())
    # Melds of the table before that are not whole in the same meld after: their tiles moved.
    unchanged_after = Counter(tuple(sorted(m)) for m in a)
    broken: Counter = Counter()
    for m in b:
        key = tuple(sorted(m))
        if unchanged_after[key] > 0:
            unchanged_after[key] -= 1
            continue
        if any(Counter(m) <= Counter(x) for x in a):
            continue  # added to, not broken up
        broken.update(m)
    moved = _tile_sorted((broken & ac).elements())
    return {"added": added, "taken": taken, "moved": moved,
            "melds_before": [" ".join(m) for m in b], "melds_after": [" ".join(m) for m in a]}


def _tile_sorted(tiles) -> list[str]:
    def key(t: str):
        try:
            return (0, referee.parse_tiles(t)[0])
        except (referee.RummirefError, ValueError):
            return (1, t)
    return sorted(tiles, key=key)


def solver_answer(before: str, after: str, rules: referee.Rules, turn: LiveTurn) -> dict:
    """"Could these tiles have been laid validly?" for the tiles that must be on the table after
    the turn: those there before (none may be taken) plus those the player added."""
    try:
        b = Counter(referee.parse_table(before).tiles)
        a = Counter(referee.parse_table(after).tiles)
        tiles = list((a | b).elements())
        referee.check_counts(tiles)
    except referee.RummirefError as e:
        return {"question": "Could these tiles have been laid validly?", "possible": None,
                "answer": f"The reading is not a real set of tiles ({e}); correct it first.",
                "arrangement": None}
    taken = b - a
    draw = rules.failed_turn_draw
    if not taken and referee.check_table(after, rules).ok:
        answer = "Yes, and they were: every meld on the table is valid as laid."
        if turn.legal is False:
            answer += " The turn breaks another rule (see the verdict above)."
        melds = [str(m) for m in referee.parse_table(after).melds]
        return {"question": "Could these tiles have been laid validly?", "possible": True,
                "answer": answer, "arrangement": after, "melds": melds}
    table = referee.arrange(tiles, rules)
    if table is not None:
        arr = str(table)
        answer = f"Yes: the same tiles could have been laid as {arr}."
        if taken:
            answer = (f"Yes, with the tiles taken put back ({referee.format_tiles(sorted(taken.elements()))}): "
                      f"{arr}.")
        return {"question": "Could these tiles have been laid validly?", "possible": True,
                "answer": answer, "arrangement": arr,
                "melds": [str(m) for m in table.melds]}
    return {"question": "Could these tiles have been laid validly?", "possible": False,
            "answer": f"No: restore the table as it was and draw {draw} "
                      f"tile{'s' if draw != 1 else ''} ({rules.title}).",
            "arrangement": None}


# --- pictures ------------------------------------------------------------------------------------

def annotate(image_bytes: bytes, reading: dict, rules: referee.Rules) -> bytes:
    """The picture with each meld outlined green (valid) or red (invalid) and unsure tiles
    marked with an orange frame and a question mark."""
    import cv2
    import numpy as np

    img = cv2.imdecode(np.frombuffer(image_bytes, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        return image_bytes
    tiles = reading.get("tiles", [])
    h, w = img.shape[:2]
    thick = max(2, round(max(h, w) / 400))
    for m in reading.get("melds", []):
        pts = [p for i in m for p in tiles[i].get("corners") or []]
        if not pts:
            continue
        try:
            ok = referee.check_meld(" ".join(tiles[i]["tile"] for i in m), rules).ok
        except referee.RummirefError:
            ok = False
        hull = cv2.convexHull(np.asarray(pts, np.float32)).astype(np.int32)
        cv2.polylines(img, [hull], True, (40, 180, 40) if ok else (30, 30, 220), thick + 1)
    for t in tiles:
        c = t.get("corners") or []
        if not c:
            continue
        poly = np.asarray(c, np.int32)
        x, y = int(poly[:, 0].min()), int(poly[:, 1].min())
        if t.get("uncertain"):
            cv2.polylines(img, [poly], True, (0, 140, 255), thick)
            cv2.putText(img, "?", (x, max(12, y - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * thick,
                        (0, 140, 255), thick)
        label = t["tile"]
        cv2.putText(img, label, (x, y + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3)
        cv2.putText(img, label, (x, y + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return buf.tobytes() if ok else image_bytes


def placeholder_svg(text: str) -> str:
    from markupsafe import escape

    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" '
            f'viewBox="0 0 640 360"><rect width="640" height="360" fill="#1b5e20"/>'
            f'<text x="320" y="185" font-size="22" text-anchor="middle" fill="#fff" '
            f'font-family="sans-serif">{escape(text)}</text></svg>')


# --- rack photos ---------------------------------------------------------------------------------

def read_rack(data: bytes, rules: referee.Rules, reader) -> dict:
    from vision.imageio import ImageError, decode_image
    from vision.watch import normalize_reading

    try:
        image = decode_image(data, "photo")
    except ImageError as e:
        raise Invalid(str(e), field="photo") from None
    reading = normalize_reading(reader(image))
    tiles = [t.tile for t in reading.tiles]
    try:
        parsed = referee.parse_tiles(" ".join(tiles))
        value = referee.rack_value(parsed, rules)
    except referee.RummirefError as e:
        raise Invalid(f"the photo was read as {' '.join(tiles)}, which cannot be a rack ({e}); "
                      f"type the rack instead", field="photo") from None
    return {"tiles": referee.format_tiles(parsed), "count": len(parsed), "value": value,
            "uncertain": [t.tile for t in reading.tiles if t.uncertain],
            "confidence": [round(t.confidence, 3) for t in reading.tiles],
            "rules": rules.name}


# --- JSON routes ---------------------------------------------------------------------------------

def _game_or_404(db: Session, game_id: str, lock: bool = False) -> Game:
    return service.get_game(db, game_id, lock=lock)


@live_bp.get(f"/api/games/{_GID}/live")
def live_state(game_id: str):
    db = get_db()
    return jsonify(state_json(db, service.load_game(db, game_id)))


def _owner_write(game_id: str, change):
    """Run ``change(db, game)`` in a write transaction on the locked game, for its owner only
    (the game's edit token); what it returns is the response, as with ``api.write``."""
    def do(db):
        game = _game_or_404(db, game_id, lock=True)
        require_token(game)
        return change(db, game)

    return write(do)


@live_bp.post(f"/api/games/{_GID}/live/snapshots")
def post_snapshot(game_id: str):
    def do(db, game):
        body = json_body()
        out = receive_snapshot(db, game, body, actor(body))
        status = 201 if out["result"] == "turn" else 200
        resp = jsonify(out)
        resp.status_code = status
        return resp, (game_id, game.version)

    return _owner_write(game_id, do)


@live_bp.post(f"/api/games/{_GID}/live/status")
def post_status(game_id: str):
    def do(db, game):
        body = json_body()
        s, changed = update_watcher(db, game, body)
        announce = (game_id, game.version) if changed else None
        return jsonify({"ok": True, "end_turn": s.end_turn}), announce

    return _owner_write(game_id, do)


@live_bp.post(f"/api/games/{_GID}/live/end-turn")
def post_end_turn(game_id: str):
    def do(db, game):
        s = _session(db, game)
        if s.base_snapshot_id is None:
            raise ApiError(409, "the camera has not seen the table yet; wait until the live page "
                                "shows a picture, then end the turn")
        if not s.end_turn:
            s.end_turn, s.end_turn_at = secrets.token_urlsafe(9), service.utcnow()
        _emit(db, game, "live-status", {"watcher": _watcher_json(s), "end_turn": s.end_turn,
                                        "actor": actor()})
        return jsonify({"end_turn": s.end_turn}), (game_id, game.version)

    return _owner_write(game_id, do)


@live_bp.post(f"/api/games/{_GID}/live/reset")
def post_reset(game_id: str):
    def do(db, game):
        old = _session(db, game, create=False)
        s = LiveSession(game_id=game.id, restore_pending=False,
                        seat=(game.timer_seat or 0) % max(1, len(game.players)),
                        watcher=old.watcher if old else None,
                        watcher_at=old.watcher_at if old else None)
        db.add(s)
        db.flush()
        _emit(db, game, "live-reset", {"session": s.id, "actor": actor()})
        return jsonify({"session": s.id}), (game_id, game.version)

    return _owner_write(game_id, do)


@live_bp.post(f"/api/games/{_GID}/live/next-player")
def post_next_player(game_id: str):
    """Say whose turn it is now (the camera cannot know who sat down first)."""
    def do(db, game):
        body = json_body()
        raw = body.get("player") if isinstance(body, dict) else None
        match = [p for p in game.players if isinstance(raw, str)
                 and p.name_key == service.name_key(raw)]
        if not match:
            raise Invalid(f"{raw!r} is not a player in this game; the players are "
                          f"{', '.join(p.name for p in game.players)}", field="player")
        s = _session(db, game)
        s.seat = match[0].seat
        _emit(db, game, "live-status", {"watcher": _watcher_json(s),
                                        "next_player": match[0].name, "actor": actor(body)})
        return jsonify({"next_player": match[0].name}), (game_id, game.version)

    return _owner_write(game_id, do)


@live_bp.get(f"/api/games/{_GID}/live/turns")
def get_turns(game_id: str):
    db = get_db()
    game = service.load_game(db, game_id)
    s = _session(db, game, create=False)
    turns = [] if s is None else list(db.execute(
        select(LiveTurn).where(LiveTurn.session_id == s.id).order_by(LiveTurn.number)).scalars())
    return jsonify({"session": s.id if s else None,
                    "turns": [_turn_json(t, game_id=game.id) for t in turns]})


@live_bp.get(f"/api/games/{_GID}/live/turns/<int(max=100000):number>")
def get_turn(game_id: str, number: int):
    db = get_db()
    return jsonify(dispute_json(db, service.load_game(db, game_id), number))


@live_bp.post(f"/api/games/{_GID}/live/turns/<int(max=100000):number>/correct")
def post_correct(game_id: str, number: int):
    def do(db, game):
        body = json_body()
        out = correct_turn(db, game, number, body, actor(body))
        return jsonify(out), (game_id, game.version)

    return _owner_write(game_id, do)


@live_bp.get(f"/api/games/{_GID}/live/snapshots/<int:snapshot_id>.jpg")
def get_picture(game_id: str, snapshot_id: int):
    db = get_db()
    game = service.get_game(db, game_id)
    snap = db.execute(select(LiveSnapshot).join(LiveSession)
                      .where(LiveSnapshot.id == snapshot_id, LiveSession.game_id == game.id)
                      ).scalar_one_or_none()
    if snap is None:
        raise NotFound(f"there is no picture {snapshot_id} in this game")
    if snap.image is None:
        return Response(placeholder_svg(snap.table or "no picture"), mimetype="image/svg+xml",
                        headers={"Cache-Control": "no-cache"})
    data = snap.image
    if request.args.get("annotated"):
        data = annotate(data, snap.reading, service.game_rules(game))
    mime = "image/png" if data[:4] == b"\x89PNG" else "image/jpeg"
    return Response(data, mimetype=mime, headers={"Cache-Control": "no-cache"})


@live_bp.post(f"/api/games/{_GID}/live/rack-photo")
def post_rack_photo(game_id: str):
    db = get_db()
    game = service.get_game(db, game_id)
    require_token(game)
    f = request.files.get("photo")
    if f is not None:
        data = f.read(MAX_PHOTO_BYTES + 1)
    elif request.mimetype.startswith("image/") or request.mimetype == "application/octet-stream":
        data = request.get_data(cache=False)
    else:
        raise ApiError(415, "send the photo as multipart/form-data (field 'photo') or as the "
                            "body with an image/* content type")
    if not data:
        raise Invalid("the photo is empty", field="photo")
    if len(data) > MAX_PHOTO_BYTES:
        raise ApiError(413, f"the photo is too large: {MAX_PHOTO_BYTES // (1024 * 1024)} MiB "
                            f"at most")
    reader = get_reader()
    out = read_rack(data, service.game_rules(game), reader)
    player = request.form.get("player") or request.args.get("player")
    if player:
        names = {p.name_key: p.name for p in game.players}
        out["player"] = names.get(service.name_key(player))
    return jsonify(out)


# --- pages ---------------------------------------------------------------------------------------

def _page_game(game_id: str) -> Game:
    db = get_db()
    try:
        return service.load_game(db, game_id)
    except NotFound:
        abort(404)


@live_bp.get(f"/games/{_GID}/live")
def live_page(game_id: str):
    game = _page_game(game_id)
    return render_template("live/table.html", game=game, game_id=game.id,
                           state=state_json(get_db(), game))


@live_bp.get(f"/games/{_GID}/live/log")
def log_page(game_id: str):
    game = _page_game(game_id)
    db = get_db()
    s = _session(db, game, create=False)
    turns = [] if s is None else [_turn_json(t, game_id=game.id) for t in db.execute(
        select(LiveTurn).where(LiveTurn.session_id == s.id).order_by(LiveTurn.number)).scalars()]
    return render_template("live/log.html", game=game, game_id=game.id, turns=turns)


@live_bp.get(f"/games/{_GID}/live/turns/<int(max=100000):number>")
def dispute_page(game_id: str, number: int):
    game = _page_game(game_id)
    try:
        d = dispute_json(get_db(), game, number)
    except NotFound:
        abort(404)
    return render_template("live/dispute.html", game=game, game_id=game.id, turn=d)
