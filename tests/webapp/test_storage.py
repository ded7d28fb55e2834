"""Storage: SQLite settings, Alembic migrations on both backends, the CLI commands, and that a
failure half-way through a change leaves nothing behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from sqlalchemy import inspect, text

from webapp import create_app, db as dbmod, default_instance_path, migrate, rounds, service
from webapp.models import Base
from tests.webapp.webhelpers import snapshot
from tests.webapp.http_client import http_request

from tests.conftest import REPO


def test_sqlite_runs_in_wal_mode_with_foreign_keys(sqlite_app):
    engine = sqlite_app.extensions["rummiref"]["engine"]
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL


def test_an_error_half_way_through_a_change_leaves_nothing(app, client, game, monkeypatch):
    client.post(f"/api/games/{game['id']}/rounds", headers=game["headers"],
                json={"winner": "Ann", "racks": {"Ben": 1, "Cy": 1}})
    before = snapshot(app)

    def broken(*args, **kwargs):  # fails after the round and its scores were written
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(rounds, "record_change", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    r = client.post(f"/api/games/{game['id']}/rounds", headers=game["headers"],
                    json={"winner": "Ben", "racks": {"Ann": 5, "Cy": 5}})
    assert r.status_code == 500
    assert "nothing was changed" in r.get_json()["error"]
    assert snapshot(app) == before


@pytest.fixture
def fresh_db(backend, tmp_path):
    """An empty database (no tables at all) on ``backend``; yields (url, schema)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.sqlite3'}", None
        return
    from tests.webapp.databases import PG_URL, PgSchema

    schema = PgSchema()
    try:
        yield PG_URL, schema.name
    finally:
        schema.drop()


def test_migrations_match_the_models_and_go_both_ways(fresh_db):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    import webapp.live.models  # noqa: F401  (the live referee's tables share the Base)
    url, schema = fresh_db
    engine = dbmod.make_engine(url, schema=schema)
    try:
        assert migrate.current_revision(engine) is None
        migrate.upgrade(engine)
        assert migrate.current_revision(engine) == migrate.head_revision()
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}),
                                    Base.metadata)
        assert diff == []
        assert migrate.ensure_schema(engine) is False  # already at head: nothing to do
        migrate.downgrade(engine, "base")
        tables = set(inspect(engine).get_table_names()) - {"alembic_version"}
        assert tables == set()
        assert migrate.ensure_schema(engine) is True
        assert set(inspect(engine).get_table_names()) >= {t.name for t in Base.metadata.tables.values()}
    finally:
        engine.dispose()


