"""The turn timer: runs, pauses, moves to the next player and follows the preset."""

from __future__ import annotations

import pytest

from webapp import stamps
from tests.webapp.webhelpers import new_game, post_round, snapshot


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
