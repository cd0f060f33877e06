"""The database tables: ``tables`` (one per game table), ``seats``, ``moves`` and ``chat``.

Changing these classes needs a new migration in ``migrations/versions``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Integer, String, Text, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the diloti schema."""


class TableRow(Base):
    """One table: who sits where is in ``seats``, what was played in ``moves``."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)  # JSON of Options.to_dict()
    seed: Mapped[int] = mapped_column(BigInteger)
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting, playing, over, closed
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    end_reason: Mapped[str | None] = mapped_column(String(40), nullable=True)  # "resigned:SEAT"; null: played out
    away_level: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the computer for absent players
    grace: Mapped[int | None] = mapped_column(Integer, nullable=True)  # grace seconds for an absent player
    clock_move: Mapped[int | None] = mapped_column(Integer, nullable=True)  # turn clock: seconds per move
    clock_reserve: Mapped[int | None] = mapped_column(Integer, nullable=True)  # turn clock: reserve seconds
    series: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)  # the series' first game
    next_table: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True, unique=True)  # the rematch
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    """A seat: a computer player of some level, or a human with a name and a token hash."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human or bot
    level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # the computer plays for it


class MoveRow(Base):
    """The ``ply``-th move of the game (counted over all rounds, from 0), in canonical notation."""

    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(80))
    by: Mapped[str | None] = mapped_column(String(32), nullable=True)  # the computer's level, for an away player
    left: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the mover's clock reserve after it, in ms
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat line said at a table by the player in ``seat`` (``name`` as it was then)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
