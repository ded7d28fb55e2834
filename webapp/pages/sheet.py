"""The start page and a game's sheet: the whole page (``/games/<id>``), the partial the phones
refetch on every live event (``/games/<id>/sheet``) and the chart as an SVG file."""

from __future__ import annotations

from flask import Response, render_template, url_for
from flask_babel import gettext as _

import referee

from . import bp
from .chart import chart_svg, cumulative, legend
from .reading import game as read_game
from .result import result_of, target_text
from .sharing import qr_svg, share_base


def _preset_list() -> list[dict]:
    out = []
    for name, rules in referee.PRESETS.items():
        out.append({"name": name, "title": rules.title, "description": rules.describe(),
                    "default": name == referee.DEFAULT_PRESET,
                    "timer": rules.turn_time_limit, "joker": rules.joker_penalty})
    return out


@bp.get("/")
def start() -> str:
    return render_template("start.html", presets=_preset_list())


def _sheet_context(game_id: str) -> dict:
    game = read_game(game_id)
    players = [p["name"] for p in sorted(game["players"], key=lambda p: p["seat"])]
    rounds = game["rounds"]
    return {
        "game": game,
        "players": players,
        "rounds": rounds,
        "chart": chart_svg(players, rounds),
        "legend": legend(players),
        "series": cumulative(players, rounds),
        "round_sums": [sum(r["scores"].values()) for r in rounds],
        "result": result_of(game),
        "target_text": target_text(game.get("target")),
    }


@bp.get("/games/<gid:game_id>")
def game_page(game_id: str) -> str:
    ctx = _sheet_context(game_id)
    base, note, phones_can_open = share_base()
    viewer_url = base + url_for("pages.game_page", game_id=game_id)
    return render_template("game.html", viewer_url=viewer_url, share_base=base, share_note=note,
                           share_ok=phones_can_open,
                           viewer_qr=qr_svg(viewer_url) if phones_can_open else None,
                           live_links=_live_links(game_id), **ctx)


def _live_links(game_id: str) -> list[tuple[str, str]]:
    """Links to the live referee's pages (``webapp.live``)."""
    return [(url_for("live.live_page", game_id=game_id), _("Live table")),
            (url_for("live.log_page", game_id=game_id), _("Turn log"))]


@bp.get("/games/<gid:game_id>/sheet")
def sheet(game_id: str) -> Response:
    """Just the sheet (standings, chart, rounds) and the winner screen: what a phone refetches
    on every event."""
    ctx = _sheet_context(game_id)
    resp = Response(render_template("_winner.html", **ctx) + render_template("_sheet.html", **ctx))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/games/<gid:game_id>/chart.svg")
def chart(game_id: str) -> Response:
    game = read_game(game_id)
    players = [p["name"] for p in sorted(game["players"], key=lambda p: p["seat"])]
    svg = chart_svg(players, game["rounds"], standalone=True)
    resp = Response(str(svg), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    return resp
