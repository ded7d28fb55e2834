"""Sharing a game: the viewer link and its QR code (``segno``), on an address the other phones
can really open (``webapp.reach``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Response, current_app, jsonify, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from .. import reach
from . import bp
from .reading import game


def qr_svg(text: str) -> Markup:
    import segno  # the web extra; imported here so importing pages stays light

    qr = segno.make(text, error="m")
    return Markup(qr.svg_inline(scale=1, border=2, omitsize=True, dark="#000", light="#fff"))


def share_base() -> tuple[str, str | None, bool]:
    """The origin for shared links, a note for the person sharing (or None), and whether the
    other phones at the table can open those links (only then is a QR code offered).

    Derived from where the server really listens (``webapp.reach``), never guessed: a page
    opened on the serving computer as ``127.0.0.1`` shares this computer's network address
    when the server listens on it, and otherwise says why the phones cannot get in and how
    to let them. ``PUBLIC_URL`` in the config wins (a club server behind a proxy).
    """
    app = current_app
    public = app.config.get("PUBLIC_URL")
    if public:
        return str(public).rstrip("/"), None, True
    root = request.host_url.rstrip("/")
    host = urlsplit(root).hostname or ""
    if not reach.is_loopback(host):
        return root, None, True  # this phone got here by this address; so will the others
    if reach.listens_locally(app):
        return root, _(
            "Only this computer can open this link: the server listens on %(host)s, this "
            "computer only. To let the phones at the table in, stop it (Ctrl+C) and start it "
            "again without --host, or with --host 0.0.0.0.", host=app.config["LISTEN_HOST"]), False
    phones = reach.phone_origin(app)
    if phones:
        return phones, _("This page was opened as %(host)s; the other phones on the same Wi-Fi "
                         "use %(lan)s.", host=host, lan=urlsplit(phones).netloc), True
    if reach.listens_everywhere(app):
        return root, _("This computer is on no network, so no phone can reach it. Connect it to "
                       "the table's Wi-Fi, then reload this page."), False
    return root, _("This page was opened as %(host)s, which only this computer can open. Open "
                   "it by this computer's network address to share it.", host=host), False


@bp.get("/games/<gid:game_id>/qr.svg")
def viewer_qr(game_id: str) -> Response:
    game(game_id)
    base = share_base()[0]
    svg = qr_svg(base + url_for("pages.game_page", game_id=game_id))
    return Response(str(svg).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1),
                    mimetype="image/svg+xml")


@bp.post("/qr")
def qr_any() -> Response:
    """A QR code for a link the phone already holds (the owner link with its token in the
    fragment), sent in a JSON body so the token never appears in a URL or a server log.
    Same-origin pages only: JSON is required, so a cross-site form cannot call it (and it
    changes nothing anyway)."""
    if not request.is_json:
        return _json_error("send the text as JSON: {\"text\": \"...\"}", 415)
    data = request.get_json(silent=True)
    text = data.get("text") if isinstance(data, dict) else None
    if not isinstance(text, str) or not text.strip():
        return _json_error("give the link to encode as \"text\"", 400)
    if len(text) > 600:
        return _json_error("that is too long for a QR code a phone can read; keep it under 600 characters", 413)
    svg = str(qr_svg(text)).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    resp = Response(svg, mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _json_error(message: str, status: int) -> Response:
    resp = jsonify({"error": message, "status": status})
    resp.status_code = status
    return resp
