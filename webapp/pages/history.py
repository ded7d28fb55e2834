"""Past games, newest first, and every player's record."""

from __future__ import annotations

from flask import abort, render_template, request
from flask_babel import gettext as _

from . import bp
from .reading import games_page, player_records


MAX_HISTORY_PAGE = 100_000


@bp.get("/history")
def history() -> str:
    try:
        page = max(0, int(request.args.get("page", "0")))
    except ValueError:
        page = 0
    if page > MAX_HISTORY_PAGE:  # an offset no database would take
        abort(404, description=_("The history has no page %(page)s. Go back to the first page.", page=page))
    per_page = 30
    player = (request.args.get("player") or "").strip()[:40] or None
    games = games_page(per_page, page * per_page, player)
    return render_template("history.html", games=games["games"], total=games["total"],
                           page=page, per_page=per_page, player=player,
                           records=player_records(), deleted=bool(request.args.get("deleted")))
