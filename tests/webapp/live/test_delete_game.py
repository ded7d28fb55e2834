"""Deleting a game that the live referee has judged turns of: its live tables, pictures and
turns go with it, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from tests.webapp.live.conftest import post_snapshot


@pytest.mark.parametrize("live_app", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
                         indirect=True)
def test_deleting_a_refereed_game_leaves_nothing_of_it(live_app, client, game):
    from webapp.live.models import LiveSession, LiveSnapshot, LiveTurn

    other = client.post("/api/games", json={"players": ["Dan", "Eve"]}).get_json()
    other_game = {"id": other["id"], "headers": {"Authorization": f"Bearer {other['token']}"},
                  "api": f"/api/games/{other['id']}/live"}
    for g in (game, other_game):
        assert post_snapshot(client, g, "").status_code == 200
        assert post_snapshot(client, g, "R10 R11 R12").status_code == 201
        assert post_snapshot(client, g, "R10 R11 R12 | K1 K2 K3").status_code == 201
    engine = live_app.extensions["rummiref"]["engine"]

    def count(model):
        with engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(model)).scalar_one()

    before = {m: count(m) for m in (LiveSession, LiveSnapshot, LiveTurn)}
    assert before[LiveTurn] == 4
    r = client.delete(f"/api/games/{game['id']}", headers=game["headers"])
    assert r.status_code == 200, r.get_json()
    after = {m: count(m) for m in (LiveSession, LiveSnapshot, LiveTurn)}
    assert after == {m: n // 2 for m, n in before.items()}   # the other game's are kept
    assert client.get(game["api"]).status_code == 404
    assert client.get(other_game["api"] + "/turns").get_json()["turns"][0]["player"] == "Dan"
