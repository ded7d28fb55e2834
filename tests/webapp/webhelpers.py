"""Helpers for the scoresheet tests (imported by conftest.py and the test modules)."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import shutil
import socket
import time
import uuid
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlsplit

import pytest
from sqlalchemy import create_engine, select, text

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


def snapshot(app) -> dict[str, list]:
    """Every row of every table: compare before and after a rejected request."""
    engine = app.extensions["rummiref"]["engine"]
    out = {}
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            rows = conn.execute(select(table).order_by(*table.primary_key.columns)).all()
            out[table.name] = [tuple(r) for r in rows]
    return out


# --- a plain HTTP client for the live-server tests (standard library only) ----------------------

def http_request(url: str, method: str = "GET", body: Any = None, headers: Optional[dict] = None,
         timeout: float = 10.0) -> tuple[int, dict, Any]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    hdrs = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        hdrs.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), data, hdrs)
        resp = conn.getresponse()
        raw = resp.read()
        ctype = resp.getheader("Content-Type", "")
        payload = json.loads(raw) if ctype.startswith("application/json") else raw
        return resp.status, dict(resp.getheaders()), payload
    finally:
        conn.close()


class SSEClient:
    """Reads a server-sent event stream line by line, like a phone's EventSource."""

    def __init__(self, url: str, headers: Optional[dict] = None, timeout: float = 10.0):
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        self.conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""),
                          headers={"Accept": "text/event-stream", **(headers or {})})
        self.sock = self.conn.sock  # http.client lets go of it once the response is streaming
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.content_type = self.resp.getheader("Content-Type", "")

    def next_event(self, timeout: float = 5.0) -> Optional[dict[str, Any]]:
        """The next event (``{"event", "id", "data"}``), skipping comments; None at the end."""
        self.sock.settimeout(timeout)
        event: dict[str, Any] = {}
        data_lines: list[str] = []
        while True:
            line = self.resp.readline()
            if not line:
                return None
            line = line.decode().rstrip("\r\n")
            if line == "":
                if data_lines or event.get("event"):
                    event["data"] = json.loads("\n".join(data_lines)) if data_lines else None
                    return event
                continue
            if line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                data_lines.append(value)
            elif field in ("event", "id", "retry"):
                event[field] = value

    def wait_for(self, event_type: str, timeout: float = 5.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {event_type!r} event within {timeout} s")
            try:
                ev = self.next_event(left)
            except (socket.timeout, TimeoutError):
                raise TimeoutError(f"no {event_type!r} event within {timeout} s") from None
            if ev is None:
                raise EOFError("the stream ended")
            if ev.get("event") == event_type:
                return ev

    def close(self) -> None:
        try:
            self.resp.close()
            self.sock.close()
        finally:
            self.conn.close()


def unique_key() -> str:
    return str(uuid.uuid4())


# --- databases -----------------------------------------------------------------------------------

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
