"""Rate limits (Flask-Limiter): on creating games, so nobody on the network can fill the
history with thousands of games, and on the live table's hints, each of which may take half a
second of CPU, so nobody can keep the server busy with them.

``GAME_CREATION_LIMIT`` (or ``$RUMMIREF_GAME_CREATION_LIMIT``; default ``20 per minute; 200
per day``) applies per client address;
beyond it ``POST /api/games`` answers 429 with ``Retry-After``. ``HINT_LIMIT`` (or
``$RUMMIREF_HINT_LIMIT``; default ``30 per minute; 600 per hour``) does the same for ``POST
/api/games/<id>/live/hint``. ``RATELIMIT_ENABLED=False``
turns it off; counts are kept in memory (``RATELIMIT_STORAGE_URI``, default ``memory://``), so
each server process counts its own. Behind a reverse proxy, ``rummiref serve
--trusted-proxy`` makes the client's address the one the proxy saw.
"""

from __future__ import annotations

import os

from flask import Flask, current_app

DEFAULT_LIMIT = "20 per minute; 200 per day"
DEFAULT_HINT_LIMIT = "30 per minute; 600 per hour"


def init_app(app: Flask) -> None:
    from flask_limiter import Limiter
    from flask_limiter.util import get_remote_address

    app.config.setdefault("GAME_CREATION_LIMIT",
                          os.environ.get("RUMMIREF_GAME_CREATION_LIMIT") or DEFAULT_LIMIT)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    limiter = Limiter(get_remote_address, app=app, headers_enabled=True)
    app.extensions["rummiref_limiter"] = limiter  # the limit below holds it only weakly
    limit = limiter.limit(lambda: current_app.config["GAME_CREATION_LIMIT"], methods=["POST"])
    app.view_functions["api.create_game"] = limit(app.view_functions["api.create_game"])
    if "live_api.post_hint" in app.view_functions:
        app.config.setdefault("HINT_LIMIT",
                              os.environ.get("RUMMIREF_HINT_LIMIT") or DEFAULT_HINT_LIMIT)
        hints = limiter.limit(lambda: current_app.config["HINT_LIMIT"], methods=["POST"])
        app.view_functions["live_api.post_hint"] = hints(app.view_functions["live_api.post_hint"])
