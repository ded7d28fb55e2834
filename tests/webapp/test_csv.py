"""The CSV export: a row per round, a column per player, totals, and no formula injection."""

from __future__ import annotations

import csv
import io


from webapp import service
from tests.webapp.webhelpers import new_game, post_round


def read_csv(client, game_id):
    r = client.get(f"/api/games/{game_id}/export.csv")
    assert r.status_code == 200
    assert r.mimetype == "text/csv"
    assert f'filename="rummiref-{game_id}.csv"' in r.headers["Content-Disposition"]
    text = r.get_data(as_text=True)
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_csv_has_a_row_per_round_a_column_per_player_and_totals(client, game):
    post_round(client, game, {"winner": "Ann", "racks": {"Ben": "R5 K13 J", "Cy": 12}})
    post_round(client, game, {"winner": None, "racks": {"Ann": 10, "Ben": 4, "Cy": 9}})
    rows = read_csv(client, game["id"])
    assert rows == [
        ["Round", "Starter", "Winner", "Ann", "Ben", "Cy"],
        ["1", "Ann", "Ann", "60", "-48", "-12"],
        ["2", "Ben", "nobody out (Ben)", "-6", "11", "-5"],
        ["Total", "", "", "54", "-37", "-17"],
    ]


def test_csv_is_safe_against_formula_injection(client):
    g = new_game(client, players=["=cmd|' /C calc'!A0", "+SUM(A1)", "-2+3", "@x", "Plain"])
    post_round(client, g, {"winner": "=cmd|' /C calc'!A0",
                           "racks": {"+SUM(A1)": 1, "-2+3": 2, "@x": 3, "Plain": 4}})
    rows = read_csv(client, g["id"])
    assert rows[0][3:] == ["'=cmd|' /C calc'!A0", "'+SUM(A1)", "'-2+3", "'@x", "Plain"]
    assert rows[1][1] == "'=cmd|' /C calc'!A0" and rows[1][2] == "'=cmd|' /C calc'!A0"
    # Scores stay numbers (a minus sign on a number is not a formula).
    assert rows[1][3:] == ["10", "-1", "-2", "-3", "-4"]
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@")), cell
            assert not cell.startswith("-") or cell.lstrip("-").isdigit(), cell


def test_csv_cell_escaping_rules():
    assert service.csv_cell("=1+1") == "'=1+1"
    assert service.csv_cell("\tx") == "'\tx"
    assert service.csv_cell("\rx") == "'\rx"
    assert service.csv_cell("Ann") == "Ann"
    assert service.csv_cell(-5) == -5
