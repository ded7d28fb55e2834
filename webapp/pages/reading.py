"""Reading a game through the service layer: the pages show exactly the dicts the JSON API
returns (``webapp.service``), so a page and the phones' JavaScript can never disagree about a
score."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext as _


def game(game_id: str) -> dict:
    from .. import service
    from ..db import get_db

    try:
        return service.game_state(get_db(), game_id)
    except service.NotFound:
        abort(404, description=_("There is no game with this link. Check the address, or start a new game."))


def audit_entries(game_id: str) -> list[dict]:
    from .. import service
    from ..db import get_db

    return service.audit_json(get_db(), game_id)["entries"]


def games_page(limit: int, offset: int, player: str | None = None) -> dict:
    from .. import service
    from ..db import get_db

    return service.list_games(get_db(), limit=limit, offset=offset, player=player)


def player_records() -> list[dict]:
    from .. import service
    from ..db import get_db

    return service.player_records(get_db())["players"]
