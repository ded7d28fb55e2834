"""The edit token is never stored at rest, and idempotency answers expire."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from webapp import idempotency
from webapp.models import IdempotencyKey
from tests.webapp.webhelpers import new_game, post_round, snapshot
from tests.webapp.http_client import unique_key


def _stored(app) -> str:
    return json.dumps(snapshot(app), default=str, ensure_ascii=False)


def test_a_keyed_create_stores_no_token_and_a_retry_gets_it_again(client, app):
    key = unique_key()
    body = {"players": ["Ann", "Ben"]}
    first = client.post("/api/games", json=body, headers={"Idempotency-Key": key})
    assert first.status_code == 201
    token = first.get_json()["token"]
    assert len(token) >= 30
    stored = _stored(app)
    assert token not in stored and token[:12] not in stored
    with app.extensions["rummiref"]["engine"].connect() as conn:
        row = conn.execute(select(IdempotencyKey.body)).scalar_one()
    assert "token" not in row and row["id"] == first.get_json()["id"]
    again = client.post("/api/games", json=body, headers={"Idempotency-Key": key})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()  # the same token, made again
    assert list(again.get_json()) == ["id", "token", "url", "game"]
    assert _stored(app) == stored
    game = {"id": first.get_json()["id"], "headers": {"Authorization": f"Bearer {token}"}}
    assert post_round(client, game, {"winner": "Ann", "racks": {"Ben": 3}}).status_code == 201
    assert client.get("/api/games").get_json()["total"] == 1


def test_a_retried_create_after_the_secret_key_changed_is_told_to_start_again(make_app):
    app = make_app()
    key = unique_key()
    assert app.test_client().post("/api/games", json={"players": ["Ann", "Ben"]},
                                  headers={"Idempotency-Key": key}).status_code == 201
    other = make_app(SECRET_KEY="another key")
    before = snapshot(other)
    r = other.test_client().post("/api/games", json={"players": ["Ann", "Ben"]},
                                 headers={"Idempotency-Key": key})
    assert r.status_code == 409 and "start a new game" in r.get_json()["error"]
    assert "token" not in r.get_json()
    assert snapshot(other) == before


def test_idempotency_answers_expire_and_are_deleted(make_app, monkeypatch):
    app = make_app(IDEMPOTENCY_TTL_SECONDS=3600)
    client = app.test_client()
    g = new_game(client)
    key, old_key = unique_key(), unique_key()
    body = {"winner": "Ann", "racks": {"Ben": 5, "Cy": 7}}
    assert post_round(client, g, body, **{"Idempotency-Key": old_key}).status_code == 201
    assert post_round(client, g, body, **{"Idempotency-Key": key}).status_code == 201
    later = idempotency.utcnow() + timedelta(hours=2)
    monkeypatch.setattr(idempotency, "utcnow", lambda: later)
    monkeypatch.setattr(idempotency, "_purged_at", 0.0)
    # The same key two hours on is a new request: a new round, and the expired answers go.
    again = post_round(client, g, body, **{"Idempotency-Key": key})
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert again.get_json()["round"]["number"] == 3
    with app.extensions["rummiref"]["engine"].connect() as conn:
        keys = conn.execute(select(IdempotencyKey.key)).scalars().all()
    assert keys == [key]  # old_key was purged, key stored anew
