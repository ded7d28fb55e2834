"""Alembic environment for rummiref. The app passes its own connection in
``config.attributes["connection"]``; run by hand, the URL comes from ``sqlalchemy.url``,
then ``DATABASE_URL``, then the default SQLite file in the instance folder."""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context

import webapp.live.models  # noqa: F401  (the live referee's tables share the scoresheet's Base)
from webapp.db import default_url, make_engine
from webapp.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite",
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    if config.config_file_name is not None and not config.attributes.get("quiet"):
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
    if not url:
        from webapp import default_instance_path
        url = default_url(default_instance_path())
    engine = make_engine(url, schema=os.environ.get("DATABASE_SCHEMA") or None)
    try:
        with engine.connect() as conn:
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


def run_migrations_offline() -> None:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL")
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
