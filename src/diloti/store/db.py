"""The :class:`Store`: a small synchronous API over the database.

The server calls it from one worker thread, so SQLite sees one writer at a
time and the event loop never waits on the disk.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> st = Store(f"sqlite:///{os.path.join(d, 't.sqlite3')}")
>>> st.create_table(TableData("t1", 2, {"target": 61}, 7, 0, False, "waiting",
...                 seats=[SeatData(0, "human", None, "Ann", "h" * 64), SeatData(1, "bot", "random")]))
>>> st.add_move("t1", 0, 1, "7H")
>>> t = st.load("t1")
>>> t.moves, t.seats[0].name, t.seats[1].level
([(1, '7H')], 'Ann', 'random')
>>> line = st.add_chat("t1", 0, "Ann", "Good luck")
>>> [(c.seat, c.name, c.text) for c in st.load("t1").chat] == [(0, "Ann", "Good luck")]
True
>>> st.close()
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from typing import Any

from sqlalchemy import Engine, bindparam, create_engine, delete, event, false, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from diloti.core.errors import DilotiError
from diloti.games import DEFAULT_GAME
from diloti.games import sides_of as game_sides
from diloti.store.models import ChatRow, MoveRow, ResultRow, ReviewRow, SeatRow, TableRow


class StoreError(DilotiError):
    """The database could not be opened, migrated or written."""


class DuplicateMove(StoreError):
    """A move for that ply is already stored: another writer got there first (the ply is the row's version)."""


CHAT_KEEP = 50  # chat lines a table hands to whoever connects
CHANNEL = "diloti"  # the PostgreSQL NOTIFY channel every server process listens on
# PostgreSQL timeouts: a database out of reach, or a statement stuck behind a lock, fails (and the
# server answers 503, try again) instead of holding the database thread, and every move behind it, for ever.
CONNECT_TIMEOUT = 5  # seconds to open a connection
STATEMENT_TIMEOUT_MS = 30_000  # one statement, lock waits included
IDLE_IN_TRANSACTION_MS = 60_000  # a transaction left open by a stuck client is ended
POOL_TIMEOUT = 10.0  # seconds to wait for a pooled connection


def normalize_url(url: str) -> str:
    """Use the psycopg 3 driver for ``postgres://`` and ``postgresql://`` URLs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def now() -> datetime:
    return datetime.now(UTC)


@dataclass
class SeatData:
    """One seat as stored."""

    seat: int
    kind: str  # "human" or "bot"
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    away: bool = False  # the computer plays for this human seat (handed over, or left and not yet retaken)
    player_id: str | None = None  # the player who comes back holding this seat (None: a guest, or a computer)


@dataclass(frozen=True)
class ChatLine:
    """One stored chat line (``id`` orders the lines of a table)."""

    id: int
    seat: int
    name: str
    text: str
    created: datetime

    def notice(self, table_id: str) -> dict[str, Any]:
        """The line as a change notice to the other server processes (see :meth:`from_notice`)."""
        return {"k": "chat", "t": table_id, "i": self.id, "s": self.seat, "n": self.name, "x": self.text,
                "at": self.created.isoformat()}

    @classmethod
    def from_notice(cls, notice: dict[str, Any]) -> ChatLine | None:
        """The line a ``chat`` notice carries (None if it is malformed)."""
        try:
            line = cls(notice["i"], notice["s"], notice["n"], notice["x"], datetime.fromisoformat(notice["at"]))
        except (KeyError, TypeError, ValueError):
            return None
        ok = (type(line.id) is int and type(line.seat) is int and isinstance(line.name, str)
              and isinstance(line.text, str))
        return line if ok else None


@dataclass
class TableData:
    """One table as stored, with its moves ``(seat, notation)`` in order."""

    id: str
    players: int
    options: dict[str, Any]
    seed: int
    first_dealer: int
    private: bool
    status: str
    winner: int | None = None
    created: datetime = field(default_factory=now)
    updated: datetime = field(default_factory=now)
    seats: list[SeatData] = field(default_factory=list)
    moves: list[tuple[int, str]] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)  # the last CHAT_KEEP lines, oldest first
    end_reason: str | None = None  # why the game ended early ("resigned:SEAT"); None if played out or not over
    away_level: str | None = None  # the computer that plays for absent players (None: the server's default)
    grace: int | None = None  # seconds a disconnected player keeps the seat (None: the server's default)
    by: dict[int, str] = field(default_factory=dict)  # ply -> level, for moves the computer made for a human
    series: str | None = None  # the id of the series' first game (None: a game with no rematch yet)
    next_table: str | None = None  # the rematch made from this table, once it is over
    series_before: list[int] = field(default_factory=lambda: [0, 0])  # games each side won earlier in the series
    clock: tuple[int, int] | None = None  # the turn clock: (seconds per move, reserve seconds); None: no clock
    left: dict[int, int] = field(default_factory=dict)  # ply -> the mover's clock reserve after it, in ms
    rated: bool = True  # the game counts for its players' ratings (False: a casual game)
    game: str = DEFAULT_GAME  # which game the table plays (a registered game's name)
    bots: bool = False  # bot accounts may sit at it (docs/BOTS.md)
    event: str | None = None  # the event it belongs to: "daily:DAY", "arena:ID" (diloti.server.events)


def sides_of(data: TableData) -> int:
    """The sides of a stored table's game (2 in Diloti; up to 4 in the parent games)."""
    return game_sides(data.game, data.players, data.options)


@dataclass
class Ending:
    """What a game's end looks like as stored (read to follow another process's resignation)."""

    status: str
    winner: int | None
    end_reason: str | None


def _sqlite_pragmas(manual_checkpoints: bool) -> Any:
    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        # WAL + NORMAL: a commit is a write to the log, no fsync; it survives a process crash.
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=10000")
        if manual_checkpoints:  # the owner calls checkpoint() off its hot path instead
            cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    return on_connect


def _row(t: TableData) -> TableRow:
    """The ``tables`` row of a new table."""
    return TableRow(id=t.id, players=t.players, game=t.game, options=json.dumps(t.options), seed=t.seed,
                    first_dealer=t.first_dealer, private=t.private, status=t.status, winner=t.winner,
                    created=t.created, updated=t.updated, end_reason=t.end_reason, away_level=t.away_level,
                    grace=t.grace, series=t.series, clock_move=t.clock[0] if t.clock else None,
                    clock_reserve=t.clock[1] if t.clock else None, rated=None if t.rated else False,
                    bots=True if t.bots else None, event=t.event)


def _aware(dt: datetime) -> datetime:
    # SQLite hands back naive datetimes; every stored time is UTC.
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


class Store:
    """Tables, seats, moves and chat in a database given by URL; migrates it to the newest schema."""

    def __init__(self, url: str, migrate: bool = True, manual_checkpoints: bool = False,
                 origin: str | None = None) -> None:
        self.url = normalize_url(url)
        # On PostgreSQL every write also NOTIFYs the other server processes, inside the same
        # transaction: they hear of a change only once it is committed, and always do.
        self.origin = origin
        try:
            extra: dict[str, Any] = {}
            if self.url.startswith("postgresql"):
                extra = {"pool_timeout": POOL_TIMEOUT, "connect_args": {
                    "connect_timeout": CONNECT_TIMEOUT,
                    "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS} "
                               f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"}}
            self.engine: Engine = create_engine(self.url, pool_pre_ping=True, **extra)
        except (SQLAlchemyError, ValueError, ImportError) as exc:
            raise StoreError(f"cannot use database {url!r}: {exc}") from None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas(manual_checkpoints))
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        if migrate:
            self.migrate()

    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic, shipped in this package)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(resources.files("diloti.store") / "migrations"))
        try:
            with self.engine.begin() as conn:
                if self.is_postgres:
                    # Several processes starting at once on a new database: one migrates, the
                    # others wait for it here and then find the schema current.
                    conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('diloti-migrate'))"))
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot open database {self.url!r}: {exc.__class__.__name__}: "
                             f"{str(exc).splitlines()[0]}") from None

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def _notify(self, conn: Any, events: list[dict[str, Any]]) -> None:
        if self.origin is None or not self.is_postgres or not events:
            return
        conn.execute(text("SELECT pg_notify(:c, :p)"),
                     [{"c": CHANNEL, "p": json.dumps({**e, "o": self.origin}, separators=(",", ":"))}
                      for e in events])

    def ping(self) -> None:
        """One round trip to the database (raises if it cannot be reached): the readiness check."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def checkpoint(self) -> None:
        """Copy the SQLite write-ahead log into the database file (PASSIVE: writers go on)."""
        if self.is_sqlite:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        if self.is_sqlite:
            self.checkpoint()
        self.engine.dispose()

    # ------------------------------------------------------------ writing
    def create_table(self, t: TableData) -> None:
        with self.session.begin() as s:
            self.add_table(s, t)

    def add_table(self, s: Session, t: TableData) -> None:
        """Add a new table's rows in the session ``s`` (its transaction: the caller's), and tell the others."""
        s.add(_row(t))
        s.flush()  # the table row first: seats refer to it
        for st in t.seats:
            s.add(SeatRow(table_id=t.id, seat=st.seat, kind=st.kind, level=st.level, name=st.name,
                          token_hash=st.token_hash, away=st.away, player_id=st.player_id))
        stamp = now()
        for ply, (seat, move) in enumerate(t.moves):  # a table that starts from a position: its moves so far
            s.add(MoveRow(table_id=t.id, ply=ply, seat=seat, move=move, created=stamp))
        self._notify(s, [{"k": "created", "t": t.id}])

    def create_rematch(self, old_id: str, t: TableData) -> str:
        """Make ``t`` the rematch of the finished table ``old_id``, once: returns the rematch's id.

        The old table's ``next_table`` is set by a conditional update (only while it is null, only
        once the game is over), in the same transaction as the new table's rows: of several
        requests (from any process) exactly one creates a table; the others get its id. Raises
        :class:`StoreError` if the old table is missing or not over.
        """
        with self.session.begin() as s:
            if self.is_postgres:  # the row's lock: a second request waits here, then sees next_table
                s.execute(select(TableRow.id).where(TableRow.id == old_id).with_for_update())
            res = s.execute(update(TableRow).where(TableRow.id == old_id, TableRow.status == "over",
                                                   TableRow.next_table.is_(None))
                            .values(next_table=t.id, series=func.coalesce(TableRow.series, TableRow.id)))
            if getattr(res, "rowcount", 0) != 1:
                row = s.get(TableRow, old_id)
                if row is None or row.next_table is None:
                    raise StoreError(f"table {old_id} is not a finished game")
                return row.next_table
            s.add(_row(t))
            s.flush()
            for st in t.seats:
                s.add(SeatRow(table_id=t.id, seat=st.seat, kind=st.kind, level=st.level, name=st.name,
                              token_hash=st.token_hash, away=st.away, player_id=st.player_id))
            self._notify(s, [{"k": "created", "t": t.id}, {"k": "rematch", "t": old_id, "n": t.id}])
            return t.id

    def series_wins(self, series: str, before: datetime | None = None, exclude: str | None = None,
                    sides: int = 2) -> list[int]:
        """Games each of ``sides`` sides won over the finished games of a series (created before ``before``, not
        ``exclude``)."""
        q = (select(TableRow.winner, func.count()).where(
            (TableRow.series == series) | (TableRow.id == series), TableRow.status == "over",
            TableRow.winner.is_not(None)).group_by(TableRow.winner))
        if before is not None:
            q = q.where(TableRow.created < before)
        if exclude is not None:
            q = q.where(TableRow.id != exclude)
        wins = [0] * sides
        with self.session() as s:
            for winner, n in s.execute(q):
                if winner is not None and 0 <= winner < sides:
                    wins[winner] += int(n)
        return wins

    def claim_seat(self, table_id: str, seat: int | None, name: str, token_hash: str,
                   player_id: str | None = None) -> tuple[int, str] | None:
        """Give a free human seat (``None``: the first free one) a name and token (and its player, if one who
        comes back); returns the seat and the table's status after the claim, or None if no such seat was
        free.

        Seat and status are decided here, in one transaction under the table row's lock (``SELECT ...
        FOR UPDATE`` on PostgreSQL; SQLite has one writer): a waiting table starts when its last free
        human seat is claimed, whichever process claims it, and exactly once. Processes that decided
        from their own copies of the seats could each see another seat still free and leave a full
        table waiting, or pick the same "first free" seat.
        """
        with self.session.begin() as s:
            row = s.execute(select(TableRow.status).where(TableRow.id == table_id).with_for_update()).first()
            if row is None:
                return None
            free = list(s.scalars(select(SeatRow.seat).where(
                SeatRow.table_id == table_id, SeatRow.kind == "human", SeatRow.token_hash.is_(None))
                .order_by(SeatRow.seat)))
            if seat is None:
                seat = free[0] if free else None
            if seat is None or seat not in free:
                return None
            s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                      .values(name=name, token_hash=token_hash, away=False, player_id=player_id))
            status = str(row.status)
            if status == "waiting" and len(free) == 1:
                status = "playing"
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status=status, updated=now()))
            self._notify(s, [{"k": "seat", "t": table_id}])
            return seat, status

    def leave_seat(self, table_id: str, seat: int, token_hash: str, playing: bool) -> bool:
        """Give up a seat held by ``token_hash``: the token is cleared and the seat is free again.

        In a game under way (``playing``) the name and player are kept (the game still counts for
        them, until someone takes the seat) and the seat is ``away`` (the computer plays for it);
        before the start it is simply free. False if that token no longer holds the seat.
        """
        with self.session.begin() as s:
            values: dict[str, Any] = {"token_hash": None, "away": playing}
            if not playing:
                values["name"] = None
                values["player_id"] = None
            res = s.execute(update(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.token_hash == token_hash).values(**values))
            if getattr(res, "rowcount", 0) != 1:
                return False
            s.execute(update(TableRow).where(TableRow.id == table_id).values(updated=now()))
            self._notify(s, [{"k": "seat", "t": table_id}])
            return True

    def time_out(self, table_id: str, seat: int, ply: int, reason: str = "clock") -> bool:
        """Mark a held human seat away because its clock ran out at ``ply``: False (nothing changed) if
        the seat is away already or a move for that ply is stored (the player moved in time, through any
        process)."""
        with self.session.begin() as s:
            played = select(func.count()).select_from(MoveRow).where(MoveRow.table_id == table_id).scalar_subquery()
            res = s.execute(update(SeatRow).where(
                SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "human",
                SeatRow.away == false(), SeatRow.token_hash.is_not(None), played == ply).values(away=True))
            if getattr(res, "rowcount", 0) != 1:
                return False
            s.execute(update(TableRow).where(TableRow.id == table_id).values(updated=now()))
            self._notify(s, [{"k": "timeout", "t": table_id, "s": seat, "p": ply, "r": reason}])
            return True

    def set_away(self, table_id: str, seat: int, away: bool) -> None:
        """Mark a human seat as played by the computer (``away``) or by its player again."""
        with self.session.begin() as s:
            s.execute(update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                                            SeatRow.kind == "human").values(away=away))
            s.execute(update(TableRow).where(TableRow.id == table_id).values(updated=now()))
            self._notify(s, [{"k": "seat", "t": table_id}])

    def end_game(self, table_id: str, winner: int, reason: str) -> bool:
        """End a game under way early (a resignation): False if it was not under way any more."""
        with self.session.begin() as s:
            res = s.execute(update(TableRow).where(TableRow.id == table_id, TableRow.status == "playing")
                            .values(status="over", winner=winner, end_reason=reason, updated=now()))
            if getattr(res, "rowcount", 0) != 1:
                return False
            self._notify(s, [{"k": "status", "t": table_id, "status": "over"}])
            return True

    def add_move(self, table_id: str, ply: int, seat: int, move: str, status: str | None = None,
                 winner: int | None = None) -> None:
        """Store the ``ply``-th move (a duplicate ply is refused: two writers never both win)."""
        try:
            with self.session.begin() as s:
                s.add(MoveRow(table_id=table_id, ply=ply, seat=seat, move=move, created=now()))
                values: dict[str, Any] = {"updated": now()}
                if status is not None:
                    values["status"] = status
                    values["winner"] = winner
                s.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
        except IntegrityError:
            raise DuplicateMove(f"move {ply} of table {table_id} is already stored") from None

    def add_moves(self, moves: list[tuple[str, int, int, str, str | None, int | None]]) -> None:
        """Store many ``(table_id, ply, seat, move, by, left)`` in one transaction (the server's group commit);
        ``by`` is the computer's level for a move it made for an away player, else None; ``left`` the
        mover's clock reserve after the move in ms (a clocked table's human move), else None.

        All or nothing: a duplicate ply fails the whole batch with :class:`StoreError`.
        """
        if not moves:
            return
        stamp = now()
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(MoveRow), [{"table_id": t, "ply": p, "seat": s, "move": m, "by": b, "left": x,
                                                "created": stamp} for t, p, s, m, b, x in moves])
                conn.execute(update(TableRow).where(TableRow.id == bindparam("tid")).values(updated=stamp),
                             [{"tid": t} for t in dict.fromkeys(row[0] for row in moves)])
                self._notify(conn, [{"k": "move", "t": t, "p": p, "s": s, "m": m, **({"b": b} if b else {}),
                                     **({"l": x} if x is not None else {})} for t, p, s, m, b, x in moves])
        except IntegrityError:
            raise DuplicateMove(f"a move of {len(moves)} is already stored") from None

    def add_chat(self, table_id: str, seat: int, name: str, text: str) -> ChatLine:
        """Store a chat line; the other processes hear of it (a ``chat`` notice carrying the line)."""
        stamp = now()
        with self.session.begin() as s:
            row = ChatRow(table_id=table_id, seat=seat, name=name, text=text, created=stamp)
            s.add(row)
            s.flush()
            line = ChatLine(row.id, seat, name, text, stamp)
            self._notify(s, [line.notice(table_id)])
            return line

    def chat_lines(self, table_id: str, limit: int = CHAT_KEEP) -> list[ChatLine]:
        """A table's last ``limit`` chat lines, oldest first."""
        with self.session() as s:
            return self._chat(s, table_id, limit)

    @staticmethod
    def _chat(s: Session, table_id: str, limit: int = CHAT_KEEP) -> list[ChatLine]:
        rows = s.scalars(select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id.desc()).limit(limit))
        return [ChatLine(r.id, r.seat, r.name, r.text, _aware(r.created)) for r in rows][::-1]

    def set_status(self, table_id: str, status: str, winner: int | None = None) -> None:
        with self.session.begin() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id)
                      .values(status=status, winner=winner, updated=now()))
            self._notify(s, [{"k": "status", "t": table_id, "status": status}])

    def close_if_idle(self, table_id: str, cutoff: datetime) -> bool:
        """Close an unfinished table last changed before ``cutoff``; False if it was used since (by any process)."""
        with self.session.begin() as s:
            res = s.execute(update(TableRow).where(
                TableRow.id == table_id, TableRow.updated < cutoff,
                TableRow.status.in_(("waiting", "playing"))).values(status="closed", updated=now()))
            if getattr(res, "rowcount", 0) != 1:
                return False
            self._notify(s, [{"k": "status", "t": table_id, "status": "closed"}])
            return True

    def touch(self, table_ids: list[str]) -> None:
        """Mark tables as used now (a player connected or asked for the position), so no process sweeps them."""
        if not table_ids:
            return
        stamp = now()
        with self.engine.begin() as conn:
            conn.execute(update(TableRow).where(TableRow.id == bindparam("tid")).values(updated=stamp),
                         [{"tid": t} for t in table_ids])

    def delete_table(self, table_id: str) -> None:
        with self.session.begin() as s:
            s.execute(delete(ChatRow).where(ChatRow.table_id == table_id))
            s.execute(delete(ReviewRow).where(ReviewRow.table_id == table_id))
            s.execute(delete(MoveRow).where(MoveRow.table_id == table_id))
            s.execute(delete(ResultRow).where(ResultRow.table_id == table_id))
            s.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            s.execute(delete(TableRow).where(TableRow.id == table_id))

    # ------------------------------------------------------------ reading
    def _data(self, s: Session, row: TableRow, with_moves: bool = True) -> TableData:
        seats = [SeatData(r.seat, r.kind, r.level, r.name, r.token_hash, bool(r.away), r.player_id) for r in
                 s.scalars(select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat))]
        moves: list[tuple[int, str]] = []
        chat: list[ChatLine] = []
        by: dict[int, str] = {}
        left: dict[int, int] = {}
        if with_moves:
            rows = s.scalars(select(MoveRow).where(MoveRow.table_id == row.id).order_by(MoveRow.ply)).all()
            moves = [(r.seat, r.move) for r in rows]
            by = {r.ply: r.by for r in rows if r.by}
            left = {r.ply: r.left for r in rows if r.left is not None}
            chat = self._chat(s, row.id)
        return TableData(row.id, row.players, json.loads(row.options), row.seed, row.first_dealer,
                         row.private, row.status, row.winner, _aware(row.created), _aware(row.updated),
                         seats, moves, chat, row.end_reason, row.away_level, row.grace, by,
                         row.series, row.next_table,
                         clock=None if row.clock_move is None else (row.clock_move, row.clock_reserve or 0),
                         left=left, rated=row.rated is not False, game=row.game or DEFAULT_GAME,
                         bots=bool(row.bots), event=row.event)

    def load(self, table_id: str) -> TableData | None:
        data = self._load(table_id)
        if data is not None and data.series is not None:
            data.series_before = self.series_wins(data.series, data.created, data.id, sides_of(data))
        return data

    def _load(self, table_id: str) -> TableData | None:
        with self.session() as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._data(s, row)

    def moves_since(self, table_id: str, ply: int) -> list[tuple[int, int, str, str | None, int | None]]:
        """The stored moves ``(ply, seat, notation, by, left)`` of a table from ``ply`` on, in order."""
        with self.session() as s:
            return [(r.ply, r.seat, r.move, r.by, r.left) for r in
                    s.scalars(select(MoveRow).where(MoveRow.table_id == table_id, MoveRow.ply >= ply)
                              .order_by(MoveRow.ply))]

    def seats_of(self, table_id: str) -> tuple[Ending, list[SeatData]] | None:
        """A table's status (with its winner and end reason) and seats as stored now (None if there is no
        such table)."""
        with self.session() as s:
            row = s.get(TableRow, table_id)
            if row is None:
                return None
            return Ending(row.status, row.winner, row.end_reason), self._data(s, row, with_moves=False).seats

    def progress(self, table_ids: list[str]) -> dict[str, tuple[int, str, datetime]]:
        """For each table: (moves stored, status, last update), read in one query."""
        if not table_ids:
            return {}
        counts = (select(MoveRow.table_id, func.count().label("n")).where(MoveRow.table_id.in_(table_ids))
                  .group_by(MoveRow.table_id).subquery())
        q = (select(TableRow.id, func.coalesce(counts.c.n, 0), TableRow.status, TableRow.updated)
             .outerjoin(counts, counts.c.table_id == TableRow.id).where(TableRow.id.in_(table_ids)))
        with self.session() as s:
            return {tid: (int(n), status, _aware(upd)) for tid, n, status, upd in s.execute(q)}

    def active_ids(self) -> list[str]:
        """Tables whose game is not finished or closed (to resume after a restart)."""
        with self.session() as s:
            return list(s.scalars(select(TableRow.id).where(TableRow.status.in_(("waiting", "playing")))
                                  .order_by(TableRow.created)))

    def recent_ids(self, status: str, limit: int = 50) -> list[str]:
        """The most recently updated tables with that status."""
        with self.session() as s:
            return list(s.scalars(select(TableRow.id).where(TableRow.status == status)
                                  .order_by(TableRow.updated.desc()).limit(limit)))
