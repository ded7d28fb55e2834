"""The JSON API under ``/api`` (described by ``/api/openapi.json``, see ``webapp.openapi``).

Reads need no token; changes need the game's ``Authorization: Bearer <token>``. Errors are
JSON, ``{"error": "<what to do>", "status": <code>, ...}``, and a rejected request changes
nothing: every change runs in one transaction that is rolled back on any error.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from . import errors, events, games, idempotency, service
from .api_input import ApiError, actor, json_body, query_int, require_token  # noqa: F401
from .converters import INT_MAX, BoundedIntConverter, GameIdConverter
from .db import get_db
from .transaction import run_write

bp = Blueprint("api", __name__, url_prefix="/api")


def init_app(app: Flask) -> None:
    """Register the API blueprint, the URL converters (app-wide) and the error handlers."""
    # Before any blueprint: every <int:...> of every route is bounded, so a huge number in a
    # path is a 404 and never reaches the database.
    app.url_map.converters["int"] = BoundedIntConverter
    app.url_map.converters.setdefault("gid", GameIdConverter)
    app.register_blueprint(bp)
    errors.init_app(app)


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


@bp.patch("/games/<gid:game_id>")
def patch_game(game_id: str):
    """Rename the game or change its target (the owner: the edit token)."""
    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        body = json_body()
        out = games.edit_game(db, game, body, actor(body))
        resp = _json(200, out)
        resp.set_etag(str(out["version"]))
        return resp, (game_id, out["version"])

    return write(do)


@bp.delete("/games/<gid:game_id>")
def delete_game(game_id: str):
    """Delete the game, its rounds and its change log (the owner: the edit token)."""
    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        version = game.version
        out = games.delete_game(db, game)
        # Wakes the phones following the game, whose streams then find it gone.
        return _json(200, out), (game_id, version + 1)

    return write(do)


@bp.post("/games/<gid:game_id>/rematch")
def post_rematch(game_id: str):
    """A new game with the same players once this one is over; asked again, the same one."""
    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        body = json_body() if request.content_length else {}
        out, created = games.rematch(db, game, actor(body))
        location = f"/api/games/{out['id']}"
        if not created:
            return _json(200, out, location), None
        return _json(201, out, location), (game_id, game.version)

    return write(do)


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
