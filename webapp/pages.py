"""The phone pages of the scoresheet: start a game, keep its sheet, share it, look back.

Every write goes through the JSON API (``/api/...``) from the page's JavaScript with the game's
bearer token, which a cross-site form cannot send; this blueprint handles no HTML form posts
and changes nothing itself, so there is nothing here for CSRF to forge. Its one POST route
(``/qr``) only draws a QR code, takes JSON only, and keeps no state.

Reads are rendered here, server-side, by autoescaped Jinja templates: the sheet (``/games/<id>``)
and the partial the page refetches whenever the server-sent event stream says the game changed
(``/games/<id>/sheet``), the cumulative-score chart (inline SVG drawn below, no JS library), the
viewer QR code (``segno``), the audit trail and the history of past games.

Scores come from the API, which scores every round with ``referee.settle_round``; nothing here
adds up racks or decides a winner.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any, Iterable
from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, url_for
from markupsafe import Markup, escape

import referee

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
               static_url_path="/ui-static")

#: Line colours of the chart, in seat order (told apart from each other and from the tile colours
#: by their markers as well: a colour-blind player can follow the shapes).
SERIES = [("#c62828", "circle"), ("#1565c0", "square"), ("#ef6c00", "diamond"),
          ("#212121", "triangle"), ("#2e7d32", "circle"), ("#6a1b9a", "square")]


# --- reading the game through the service layer -----------------------------------------------
# The pages show exactly the dicts the JSON API returns (``webapp.service``), so a page and the
# phones' JavaScript can never disagree about a score.

def _game(game_id: str) -> dict:
    from . import service
    from .db import get_db

    try:
        return service.game_state(get_db(), game_id)
    except service.NotFound:
        abort(404, description="There is no game with this link. Check the address, or start a new game.")


def _audit_entries(game_id: str) -> list[dict]:
    from . import service
    from .db import get_db

    return service.audit_json(get_db(), game_id)["entries"]


def _games_page(limit: int, offset: int, player: str | None = None) -> dict:
    from . import service
    from .db import get_db

    return service.list_games(get_db(), limit=limit, offset=offset, player=player)


def _player_records() -> list[dict]:
    from . import service
    from .db import get_db

    return service.player_records(get_db())["players"]


# --- helpers the templates use -------------------------------------------------------------------

def signed(n: int | None) -> str:
    """``+60``, ``-12``, ``0``; with a real minus sign so the column lines up and reads well."""
    if n is None:
        return ""
    if n > 0:
        return f"+{n}"
    if n < 0:
        return f"\u2212{-n}"
    return "0"


def rack_text(rack: Any) -> str:
    """A rack as entered: its tiles, or its points, or a dash for the winner's empty rack."""
    if rack is None or rack == "":
        return "\u2013"
    return str(rack)


def cumulative(players: list[str], rounds: list[dict]) -> dict[str, list[int]]:
    """Running totals per player: the value after 0, 1, 2, ... rounds (sums of the API's scores)."""
    series = {p: [0] for p in players}
    for rnd in rounds:
        for p in players:
            series[p].append(series[p][-1] + int(rnd["scores"].get(p, 0)))
    return series


