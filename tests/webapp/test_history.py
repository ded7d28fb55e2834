"""Past games and each player's record across games."""

from __future__ import annotations

from tests.webapp.webhelpers import new_game, post_round


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
