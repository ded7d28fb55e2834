"""The scoresheet API: games, rounds, edits, undo, audit, errors. Every test runs on SQLite and
on PostgreSQL (see conftest.py)."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import select

import referee
from webapp.models import Game
from tests.webapp.webhelpers import new_game, snapshot, unique_key


def post_round(client, game, body, **headers):
    return client.post(f"/api/games/{game['id']}/rounds", json=body,
                       headers={**game["headers"], **headers})


# --- creating games ---------------------------------------------------------------------------

def test_create_game_returns_id_token_and_state(client, app):
    r = client.post("/api/games", json={"players": [" Ann ", "Ben", "Cy"]})
    assert r.status_code == 201
    data = r.get_json()
    assert r.headers["Location"] == f"/api/games/{data['id']}"
    assert len(data["token"]) >= 30
    g = data["game"]
    assert [p["name"] for p in g["players"]] == ["Ann", "Ben", "Cy"]  # stripped, seat order
    assert [p["seat"] for p in g["players"]] == [0, 1, 2]
    assert g["rules"]["name"] == referee.DEFAULT_PRESET
    assert g["rules"]["description"] == referee.get_rules(None).describe()
    assert g["totals"] == {"Ann": 0, "Ben": 0, "Cy": 0}
    assert g["next_round"] == 1 and g["next_starter"] == "Ann"
    # Reads need no token, and never show it.
    got = client.get(f"/api/games/{data['id']}")
    assert got.status_code == 200 and data["token"] not in got.get_data(as_text=True)
    # Only a hash of the token is stored.
    with app.extensions["rummiref"]["engine"].connect() as conn:
        stored = conn.execute(select(Game.token_hash).where(Game.id == data["id"])).scalar_one()
    assert stored == hashlib.sha256(data["token"].encode()).hexdigest()
    assert data["token"] not in str(snapshot(app))


@pytest.mark.parametrize("preset", sorted(referee.PRESETS))
def test_game_keeps_its_rule_preset(client, preset):
    g = new_game(client, rules=preset)
    data = client.get(f"/api/games/{g['id']}").get_json()
    rules = referee.PRESETS[preset]
    assert data["rules"]["name"] == preset
    assert data["rules"]["title"] == rules.title
    assert data["rules"]["description"] == rules.describe()
    assert data["rules"]["turn_time_limit"] == rules.turn_time_limit
    assert data["timer"]["limit"] == rules.turn_time_limit


def test_presets_endpoint_lists_every_preset(client):
    data = client.get("/api/presets").get_json()
    assert data["default"] == referee.DEFAULT_PRESET
    assert [p["name"] for p in data["presets"]] == list(referee.PRESETS)
    sabra_way = next(p for p in data["presets"] if p["name"] == "sabra-way")
    assert sabra_way["turn_time_limit"] == 120 and sabra_way["timeout_penalty"] == "draw 1"


@pytest.mark.parametrize("body, fragment", [
    ({"players": ["Ann"]}, "2 to 6 players; 1 given"),
    ({"players": ["A", "B", "C", "D", "E", "F", "G"]}, "2 to 6 players; 7 given"),
    ({"players": []}, "2 to 6 players"),
    ({"players": ["Ann", "ann "]}, "two players are called 'Ann' and 'ann'"),
    ({"players": ["Ann", "ANN"]}, "case does not count"),
    ({"players": ["Ann", "   "]}, "player 2 has no name"),
    ({"players": ["Ann", "x" * 41]}, "too long"),
    ({"players": ["Ann", 7]}, "a name is text"),
    ({"players": ["Ann", None]}, "a name is text"),
    ({"players": ["Ann", "Be\nn"]}, "control character"),
    ({"players": "Ann, Ben"}, "must be a list"),
    ({}, "must be a list"),
    ({"players": ["Ann", "Ben"], "rules": "poker"}, "unknown rule preset 'poker'"),
    ({"players": ["Ann", "Ben"], "rules": 3}, "name of a preset"),
    ({"players": ["Ann", "Ben"], "colour": "red"}, 'unknown field "colour"'),
    (["Ann", "Ben"], "send a JSON object"),
])
def test_bad_games_are_rejected_and_nothing_is_stored(client, app, body, fragment):
    before = snapshot(app)
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.get_json()
    assert fragment in r.get_json()["error"]
    assert r.get_json()["status"] == 422
    assert snapshot(app) == before


def test_html_in_a_name_is_stored_as_given(client):
    g = new_game(client, players=["<script>alert(1)</script>", "Ben & <b>Jerry</b>"])
    data = client.get(f"/api/games/{g['id']}").get_json()
    assert [p["name"] for p in data["players"]] == ["<script>alert(1)</script>",
                                                    "Ben & <b>Jerry</b>"]


def test_unicode_names_round_trip(client):
    g = new_game(client, players=["Zoë", "Łukasz", "明"])
    r = post_round(client, g, {"winner": "zoë", "racks": {"łukasz": 5, "明": "b1 b2"}})
    assert r.status_code == 201
    assert r.get_json()["scores"] == {"Zoë": 8, "Łukasz": -5, "明": -3}


# --- rounds -----------------------------------------------------------------------------------

def test_round_scores_come_from_the_referee(client, game):
    body = {"winner": "Ann", "racks": {"Ben": "R5 K13 J", "Cy": 12}}
    r = post_round(client, game, body)
    assert r.status_code == 201
    data = r.get_json()
    assert r.headers["Location"] == f"/api/games/{game['id']}/rounds/1"
    # The joker on Ben's rack costs the preset's 30.
    assert data["scores"] == {"Ann": 60, "Ben": -48, "Cy": -12}
    expected = referee.settle_round({"Ann": 0, "Ben": "R5 K13 J", "Cy": 12}, "Ann", "sabra")
    assert data["scores"] == expected.scores
    rnd = data["round"]
    assert rnd["number"] == 1 and rnd["starter"] == "Ann" and rnd["winner"] == "Ann"
    assert rnd["racks"] == {"Ann": None, "Ben": "R5 K13 J", "Cy": 12}
    assert rnd["rack_values"] == {"Ann": 0, "Ben": 48, "Cy": 12}
    assert rnd["total"] == 0 and rnd["went_out"] is True
    assert rnd["explanation"] == expected.explanation
    assert data["totals"] == {"Ann": 60, "Ben": -48, "Cy": -12}
    assert data["next_starter"] == "Ben"
    assert client.get(f"/api/games/{game['id']}/rounds/1").get_json() == rnd


def test_racks_as_tiles_lists_digits_and_any_case(client, game):
    r = post_round(client, game, {"winner": "ben", "racks": {"ANN": ["r1", "k2"], "cy": "10",
                                                             "Ben": ""}})
    assert r.status_code == 201, r.get_json()
    rnd = r.get_json()["round"]
    assert rnd["racks"] == {"Ann": "R1 K2", "Ben": "", "Cy": 10}
    assert rnd["scores"] == {"Ann": -3, "Ben": 13, "Cy": -10}


def test_round_nobody_won_is_scored_by_the_preset(client):
    g = new_game(client, rules="sabra")
    r = post_round(client, g, {"winner": None, "racks": {"Ann": 10, "Ben": 4, "Cy": "R9"}})
    assert r.status_code == 201
    rnd = r.get_json()["round"]
    # Sabra: the lowest rack wins, losers pay the difference.
    assert rnd["scores"] == {"Ann": -6, "Ben": 11, "Cy": -5}
    assert rnd["winner"] is None and rnd["counted_winner"] == "Ben" and rnd["went_out"] is False
    # Pressman 1998: fewest tiles wins, so racks must be tiles.
    p = new_game(client, rules="pressman-1998")
    bad = post_round(client, p, {"winner": None, "racks": {"Ann": 10, "Ben": 4, "Cy": 9}})
    assert bad.status_code == 422 and "fewest tiles" in bad.get_json()["error"]
    ok = post_round(client, p, {"winner": None, "racks": {"Ann": "R1 R2", "Ben": "K13",
                                                          "Cy": "B1 B2 B3"}})
    assert ok.get_json()["round"]["scores"] == {"Ann": -3, "Ben": 9, "Cy": -6}


def test_starter_rotates_by_seat(client, game):
    starters = []
    for _ in range(4):
        r = post_round(client, game, {"winner": "Cy", "racks": {"Ann": 1, "Ben": 2}})
        starters.append(r.get_json()["round"]["starter"])
    assert starters == ["Ann", "Ben", "Cy", "Ann"]
    assert client.get(f"/api/games/{game['id']}").get_json()["next_starter"] == "Ben"


def test_totals_and_ranking_with_a_tie(client):
    g = new_game(client, players=["Ann", "Ben", "Cy", "Dee"])
    post_round(client, g, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 5, "Dee": 10}})
    post_round(client, g, {"winner": "Ben", "racks": {"Ann": 20, "Cy": 5, "Dee": 0}})
    data = client.get(f"/api/games/{g['id']}").get_json()
    assert data["totals"] == {"Ann": 0, "Ben": 20, "Cy": -10, "Dee": -10}
    assert sum(data["totals"].values()) == 0
    assert data["ranking"] == [{"rank": 1, "name": "Ben", "total": 20},
                               {"rank": 2, "name": "Ann", "total": 0},
                               {"rank": 3, "name": "Cy", "total": -10},
                               {"rank": 3, "name": "Dee", "total": -10}]


@pytest.mark.parametrize("body, status, fragment, extra", [
    ({"winner": "Zed", "racks": {"Ben": 1, "Cy": 2}}, 422, "'Zed' is not a player", {}),
    ({"winner": "Ann", "racks": {"Ben": 1, "Zed": 2}}, 422, "'Zed' is not a player", {}),
    ({"winner": "Ann", "racks": {"Ben": -5, "Cy": 2}}, 422, "cannot be worth -5", {}),
    ({"winner": "Ann", "racks": {"Ben": 100000, "Cy": 2}}, 422, "more than every tile", {}),
    ({"winner": "Ann", "racks": {"Ben": 10**30, "Cy": 2}}, 422, "more than every tile", {}),
    ({"winner": "Ann", "racks": {"Ben": 2.5, "Cy": 2}}, 422, "whole numbers", {}),
    ({"winner": "Ann", "racks": {"Ben": "R5 X9", "Cy": 2}}, 422, "X9", {"token": "X9"}),
    ({"winner": "Ann", "racks": {"Ben": "R14", "Cy": 2}}, 422, "1 to 13", {"token": "R14"}),
    ({"winner": "Ann", "racks": {"Ben": "R5 R5", "Cy": "R5"}}, 422, "third R5", {"token": "R5"}),
    ({"winner": "Ann", "racks": {"Ben": "J J", "Cy": "J"}}, 422, "third joker", {"token": "J"}),
    ({"winner": "Ann", "racks": {"Ann": 7, "Ben": 1, "Cy": 2}}, 422, "rack must be empty", {}),
    ({"winner": "Ann", "racks": {"Ann": "K1", "Ben": 1, "Cy": 2}}, 422, "rack must be empty", {}),
    ({"winner": "Ann", "racks": {"Ben": 1}}, 422, "no rack for Cy", {"player": "Cy"}),
    ({"winner": None, "racks": {"Ben": 1, "Cy": 1}}, 422, "no rack for Ann", {}),
    ({"winner": "Ann", "racks": {"Ben": True, "Cy": 1}}, 422, "Ben's rack", {}),
    ({"winner": "Ann", "racks": {"Ben": {"points": 1}, "Cy": 1}}, 422, "Ben's rack", {}),
    ({"winner": "Ann", "racks": {"Ben": 1, "ben": 2, "Cy": 1}}, 422, "given twice", {}),
    ({"winner": "Ann", "racks": [1, 2]}, 422, '"racks" must map', {}),
    ({"racks": {"Ben": 1, "Cy": 1}}, 422, "say who went out", {}),
    ({"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}, "bonus": 5}, 422, "unknown field", {}),
    ({"winner": 3, "racks": {"Ben": 1, "Cy": 1}}, 422, "not a player", {}),
    ("Ann won", 422, "send a JSON object", {}),
])
def test_bad_rounds_are_rejected_and_change_nothing(client, app, game, body, status, fragment,
                                                    extra):
    post_round(client, game, {"winner": "Ben", "racks": {"Ann": 3, "Cy": 4}})
    before = snapshot(app)
    r = post_round(client, game, body)
    assert r.status_code == status, r.get_json()
    err = r.get_json()
    assert fragment in err["error"] and err["status"] == status
    for k, v in extra.items():
        assert err[k] == v
    assert snapshot(app) == before


def test_malformed_json_is_400_and_changes_nothing(client, app, game):
    before = snapshot(app)
    r = client.post(f"/api/games/{game['id']}/rounds", data='{"winner": "Ann", racks',
                    headers={**game["headers"], "Content-Type": "application/json"})
    assert r.status_code == 400
    assert "not valid JSON" in r.get_json()["error"]
    r = client.post(f"/api/games/{game['id']}/rounds", data='{"winner": NaN}',
                    headers={**game["headers"], "Content-Type": "application/json"})
    assert r.status_code == 400
    r = client.post("/api/games", data=b"\xff\xfe", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "UTF-8" in r.get_json()["error"]
    r = client.post(f"/api/games/{game['id']}/rounds", data='{"winner": "\\ud800", "racks": {}}',
                    headers={**game["headers"], "Content-Type": "application/json"})
    assert r.status_code == 400 and "surrogate" in r.get_json()["error"]
    assert snapshot(app) == before


def test_form_posts_are_refused(client, app, game):
    """A cross-site HTML form cannot send JSON: form-encoded bodies get 415."""
    before = snapshot(app)
    r = client.post("/api/games", data={"players": "Ann"})
    assert r.status_code == 415 and "application/json" in r.get_json()["error"]
    r = client.post(f"/api/games/{game['id']}/rounds", data="winner=Ann",
                    headers={**game["headers"], "Content-Type": "text/plain"})
    assert r.status_code == 415
    assert snapshot(app) == before


def test_a_10_mb_body_gets_413_json(client, app, game):
    before = snapshot(app)
    big = '{"winner": "Ann", "racks": {"Ben": "' + "R1 " * (10 * 1024 * 1024 // 3) + '"}}'
    r = client.post(f"/api/games/{game['id']}/rounds", data=big,
                    headers={**game["headers"], "Content-Type": "application/json"})
    assert r.status_code == 413
    assert r.get_json()["error"] == "the request body is too large: 64 KiB at most"
    r = client.post("/api/games", data=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.is_json
    assert snapshot(app) == before


def test_edits_need_the_games_token(client, app, game):
    other = new_game(client, players=["X", "Y"])
    body = {"winner": "Ann", "racks": {"Ben": 1, "Cy": 2}}
    before = snapshot(app)
    r = client.post(f"/api/games/{game['id']}/rounds", json=body)
    assert r.status_code == 401 and "Authorization: Bearer" in r.get_json()["error"]
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    r = client.post(f"/api/games/{game['id']}/rounds", json=body,
                    headers={"Authorization": "Basic YWxhZGRpbjpvcGVuc2VzYW1l"})
    assert r.status_code == 401
    r = client.post(f"/api/games/{game['id']}/rounds", json=body,
                    headers={"Authorization": "Bearer not-the-token"})
    assert r.status_code == 403
    r = client.post(f"/api/games/{game['id']}/rounds", json=body, headers=other["headers"])
    assert r.status_code == 403
    for method in ("put", "delete"):
        r = getattr(client, method)(f"/api/games/{game['id']}/rounds/1", json=body)
        assert r.status_code == 401
    r = client.post(f"/api/games/{game['id']}/timer", json={"action": "start"},
                    headers=other["headers"])
    assert r.status_code == 403
    assert snapshot(app) == before


def test_unknown_game_or_round_is_404(client, game):
    for path in ("/api/games/nosuchgame", "/api/games/nosuchgame/audit",
                 "/api/games/nosuchgame/export.csv", "/api/games/nosuchgame/timer",
                 f"/api/games/{game['id']}/rounds/1", f"/api/games/{game['id']}/rounds/0",
                 "/api/games/bad%20id!", "/api/nothing-here"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.is_json and r.get_json()["error"]
    r = client.post("/api/games/nosuchgame/rounds", json={"winner": None, "racks": {}},
                    headers=game["headers"])
    assert r.status_code == 404 and "no game 'nosuchgame'" in r.get_json()["error"]
    r = client.put(f"/api/games/{game['id']}/rounds/3", headers=game["headers"],
                   json={"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}})
    assert r.status_code == 404 and "no round 3" in r.get_json()["error"]


def test_wrong_method_is_405_json(client, game):
    r = client.put(f"/api/games/{game['id']}")
    assert r.status_code == 405 and r.is_json
    assert {"GET", "PATCH", "DELETE"} <= set(r.headers["Allow"].replace(" ", "").split(","))


# --- idempotency --------------------------------------------------------------------------------

def test_a_retried_round_counts_once(client, app, game):
    key = unique_key()
    body = {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}}
    first = post_round(client, game, body, **{"Idempotency-Key": key})
    assert first.status_code == 201
    again = post_round(client, game, body, **{"Idempotency-Key": key})
    assert again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Location"] == first.headers["Location"]
    data = client.get(f"/api/games/{game['id']}").get_json()
    assert len(data["rounds"]) == 1 and data["totals"]["Ann"] == 12
    # Same key, different round: refused, nothing stored.
    before = snapshot(app)
    clash = post_round(client, game, {"winner": "Ben", "racks": {"Ann": 5, "Cy": 7}},
                       **{"Idempotency-Key": key})
    assert clash.status_code == 422 and "already used" in clash.get_json()["error"]
    assert snapshot(app) == before
    # A new key is a new round.
    third = post_round(client, game, body, **{"Idempotency-Key": unique_key()})
    assert third.get_json()["round"]["number"] == 2


def test_idempotency_keys_are_per_game_and_validated(client, game):
    other = new_game(client, players=["X", "Y"])
    key = unique_key()
    a = post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}},
                   **{"Idempotency-Key": key})
    b = post_round(client, other, {"winner": "X", "racks": {"Y": 5}}, **{"Idempotency-Key": key})
    assert a.status_code == b.status_code == 201
    assert b.get_json()["scores"] == {"X": 5, "Y": -5}
    bad = post_round(client, game, {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}},
                     **{"Idempotency-Key": "x" * 201})
    assert bad.status_code == 422 and "Idempotency-Key" in bad.get_json()["error"]


def test_creating_a_game_with_an_idempotency_key(client):
    key = unique_key()
    a = client.post("/api/games", json={"players": ["Ann", "Ben"]}, headers={"Idempotency-Key": key})
    b = client.post("/api/games", json={"players": ["Ann", "Ben"]}, headers={"Idempotency-Key": key})
    assert a.status_code == b.status_code == 201
    assert a.get_json()["id"] == b.get_json()["id"]
    assert client.get("/api/games").get_json()["total"] == 1


# --- edit, undo, audit ---------------------------------------------------------------------------

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
