"""Fixtures for the scoresheet: a fresh app and database per test, on SQLite and PostgreSQL.

``app`` is parametrised over both backends; the PostgreSQL half is marked ``postgres`` and runs
in the default test run. It needs the server at ``RUMMIREF_TEST_POSTGRES_URL`` (default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``); each test gets its own schema, dropped
afterwards. Without the server those tests fail when ``CI`` is set and are skipped, with the
reason, otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

flask = pytest.importorskip("flask", reason="the web extra is not installed: pip install -e '.[web]'")

from webapp import create_app  # noqa: E402
from tests.webapp.webhelpers import new_game  # noqa: E402
from tests.webapp.databases import PG_URL, PgSchema, require_postgres, sqlite_config  # noqa: E402


def _migrate(cfg: dict[str, Any]) -> None:
    app = create_app({**cfg, "PAGES": False})  # runs the Alembic migrations to head
    app.extensions["rummiref"]["engine"].dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """An SQLite database migrated to head once; each test gets a copy."""
    folder = tmp_path_factory.mktemp("template")
    path = folder / "rummiref.sqlite3"
    _migrate({"INSTANCE_PATH": str(folder), "DATABASE_URL": f"sqlite:///{path}",
              "SECRET_KEY": "test"})
    return path


@pytest.fixture(scope="session")
def pg_schema(tmp_path_factory) -> Iterator[PgSchema]:
    """One schema migrated to head for the session; emptied before each test."""
    require_postgres()
    schema = PgSchema()
    try:
        _migrate({"INSTANCE_PATH": str(tmp_path_factory.mktemp("pg")), "DATABASE_URL": PG_URL,
                  "DATABASE_SCHEMA": schema.name, "SECRET_KEY": "test"})
        yield schema
    finally:
        schema.drop()


@pytest.fixture
def sqlite_app(tmp_path, sqlite_template):
    """An app on a fresh SQLite database, for tests that need only one backend."""
    app = create_app(sqlite_config(tmp_path / "instance", sqlite_template))
    yield app
    app.extensions["rummiref"]["engine"].dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend(request) -> str:
    if request.param == "postgres":
        require_postgres()
    return request.param


@pytest.fixture
def db_config(backend, tmp_path, request) -> Iterator[dict[str, Any]]:
    """Settings for an empty database at the newest schema on ``backend``; apps made from it
    share it (as several server processes would)."""
    instance = tmp_path / "instance"
    instance.mkdir()
    cfg: dict[str, Any] = {"INSTANCE_PATH": str(instance), "TESTING": True,
                           "SECRET_KEY": "test", "SSE_MAX_SECONDS": 20.0,
                           "RATELIMIT_ENABLED": False}
    if backend == "sqlite":
        yield sqlite_config(instance, request.getfixturevalue("sqlite_template"))
    else:
        schema = request.getfixturevalue("pg_schema")
        schema.truncate()
        cfg["DATABASE_URL"] = PG_URL
        cfg["DATABASE_SCHEMA"] = schema.name
        yield cfg


@pytest.fixture
def make_app(db_config):
    """Build apps on the test's database (several apps = several server processes)."""
    apps = []

    def make(**overrides):
        app = create_app({**db_config, **overrides})
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["rummiref"]["engine"].dispose()


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def game(client):
    return new_game(client)


@pytest.fixture
def live(app):
    from webapp.testing import LiveServer

    server = LiveServer(app)
    yield server
    server.stop()
