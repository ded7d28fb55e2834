"""The result of a game in words and as a picture: what the winner screen says, the text a
phone shares, and ``/games/<id>/result.png`` (the standings, final once the game is over)."""

from __future__ import annotations

from babel.lists import format_list
from flask import Response
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import ngettext

from . import bp
from .formatting import signed
from .reading import game as read_game


def names_text(names: list[str]) -> str:
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cy`` in the page's language."""
    try:
        return format_list(names, locale=str(get_locale() or "en"))
    except (ValueError, LookupError):
        return ", ".join(names)


def target_text(target: dict | None, capital: bool = True) -> str:
    """``Played to 200 points`` / ``played to 8 rounds`` / empty for a game without an end."""
    if not target:
        return ""
    n = target["value"]
    if target["kind"] == "points":
        return (ngettext("Played to %(num)s point", "Played to %(num)s points", n) if capital
                else ngettext("played to %(num)s point", "played to %(num)s points", n))
    return (ngettext("Played to %(num)s round", "Played to %(num)s rounds", n) if capital
            else ngettext("played to %(num)s round", "played to %(num)s rounds", n))


def result_of(game: dict) -> dict:
    """What the winner screen, the shared text and the result picture say about ``game``."""
    players = [p["name"] for p in sorted(game["players"], key=lambda p: p["seat"])]
    n = len(game["rounds"])
    rounds = ngettext("%(num)s round", "%(num)s rounds", n)
    if game["over"]:
        headline = ngettext("%(names)s wins", "%(names)s share the win", len(game["winners"]),
                            names=names_text(game["winners"]))
    elif n:
        headline = ngettext("After %(num)s round", "After %(num)s rounds", n)
    else:
        headline = _("No rounds yet")
    detail = " \u00b7 ".join(filter(None, [rounds, target_text(game.get("target"), False)]))
    title = game.get("title") or " \u00b7 ".join(players)
    lines = [{"rank": r["rank"], "name": r["name"], "total": signed(r["total"]),
              "sign": (r["total"] > 0) - (r["total"] < 0),
              "won": game["over"] and r["name"] in game["winners"]} for r in game["ranking"]]
    # The shared message cheers a finished game; the screen's headline stays plain.
    cheer = "!" if game["over"] else ""
    text = "\n".join([f"{title}: {headline}{cheer}", detail]
                     + [f"{x['rank']}. {x['name']} {x['total']}" for x in lines])
    return {"title": title, "headline": headline, "detail": detail, "lines": lines,
            "text": text, "date": (game.get("created_at") or "")[:10]}


@bp.get("/games/<gid:game_id>/result.png")
def result_png(game_id: str) -> Response:
    """The standings as a picture to share (final once the game is over)."""
    from ..result_picture import Line, Words, draw_png

    res = result_of(read_game(game_id))
    png = draw_png(Words(res["title"], res["headline"], res["detail"],
                         f"rummiref \u00b7 {res['date']}"),
                   [Line(**x) for x in res["lines"]])
    resp = Response(png, mimetype="image/png")
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Content-Disposition"] = f'inline; filename="rummiref-{game_id}.png"'
    return resp
