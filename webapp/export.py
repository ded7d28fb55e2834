"""A game as CSV: one row per round, a column per player, a totals row; text that a spreadsheet
would run as a formula is defused."""

from __future__ import annotations

import csv
import io
from typing import Any

from sqlalchemy.orm import Session

from .sheet import load_game, totals_of


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading '."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def export_csv(db: Session, game_id: str) -> str:
    game = load_game(db, game_id)
    players = list(game.players)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(["Round", "Starter", "Winner"] + [csv_cell(p.name) for p in players])
    for r in game.rounds:
        res = r.result
        if r.winner is not None:
            winner = r.winner
        else:
            cw = res["winner"]
            cw = ", ".join(cw) if isinstance(cw, list) else cw
            winner = f"nobody out ({cw})"
        w.writerow([r.number, csv_cell(r.starter), csv_cell(winner)]
                   + [int(res["scores"].get(p.name, 0)) for p in players])
    totals = totals_of(players, game.rounds)
    w.writerow(["Total", "", ""] + [totals[p.name] for p in players])
    return buf.getvalue()
