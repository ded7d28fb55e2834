"""Rounds through the JSON API: scores from the referee, bad rounds refused, tokens, 404s and 405s."""

from __future__ import annotations

import pytest

import referee
from tests.webapp.webhelpers import new_game, post_round, snapshot


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
