"""A retried request counts once: idempotency keys on rounds and on game creation."""

from __future__ import annotations

from tests.webapp.webhelpers import new_game, post_round, snapshot
from tests.webapp.http_client import unique_key


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
