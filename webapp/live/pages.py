"""The live referee's pages: the live table (``/games/<id>/live``, and its verdict and picture
alone at ``/games/<id>/live/panel``), the turn log (``/games/<id>/live/log``) and the dispute
view of a turn (``/games/<id>/live/turns/<n>``)."""

from __future__ import annotations

from flask import Blueprint, abort, make_response, render_template

from .. import service
from ..db import get_db
from ..models import Game
from ..service import NotFound
from . import panel as live_panel
from . import views, words

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
                           **live_panel.panel(get_db(), game))


@bp.get(GAME + "/panel")
def panel_fragment(game_id: str):
    game = _game(game_id)
    resp = make_response(render_template("live/_panel.html", game=game, game_id=game.id,
                                         **live_panel.panel(get_db(), game)))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get(GAME + "/log")
def log_page(game_id: str):
    game = _game(game_id)
    turns = views.turns_json(get_db(), game)["turns"]
    rules = service.game_rules(game)
    told = [(t, words.turn_words(t, rules), words.reason_words(t["reason"])) for t in turns]
    return render_template("live/log.html", game=game, game_id=game.id, turns=told)


@bp.get(GAME + "/turns/<int(max=100000):number>")
def dispute_page(game_id: str, number: int):
    game = _game(game_id)
    try:
        turn = views.dispute_json(get_db(), game, number)
    except NotFound:
        abort(404)
    return render_template("live/dispute.html", game=game, game_id=game.id, turn=turn,
                           words=words.turn_words(turn, service.game_rules(game)))
