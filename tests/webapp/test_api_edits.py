"""Editing and undoing rounds: rescored, audited, only the last undone, never cached."""

from __future__ import annotations

from tests.webapp.webhelpers import new_game, post_round, snapshot


def test_edit_rescores_and_is_audited(client, game):
    post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}})
    post_round(client, game, {"winner": "Ben", "racks": {"Ann": 1, "Cy": 1}})
    r = client.put(f"/api/games/{game['id']}/rounds/1",
                   json={"winner": "Cy", "racks": {"Ann": "J", "Ben": 5}},
                   headers={**game["headers"], "X-Rummiref-Device": "Ben's phone"})
    assert r.status_code == 200, r.get_json()
    data = r.get_json()
    assert data["round"]["scores"] == {"Ann": -30, "Ben": -5, "Cy": 35}
    assert data["round"]["edited"] is True and data["round"]["starter"] == "Ann"
    assert data["totals"] == {"Ann": -31, "Ben": -3, "Cy": 34}
    audit = client.get(f"/api/games/{game['id']}/audit").get_json()["entries"]
    assert [e["action"] for e in audit] == ["create-game", "add-round", "add-round", "edit-round"]
    edit = audit[-1]
    assert edit["actor"] == "Ben's phone" and edit["round"] == 1
    assert edit["before"]["scores"] == {"Ann": 12, "Ben": -5, "Cy": -7}
    assert edit["after"]["scores"] == {"Ann": -30, "Ben": -5, "Cy": 35}
    assert edit["at"].endswith("Z")
    # The same edit again changes nothing and adds no audit entry.
    again = client.put(f"/api/games/{game['id']}/rounds/1",
                       json={"winner": "Cy", "racks": {"Ann": "J", "Ben": 5}},
                       headers=game["headers"])
    assert again.status_code == 200
    assert len(client.get(f"/api/games/{game['id']}/audit").get_json()["entries"]) == 4


def test_bad_edit_changes_nothing(client, app, game):
    post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}})
    before = snapshot(app)
    r = client.put(f"/api/games/{game['id']}/rounds/1",
                   json={"winner": "Ann", "racks": {"Ben": "Q5", "Cy": 7}},
                   headers=game["headers"])
    assert r.status_code == 422 and r.get_json()["token"] == "Q5"
    assert snapshot(app) == before


def test_undo_only_the_last_round(client, app, game):
    for w in ("Ann", "Ben", "Cy"):
        others = {p: 2 for p in ("Ann", "Ben", "Cy") if p != w}
        post_round(client, game, {"winner": w, "racks": others})
    before = snapshot(app)
    r = client.delete(f"/api/games/{game['id']}/rounds/2", headers=game["headers"])
    assert r.status_code == 409
    assert r.get_json()["error"] == ("only the last round (3) can be undone; to change round 2, "
                                     "edit it instead")
    assert snapshot(app) == before
    r = client.delete(f"/api/games/{game['id']}/rounds/3",
                      headers={**game["headers"], "X-Rummiref-Device": "Cy"})
    assert r.status_code == 200
    data = r.get_json()
    assert data["deleted"]["number"] == 3 and data["deleted"]["winner"] == "Cy"
    assert data["totals"] == {"Ann": 2, "Ben": 2, "Cy": -4}
    assert data["next_starter"] == "Cy"
    r = client.delete(f"/api/games/{game['id']}/rounds/3", headers=game["headers"])
    assert r.status_code == 404
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert [rd["number"] for rd in state["rounds"]] == [1, 2]
    assert state["next_round"] == 3
    audit = client.get(f"/api/games/{game['id']}/audit").get_json()["entries"]
    assert audit[-1]["action"] == "undo-round" and audit[-1]["actor"] == "Cy"
    assert audit[-1]["before"]["number"] == 3 and audit[-1]["after"] is None
    # The next round takes the freed number.
    r = post_round(client, game, {"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}})
    assert r.get_json()["round"]["number"] == 3


def test_actor_defaults_and_is_cleaned(client):
    g = new_game(client, device="Ann's\x00 phone" + "!" * 100)
    audit = client.get(f"/api/games/{g['id']}/audit").get_json()["entries"]
    assert audit[0]["actor"] == "Ann's phone" + "!" * 49  # control characters gone, 60 max
    assert audit[0]["after"] == {"players": ["Ann", "Ben", "Cy"], "rules": "sabra"}
    post_round(client, g, {"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}})
    audit = client.get(f"/api/games/{g['id']}/audit").get_json()["entries"]
    assert audit[-1]["actor"] == "owner"


def test_api_answers_are_not_cached(client, game):
    for r in (client.get(f"/api/games/{game['id']}"),
              client.post("/api/games", json={"players": ["A", "B"]})):
        assert r.headers["Cache-Control"] == "no-store"
        assert r.headers["X-Content-Type-Options"] == "nosniff"
