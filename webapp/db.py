"""The database: one SQLAlchemy engine per app, one Session per request (``get_db()``).

SQLite (the default, a file in the instance folder) runs in WAL mode with ``synchronous=FULL``
and foreign keys on, so a crash in the middle of a write loses no committed round. Write requests
start their transaction with ``BEGIN IMMEDIATE``: writers queue for the lock up front instead of
failing when a read transaction later tries to write. PostgreSQL is used when ``DATABASE_URL``
says so (``postgresql://...``; the psycopg 3 driver is chosen automatically).

Migrations live in ``webapp.migrate``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from flask import current_app, g, request
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def normalize_url(url: str) -> str:
    """Accept the usual spellings of a PostgreSQL URL and pick the psycopg 3 driver."""
    url = url.strip()
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def default_url(instance_path: str | os.PathLike) -> str:
    return f"sqlite:///{Path(instance_path) / 'rummiref.sqlite3'}"


SQLITE_SYNC_MODES = ("FULL", "NORMAL")


def _sqlite_connect_hook(synchronous: str):
    def on_connect(dbapi_connection, connection_record) -> None:
        _sqlite_on_connect(dbapi_connection, synchronous)
    return on_connect


def _sqlite_on_connect(dbapi_connection, synchronous: str = "FULL") -> None:
    # Let SQLAlchemy's "begin" event below decide how transactions start (pysqlite's own
    # implicit BEGIN would be DEFERRED and come too late).
    dbapi_connection.isolation_level = None
    cur = dbapi_connection.cursor()
    try:
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
    finally:
        cur.close()


def _sqlite_on_begin(conn) -> None:
    mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
    conn.exec_driver_sql(f"BEGIN {mode}")


def make_engine(url: str, *, schema: Optional[str] = None, pool_size: int = 10,
                max_overflow: Optional[int] = None, echo: bool = False,
                sqlite_synchronous: str = "FULL") -> Engine:
    """An engine for ``url`` with rummiref's settings. ``schema`` (PostgreSQL only) puts every
    table in that schema through the search path; the tests use it to isolate each test.

    ``sqlite_synchronous``: ``FULL`` (default) makes every commit survive a power cut too;
    ``NORMAL`` survives a crash of the program but may lose the last commits if the computer
    loses power, and writes about three times faster on a slow disk."""
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:") or database.startswith("file::memory:"):
            raise ValueError("rummiref needs an SQLite file (WAL mode); give a path, "
                             "e.g. sqlite:////var/lib/rummiref/rummiref.sqlite3")
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, echo=echo, pool_size=pool_size,
                               max_overflow=80 if max_overflow is None else max_overflow,
                               pool_timeout=30,
                               connect_args={"timeout": 30, "check_same_thread": False})
        mode = sqlite_synchronous.upper()
        if mode not in SQLITE_SYNC_MODES:
            raise ValueError(f"SQLite synchronous mode must be one of {', '.join(SQLITE_SYNC_MODES)}")
        event.listen(engine, "connect", _sqlite_connect_hook(mode))
        event.listen(engine, "begin", _sqlite_on_begin)
        return engine
    connect_args = {}
    if schema:
        if not schema.replace("_", "").isalnum():
            raise ValueError(f"bad schema name {schema!r}")
        connect_args["options"] = f"-csearch_path={schema}"
    # PostgreSQL allows 100 connections by default, shared by every server process.
    return create_engine(url, echo=echo, pool_size=pool_size,
                         max_overflow=30 if max_overflow is None else max_overflow,
                         pool_pre_ping=True, pool_timeout=30, connect_args=connect_args)


def writer(engine: Engine) -> Engine:
    """The same engine, but transactions take SQLite's write lock at BEGIN."""
    if engine.dialect.name == "sqlite":
        return engine.execution_options(sqlite_begin="IMMEDIATE")
    return engine


def get_engine() -> Engine:
    return current_app.extensions["rummiref"]["engine"]


def get_db() -> Session:
    """The request's Session (created on first use, closed when the request ends). Requests that
    change something (POST/PUT/PATCH/DELETE) get a Session whose transaction takes the write lock
    at once on SQLite."""
    if "db" not in g:
        engine = get_engine()
        try:
            is_write = request.method in WRITE_METHODS
        except RuntimeError:  # no request (CLI, shell): a plain session
            is_write = False
        g.db = Session(writer(engine) if is_write else engine, expire_on_commit=False)
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        try:
            if exc is not None:
                db.rollback()
        finally:
            db.close()