def run_cli(*args, env=None, timeout=60):
    return subprocess.run([sys.executable, "-m", "webapp.cli", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def test_init_db_creates_then_reports_up_to_date(tmp_path):
    inst = tmp_path / "inst"
    first = run_cli("init-db", "--instance", str(inst))
    assert first.returncode == 0, first.stderr
    assert "Database ready (revision none -> " in first.stdout
    assert str(inst / "rummiref.sqlite3") in first.stdout
    second = run_cli("init-db", "--instance", str(inst))
    assert second.returncode == 0 and "up to date" in second.stdout


@pytest.mark.postgres
def test_init_db_on_postgres(tmp_path):
    from tests.webapp.databases import PG_URL, PgSchema, require_postgres

    require_postgres()

    schema = PgSchema()
    try:
        r = run_cli("init-db", "--instance", str(tmp_path), "--database-url", PG_URL,
                    env={"DATABASE_SCHEMA": schema.name})
        assert r.returncode == 0, r.stderr
        assert "Database ready" in r.stdout and "postgresql+psycopg://postgres@" in r.stdout
        with schema.admin.connect() as conn:
            n = conn.execute(text("SELECT count(*) FROM information_schema.tables "
                                  "WHERE table_schema = :s"), {"s": schema.name}).scalar()
        assert n == len(Base.metadata.tables) + 1  # and alembic_version
    finally:
        schema.drop()


def test_serve_starts_a_real_server(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "webapp.cli", "serve", "--port", "0",
                             "--instance", str(tmp_path / "inst")], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("rummiref scoresheet: http://127.0.0.1:"), line
        url = line.split(": ", 1)[1].strip().rstrip("/")
        status, _, presets = http_request(url + "/api/presets")
        assert status == 200 and presets["default"] == "sabra"
        status, _, created = http_request(url + "/api/games", "POST", {"players": ["A", "B"]})
        assert status == 201
    finally:
        proc.terminate()
        proc.communicate(timeout=15)
    assert (tmp_path / "inst" / "rummiref.sqlite3").exists()


def test_serve_reports_a_busy_port(tmp_path):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    try:
        r = run_cli("serve", "--port", str(s.getsockname()[1]), "--instance", str(tmp_path))
    finally:
        s.close()
    assert r.returncode == 1 and "cannot listen" in r.stderr and "--port" in r.stderr


def test_serve_and_init_db_say_what_is_wrong_with_the_folder_or_the_host(tmp_path):
    # Each was a traceback: an instance folder that is a file or cannot be made
    # (FileExistsError / FileNotFoundError from mkdir) and a --host that is no address
    # (waitress's ValueError).
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    for args in (("init-db", "--instance", str(a_file)),
                 ("serve", "--port", "0", "--instance", str(a_file)),
                 ("init-db", "--instance", "/proc/no/such/folder")):
        r = run_cli(*args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, (args, r.stderr)
        assert "as the instance folder" in r.stderr and "--instance DIR" in r.stderr
    assert "it is a file, not a folder" in run_cli("init-db", "--instance", str(a_file)).stderr
    r = run_cli("serve", "--host", "999.1.1.1", "--port", "0", "--instance", str(tmp_path / "i"))
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "cannot listen on 999.1.1.1:0" in r.stderr and "--host" in r.stderr


def test_registering_the_commands_imports_nothing_heavy():
    code = ("import argparse, sys, webapp.cli as c; p = argparse.ArgumentParser(); "
            "c.register(p.add_subparsers()); "
            "heavy = [m for m in ('flask', 'sqlalchemy', 'waitress', 'alembic') if m in sys.modules]; "
            "print(json.dumps(heavy))")
    r = subprocess.run([sys.executable, "-c", "import json; " + code], cwd=REPO,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == []


def test_database_urls_and_instance_folder(monkeypatch, tmp_path):
    assert dbmod.normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert dbmod.normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert dbmod.normalize_url("sqlite:////x.db") == "sqlite:////x.db"
    with pytest.raises(ValueError, match="needs an SQLite file"):
        dbmod.make_engine("sqlite://")
    monkeypatch.setenv("RUMMIREF_INSTANCE", str(tmp_path / "here"))
    assert default_instance_path() == (tmp_path / "here").resolve()
    monkeypatch.delenv("RUMMIREF_INSTANCE")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert default_instance_path() == (tmp_path / "xdg" / "rummiref").resolve()


def test_secret_key_is_created_once_and_kept(tmp_path, sqlite_template, monkeypatch):
    from tests.webapp.databases import sqlite_config

    monkeypatch.delenv("RUMMIREF_SECRET_KEY", raising=False)
    cfg = sqlite_config(tmp_path / "inst", sqlite_template)
    del cfg["SECRET_KEY"]
    a = create_app(cfg)
    b = create_app(cfg)
    key_file = tmp_path / "inst" / "secret_key"
    assert a.config["SECRET_KEY"] == b.config["SECRET_KEY"] == key_file.read_text()
    assert len(a.config["SECRET_KEY"]) == 64
    if os.name == "posix":
        assert key_file.stat().st_mode & 0o077 == 0
    for app in (a, b):
        app.extensions["rummiref"]["engine"].dispose()


def test_a_lost_race_on_the_round_number_is_retried(app, client, game, monkeypatch):
    """If another writer took the round number first (the unique constraint fires), the whole
    change is rolled back and tried again: the round is stored once, under the next number."""
    from sqlalchemy.exc import IntegrityError

    real = service.add_round
    calls = []

    def racing(db, g, body, actor):
        calls.append(1)
        if len(calls) == 1:
            real(db, g, body, actor)  # written, then the commit "loses" the race
            raise IntegrityError("INSERT INTO rounds", {}, Exception("UNIQUE constraint failed"))
        return real(db, g, body, actor)

    monkeypatch.setattr(service, "add_round", racing)
    r = client.post(f"/api/games/{game['id']}/rounds", headers=game["headers"],
                    json={"winner": "Ann", "racks": {"Ben": 2, "Cy": 3}})
    assert r.status_code == 201 and len(calls) == 2
    state = client.get(f"/api/games/{game['id']}").get_json()
    assert [rd["number"] for rd in state["rounds"]] == [1]
    assert state["totals"] == {"Ann": 5, "Ben": -2, "Cy": -3}
    audit = client.get(f"/api/games/{game['id']}/audit").get_json()["entries"]
    assert [e["action"] for e in audit] == ["create-game", "add-round"]


def test_a_race_lost_every_time_is_a_409_and_changes_nothing(app, client, game, monkeypatch):
    from sqlalchemy.exc import IntegrityError

    before = snapshot(app)

    def always(db, g, body, actor):
        raise IntegrityError("INSERT INTO rounds", {}, Exception("UNIQUE constraint failed"))

    monkeypatch.setattr(service, "add_round", always)
    r = client.post(f"/api/games/{game['id']}/rounds", headers=game["headers"],
                    json={"winner": "Ann", "racks": {"Ben": 2, "Cy": 3}})
    assert r.status_code == 409 and "try again" in r.get_json()["error"]
    assert snapshot(app) == before
