"""The database tables: ``tables`` (one per game table), ``seats``, ``moves`` and ``chat``; the players who
come back: ``players``, their device keys ``player_keys``, their ``ratings``, the ``results`` of their games and
their running totals ``player_stats``; the limits that protect them, counted for the whole service: ``limit_hits``
and ``sign_ins`` (:mod:`diloti.store.counts`).

Changing these classes needs a new migration in ``migrations/versions``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from diloti.games import DEFAULT_GAME


class Base(DeclarativeBase):
    """Declarative base of the diloti schema."""


class TableRow(Base):
    """One table: who sits where is in ``seats``, what was played in ``moves``."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(Integer)
    # A registered game's name; the database's own default is the migration's, for the tables from before there were
    # other games (Diloti's, migrations/versions/0008_games.py).
    game: Mapped[str] = mapped_column(String(16), default=DEFAULT_GAME, server_default="diloti")
    options: Mapped[str] = mapped_column(Text)  # JSON of the game's options (Options.to_dict() for diloti)
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
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # null: rated (the default); false: casual
    bots: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # bot accounts may sit (null: no)
    scored: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), index=True)  # results written
    # The event the table belongs to: "daily:DAY" (the daily deal), "arena:ID" (a tournament); null: none.
    event: Mapped[str | None] = mapped_column(String(48), nullable=True, index=True)


class SeatRow(Base):
    """A seat: a computer player of some level, or a human with a name and a token hash."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human or bot
    level: Mapped[str | None] = mapped_column(String(64), nullable=True)  # a level, or a level with settings
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # the computer plays for it
    player_id: Mapped[str | None] = mapped_column(String(16), ForeignKey("players.id"), nullable=True, index=True)


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


class PlayerRow(Base):
    """A player who comes back: a name (unique by ``name_key``: case-folded, accents out, letters alike across
    alphabets made one) and, optionally, a
    password (an argon2 hash). A deleted player keeps the row (its games stay, anonymised) with no name."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    recovery_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)  # SHA-256 of the code
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)  # argon2id, PHC string
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # an outside program plays it


