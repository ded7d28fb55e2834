"""Helpers for the scoresheet tests (imported by conftest.py and the test modules)."""

from __future__ import annotations

from typing import Any, Optional

from sqlalchemy import select

from webapp.models import Base


def new_game(client, players=("Ann", "Ben", "Cy"), rules: Optional[str] = None, **extra):
    body: dict[str, Any] = {"players": list(players), **extra}
    if rules is not None:
        body["rules"] = rules
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    return {"id": data["id"], "token": data["token"], "data": data,
            "headers": {"Authorization": f"Bearer {data['token']}"}}


def post_round(client, game, body, **headers):
    """POST a round to ``game`` (from ``new_game``) with its token and any extra headers."""
    return client.post(f"/api/games/{game['id']}/rounds", json=body,
                       headers={**game["headers"], **headers})


def snapshot(app) -> dict[str, list]:
    """Every row of every table: compare before and after a rejected request."""
    engine = app.extensions["rummiref"]["engine"]
    out = {}
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            rows = conn.execute(select(table).order_by(*table.primary_key.columns)).all()
            out[table.name] = [tuple(r) for r in rows]
    return out
