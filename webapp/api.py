"""The JSON API under ``/api`` (described by ``/api/openapi.json``, see ``webapp.openapi``).

Reads need no token; changes need the game's ``Authorization: Bearer <token>``. Errors are
JSON, ``{"error": "<what to do>", "status": <code>, ...}``, and a rejected request changes
nothing: every change runs in one transaction that is rolled back on any error.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from typing import Any, Callable, Optional

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from sqlalchemy.exc import IntegrityError, OperationalError
from werkzeug.routing import BaseConverter, IntegerConverter

from . import errors, events, idempotency, service
from .db import get_db
from .service import Conflict, ServiceError

bp = Blueprint("api", __name__, url_prefix="/api")

WRITE_ATTEMPTS = 4


class GameIdConverter(BaseConverter):
    """Game ids as issued: 1-16 URL-safe characters. Anything else is a 404 before any query."""

    regex = r"[A-Za-z0-9_-]{1,16}"


#: The largest number a game version (``?after=``) may be: the databases' 32-bit integers.
INT_MAX = 2**31 - 1


class BoundedIntConverter(IntegerConverter):
    """``<int:...>`` of at most 9 digits: a longer number matches no route (a 404 for every
    method) and never reaches the databases' 32-bit integer columns."""

    regex = r"\d{1,9}"
    signed_regex = r"-?\d{1,9}"


class ApiError(ServiceError):
    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message, **extra)
        self.status = status


def init_app(app: Flask) -> None:
    """Register the API blueprint, the URL converters (app-wide) and the error handlers."""
    # Before any blueprint: every <int:...> of every route is bounded, so a huge number in a
    # path is a 404 and never reaches the database.
    app.url_map.converters["int"] = BoundedIntConverter
    app.url_map.converters.setdefault("gid", GameIdConverter)
    app.register_blueprint(bp)
    errors.init_app(app)


# --- request helpers --------------------------------------------------------------------------

def json_body() -> Any:
    if not request.is_json:
        raise ApiError(415, "send the body as JSON with Content-Type: application/json")
    data = request.get_data(cache=True)  # 413 beyond MAX_CONTENT_LENGTH

    def no_constants(name: str):
        raise ValueError(f"{name} is not allowed in JSON")

    def finite(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):  # 1e999 overflows to infinity
            raise ValueError(f"{text} is too large a number")
        return value

    try:
        body = json.loads(data.decode("utf-8"), parse_constant=no_constants, parse_float=finite)
        # "\ud800"-style escapes decode to lone surrogates, which no database or reply can hold.
        json.dumps(body, ensure_ascii=False).encode("utf-8")
        return body
    except UnicodeEncodeError:
        raise ApiError(400, "the body holds an invalid \\u escape (a lone surrogate)") from None
    except UnicodeDecodeError:
        raise ApiError(400, "the body is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise ApiError(400, f"the body is not valid JSON: {e.msg} at line {e.lineno} "
                            f"column {e.colno}") from None
    except (ValueError, RecursionError) as e:
        raise ApiError(400, f"the body is not valid JSON: {e}") from None


