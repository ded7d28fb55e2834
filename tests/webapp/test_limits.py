"""Oversized bodies get a 413 that names the limit; game creation is rate limited."""

from __future__ import annotations

from flask import Blueprint, request

from tests.webapp.webhelpers import new_game, post_round, snapshot


def test_413_names_the_limit_that_applied(make_app):
    app = make_app()
    bp = Blueprint("upload", __name__)

    @bp.post("/api/upload-probe")
    def upload():
        request.max_content_length = 1024 * 1024  # as a photo upload raises it
        return {"size": len(request.get_data())}

    app.register_blueprint(bp)
    client = app.test_client()
    r = client.post("/api/upload-probe", data=b"x" * (2 * 1024 * 1024),
                    content_type="application/octet-stream")
    assert r.status_code == 413 and r.get_json()["error"] == ("the request body is too large: "
                                                              "1 MiB at most")
    assert client.post("/api/upload-probe", data=b"x" * 1000,
                       content_type="application/octet-stream").get_json() == {"size": 1000}
    r = client.post("/api/games", data=b"{" * (100 * 1024), content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"].endswith(": 64 KiB at most")


def test_game_creation_is_rate_limited(make_app):
    app = make_app(RATELIMIT_ENABLED=True, GAME_CREATION_LIMIT="3 per minute")
    client = app.test_client()
    games = [new_game(client, players=["Ann", "Ben"]) for _ in range(3)]
    before = snapshot(app)
    r = client.post("/api/games", json={"players": ["Ann", "Ben"]})
    assert r.status_code == 429, r.get_json()
    assert r.get_json()["error"] == ("too many requests of this kind from this address (3 per 1 "
                                     "minute); try again in a moment")
    assert 0 < int(r.headers["Retry-After"]) <= 60
    assert snapshot(app) == before
    # Everything else still works, for this address too; other addresses can still create.
    assert post_round(client, games[0], {"winner": "Ann", "racks": {"Ben": 2}}).status_code == 201
    assert client.get("/api/games").status_code == 200
    other = client.post("/api/games", json={"players": ["Ann", "Ben"]},
                        environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 201


def test_the_game_creation_limit_can_be_set_from_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("RUMMIREF_GAME_CREATION_LIMIT", "1 per minute")
    client = make_app(RATELIMIT_ENABLED=True).test_client()
    new_game(client, players=["Ann", "Ben"])
    assert client.post("/api/games", json={"players": ["Ann", "Ben"]}).status_code == 429
