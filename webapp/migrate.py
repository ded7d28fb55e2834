"""Schema migrations: Alembic (``webapp/migrations``) run to head on ``rummiref init-db`` and when
the app starts. Several threads or processes starting at once are serialised: by a lock within a
process and, on PostgreSQL, by an advisory lock between processes (SQLite's write lock does that
job there).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Optional

from sqlalchemy import Engine, text

from .db import writer

_MIGRATE_LOCK = threading.Lock()
#: A fixed key for PostgreSQL's advisory lock around migrations ("rummiref" in ASCII, shortened).
_PG_MIGRATION_LOCK_KEY = 0x72756D6D69


def alembic_config(engine: Engine | None = None):
    from alembic.config import Config

    ini = Path(__file__).with_name("alembic.ini")
    cfg = Config(str(ini))
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    if engine is not None:
        cfg.set_main_option("sqlalchemy.url",
                            engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return cfg


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> Optional[str]:
    from alembic.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the Alembic migrations up to ``revision`` (serialised between threads and, on
    PostgreSQL, between processes)."""
    from alembic import command

    _migrate(engine, lambda cfg: command.upgrade(cfg, revision))


def downgrade(engine: Engine, revision: str) -> None:
    """Undo migrations down to ``revision`` (``"base"``: an empty database)."""
    from alembic import command

    _migrate(engine, lambda cfg: command.downgrade(cfg, revision))


def _migrate(engine: Engine, run) -> None:
    cfg = alembic_config(engine)
    with _MIGRATE_LOCK:
        if engine.dialect.name == "postgresql":
            with engine.connect() as lock_conn:
                lock_conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _PG_MIGRATION_LOCK_KEY})
                lock_conn.commit()
                try:
                    with engine.begin() as conn:
                        cfg.attributes["connection"] = conn
                        run(cfg)
                finally:
                    lock_conn.execute(text("SELECT pg_advisory_unlock(:k)"),
                                      {"k": _PG_MIGRATION_LOCK_KEY})
                    lock_conn.commit()
        else:
            with writer(engine).begin() as conn:
                cfg.attributes["connection"] = conn
                run(cfg)


def ensure_schema(engine: Engine) -> bool:
    """Upgrade to head if the database is behind. Returns True when a migration ran."""
    if current_revision(engine) == head_revision():
        return False
    upgrade(engine)
    return True
