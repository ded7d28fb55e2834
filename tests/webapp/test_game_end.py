"""The end of a game through the API: a target chosen at the start, the winners once it is
reached, a rematch with the same players, and the owner renaming or deleting a game (a stranger
gets 403 and nothing changes). On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.webapp.webhelpers import new_game, snapshot
from tests.webapp.http_client import http_request, SSEClient


def play(client, game, winner, racks, status=201):
    r = client.post(f"/api/games/{game['id']}/rounds", headers=game["headers"],
                    json={"winner": winner, "racks": racks})
    assert r.status_code == status, r.get_json()
    return r.get_json()


def state(client, game):
    return client.get(f"/api/games/{game['id']}").get_json()


def test_a_points_game_ends_when_a_total_reaches_the_target(client, app):
    g = new_game(client, ("Ann", "Ben", "Cy"), target={"kind": "points", "value": 50})
    assert g["data"]["game"]["target"] == {"kind": "points", "value": 50}
    out = play(client, g, "Ann", {"Ben": 20, "Cy": 10})        # Ann +30
    assert out["over"] is False and out["winners"] == []
    out = play(client, g, "Ben", {"Ann": 1, "Cy": 18})         # Ann 29, Ben -1, Cy -28
    assert out["over"] is False
    out = play(client, g, "Ann", {"Ben": 11, "Cy": 10})        # Ann 50: reached
    assert out["over"] is True and out["winners"] == ["Ann"]
    assert out["totals"] == {"Ann": 50, "Ben": -12, "Cy": -38}
    game = state(client, g)
    assert game["over"] is True and game["winners"] == ["Ann"]

    # Over: no fourth round, and the refusal changes nothing ...
    before = snapshot(app)
    r = client.post(f"/api/games/{g['id']}/rounds", headers=g["headers"],
                    json={"winner": "Cy", "racks": {"Ann": 5, "Ben": 5}})
    assert r.status_code == 409
    assert "the game is over (Ann reached 50 points)" in r.get_json()["error"]
    assert r.get_json()["winners"] == ["Ann"]
    assert snapshot(app) == before
    # ... but a wrong round can still be corrected, which reopens the game.
    r = client.put(f"/api/games/{g['id']}/rounds/3", headers=g["headers"],
                   json={"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}})  # Ann 31
    assert r.status_code == 200 and r.get_json()["over"] is False
    play(client, g, "Cy", {"Ann": 5, "Ben": 5})


def test_a_rounds_game_ends_after_its_rounds_and_a_tie_shares_the_win(client):
    g = new_game(client, ("Ann", "Ben"), target={"kind": "rounds", "value": 2})
    out = play(client, g, "Ann", {"Ben": 7})
    assert out["over"] is False
    out = play(client, g, "Ben", {"Ann": 7})
    assert out["over"] is True and out["winners"] == ["Ann", "Ben"]  # 0 and 0
    undone = client.delete(f"/api/games/{g['id']}/rounds/2", headers=g["headers"]).get_json()
    assert undone["over"] is False and undone["winners"] == []


def test_a_game_without_a_target_never_ends(client):
    g = new_game(client, ("Ann", "Ben"))
    assert g["data"]["game"]["target"] is None
    for _ in range(3):
        assert play(client, g, "Ann", {"Ben": 100})["over"] is False


@pytest.mark.parametrize("target, says", [
    ({"kind": "points", "value": 0}, "1 to 100000 points"),
    ({"kind": "rounds", "value": 1001}, "1 to 1000 rounds"),
    ({"kind": "rounds", "value": True}, "whole number"),
    ({"kind": "rounds", "value": 2.5}, "whole number"),
    ({"kind": "laps", "value": 3}, '"points" or "rounds"'),
    ({"kind": "points"}, '"target" is'),
    ({"kind": "points", "value": 5, "extra": 1}, '"target" is'),
    ("200 points", '"target" is'),
])
def test_a_bad_target_is_refused_and_nothing_is_stored(client, app, target, says):
    before = snapshot(app)
    r = client.post("/api/games", json={"players": ["Ann", "Ben"], "target": target})
    assert r.status_code == 422 and says in r.get_json()["error"]
    assert r.get_json()["field"] == "target"
    assert snapshot(app) == before
    g = new_game(client, ("Ann", "Ben"))
    before = snapshot(app)
    r = client.patch(f"/api/games/{g['id']}", headers=g["headers"], json={"target": target})
    assert r.status_code == 422 and says in r.get_json()["error"]
    assert snapshot(app) == before


def test_the_owner_renames_a_game_and_changes_its_target(client):
    g = new_game(client, ("Ann", "Ben"))
    play(client, g, "Ann", {"Ben": 10})
    r = client.patch(f"/api/games/{g['id']}", headers={**g["headers"], "X-Rummiref-Device": "Ann's phone"},
                     json={"title": "  Friday   at Ann's "})
    assert r.status_code == 200
    assert r.get_json()["title"] == "Friday at Ann's" and r.headers["ETag"] == f'"{r.get_json()["version"]}"'
    # ending it now: played to the rounds there are
    r = client.patch(f"/api/games/{g['id']}", headers=g["headers"],
                     json={"target": {"kind": "rounds", "value": 1}})
    assert r.get_json()["over"] is True and r.get_json()["winners"] == ["Ann"]
    r = client.patch(f"/api/games/{g['id']}", headers=g["headers"], json={"title": None, "target": None})
    game = r.get_json()
    assert game["title"] is None and game["target"] is None and game["over"] is False
    audit = client.get(f"/api/games/{g['id']}/audit").get_json()["entries"]
    edits = [e for e in audit if e["action"] == "edit-game"]
    assert [e["after"] for e in edits] == [
        {"title": "Friday at Ann's", "target": None},
        {"title": "Friday at Ann's", "target": {"kind": "rounds", "value": 1}},
        {"title": None, "target": None}]
    assert edits[0]["actor"] == "Ann's phone" and edits[0]["before"] == {"title": None, "target": None}
    listed = client.get("/api/games").get_json()["games"][0]
    assert listed["id"] == g["id"] and listed["title"] is None


@pytest.mark.parametrize("body, status, says", [
    ({"title": "x" * 61}, 422, "60 characters at most"),
    ({"title": "Fri\u200bday"}, 422, "invisible or control character"),
    ({"title": 5}, 422, '"title" is a short name'),
    ({"colour": "red"}, 422, 'unknown field "colour"'),
    ({}, 422, "send"),
    ({"device": "x"}, 422, "send"),
])
def test_bad_settings_are_refused_and_nothing_changes(client, app, body, status, says):
    g = new_game(client, ("Ann", "Ben"), title="Kept")
    before = snapshot(app)
    r = client.patch(f"/api/games/{g['id']}", headers=g["headers"], json=body)
    assert r.status_code == status and says in r.get_json()["error"]
    assert snapshot(app) == before


def test_a_stranger_can_neither_rename_nor_delete_nor_rematch(client, app):
    g = new_game(client, ("Ann", "Ben"), target={"kind": "rounds", "value": 1})
    play(client, g, "Ann", {"Ben": 3})
    other = new_game(client, ("Dan", "Eve"))  # a real token, of another game
    before = snapshot(app)
    for headers, status in ((other["headers"], 403), ({"Authorization": "Bearer guess"}, 403),
                            ({}, 401)):
        r = client.patch(f"/api/games/{g['id']}", headers=headers, json={"title": "Mine now"})
        assert r.status_code == status, r.get_json()
        r = client.delete(f"/api/games/{g['id']}", headers=headers)
        assert r.status_code == status
        r = client.post(f"/api/games/{g['id']}/rematch", headers=headers)
        assert r.status_code == status
    r = client.delete(f"/api/games/{g['id']}", headers=other["headers"])
    assert "this token does not belong to this game" in r.get_json()["error"]
    assert snapshot(app) == before
    assert state(client, g)["title"] is None


def test_the_owner_deletes_a_game_with_everything_in_it(client, app):
    keep = new_game(client, ("Cy", "Dan"))
    g = new_game(client, ("Ann", "Ben"))
    play(client, g, "Ann", {"Ben": 3})
    play(client, g, "Ben", {"Ann": 4})
    r = client.delete(f"/api/games/{g['id']}", headers=g["headers"])
    assert r.status_code == 200
    assert r.get_json() == {"deleted": g["id"], "players": ["Ann", "Ben"], "rounds": 2}
    for path in ("", "/audit", "/rounds/1", "/export.csv"):
        assert client.get(f"/api/games/{g['id']}{path}").status_code == 404
    assert client.delete(f"/api/games/{g['id']}", headers=g["headers"]).status_code == 404
    rows = snapshot(app)
    assert all(g["id"] not in repr(row) for table in rows.values() for row in table
               if table is not rows["idempotency_keys"])
    assert [x["id"] for x in client.get("/api/games").get_json()["games"]] == [keep["id"]]
    assert [p["name"] for p in client.get("/api/players").get_json()["players"]] == ["Cy", "Dan"]
    assert state(client, keep)["id"] == keep["id"]


def test_a_rematch_has_the_same_players_rules_target_and_token(client):
    g = new_game(client, ("Ann", "Ben", "Cy"), rules="tournament", title="Friday",
                 target={"kind": "rounds", "value": 1})
    r = client.post(f"/api/games/{g['id']}/rematch", headers=g["headers"])
    assert r.status_code == 409 and "the game is not over" in r.get_json()["error"]
    play(client, g, "Ben", {"Ann": 4, "Cy": 6})
    r = client.post(f"/api/games/{g['id']}/rematch", headers=g["headers"])
    assert r.status_code == 201
    new = r.get_json()
    assert r.headers["Location"] == f"/api/games/{new['id']}" and new["id"] != g["id"]
    game = new["game"]
    assert [p["name"] for p in game["players"]] == ["Ann", "Ben", "Cy"]
    assert game["rules"]["name"] == "tournament" and game["title"] == "Friday"
    assert game["target"] == {"kind": "rounds", "value": 1} and game["rounds"] == []
    assert game["rematch_of"] == g["id"] and game["over"] is False
    assert state(client, g)["rematch"] == new["id"]
    # The phone that holds the old game's token edits the rematch too.
    play(client, {"id": new["id"], "headers": g["headers"]}, "Ann", {"Ben": 1, "Cy": 2})
    # Asked again (another phone, a retry): the same rematch, not a second one.
    again = client.post(f"/api/games/{g['id']}/rematch", headers=g["headers"])
    assert again.status_code == 200 and again.get_json()["id"] == new["id"]
    assert client.get("/api/games").get_json()["total"] == 2
    # A game without a target never has one.
    plain = new_game(client, ("Ann", "Ben"))
    play(client, plain, "Ann", {"Ben": 1})
    r = client.post(f"/api/games/{plain['id']}/rematch", headers=plain["headers"])
    assert r.status_code == 409 and "it has no target" in r.get_json()["error"]


def test_a_deleted_original_leaves_its_rematch_standing(client):
    g = new_game(client, ("Ann", "Ben"), target={"kind": "rounds", "value": 1})
    play(client, g, "Ann", {"Ben": 2})
    new = client.post(f"/api/games/{g['id']}/rematch", headers=g["headers"]).get_json()
    assert client.delete(f"/api/games/{g['id']}", headers=g["headers"]).status_code == 200
    game = client.get(f"/api/games/{new['id']}").get_json()
    assert game["rematch_of"] is None and game["players"][0]["name"] == "Ann"


def test_phones_following_a_game_hear_of_its_rematch_and_its_deletion(live):
    status, _, data = http_request(live.url + "/api/games", "POST",
                                   {"players": ["Ann", "Ben"], "target": {"kind": "points", "value": 5}})
    gid, auth = data["id"], {"Authorization": f"Bearer {data['token']}"}
    stream = SSEClient(f"{live.url}/api/games/{gid}/events")
    try:
        stream.wait_for("hello")
        http_request(f"{live.url}/api/games/{gid}/rounds", "POST",
                     {"winner": "Ann", "racks": {"Ben": 9}}, auth)
        assert stream.wait_for("round-added")["data"]["over"] is True
        _, _, rematch = http_request(f"{live.url}/api/games/{gid}/rematch", "POST", None, auth)
        assert stream.wait_for("rematch")["data"]["rematch"] == rematch["id"]
        status, _, _ = http_request(f"{live.url}/api/games/{gid}", "DELETE", None, auth)
        assert status == 200
        assert stream.wait_for("game-deleted")["data"] == {"game": gid}
        assert stream.next_event(5) is None  # and the stream ends
    finally:
        stream.close()
    status, _, _ = http_request(f"{live.url}/api/games/{gid}/events")
    assert status == 404
