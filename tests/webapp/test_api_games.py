"""Creating games through the JSON API: ids, tokens, presets, and bad games refused with nothing stored."""

from __future__ import annotations

import hashlib

import pytest
from sqlalchemy import select

import referee
from webapp.models import Game
from tests.webapp.webhelpers import new_game, post_round, snapshot


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
