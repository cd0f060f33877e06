"""The browser game's server: ``diloti serve`` (see docs/PROTOCOL.md and docs/SERVER.md).

Importing this package needs the ``server`` extra (FastAPI, SQLAlchemy, Alembic).
"""

from diloti.server.app import create_app

__all__ = ["create_app"]
