"""CSV export, the history of games, each player's record, and the turn timer."""

from __future__ import annotations

import csv
import io

import pytest

from webapp import service, stamps
from tests.webapp.webhelpers import new_game, snapshot


def post_round(client, game, body):
    r = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=game["headers"])
    assert r.status_code == 201, r.get_json()
    return r.get_json()


# --- CSV ----------------------------------------------------------------------------------------

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


# --- history and records ------------------------------------------------------------------------

def test_history_lists_games_newest_first_with_totals(client):
    g1 = new_game(client, players=["Ann", "Ben"])
    post_round(client, g1, {"winner": "Ann", "racks": {"Ben": 7}})
    g2 = new_game(client, players=["Cy", "ann", "Dee"], rules="sabra-way")
    data = client.get("/api/games").get_json()
    assert data["total"] == 2
    assert [g["id"] for g in data["games"]] == [g2["id"], g1["id"]]
    first = data["games"][1]
    assert first["players"] == ["Ann", "Ben"] and first["rounds"] == 1
    assert first["totals"] == {"Ann": 7, "Ben": -7} and first["leaders"] == ["Ann"]
    assert data["games"][0]["rules"] == "sabra-way" and data["games"][0]["leaders"] == []
    page = client.get("/api/games?limit=1&offset=1").get_json()
    assert [g["id"] for g in page["games"]] == [g1["id"]] and page["total"] == 2
    only_ben = client.get("/api/games?player=BEN").get_json()
    assert [g["id"] for g in only_ben["games"]] == [g1["id"]] and only_ben["total"] == 1
    for bad in ("limit=0", "limit=201", "offset=-1", "limit=ten"):
        r = client.get(f"/api/games?{bad}")
        assert r.status_code == 400 and "?" in r.get_json()["error"]


def test_player_records_across_games(client):
    g1 = new_game(client, players=["Ann", "Ben"])
    post_round(client, g1, {"winner": "Ann", "racks": {"Ben": 7}})
    post_round(client, g1, {"winner": "Ben", "racks": {"Ann": 2}})
    g2 = new_game(client, players=["ANN", "Cy"])
    post_round(client, g2, {"winner": "Cy", "racks": {"ANN": 30}})
    new_game(client, players=["Ann", "Zed"])  # not played yet
    records = {r["name"].casefold(): r for r in client.get("/api/players").get_json()["players"]}
    ann = records["ann"]
    assert ann["name"] in ("Ann", "ANN")
    assert (ann["games"], ann["won"], ann["total_score"], ann["rounds"], ann["rounds_won"]) == \
        (2, 1, 5 - 30, 3, 1)
    assert (records["ben"]["games"], records["ben"]["won"], records["ben"]["total_score"]) == \
        (1, 0, -5)
    assert (records["cy"]["games"], records["cy"]["won"], records["cy"]["total_score"]) == (1, 1, 30)
    assert records["zed"]["games"] == 0 and records["zed"]["last_played"] is None
    assert ann["last_played"].endswith("Z")


# --- the turn timer -----------------------------------------------------------------------------

@pytest.fixture
def clock(monkeypatch):
    """A hand-moved clock for the timer (milliseconds)."""
    now = {"ms": 1_800_000_000_000}
    monkeypatch.setattr(stamps, "now_ms", lambda: now["ms"])
    return now


