"""rummiref's phone scoresheet: a Flask app (``create_app``) with a JSON API under ``/api``
(``webapp.api``), the phone pages (``webapp.pages``), the live referee (``webapp.live``),
server-sent events (``webapp.events``), what installs the pages as an app and keeps them
offline (``webapp.install``) and an SQLAlchemy database with Alembic migrations
(``webapp.db``, ``webapp.models``).

Configuration (``create_app(test_config)`` keys, or the environment):

``DATABASE_URL``      SQLAlchemy URL; default: SQLite ``rummiref.sqlite3`` in the instance folder.
                      ``postgresql://user@host/db`` uses PostgreSQL (psycopg 3).
``DATABASE_SCHEMA``   PostgreSQL only: keep the tables in this schema (search path).
``RUMMIREF_INSTANCE`` the instance folder (database, secret key); default: a per-user data
                      folder (``$XDG_DATA_HOME/rummiref``, ``~/Library/Application Support/rummiref``,
                      ``%APPDATA%\\rummiref``).
``RUMMIREF_SECRET_KEY`` Flask's secret key; default: random, kept in the instance folder.
``AUTO_MIGRATE``      run the migrations to head when the app starts (default True).
``RUMMIREF_SQLITE_SYNCHRONOUS`` (config ``SQLITE_SYNCHRONOUS``) ``FULL`` (default: every committed
                      round survives a power cut) or ``NORMAL`` (survives a program crash; faster).
``RUMMIREF_GAME_CREATION_LIMIT`` (config ``GAME_CREATION_LIMIT``) new games per client address
                      (default ``20 per minute; 200 per day``);
                      ``RATELIMIT_ENABLED=False`` turns the limit off (``webapp.ratelimit``).
``RUMMIREF_PUBLIC_URL`` (config ``PUBLIC_URL``) the address the share panel offers, e.g. behind a
                      proxy (default: where the server listens, ``webapp.reach``).
``IDEMPOTENCY_TTL_SECONDS`` how long a retried request is answered with its first answer
                      (default a day; ``webapp.idempotency``).

Every response carries the security headers of ``webapp.headers``; errors are answered by
``webapp.errors`` (JSON under ``/api``, a page elsewhere).
"""

from __future__ import annotations

import os
import secrets
import threading
from pathlib import Path
from typing import Any, Mapping, Optional

__all__ = ["create_app", "default_instance_path"]

MAX_BODY_BYTES = 64 * 1024


def default_instance_path() -> Path:
    """Where the database lives unless told otherwise: ``$RUMMIREF_INSTANCE``, else a per-user
    data folder (:func:`vision.instance.default_instance`, the rule calibrations follow too)."""
    from vision.instance import default_instance

    return default_instance()


def _secret_key(instance: Path) -> str:
    """$RUMMIREF_SECRET_KEY, else a random key kept in the instance folder (mode 0600). Several
    processes starting at once agree on one key: it is written aside, then linked into place."""
    env = os.environ.get("RUMMIREF_SECRET_KEY")
    if env:
        return env
    path = instance / "secret_key"
    if not path.exists():
        tmp = instance / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_hex(32).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # atomic; fails if another process got there first
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(tmp, path)
        finally:
            if tmp.exists():
                os.unlink(tmp)
    return path.read_text().strip()


def create_app(test_config: Optional[Mapping[str, Any]] = None):
    """Build the scoresheet app. ``test_config`` overrides any setting (see the module doc)."""
    from flask import Flask

    from . import api, db, events, headers, i18n, install, live, migrate, pages, ratelimit

    test_config = dict(test_config or {})
    instance = Path(test_config.pop("INSTANCE_PATH", None) or default_instance_path())
    instance.mkdir(parents=True, exist_ok=True)
    app = Flask(__name__, instance_path=str(instance), instance_relative_config=True)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL") or db.default_url(instance),
        DATABASE_SCHEMA=os.environ.get("DATABASE_SCHEMA") or None,
        AUTO_MIGRATE=True,
        # FULL: a committed round survives even a power cut; NORMAL: survives a crash of the
        # program (WAL), not necessarily of the computer, and commits faster.
        SQLITE_SYNCHRONOUS=os.environ.get("RUMMIREF_SQLITE_SYNCHRONOUS", "FULL"),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        DB_POOL_SIZE=10,
        DB_MAX_OVERFLOW=None,  # 80 on SQLite, 30 on PostgreSQL
        # Server-sent events: how often other processes' changes are looked for (and for how
        # long with no stream open before that poll stops), how long one
        # stream lasts before the browser reconnects, the keep-alive comment interval, and how
        # many streams may be open at once (each holds a server thread).
        SSE_POLL_INTERVAL=0.25,
        SSE_POLLER_IDLE_SECONDS=30.0,
        SSE_MAX_SECONDS=300.0,
        SSE_HEARTBEAT_SECONDS=15.0,
        SSE_MAX_STREAMS=56,
        # How long a request sent with an Idempotency-Key is answered with its first answer.
        IDEMPOTENCY_TTL_SECONDS=24 * 3600,
        PUBLIC_URL=os.environ.get("RUMMIREF_PUBLIC_URL") or None,
    )
    app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    app.json.sort_keys = False  # scores and totals stay in seat order
    app.json.ensure_ascii = False

    engine = db.make_engine(app.config["DATABASE_URL"], schema=app.config["DATABASE_SCHEMA"],
                            pool_size=app.config["DB_POOL_SIZE"],
                            max_overflow=app.config["DB_MAX_OVERFLOW"],
                            sqlite_synchronous=app.config["SQLITE_SYNCHRONOUS"])
    app.extensions["rummiref"] = {
        "engine": engine,
        "broker": events.Broker(engine, app.config["SSE_POLL_INTERVAL"],
                                app.config["SSE_POLLER_IDLE_SECONDS"]),
        # SQLite: this process's writers queue here rather than in SQLite's busy handler.
        "write_lock": threading.Lock() if engine.dialect.name == "sqlite" else None,
    }
    if app.config["AUTO_MIGRATE"]:
        migrate.ensure_schema(engine)
    app.teardown_appcontext(db.close_db)

    api.init_app(app)
    headers.init_app(app)
    i18n.init_app(app)
    live.init_app(app, pages=app.config.get("PAGES", True))
    ratelimit.init_app(app)  # after the routes it limits are registered
    if app.config.get("PAGES", True):  # False: the JSON API only
        app.register_blueprint(pages.bp)
        install.init_app(app)  # the manifest, icons and service worker of the pages
    from . import calibration

    calibration.init_app(app)
    return app
