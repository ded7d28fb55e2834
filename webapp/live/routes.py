"""The live referee's JSON routes under ``/api/games/<id>/live``. Reads need no token; changes
need the game's edit token, as every edit does, and go through the app's one write path."""

from __future__ import annotations

from contextlib import closing

from flask import Blueprint, Response, current_app, jsonify, request
from sqlalchemy import select

from vision.reading import Reading

from .. import idempotency, service
from ..api import ApiError, actor, json_body, require_token, write
from ..db import close_db, get_db
from ..service import Invalid, NotFound
from ..transaction import read_session
from . import actions, hint, pictures, rack, snapshots, views
from .models import LiveSession, LiveSnapshot
from .reader import get_reader

bp = Blueprint("live_api", __name__)

#: Largest snapshot body (JSON with a base64 JPEG) and rack photo accepted.
MAX_SNAPSHOT_BYTES = 8 * 1024 * 1024
LIVE = "/api/games/<gid:game_id>/live"
#: Snapshot ids in addresses: a larger number is no snapshot (404), never a database error.
SNAPSHOT_ID = "<int(max=2147483647):snapshot_id>"
TURN = "<int(max=100000):number>"


@bp.before_request
def _upload_limits() -> None:
    # The app takes 64 KiB bodies; snapshots carry a picture and rack photos are photos.
    if request.endpoint == "live_api.post_snapshot":
        request.max_content_length = MAX_SNAPSHOT_BYTES
    elif request.endpoint == "live_api.post_rack_photo":
        request.max_content_length = rack.MAX_PHOTO_BYTES


def _owner_write(game_id: str, change) -> Response:
    """``change(db, game)`` on the locked game, for its owner only (the edit token); its
    result is the answer and the phones hear of it."""
    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        return jsonify(change(db, game)), (game.id, game.version)

    return write(do)


@bp.get(LIVE)
def live_state(game_id: str):
    db = get_db()
    return jsonify(views.state_json(db, service.load_game(db, game_id)))


@bp.post(LIVE + "/snapshots")
def post_snapshot(game_id: str):
    key = idempotency.check_key(request.headers.get("Idempotency-Key"))
    body = json_body()
    inp = snapshots.parse(body)  # the reading and the picture are checked before any lock
    answer = snapshots.receive(current_app, get_db(), game_id, inp, key=key,
                               actor=actor(body), authorize=require_token)
    resp = jsonify(answer.body)
    resp.status_code = answer.status
    if answer.replayed:
        resp.headers["Idempotent-Replayed"] = "true"
    return resp


@bp.post(LIVE + "/status")
def post_status(game_id: str):
    body = json_body()

    def do(db):
        game = service.get_game(db, game_id, lock=True)
        require_token(game)
        out, told = actions.status_change(db, game, body)
        return jsonify(out), (game.id, game.version) if told else None

    return write(do)


@bp.post(LIVE + "/end-turn")
def post_end_turn(game_id: str):
    who = actor()
    return _owner_write(game_id, lambda db, game: actions.request_end_turn(db, game, who))


@bp.post(LIVE + "/reset")
def post_reset(game_id: str):
    who = actor()
    return _owner_write(game_id, lambda db, game: actions.new_round(db, game, who))


@bp.post(LIVE + "/next-player")
def post_next_player(game_id: str):
    body = json_body()
    return _owner_write(game_id,
                        lambda db, game: actions.set_next_player(db, game, body, actor(body)))


@bp.get(LIVE + "/turns")
def get_turns(game_id: str):
    db = get_db()
    return jsonify(views.turns_json(db, service.load_game(db, game_id)))


@bp.get(LIVE + f"/turns/{TURN}")
def get_turn(game_id: str, number: int):
    db = get_db()
    return jsonify(views.dispute_json(db, service.load_game(db, game_id), number))


@bp.post(LIVE + f"/turns/{TURN}/correct")
def post_correct(game_id: str, number: int):
    body = json_body()
    return _owner_write(game_id,
                        lambda db, game: actions.correct(db, game, number, body, actor(body)))


@bp.post(LIVE + f"/turns/{TURN}/declare")
def post_declare(game_id: str, number: int):
    body = json_body()
    return _owner_write(game_id,
                        lambda db, game: actions.declare(db, game, number, body, actor(body)))


@bp.get(LIVE + f"/snapshots/{SNAPSHOT_ID}.jpg")
def get_picture(game_id: str, snapshot_id: int):
    db = get_db()
    game = service.get_game(db, game_id)
    snap = db.execute(select(LiveSnapshot).join(LiveSession)
                      .where(LiveSnapshot.id == snapshot_id, LiveSession.game_id == game.id)
                      ).scalar_one_or_none()
    if snap is None:
        raise NotFound(f"there is no picture {snapshot_id} in this game")
    image, reading, table = snap.image, snap.reading, snap.table
    rules = service.game_rules(game)
    close_db()  # the picture is decoded and drawn with no database session open
    headers = {"Cache-Control": "no-cache"}
    if image is None:
        return Response(pictures.placeholder_svg(table or "no picture"),
                        mimetype="image/svg+xml", headers=headers)
    if request.args.get("annotated"):
        image = pictures.annotated(image, Reading.from_json(reading), rules)
    mime = "image/png" if image[:4] == b"\x89PNG" else "image/jpeg"
    return Response(image, mimetype=mime, headers=headers)


@bp.post(LIVE + "/hint")
def post_hint(game_id: str):
    # The search takes up to half a second of CPU: no database transaction is open meanwhile.
    body = json_body()
    with closing(read_session(current_app)) as db:
        position = hint.position(db, service.load_game(db, game_id))
    rack_tiles, player = hint.parse(body, position.players)
    return jsonify(hint.hint(position, rack_tiles, player,
                             cpu_limit=current_app.config.get("HINT_CPU_SECONDS",
                                                              hint.HINT_CPU_SECONDS)))


@bp.post(LIVE + "/rack-photo")
def post_rack_photo(game_id: str):
    # Reading a photo takes a while: no database transaction is open meanwhile (on SQLite an
    # open write transaction would hold up every other change).
    with closing(read_session(current_app)) as db:
        game = service.load_game(db, game_id)
        require_token(game)
        rules = service.game_rules(game)
        names = {p.name_key: p.name for p in game.players}
    player = request.form.get("player") or request.args.get("player")
    if player and service.name_key(player) not in names:
        # Checked before the photo is read: an answer for nobody would be a wasted read.
        raise Invalid(f"{player!r} is not a player in this game; the players are "
                      f"{', '.join(names.values())}", field="player")
    f = request.files.get("photo")
    if f is not None:
        data = f.read(rack.MAX_PHOTO_BYTES + 1)
    elif request.mimetype.startswith("image/") or request.mimetype == "application/octet-stream":
        data = request.get_data(cache=False)
    else:
        raise ApiError(415, "send the photo as multipart/form-data (field 'photo') or as the "
                            "body with an image/* content type")
    if not data:
        raise Invalid("the photo is empty", field="photo")
    if len(data) > rack.MAX_PHOTO_BYTES:
        raise ApiError(413, f"the photo is too large: "
                            f"{rack.MAX_PHOTO_BYTES // (1024 * 1024)} MiB at most")
    from ..calibration import reader_for_game

    out = rack.read_rack(data, rules,
                         reader_for_game(current_app, get_reader(current_app), game_id))
    if player:
        out["player"] = names[service.name_key(player)]
    return jsonify(out)