def timer(client, game, action, **extra):
    r = client.post(f"/api/games/{game['id']}/timer", json={"action": action, **extra},
                    headers=game["headers"])
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_timer_runs_pauses_and_moves_to_the_next_player(client, game, clock):
    t = client.get(f"/api/games/{game['id']}/timer").get_json()
    assert (t["state"], t["player"], t["limit"], t["remaining"]) == ("idle", "Ann", 60, 60.0)
    assert t["penalty"] == "restore the table and draw 3" and t["warning"] == 10
    t = timer(client, game, "start")
    assert (t["state"], t["player"], t["turn"]) == ("running", "Ann", 1)
    clock["ms"] += 20_000
    t = client.get(f"/api/games/{game['id']}").get_json()["timer"]
    assert (t["elapsed"], t["remaining"], t["expired"]) == (20.0, 40.0, False)
    t = timer(client, game, "pause")
    clock["ms"] += 60_000  # paused time does not count
    t = client.get(f"/api/games/{game['id']}/timer").get_json()
    assert (t["state"], t["elapsed"], t["started_at"]) == ("paused", 20.0, None)
    t = timer(client, game, "start")  # resume
    clock["ms"] += 45_000
    t = client.get(f"/api/games/{game['id']}/timer").get_json()
    assert (t["elapsed"], t["remaining"], t["expired"]) == (65.0, -5.0, True)
    t = timer(client, game, "next")
    assert (t["state"], t["player"], t["elapsed"], t["turn"]) == ("running", "Ben", 0.0, 2)
    t = timer(client, game, "next", player="cy")
    assert t["player"] == "Cy"
    t = timer(client, game, "next")
    assert t["player"] == "Ann"  # wraps around the table
    t = timer(client, game, "reset")
    assert (t["state"], t["player"], t["turn"], t["elapsed"]) == ("idle", "Ann", 0, 0.0)


def test_a_new_round_resets_the_timer_to_the_next_starter(client, game, clock):
    timer(client, game, "start")
    clock["ms"] += 5_000
    data = post_round(client, game, {"winner": "Ann", "racks": {"Ben": 1, "Cy": 2}})
    assert (data["timer"]["state"], data["timer"]["player"]) == ("idle", "Ben")
    assert client.get(f"/api/games/{game['id']}/timer").get_json()["player"] == "Ben"


def test_timer_follows_the_preset(client, clock):
    way = new_game(client, rules="sabra-way")
    t = timer(client, way, "start")
    assert (t["limit"], t["penalty"]) == (120, "draw 1")
    us = new_game(client, rules="pressman-1998")
    t = timer(client, us, "start")
    assert (t["limit"], t["remaining"], t["expired"], t["penalty"]) == (None, None, False, None)
    clock["ms"] += 500_000
    assert client.get(f"/api/games/{us['id']}/timer").get_json()["elapsed"] == 500.0


@pytest.mark.parametrize("body, fragment", [
    ({"action": "stop"}, "one of start, next, pause, reset"),
    ({}, "one of start"),
    ({"action": "pause", "player": "Ann"}, "goes with start or next"),
    ({"action": "next", "player": "Zed"}, "not a player"),
    ({"action": "start", "extra": 1}, "unknown field"),
])
def test_bad_timer_actions_change_nothing(client, app, game, body, fragment):
    before = snapshot(app)
    r = client.post(f"/api/games/{game['id']}/timer", json=body, headers=game["headers"])
    assert r.status_code == 422 and fragment in r.get_json()["error"]
    assert snapshot(app) == before


# --- the keypad's rack preview ------------------------------------------------------------------

def test_rack_value_preview_saves_nothing(client, app):
    before = snapshot(app)
    r = client.post("/api/rack-value", json={"tiles": "r5 k13, j", "rules": "sabra"})
    assert r.status_code == 200
    assert r.get_json() == {"tiles": "R5 K13 J", "value": 48, "count": 3, "rules": "sabra"}
    r = client.post("/api/rack-value", json={"tiles": ["B1", "B2"]})
    assert r.get_json()["value"] == 3 and r.get_json()["rules"] == "sabra"
    r = client.post("/api/rack-value", json={"tiles": "R5 X9"})
    assert r.status_code == 422 and r.get_json()["token"] == "X9"
    r = client.post("/api/rack-value", json={"tiles": "R5 R5 R5"})
    assert r.status_code == 422 and "third R5" in r.get_json()["error"]
    r = client.post("/api/rack-value", json={"tiles": "R5", "rules": "nope"})
    assert r.status_code == 422 and r.get_json()["field"] == "rules"
    assert snapshot(app) == before