def bearer_token() -> Optional[str]:
    auth = request.headers.get("Authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def require_token(game) -> None:
    token = bearer_token()
    if token is None:
        raise ApiError(401, "this change needs the game's edit token: send "
                            "'Authorization: Bearer <token>' (the token was given when the game "
                            "was created)")
    if not service.token_matches(game, token):
        raise ApiError(403, "this token does not belong to this game; open the game from the "
                            "phone that created it, or ask its owner for the edit link")


def actor(body: Any = None) -> str:
    if isinstance(body, dict):
        device = service.clean_device(body.get("device"))
        if device:
            return device
    return service.clean_device(request.headers.get("X-Rummiref-Device")) or "owner"


def query_int(name: str, default: int, lo: int, hi: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(400, f"?{name}= takes a whole number from {lo} to {hi}") from None
    if not lo <= value <= hi:
        raise ApiError(400, f"?{name}= takes a whole number from {lo} to {hi}")
    return value


def write(fn: Callable[[Any], tuple[Response, Optional[tuple[str, int]]]]) -> Response:
    """Run ``fn(db)`` in one transaction and commit it. ``fn`` returns the response and the
    (game id, version) to announce. A lost race on a unique constraint (two phones at the same
    moment) is retried from scratch; any error rolls everything back."""
    db = get_db()
    # SQLite has one writer at a time; its busy handler makes waiting writers sleep and poll,
    # which under load lets one writer lose the race again and again (seconds). Writers of this
    # process queue on a lock instead; other processes still meet SQLite's busy timeout.
    lock = current_app.extensions["rummiref"].get("write_lock") or contextlib.nullcontext()
    for attempt in range(WRITE_ATTEMPTS):
        try:
            with lock:
                try:
                    resp, announce = fn(db)
                    db.commit()
                except BaseException:
                    db.rollback()
                    raise
        except IntegrityError:
            if attempt == WRITE_ATTEMPTS - 1:
                raise Conflict("the game changed while this was being saved; try again") from None
            time.sleep(0.005 * (attempt + 1))
            continue
        except OperationalError as e:
            # PostgreSQL deadlock or serialisation failure: try again; anything else: give up.
            code = getattr(getattr(e, "orig", None), "sqlstate", None)
            if code in ("40001", "40P01") and attempt < WRITE_ATTEMPTS - 1:
                time.sleep(0.005 * (attempt + 1))
                continue
            raise
        if announce:
            current_app.extensions["rummiref"]["broker"].notify(*announce)
        return resp
    raise AssertionError("unreachable")


MAX_ROUND = 1_000_000


def round_number(game_id: str, number: int) -> int:
    if number > MAX_ROUND:  # keep absurd numbers away from the database's integer range
        raise service.NotFound(f"game {game_id} has no round {number}", game=game_id)
    return number


def _json(status: int, body: Any, location: Optional[str] = None,
          replayed: bool = False, etag: Optional[int] = None) -> Response:
    resp = jsonify(body)
    resp.status_code = status
    if location:
        resp.headers["Location"] = location
    if etag is not None:
        resp.set_etag(str(etag))
    if replayed:
        resp.headers["Idempotent-Replayed"] = "true"
    return resp


def _idempotency_ttl() -> float:
    return float(current_app.config["IDEMPOTENCY_TTL_SECONDS"])


@bp.after_request
def _api_headers(resp: Response) -> Response:
    # Scores change under the phones' feet, and a new game's answer holds its edit token:
    # nothing from the API is stored by browsers or proxies.
    resp.headers.setdefault("Cache-Control", "no-store")
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    return resp


# --- routes -----------------------------------------------------------------------------------

@bp.get("")
@bp.get("/")
def index():
    return jsonify({"name": "rummiref scoresheet API", "openapi": "/api/openapi.json",
                    "games": "/api/games", "presets": "/api/presets", "players": "/api/players"})


@bp.get("/openapi.json")
def openapi_document():
    from .openapi import document

    return jsonify(document())


@bp.get("/presets")
def presets():
    return jsonify(service.presets_json())


@bp.post("/rack-value")
def rack_value():
    return jsonify(service.rack_preview(json_body()))


@bp.get("/games")
def list_games():
    limit = query_int("limit", 50, 1, 200)
    offset = query_int("offset", 0, 0, 10**9)
    player = request.args.get("player")
    if player is not None and (not player.strip() or not player.isprintable()):
        raise ApiError(400, "?player= takes a player's name")
    return jsonify(service.list_games(get_db(), limit=limit, offset=offset, player=player))


@bp.post("/games")
def create_game():
    key = idempotency.check_key(request.headers.get("Idempotency-Key"))
    body = json_body()
    req_hash = idempotency.request_hash("POST", "/api/games", body)
    secret, ttl = current_app.config["SECRET_KEY"], _idempotency_ttl()

    def do(db):
        replay = idempotency.find_replay(db, "games", key, req_hash, ttl)
        if replay:
            out = idempotency.replayed_game(db, replay, secret, key)
            return _json(replay.status, out, replay.location, replayed=True), None
        # With a key, the token is made from it, so that a retry can be given it again.
        make_token = (lambda gid: idempotency.game_token(secret, gid, key)) if key else None
        out, game_id = service.create_game(db, body, actor(), make_token)
        location = f"/api/games/{game_id}"
        kept = {k: v for k, v in out.items() if k != "token"}  # the token is never stored
        idempotency.remember(db, "games", key, req_hash, 201, kept, location, ttl)
        return _json(201, out, location), (game_id, out["game"]["version"])

    return write(do)


@bp.get("/games/<gid:game_id>")
def get_game(game_id: str):
    state = service.game_state(get_db(), game_id)
    resp = jsonify(state)
    resp.set_etag(str(state["version"]))
    return resp


@bp.get("/games/<gid:game_id>/rounds/<int:number>")
def get_round(game_id: str, number: int):
    round_number(game_id, number)
    r = service.get_round(get_db(), game_id, number)
    resp = jsonify(service.round_json(r))
    resp.set_etag(service.round_etag(r))
    return resp


@bp.post("/games/<gid:game_id>/rounds")
def post_round(game_id: str):
    scope = f"rounds:{game_id}"
    ttl = _idempotency_ttl()

    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        key = idempotency.check_key(request.headers.get("Idempotency-Key"))
        body = json_body()
        req_hash = idempotency.request_hash("POST", request.path, body)
        replay = idempotency.find_replay(db, scope, key, req_hash, ttl)
        if replay:
            return _json(replay.status, replay.body, replay.location, replayed=True), None
        out = service.add_round(db, game, body, actor(body))
        location = f"/api/games/{game_id}/rounds/{out['round']['number']}"
        idempotency.remember(db, scope, key, req_hash, 201, out, location, ttl)
        return _json(201, out, location, etag=out["round"]["version"]), (game_id, out["version"])

    return write(do)


@bp.put("/games/<gid:game_id>/rounds/<int:number>")
def put_round(game_id: str, number: int):
    """Correct a round. With ``If-Match: "<its ETag>"`` (the pages send it) a round that
    another phone changed, or undid and entered again, since is not overwritten: 412."""
    round_number(game_id, number)

    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        service.check_round_unchanged(db, game, number, request.if_match)
        body = json_body()
        out = service.edit_round(db, game, number, body, actor(body))
        return _json(200, out, etag=out["round"]["version"]), (game_id, out["version"])

    return write(do)


@bp.delete("/games/<gid:game_id>/rounds/<int:number>")
def delete_round(game_id: str, number: int):
    """Undo the last round; ``If-Match`` as for ``put_round``."""
    round_number(game_id, number)

    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        service.check_round_unchanged(db, game, number, request.if_match)
        out = service.undo_round(db, game, number, actor())
        return _json(200, out), (game_id, out["version"])

    return write(do)


@bp.get("/games/<gid:game_id>/audit")
def audit(game_id: str):
    return jsonify(service.audit_json(get_db(), game_id))


@bp.get("/games/<gid:game_id>/export.csv")
def export_csv(game_id: str):
    text = service.export_csv(get_db(), game_id)
    # The byte-order mark lets spreadsheet programs read non-ASCII names correctly.
    return Response("\ufeff" + text, mimetype="text/csv",
                    headers={"Content-Disposition":
                             f'attachment; filename="rummiref-{game_id}.csv"'})


@bp.get("/players")
def players():
    return jsonify(service.player_records(get_db()))


@bp.get("/games/<gid:game_id>/timer")
def get_timer(game_id: str):
    game = service.load_game(get_db(), game_id)
    return jsonify(service.timer_json(game, list(game.players), service.game_rules(game)))


@bp.post("/games/<gid:game_id>/timer")
def post_timer(game_id: str):
    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        body = json_body()
        state = service.timer_action(db, game, body, actor(body))
        return _json(200, state), (game_id, game.version)

    return write(do)


@bp.get("/games/<gid:game_id>/events")
def game_events(game_id: str):
    raw = request.headers.get("Last-Event-ID") or request.args.get("after")
    after: Optional[int] = None
    if raw is not None:
        try:
            after = int(raw)
        except ValueError:
            raise ApiError(400, "Last-Event-ID / ?after= is a game version (a whole number)") \
                from None
        if not 0 <= after <= INT_MAX:
            raise ApiError(400, "Last-Event-ID / ?after= is a game version (a whole number)")
    db = get_db()
    game = service.load_game(db, game_id)
    hello = service.game_json(game) if after is None or after > game.version else None
    version = game.version
    db.close()
    cfg = current_app.config
    broker = current_app.extensions["rummiref"]["broker"]
    body = events.stream(broker, game_id, after, hello, version,
                         max_seconds=float(cfg["SSE_MAX_SECONDS"]),
                         heartbeat=float(cfg["SSE_HEARTBEAT_SECONDS"]),
                         max_streams=int(cfg["SSE_MAX_STREAMS"]))
    return Response(body, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