def _marker(shape: str, x: float, y: float, colour: str, r: float = 3.2) -> str:
    if shape == "square":
        return (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
                f'fill="{colour}"/>')
    if shape == "diamond":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y:.1f} {x:.1f},{y + r + 1:.1f} {x - r - 1:.1f},{y:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    if shape == "triangle":
        pts = f"{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y + r:.1f} {x - r - 1:.1f},{y + r:.1f}"
        return f'<polygon points="{pts}" fill="{colour}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}"/>'


def _nice_step(span: float) -> int:
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 5:
            return step
    return 10000


def chart_svg(players: list[str], rounds: list[dict], *, width: int = 360, height: int = 210,
              standalone: bool = False) -> Markup:
    """The cumulative score of every player after each round, as an SVG line chart.

    Drawn on the server so the page needs no chart library; every name and number goes through
    ``escape``. ``standalone`` adds the XML namespace for serving it as an ``.svg`` file.
    """
    series = cumulative(players, rounds)
    n = len(rounds)
    values = [v for vs in series.values() for v in vs]
    lo, hi = min(values + [0]), max(values + [0])
    if hi - lo < 20:
        hi, lo = hi + 10, lo - 10
    step = _nice_step(hi - lo)
    lo = (lo // step) * step
    hi = -((-hi) // step) * step
    left, right, top, bottom = 40, 12, 10, 24
    pw, ph = width - left - right, height - top - bottom

    def sx(i: int) -> float:
        return left + (pw * i / n if n else pw / 2)

    def sy(v: float) -> float:
        return top + ph * (hi - v) / (hi - lo)

    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    out = [f'<svg{ns} class="chart" viewBox="0 0 {width} {height}" role="img" '
           f'aria-labelledby="chart-title" preserveAspectRatio="xMidYMid meet">',
           '<title id="chart-title">Cumulative scores after each round</title>',
           f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="#fafafa" stroke="#ddd"/>']
    v = lo
    while v <= hi:
        y = sy(v)
        stroke = '#888" stroke-dasharray="4 3' if v == 0 else "#e4e4e4"
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="{stroke}"/>')
        out.append(f'<text x="{left - 5}" y="{y + 4:.1f}" text-anchor="end" font-size="11" '
                   f'fill="#555">{escape(signed(int(v)))}</text>')
        v += step
    label_every = max(1, -(-n // 10))
    for i in range(0, n + 1, label_every):
        out.append(f'<text x="{sx(i):.1f}" y="{height - 7}" text-anchor="middle" font-size="11" '
                   f'fill="#555">{i}</text>')
    for idx, p in enumerate(players):
        colour, shape = SERIES[idx % len(SERIES)]
        pts = " ".join(f"{sx(i):.1f},{sy(val):.1f}" for i, val in enumerate(series[p]))
        out.append(f'<g class="series" data-player="{escape(p)}">'
                   f'<title>{escape(p)}: {escape(signed(series[p][-1]))}</title>')
        if n:
            out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2.2" '
                       f'stroke-linejoin="round" stroke-linecap="round"/>')
        for i, val in enumerate(series[p]):
            if i or not n:
                out.append(_marker(shape, sx(i), sy(val), colour))
        out.append("</g>")
    out.append("</svg>")
    return Markup("".join(out))


def legend(players: list[str]) -> list[dict]:
    return [{"name": p, "colour": SERIES[i % len(SERIES)][0], "shape": SERIES[i % len(SERIES)][1]}
            for i, p in enumerate(players)]


def qr_svg(text: str) -> Markup:
    import segno  # the web extra; imported here so importing pages stays light

    qr = segno.make(text, error="m")
    return Markup(qr.svg_inline(scale=1, border=2, omitsize=True, dark="#000", light="#fff"))


def _lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent: UDP connect only)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(addr).is_loopback else addr


def share_base() -> tuple[str, str | None]:
    """The origin other phones should use, and a note when it had to be guessed.

    ``PUBLIC_URL`` in the config wins (a club server behind a proxy). A page opened on the
    serving laptop itself as ``localhost`` would share a link no other phone can open, so the
    laptop's LAN address takes its place.
    """
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return str(public).rstrip("/"), None
    root = request.host_url.rstrip("/")
    parts = urlsplit(root)
    host = parts.hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback and not current_app.config.get("TESTING"):
        lan = _lan_address()
        if lan:
            netloc = f"{lan}:{parts.port}" if parts.port else lan
            return (urlunsplit((parts.scheme, netloc, "", "", "")),
                    f"This page was opened as {host}; other phones on the same Wi-Fi use {lan}.")
    return root, None


def _preset_list() -> list[dict]:
    out = []
    for name, rules in referee.PRESETS.items():
        out.append({"name": name, "title": rules.title, "description": rules.describe(),
                    "default": name == referee.DEFAULT_PRESET,
                    "timer": rules.turn_time_limit, "joker": rules.joker_penalty})
    return out


@bp.app_template_filter("signed")
def _signed_filter(n: int | None) -> str:
    return signed(n)


@bp.app_template_filter("rack")
def _rack_filter(rack: Any) -> str:
    return rack_text(rack)


@bp.app_template_filter("when")
def _when_filter(iso: str | None) -> str:
    """``2026-11-21T02:03:04.123Z`` -> ``2026-11-21 02:03`` (UTC; the page may localise it)."""
    if not iso:
        return ""
    return str(iso).replace("T", " ")[:16]


# --- pages -------------------------------------------------------------------------------------

@bp.get("/")
def start() -> str:
    return render_template("start.html", presets=_preset_list())


def _sheet_context(game_id: str) -> dict:
    game = _game(game_id)
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
    }


@bp.get("/games/<gid:game_id>")
def game_page(game_id: str) -> str:
    ctx = _sheet_context(game_id)
    base, note = share_base()
    viewer_url = base + url_for("pages.game_page", game_id=game_id)
    return render_template("game.html", viewer_url=viewer_url, share_base=base, share_note=note,
                           viewer_qr=qr_svg(viewer_url), live_links=_live_links(game_id), **ctx)


def _live_links(game_id: str) -> list[tuple[str, str]]:
    """Links to the camera referee's pages (``webapp.live``), when that part is installed."""
    out = []
    for endpoint, label in (("live.live_page", "Live table"), ("live.log_page", "Turn log")):
        if endpoint in current_app.view_functions:
            out.append((url_for(endpoint, game_id=game_id), label))
    return out


@bp.get("/games/<gid:game_id>/sheet")
def sheet(game_id: str) -> Response:
    """Just the sheet (standings, chart, rounds): what a phone refetches on every event."""
    resp = Response(render_template("_sheet.html", **_sheet_context(game_id)))
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/games/<gid:game_id>/chart.svg")
def chart(game_id: str) -> Response:
    game = _game(game_id)
    players = [p["name"] for p in sorted(game["players"], key=lambda p: p["seat"])]
    svg = chart_svg(players, game["rounds"], standalone=True)
    resp = Response(str(svg), mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/games/<gid:game_id>/qr.svg")
def viewer_qr(game_id: str) -> Response:
    _game(game_id)
    base, _ = share_base()
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


def _audit_rows(game: dict, entries: Iterable[dict]) -> list[dict]:
    players = [p["name"] for p in sorted(game["players"], key=lambda p: p["seat"])]
    labels = {"create-game": "started the game", "add-round": "added round",
              "edit-round": "edited round", "undo-round": "undid round"}
    rows = []
    for e in entries:
        before, after = e.get("before") or {}, e.get("after") or {}

        def scores(d: dict) -> list[tuple[str, str, str]]:
            sc = d.get("scores") or {}
            racks = d.get("racks") or {}
            return [(p, signed(sc[p]), rack_text(racks.get(p))) for p in players if p in sc]

        rows.append({
            "at": e.get("at"), "actor": e.get("actor") or "owner",
            "action": labels.get(e.get("action"), e.get("action")), "round": e.get("round"),
            "before": scores(before), "after": scores(after),
            "before_winner": before.get("winner"), "after_winner": after.get("winner"),
            "kind": e.get("action"),
        })
    return rows


@bp.get("/games/<gid:game_id>/audit")
def audit(game_id: str) -> str:
    game = _game(game_id)
    entries = _audit_entries(game_id)
    return render_template("audit.html", game=game, rows=_audit_rows(game, entries))


MAX_HISTORY_PAGE = 100_000


@bp.get("/history")
def history() -> str:
    try:
        page = max(0, int(request.args.get("page", "0")))
    except ValueError:
        page = 0
    if page > MAX_HISTORY_PAGE:  # an offset no database would take
        abort(404, description=f"The history has no page {page}. Go back to the first page.")
    per_page = 30
    player = (request.args.get("player") or "").strip()[:40] or None
    games = _games_page(per_page, page * per_page, player)
    return render_template("history.html", games=games["games"], total=games["total"],
                           page=page, per_page=per_page, player=player,
                           records=_player_records())

