"""The live referee's pages: the live table (``/games/<id>/live``), the turn log
(``/games/<id>/live/log``) and the dispute view of a turn (``/games/<id>/live/turns/<n>``)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from .. import service
from ..db import get_db
from ..models import Game
from ..service import NotFound
from . import views

bp = Blueprint("live", __name__)

GAME = "/games/<gid:game_id>/live"


def _game(game_id: str) -> Game:
    try:
        return service.load_game(get_db(), game_id)
    except NotFound:
        abort(404)


@bp.get(GAME)
def live_page(game_id: str):
    game = _game(game_id)
    return render_template("live/table.html", game=game, game_id=game.id,
                           state=views.state_json(get_db(), game))


@bp.get(GAME + "/log")
def log_page(game_id: str):
    game = _game(game_id)
    turns = views.turns_json(get_db(), game)["turns"]
    return render_template("live/log.html", game=game, game_id=game.id, turns=turns)


@bp.get(GAME + "/turns/<int(max=100000):number>")
def dispute_page(game_id: str, number: int):
    game = _game(game_id)
    try:
        turn = views.dispute_json(get_db(), game, number)
    except NotFound:
        abort(404)
    return render_template("live/dispute.html", game=game, game_id=game.id, turn=turn)
