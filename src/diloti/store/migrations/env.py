"""Alembic environment: runs on the connection :class:`diloti.store.Store` hands over."""

from __future__ import annotations

from alembic import context
from alembic.config import Config
from sqlalchemy import create_engine

from diloti.store.models import Base

target_metadata = Base.metadata


def run(config: Config) -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=connection.dialect.name == "sqlite")
        with context.begin_transaction():
            context.run_migrations()
        return
    # Run from the alembic command line with sqlalchemy.url set in alembic.ini.
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///diloti.sqlite3")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


try:
    _config: Config | None = context.config
except AttributeError:  # imported outside an Alembic run (pytest --doctest-modules does)
    _config = None
if _config is not None:
    run(_config)
