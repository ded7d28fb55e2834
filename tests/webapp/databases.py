"""The test databases: PostgreSQL on 127.0.0.1:5432 when it answers, a schema per test, SQLite copies."""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path
from typing import Any, Optional

import pytest
from sqlalchemy import create_engine, text



PG_URL = os.environ.get("RUMMIREF_TEST_POSTGRES_URL",
                        "postgresql+psycopg://postgres@127.0.0.1:5432/test")
_pg_state: dict[str, Any] = {}


def postgres_available() -> Optional[str]:
    """None when the server answers, else why not (checked once per session)."""
    if "error" not in _pg_state:
        try:
            engine = create_engine(PG_URL, connect_args={"connect_timeout": 3})
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            engine.dispose()
            _pg_state["error"] = None
        except Exception as e:  # noqa: BLE001 - any failure means "not available"
            _pg_state["error"] = f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return _pg_state["error"]


def require_postgres() -> None:
    error = postgres_available()
    if error is None:
        return
    msg = f"PostgreSQL at {PG_URL} is not reachable ({error})"
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(msg + "; CI must run the PostgreSQL tests")
    pytest.skip(msg)


class PgSchema:
    """A throwaway schema on the test server, dropped at the end."""

    def __init__(self) -> None:
        self.name = "t_" + secrets.token_hex(6)
        self.admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
        with self.admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{self.name}"'))

    def truncate(self) -> None:
        """Empty every table (much faster than a new schema with migrations per test)."""
        from webapp.models import Base

        tables = ", ".join(f'"{self.name}"."{t.name}"' for t in Base.metadata.sorted_tables)
        with self.admin.connect() as conn:
            conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))

    def drop(self) -> None:
        with self.admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.name}" CASCADE'))
        self.admin.dispose()


def sqlite_config(instance: Path, template: Path) -> dict[str, Any]:
    instance.mkdir(exist_ok=True)
    db = instance / "rummiref.sqlite3"
    shutil.copyfile(template, db)
    return {"INSTANCE_PATH": str(instance), "TESTING": True, "SECRET_KEY": "test",
            "SSE_MAX_SECONDS": 20.0, "DATABASE_URL": f"sqlite:///{db}",
            "RATELIMIT_ENABLED": False}  # tests create many games; test_hardening turns it on
