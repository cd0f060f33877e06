"""Storage of tables, seats and moves (SQLAlchemy 2, Alembic migrations shipped in the package).

A game is stored as its seed, options and the list of moves played, so it can be
replayed exactly: ``Game(players, options, seed, first_dealer)`` then each move.
SQLite is the default; PostgreSQL is used when given a ``postgresql://`` URL.

>>> normalize_url("postgres://u@h/db")
'postgresql+psycopg://u@h/db'
>>> normalize_url("sqlite:///x.db")
'sqlite:///x.db'
"""

from diloti.store.db import Store, StoreError, normalize_url
from diloti.store.models import Base, MoveRow, SeatRow, TableRow

__all__ = ["Base", "MoveRow", "SeatRow", "Store", "StoreError", "TableRow", "normalize_url"]
