"""A game's change log: every change, oldest first, with the phone that made it."""

from __future__ import annotations

from typing import Iterable

from flask import render_template
from flask_babel import gettext as _

from . import bp
from .formatting import rack_text, signed
from .reading import audit_entries, game as read_game


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
            "at": e.get("at"), "actor": e.get("actor") or _("owner"),
            "action": labels.get(e.get("action"), e.get("action")), "round": e.get("round"),
            "before": scores(before), "after": scores(after),
            "before_winner": before.get("winner"), "after_winner": after.get("winner"),
            "kind": e.get("action"),
        })
    return rows


@bp.get("/games/<gid:game_id>/audit")
def audit(game_id: str) -> str:
    game = read_game(game_id)
    entries = audit_entries(game_id)
    return render_template("audit.html", game=game, rows=_audit_rows(game, entries))
