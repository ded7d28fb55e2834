"""Fixtures for the live referee: a fresh scoresheet app with the live blueprint, and a game.

``live_app`` runs on SQLite (a file in tmp_path) unless a test module parametrises it
indirectly with "postgres": then a throwaway schema on the server at
``RUMMIREF_TEST_POSTGRES_URL`` (skipped with the reason when the server is not reachable,
failed when ``CI`` is set)."""

from __future__ import annotations

import os
import secrets

import pytest

pytest.importorskip("flask", reason="the web extra is not installed: pip install -e '.[web]'")

PG_URL = os.environ.get("RUMMIREF_TEST_POSTGRES_URL",
                        "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _pg_schema():
    from sqlalchemy import create_engine, text

    try:
        admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT",
                              connect_args={"connect_timeout": 3})
        name = "live_" + secrets.token_hex(5)
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{name}"'))
    except Exception as e:  # noqa: BLE001
        msg = f"PostgreSQL at {PG_URL} is not reachable ({type(e).__name__})"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    return admin, name


@pytest.fixture
def live_app(tmp_path, request):
    from sqlalchemy import text

    from webapp import create_app

    backend = getattr(request, "param", "sqlite")
    instance = tmp_path / "instance"
    instance.mkdir()
    # Event streams end after a few seconds (phones reconnect and resume), so a test that
    # reads one through the test client gets to its end.
    cfg = {"INSTANCE_PATH": str(instance), "TESTING": True, "SECRET_KEY": "test",
           "SSE_MAX_SECONDS": 4.0,
           "DATABASE_URL": f"sqlite:///{instance / 'rummiref.sqlite3'}"}
    admin = schema = None
    if backend == "postgres":
        admin, schema = _pg_schema()
        cfg.update(DATABASE_URL=PG_URL, DATABASE_SCHEMA=schema)
    app = create_app(cfg)
    yield app
    for w in app.extensions.get("rummiref_live", {}).get("watchers", []):
        w.stop()
    app.extensions["rummiref"]["engine"].dispose()
    if admin is not None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def client(live_app):
    return live_app.test_client()


@pytest.fixture
def game(client):
    r = client.post("/api/games", json={"players": ["Ann", "Ben", "Cy"], "rules": "sabra"})
    assert r.status_code == 201, r.get_json()
    d = r.get_json()
    return {"id": d["id"], "token": d["token"],
            "headers": {"Authorization": f"Bearer {d['token']}"},
            "api": f"/api/games/{d['id']}/live"}


def post_snapshot(client, game, table, *, key=None, **extra):
    """Post a table in notation as a snapshot (with an idempotency key, when given)."""
    headers = dict(game["headers"])
    if key:
        headers["Idempotency-Key"] = key
    return client.post(game["api"] + "/snapshots", json={"reading": {"table": table}, **extra},
                       headers=headers)