class PlayerKeyRow(Base):
    """One device's key of a player (only its SHA-256 is stored)."""

    __tablename__ = "player_keys"

    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A player's rating in one mode (``overall``, ``2p``, ``4p``), with the counts of their rated games.

    ``score`` is the conservative figure ``mu - 3 sigma`` the leaderboard orders by (its index)."""

    __tablename__ = "ratings"
    # Read backwards for ``ORDER BY score DESC, player_id DESC`` (ties broken by id: a stable order).
    __table_args__ = (Index("ix_ratings_board", "mode", "score", "player_id"),)

    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    score: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ResultRow(Base):
    """One seat's result of a finished game with at least one player who comes back (one row a seat: the
    computers' and guests' too, so that a profile can name its opponents without replaying a game).

    ``mu``/``sigma`` are the player's rating in the game's mode after it, ``omu``/``osigma`` the overall
    one (null for a computer, a guest, or a game that was not rated)."""

    __tablename__ = "results"
    __table_args__ = (Index("ix_results_player", "player_id", "finished"),)

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(16), ForeignKey("players.id"), nullable=True)
    kind: Mapped[str] = mapped_column(String(8))  # human or bot
    level: Mapped[str | None] = mapped_column(String(64), nullable=True)
    side: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(8))  # 2p or 4p
    rated: Mapped[bool] = mapped_column(Boolean)
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # null: a draw
    points: Mapped[int] = mapped_column(Integer)  # the side's game points
    against: Mapped[int] = mapped_column(Integer)  # the other side's
    rounds: Mapped[int] = mapped_column(Integer)  # rounds finished
    xeris: Mapped[int] = mapped_column(Integer)  # xeris this seat made
    end_reason: Mapped[str | None] = mapped_column(String(40), nullable=True)
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mu: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma: Mapped[float | None] = mapped_column(Float, nullable=True)
    omu: Mapped[float | None] = mapped_column(Float, nullable=True)
    osigma: Mapped[float | None] = mapped_column(Float, nullable=True)


class PlayerStatsRow(Base):
    """A player's totals over every finished game of a mode (rated or not), kept at each game's end so that a
    profile reads one row, not thousands of results."""

    __tablename__ = "player_stats"

    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(8), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    xeris: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    rounds: Mapped[int] = mapped_column(Integer, default=0)


class QueueRow(Base):
    """A quick-play ticket: a player waiting to be paired for a game with these settings (``key``: the
    players and settings, so that only tickets for the same game meet), until ``table_id`` is set."""

    __tablename__ = "queue"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64))  # the ticket's secret; it is also the seat's token
    key: Mapped[str] = mapped_column(String(64), index=True)
    players: Mapped[int] = mapped_column(Integer)
    settings: Mapped[str] = mapped_column(Text)  # JSON: options and clock
    rating: Mapped[float] = mapped_column(Float)  # the shown rating the pairing compares (a guest: 1500)
    name: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # the last poll: a ticket nobody polls is let go
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ReviewRow(Base):
    """The master's review of one seat of a finished table (:mod:`diloti.ai.review`), computed once and kept:
    ``data`` is its JSON (``Review.to_dict()``), ``version`` the review method's, ``worlds`` its budget."""

    __tablename__ = "reviews"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    worlds: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LimitHitRow(Base):
    """The hits of one key of a limit that every server process counts together (:mod:`diloti.store.counts`):
    ``hits`` is a JSON list of ``[expires, tag]`` (epoch seconds when the hit leaves the moving window, and the
    attempt that made it), ``expires`` when the last of them does (then the row may be deleted). ``key`` is a
    digest made by the caller (no name or address in the clear)."""

    __tablename__ = "limit_hits"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)  # the limit: login_pair, recover, rename, ...
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    hits: Mapped[str] = mapped_column(Text)
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SignInRow(Base):
    """An address a player signed in from (a digest of it), and when last: such an address is let through the
    login lockout of that player's name (:mod:`diloti.server.lockout`)."""

    __tablename__ = "sign_ins"

    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id", ondelete="CASCADE"),
                                           primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class BotTokenRow(Base):
    """A revocable token of a bot account (docs/BOTS.md): only its SHA-256 is stored; ``scopes`` is a
    space-separated list (``play``, ``challenge``)."""

    __tablename__ = "bot_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ChallengeRow(Base):
    """A challenge from one account to another (``settings``: the game's JSON; ``token_hash``: the challenger's
    seat token, made when it challenged). ``status``: open, accepted, declined, canceled, expired."""

    __tablename__ = "challenges"
    __table_args__ = (Index("ix_challenges_from", "from_id", "created"), Index("ix_challenges_to", "to_id", "status"))

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    from_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id", ondelete="CASCADE"))
    to_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id", ondelete="CASCADE"))
    settings: Mapped[str] = mapped_column(Text)
    token_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    bots: Mapped[bool] = mapped_column(Boolean)  # both accounts are bots (the daily cap of bot games)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class BotEventRow(Base):
    """One event of an account's event stream (a challenge, a game's start or end, a token revoked), read by every
    server process's event streams and pruned after an hour."""

    __tablename__ = "bot_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16))
    body: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class DailyDayRow(Base):
    """One UTC day of the daily deal: its seed (secret: it deals the cards) and its computer opponent."""

    __tablename__ = "daily_days"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)  # YYYY-MM-DD
    seed: Mapped[int] = mapped_column(BigInteger)
    level: Mapped[str] = mapped_column(String(64))  # the opponent: a level with a playout budget, no clock
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyAttemptRow(Base):
    """One game of the daily deal. A ranked attempt fills ``rank_player``, ``rank_address`` and ``rank_device``
    (SHA-256 of the address and the device id): each unique within its day, so a player, an address and a device
    get one ranked attempt a day whichever process is asked (null: unranked, no limit)."""

    __tablename__ = "daily_attempts"
    __table_args__ = (UniqueConstraint("day", "rank_player", name="uq_daily_player"),
                      UniqueConstraint("day", "rank_address", name="uq_daily_address"),
                      UniqueConstraint("day", "rank_device", name="uq_daily_device"))

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), index=True)
    player_id: Mapped[str | None] = mapped_column(String(16), ForeignKey("players.id"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(64))
    ranked: Mapped[bool] = mapped_column(Boolean)
    rank_player: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rank_address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    rank_device: Mapped[str | None] = mapped_column(String(64), nullable=True)
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ArenaRow(Base):
    """An arena tournament: its game and clock, when it starts and how long it lasts; ``schedule`` names the
    server's schedule that made it (unique with its start: made once whichever process makes it)."""

    __tablename__ = "arenas"
    __table_args__ = (UniqueConstraint("schedule", "starts", name="uq_arena_schedule"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)  # JSON of the game's options
    clock_move: Mapped[int] = mapped_column(Integer)
    clock_reserve: Mapped[int] = mapped_column(Integer)
    starts: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    seconds: Mapped[int] = mapped_column(Integer)  # its length
    wait: Mapped[int] = mapped_column(Integer)  # seconds a lone player waits before a computer is their opponent
    schedule: Mapped[str | None] = mapped_column(String(32), nullable=True)
    creator: Mapped[str | None] = mapped_column(String(16), ForeignKey("players.id"), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    final: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # standings stored


class ArenaPlayerRow(Base):
    """A player in an arena: ``secret_hash`` is the seat token of each of their games there; ``seen`` their page's
    last poll (a player whose page is closed is not paired again until it polls)."""

    __tablename__ = "arena_players"

    arena_id: Mapped[str] = mapped_column(String(16), ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    secret_hash: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Float)
    joined: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ArenaGameRow(Base):
    """A game of an arena: its table, its two players (null: the computer, of ``level``)."""

    __tablename__ = "arena_games"

    table_id: Mapped[str] = mapped_column(String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    arena_id: Mapped[str] = mapped_column(String(16), ForeignKey("arenas.id", ondelete="CASCADE"), index=True)
    p0: Mapped[str | None] = mapped_column(String(16), nullable=True)
    p1: Mapped[str | None] = mapped_column(String(16), nullable=True)
    level: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ArenaResultRow(Base):
    """A player's final standing in a finished arena (its profile lists them)."""

    __tablename__ = "arena_results"

    arena_id: Mapped[str] = mapped_column(String(16), ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(16), ForeignKey("players.id"), primary_key=True, index=True)
    rank: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
