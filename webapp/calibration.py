"""Calibration from a phone: the page that shows the grid to lay out and takes its photo, and
the routes that learn the tile set from it (``vision.calibration``) and keep it in the
instance folder, for one game (its owner only, with the edit token) or as the server's
default. The readers of this server (rack photos, the camera) use it where it exists.

``GET  /calibrate``                        the page, for the default
``GET  /games/<id>/calibrate``             the page, for one game
``POST /api/calibration``                  a grid photo (multipart ``photo``) -> the default,
                                           from the serving computer only
``POST /api/games/<id>/calibration``       the same for one game (edit token)
"""

from __future__ import annotations

from contextlib import closing

from flask import Blueprint, current_app, jsonify, render_template, request

from . import service
from .api_input import ApiError, require_token
from .live.reader import ReaderUnavailable, get_reader
from .reach import is_loopback
from .service import Invalid
from .transaction import read_session

bp = Blueprint("calibration", __name__)

#: Largest grid photo accepted (bytes): a phone's full-size photo.
MAX_PHOTO_BYTES = 16 * 1024 * 1024


def init_app(app) -> None:
    if "calibration" not in app.blueprints:
        app.register_blueprint(bp)


@bp.before_request
def _upload_limit() -> None:
    if request.method == "POST":
        request.max_content_length = MAX_PHOTO_BYTES


def _grid_rows() -> list[list[str]]:
    from vision.calibration_grid import GRID

    return [list(row) for row in GRID]


@bp.get("/calibrate")
def default_page():
    return render_template("calibration.html", game_id=None, rows=_grid_rows(),
                           post_url="/api/calibration")


@bp.get("/games/<gid:game_id>/calibrate")
def game_page(game_id: str):
    with closing(read_session(current_app)) as db:
        game = service.load_game(db, game_id)
    return render_template("calibration.html", game_id=game.id, rows=_grid_rows(),
                           post_url=f"/api/games/{game.id}/calibration")


def _photo() -> bytes:
    f = request.files.get("photo")
    if f is None:
        raise ApiError(415, "send the grid photo as multipart/form-data (field 'photo')")
    data = f.read(MAX_PHOTO_BYTES + 1)
    if not data:
        raise Invalid("the photo is empty", field="photo")
    return data


def _learn(game_id: str | None):
    from vision.calibration import CalibrationUnusable, calibrate, save
    from vision.calibration_grid import GridError
    from vision.imageio import ImageError

    data = _photo()
    read = get_reader(current_app)
    reader = getattr(read, "__self__", None)
    if reader is None or not hasattr(reader, "detect"):
        raise ReaderUnavailable("this server's tile reader cannot be calibrated")
    try:
        result = calibrate(reader, data)  # decoded by vision.open_image (size caps, bombs)
    except (ImageError, GridError) as e:
        raise Invalid(f"{e}; nothing was stored", field="photo") from None
    except CalibrationUnusable as e:
        raise ReaderUnavailable(str(e)) from None
    save(result.calibration, current_app.instance_path, game_id)
    return jsonify({"game": game_id, "found": len(result.found), "missing": result.missing,
                    "right_before": result.right_before, "right_after": result.right_after,
                    "seconds": result.seconds, "summary": result.summary()})


@bp.post("/api/calibration")
def post_default():
    # Every game without its own calibration reads with the default, so a stranger on the
    # table's Wi-Fi must not replace it: only the computer running rummiref may.
    if not is_loopback(request.remote_addr or ""):
        raise ApiError(403, "the server's default tile set is set on the computer running "
                            "rummiref (its /calibrate page, or `rummiref calibrate PHOTO "
                            "--default`); from a phone, calibrate your own game from its page")
    return _learn(None)


@bp.post("/api/games/<gid:game_id>/calibration")
def post_game(game_id: str):
    # The photo is read with no database transaction open (it takes a while).
    with closing(read_session(current_app)) as db:
        game = service.load_game(db, game_id)
        require_token(game)
    return _learn(game.id)


def reader_for_game(app, read, game_id: str | None):
    """``read`` (the app's ``Reader.read``) with the tile set calibrated for ``game_id``, else
    the server's default calibration, else as it is."""
    from vision.calibration import reader_for

    reader = getattr(read, "__self__", None)
    if reader is None or not hasattr(reader, "calibration"):
        return read  # a reader of another kind (a test's, the demo's)
    return reader_for(reader, app.instance_path, game_id).read
