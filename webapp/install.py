"""The scoresheet as an app on a phone: the web app manifest, its icons, ``/favicon.ico`` and the
service worker (``/sw.js``) that keeps the pages usable when the table's Wi-Fi drops.

The icons are drawn here with Pillow (the ``web`` extra): a cream tile with a red 7 on the
scoresheet's green, the same picture as ``static/icon.svg``. The service worker's script is
``static/sw.js``; it is served from the root (its scope is the whole site) with the list of
files to keep and a version made from their contents, so a phone drops its old copies as soon
as any of them changes. Browsers run service workers only in a secure context: on HTTPS, or on
``localhost`` / ``127.0.0.1``; a phone on the plain-HTTP table Wi-Fi gets the pages as before.
"""

from __future__ import annotations

import hashlib
import io
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Flask, Response, url_for
from flask_babel import gettext as _

from .i18n import language

STATIC = Path(__file__).resolve().parent / "static"
GREEN, CREAM, RED, EDGE = "#1b5e20", "#fffdf5", "#c62828", "#5b5b5b"
#: Sizes of the PNG icons (Android wants 192 and 512, iOS 180) and of the favicon's images.
ICON_SIZES = (180, 192, 512)
FAVICON_SIZES = (16, 32, 48)
#: The files every page needs, kept by the service worker when it installs.
SHELL_FILES = ("app.css", "common.js", "game.js", "game-entry.js", "game-saving.js",
               "game-timer.js", "game-share.js", "game-settings.js", "alarm.js", "outbox.js",
               "start.js", "icon.svg")

bp = Blueprint("install", __name__)


def draw_icon(size: int, maskable: bool = False) -> bytes:
    """A ``size`` px square PNG: the tile on green. ``maskable``: the tile within the middle 60%,
    so a launcher's circle or squircle never cuts it."""
    from PIL import Image, ImageDraw

    from .result_picture import font

    scale = 4  # drawn large and reduced: smooth edges at every size
    s = size * scale
    img = Image.new("RGB", (s, s), GREEN)
    d = ImageDraw.Draw(img)
    tile_h = s * (0.6 if maskable else 0.8)
    tile_w = tile_h * 0.75
    x0, y0 = (s - tile_w) / 2, (s - tile_h) / 2
    d.rounded_rectangle((x0, y0, x0 + tile_w, y0 + tile_h), radius=tile_w * 0.14, fill=CREAM,
                        outline=EDGE, width=max(1, round(tile_w * 0.04)))
    d.text((s / 2, s / 2 + tile_h * 0.04), "7", font=font(round(tile_h * 0.62), True), fill=RED,
           anchor="mm")
    out = io.BytesIO()
    img.resize((size, size), Image.LANCZOS).save(out, "PNG", optimize=True)
    return out.getvalue()


@lru_cache(maxsize=None)
def icon_png(size: int, maskable: bool = False) -> bytes:
    return draw_icon(size, maskable)


@lru_cache(maxsize=1)
def favicon_ico() -> bytes:
    from PIL import Image

    big = Image.open(io.BytesIO(icon_png(192)))
    out = io.BytesIO()
    big.save(out, "ICO", sizes=[(n, n) for n in FAVICON_SIZES])
    return out.getvalue()


@lru_cache(maxsize=1)
def shell_version() -> str:
    """A hash of the service worker and the shell's files: it changes when any of them does."""
    h = hashlib.sha256()
    for name in ("sw.js",) + SHELL_FILES:
        h.update(name.encode() + b"\0" + (STATIC / name).read_bytes())
    return h.hexdigest()[:16]


def _cached(resp: Response, seconds: int) -> Response:
    resp.headers["Cache-Control"] = f"public, max-age={seconds}"
    return resp


@bp.get("/icons/icon-<int(min=16, max=512):size>.png")
def icon(size: int) -> Response:
    if size not in ICON_SIZES:
        return Response(status=404)
    return _cached(Response(icon_png(size), mimetype="image/png"), 7 * 24 * 3600)


@bp.get("/icons/maskable-512.png")
def maskable_icon() -> Response:
    return _cached(Response(icon_png(512, maskable=True), mimetype="image/png"), 7 * 24 * 3600)


@bp.get("/apple-touch-icon.png")
def apple_touch_icon() -> Response:
    return _cached(Response(icon_png(180), mimetype="image/png"), 7 * 24 * 3600)


@bp.get("/favicon.ico")
def favicon() -> Response:
    return _cached(Response(favicon_ico(), mimetype="image/vnd.microsoft.icon"), 7 * 24 * 3600)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    body = {
        "name": "rummiref",
        "short_name": "rummiref",
        "description": _("The scoresheet and referee for the tile game at your table"),
        "lang": language(),
        "dir": "rtl" if language() == "he" else "ltr",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#eef2ee",
        "theme_color": GREEN,
        "icons": [
            {"src": url_for("install.icon", size=192), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("install.icon", size=512), "sizes": "512x512", "type": "image/png"},
            {"src": url_for("install.maskable_icon"), "sizes": "512x512", "type": "image/png",
             "purpose": "maskable"},
            {"src": url_for("pages.static", filename="icon.svg"), "sizes": "any",
             "type": "image/svg+xml"},
        ],
    }
    resp = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, told its version and the shell's files (see ``static/sw.js``)."""
    shell = ["/"] + [url_for("pages.static", filename=f) for f in SHELL_FILES] + [
        url_for("install.icon", size=192), url_for("install.manifest")]
    head = f"const VERSION = {json.dumps(shell_version())};\nconst SHELL = {json.dumps(shell)};\n"
    resp = Response(head + (STATIC / "sw.js").read_text(encoding="utf-8"),
                    mimetype="text/javascript")
    # The browser checks for a new service worker on every visit; never from a stale copy.
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
