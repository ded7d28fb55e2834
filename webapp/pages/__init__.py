"""The phone pages of the scoresheet: start a game, keep its sheet, share it, look back.

Every write goes through the JSON API (``/api/...``) from the page's JavaScript with the game's
bearer token, which a cross-site form cannot send; this blueprint handles no HTML form posts
and changes nothing itself, so there is nothing here for CSRF to forge. Its one POST route
(``/qr``) only draws a QR code, takes JSON only, and keeps no state.

Reads are rendered server-side by autoescaped Jinja templates, one module per idea:

``sheet``       the start page, a game's sheet and the partial refetched on every live event
``chart``       the cumulative-score chart (inline SVG, no JS library)
``sharing``     the viewer link, QR codes and the address other phones reach this server at
``audit``       a game's change log
``history``     past games and each player's record
``result``      a game's result in words and as a picture to share
``reading``     reading a game through the service layer (what the JSON API returns)
``formatting``  signed numbers, racks and times, as Jinja filters

Scores come from the API, which scores every round with ``referee.settle_round``; nothing here
adds up racks or decides a winner.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint

_HERE = Path(__file__).resolve().parent

bp = Blueprint("pages", __name__, template_folder=str(_HERE.parent / "templates"),
               static_folder=str(_HERE.parent / "static"), static_url_path="/ui-static")

# The routes register themselves on ``bp`` when their modules load.
from . import audit, formatting, history, result, sharing, sheet  # noqa: E402,F401
from .chart import chart_svg, cumulative, legend  # noqa: E402
from .formatting import rack_text, signed  # noqa: E402
from .sharing import qr_svg, share_base  # noqa: E402

__all__ = ["bp", "chart_svg", "cumulative", "legend", "qr_svg", "rack_text", "share_base", "signed"]
