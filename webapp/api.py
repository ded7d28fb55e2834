"""The JSON API under ``/api`` (described by ``/api/openapi.json``, see ``webapp.openapi``).

Reads need no token; changes need the game's ``Authorization: Bearer <token>``. Errors are
JSON, ``{"error": "<what to do>", "status": <code>, ...}``, and a rejected request changes
nothing: every change runs in one transaction that is rolled back on any error.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, Optional

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

from . import events, service
from .db import get_db
from .service import ServiceError
from .transaction import run_write

log = logging.getLogger(__name__)

bp = Blueprint("api", __name__, url_prefix="/api")


class GameIdConverter(BaseConverter):
    """Game ids as issued: 1-16 URL-safe characters. Anything else is a 404 before any query."""

    regex = r"[A-Za-z0-9_-]{1,16}"


class ApiError(ServiceError):
    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message, **extra)
        self.status = status


# --- errors -----------------------------------------------------------------------------------

def error_response(status: int, message: str, headers: Optional[dict] = None,
                   **extra: Any) -> Response:
    resp = jsonify({"error": message, "status": status, **extra})
    resp.status_code = status
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


_HTTP_MESSAGES = {
    400: "the request is malformed",
    404: "there is nothing here; see /api/openapi.json for the API's addresses",
    405: "this address does not take that method",
    413: "the request body is too large",
    415: "send the body as JSON with Content-Type: application/json",
}


def _http_error(e: HTTPException):
    if not request.path.startswith("/api"):
        return e
    status = e.code or 500
    message = _HTTP_MESSAGES.get(status, (e.description or e.name or "error").strip())
    headers = {}
    if status == 405 and getattr(e, "valid_methods", None):
        headers["Allow"] = ", ".join(e.valid_methods)
        message += f" (allowed: {headers['Allow']})"
    if status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        message = f"the request body is too large: {limit // 1024} KiB at most" if limit else message
    return error_response(status, message, headers)


def _service_error(e: ServiceError):
    headers = {}
    if e.status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="rummiref"'
    return error_response(e.status, e.message, headers, **e.extra)


def _db_busy(e: OperationalError):
    log.warning("database busy or unavailable: %s", e)
    if not request.path.startswith("/api"):
        raise e
    return error_response(503, "the database is busy; try again in a moment",
                          {"Retry-After": "1"})


def _unexpected(e: Exception):
    if isinstance(e, HTTPException):
        return _http_error(e)
    log.exception("unexpected error on %s %s", request.method, request.path)
    if not request.path.startswith("/api"):
        raise e
    return error_response(500, "something went wrong on the server; nothing was changed. "
                               "Try again, and report it if it keeps happening")


def init_app(app: Flask) -> None:
    """Register the API blueprint, its URL converter and its JSON error handlers."""
    app.url_map.converters.setdefault("gid", GameIdConverter)
    app.register_blueprint(bp)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ServiceError, _service_error)
    app.register_error_handler(OperationalError, _db_busy)
    app.register_error_handler(Exception, _unexpected)


# --- request helpers --------------------------------------------------------------------------

def json_body() -> Any:
    if not request.is_json:
        raise ApiError(415, "send the body as JSON with Content-Type: application/json")
    data = request.get_data(cache=True)  # 413 beyond MAX_CONTENT_LENGTH

    def no_constants(name: str):
        raise ValueError(f"{name} is not allowed in JSON")

    try:
        body = json.loads(data.decode("utf-8"), parse_constant=no_constants)
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
    """Run ``fn(db)`` in one transaction on the request's session and commit it
    (:func:`webapp.transaction.run_write`). ``fn`` returns the response and the (game id,
    version) to announce."""
    return run_write(current_app, get_db(), fn)


MAX_ROUND = 1_000_000


def round_number(game_id: str, number: int) -> int:
    if number > MAX_ROUND:  # keep absurd numbers away from the database's integer range
        raise service.NotFound(f"game {game_id} has no round {number}", game=game_id)
    return number


def _json(status: int, body: Any, location: Optional[str] = None,
          replayed: bool = False) -> Response:
    resp = jsonify(body)
    resp.status_code = status
    if location:
        resp.headers["Location"] = location
    if replayed:
        resp.headers["Idempotent-Replayed"] = "true"
    return resp


def _replay(row) -> Response:
    return _json(row.status, row.body, row.location, replayed=True)


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
    key = service.check_idempotency_key(request.headers.get("Idempotency-Key"))
    body = json_body()
    req_hash = service.request_hash("POST", "/api/games", body)

    def do(db):
        replay = service.find_replay(db, "games", key, req_hash)
        if replay:
            return _replay(replay), None
        out, game_id = service.create_game(db, body, actor())
        location = f"/api/games/{game_id}"
        service.remember(db, "games", key, req_hash, 201, out, location)
        return _json(201, out, location), (game_id, out["game"]["version"])

    return write(do)


@bp.get("/games/<gid:game_id>")
def get_game(game_id: str):
    return jsonify(service.game_state(get_db(), game_id))


@bp.get("/games/<gid:game_id>/rounds/<int:number>")
def get_round(game_id: str, number: int):
    round_number(game_id, number)
    return jsonify(service.round_json(service.get_round(get_db(), game_id, number)))


@bp.post("/games/<gid:game_id>/rounds")
def post_round(game_id: str):
    scope = f"rounds:{game_id}"

    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        key = service.check_idempotency_key(request.headers.get("Idempotency-Key"))
        body = json_body()
        req_hash = service.request_hash("POST", request.path, body)
        replay = service.find_replay(db, scope, key, req_hash)
        if replay:
            return _replay(replay), None
        out = service.add_round(db, game, body, actor(body))
        location = f"/api/games/{game_id}/rounds/{out['round']['number']}"
        service.remember(db, scope, key, req_hash, 201, out, location)
        return _json(201, out, location), (game_id, out["version"])

    return write(do)


@bp.put("/games/<gid:game_id>/rounds/<int:number>")
def put_round(game_id: str, number: int):
    round_number(game_id, number)
    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        body = json_body()
        out = service.edit_round(db, game, number, body, actor(body))
        return _json(200, out), (game_id, out["version"])

    return write(do)


@bp.delete("/games/<gid:game_id>/rounds/<int:number>")
def delete_round(game_id: str, number: int):
    round_number(game_id, number)
    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
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
        if after < 0:
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
