"""The table manager: every live table of this process, and the parts that play them.

A :class:`~diloti.server.live.LiveTable` holds one game rebuilt from the stored seed, options and moves. The
:class:`TableManager` holds the tables (:class:`~diloti.server.held.HeldTables`), connects players and
spectators to them, and wires the parts that each do one thing with them:

- :class:`~diloti.server.storage.TableStore`: every database call, on a worker thread; the moves of all tables
  stored in shared transactions (group commit), each before it is announced; a game's end with its results.
- :class:`~diloti.server.seating.Seating`: new tables, joining them, the lobby.
- :class:`~diloti.server.moves.Moves`: a move checked by the engine, stored, announced; hints and choices.
- :class:`~diloti.server.computers.Computers`: the computer seats (and away players'), their moves chosen in
  worker processes (:class:`~diloti.server.computers.Workers`: never on the event loop, never under this
  process's GIL).
- :class:`~diloti.server.away.AwayPlay`: turn clocks, absent players, seats handed to the computer and back.
- :class:`~diloti.server.endings.Endings` and :class:`~diloti.server.rematch.Rematches`: leaving, resigning,
  claiming a game, playing again.
- :class:`~diloti.server.idle.Sweeper`: tables left idle are closed.
- on PostgreSQL, :class:`~diloti.server.replica.Replica`: several processes share the tables
  (:mod:`diloti.server.cluster`). Each holds a copy of every unfinished table, kept current by the database's
  notices (:class:`~diloti.server.copies.Copies` reads the changes); a move is stored as the row for its ply, so
  exactly one writer wins each ply and the others are told ``stale``; one process at a time runs a table's
  computer seats (:class:`~diloti.server.cluster.Ownership`: an advisory lock, released by PostgreSQL when that
  process dies), and a table is closed for idleness only by a conditional update that sees no use by any process.

The routes and the websocket call the manager's methods below, which hand each request to its part.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from diloti.games import GameInfo
from diloti.match.workers import PoolSpec
from diloti.server.away import AwayPlay, set_away
from diloti.server.cluster import Cluster, Ownership
from diloti.server.computers import Computers, Workers
from diloti.server.copies import Copies
from diloti.server.endings import Endings
from diloti.server.events import check_unsealed
from diloti.server.health import is_outage
from diloti.server.held import HeldTables
from diloti.server.idle import Sweeper
from diloti.server.live import Connection, LiveTable, Seat, token_hash
from diloti.server.metrics import Metrics
from diloti.server.moves import Moves
from diloti.server.protocol import ProtocolError, clean_chat
from diloti.server.rematch import Rematches
from diloti.server.replica import Replica
from diloti.server.seating import LOBBY_PAGE, Seating
from diloti.server.storage import TableStore
from diloti.server.tasks import Background
from diloti.store.db import Store, StoreError
from diloti.store.players import PlayerData

__all__ = ["Connection", "LiveTable", "Seat", "TableManager", "token_hash"]

log = logging.getLogger("diloti.server")
T = TypeVar("T")


class Followed(Protocol):
    """What the websocket asks of the arenas (:class:`diloti.server.arena.ArenaDesk`)."""

    async def follow(self, conn: Connection, arena_id: str, secret: str | None = None) -> None: ...

    def forget(self, conn: Connection) -> None: ...


class TableManager:
    """Every live table, the database worker and the computer players' worker processes."""

    def __init__(self, store: Store, *, idle_minutes: float = 60.0, bot_delay: float = 0.0,
                 allow_seed: bool = False, workers: PoolSpec = 2, bot_slots: int = 4,
                 metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics or Metrics()
        self.background = Background()
        self.storage = TableStore(store, self.metrics, self.background)
        self.players = self.storage.players
        self.outage = self.storage.outage
        idle_seconds = idle_minutes * 60.0
        # Several processes on one PostgreSQL: each write tells the others (its origin says whose it is).
        self.cluster = Cluster(store.url) if store.is_postgres else None
        if self.cluster is not None:
            self.cluster.on_trouble = self.storage.trouble
            self.cluster.outage = self.outage
            store.origin = self.cluster.origin
        self.owners = Ownership(self.cluster, self.background)
        self.held = HeldTables(self.storage, self.owners, self.background, idle_seconds)
        self.tables = self.held.tables
        self.copies = Copies(self.storage, self.held, self.owners, self.background)
        self.workers = Workers(workers)
        self.moves = Moves(self.storage, self.held, self.copies, self.workers)
        self.computers = Computers(self.workers, self.moves.apply, self.held.holds, self.owners, self.outage,
                                   self.metrics, delay=bot_delay, slots=bot_slots)
        run_computer = self.computers.run_for
        self.away = AwayPlay(self.storage, self.held, self.copies, self.owners, self.background, run_computer)
        self.endings = Endings(self.storage, self.held, self.copies, self.owners, run_computer)
        self.rematches = Rematches(self.storage, self.held, self.owners, self.background, self.computers.kick)
        self.seating = Seating(self.storage, self.held, self.copies, self.owners, self.computers.kick,
                               allow_seed=allow_seed)
        self.sweeper = Sweeper(self.storage, self.held, self.owners, self.copies.refresh_activity, idle_seconds)
        self.replica = None if self.cluster is None else Replica(
            self.cluster, self.storage, self.held, self.copies, self.rematches, self.computers.kick, self.metrics)
        self._loops: list[asyncio.Task[None]] = []  # the parts' own loops (sweeper, clocks, watcher)
        self.arenas: Followed | None = None  # the arenas' desk (diloti.server.arena), set by the app
        self.metrics.watch(self._gauges)

    # ---------------------------------------------------------------- lifecycle
    def _gauges(self) -> dict[str, Any]:
        """What the metrics read at each scrape."""
        tables: dict[str, int] = {"waiting": 0, "playing": 0, "over": 0, "closed": 0}
        for t in self.tables.values():
            tables[t.status] = tables.get(t.status, 0) + 1
        return {"tables": tables, "queue": self.workers.queue,
                "owned": len(self.cluster.owned) if self.cluster is not None else len(self.tables)}

    async def start(self) -> None:
        """Resume every unfinished table (computer seats to move play on) and start the sweeper.

        On PostgreSQL, first join the other processes: listen for their notices, and take
        over the computer seats of tables that no live process runs.
        """
        if self.replica is not None:
            await self.replica.join()
        tables = []
        for tid in await self.storage.db(self.store.active_ids):
            try:
                table = await self.held.get(tid)
            except StoreError as exc:
                log.error("cannot resume %s", exc)
                continue
            if table is not None:
                tables.append(table)
        if self.replica is not None:
            await self.owners.claim([t.id for t in tables])  # those another process runs stay its own
            self._loops.append(self.replica.watch())
        for table in tables:
            self.computers.kick(table)
        self._loops += [self.sweeper.start(), self.away.start()]
        self.storage.start()

    async def stop(self) -> None:
        """Stop every task, then the cluster's connections, the workers and the database's threads."""
        tasks: list[asyncio.Future[Any]] = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += self.storage.tasks()
        tasks += self._loops
        tasks.extend(self.background.tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        await self.outage.stop()
        if self.cluster is not None:
            await self.cluster.stop()
        self.workers.shutdown()
        self.storage.close()

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the database's worker thread (:meth:`TableStore.db`)."""
        return await self.storage.db(fn, *args)

    async def compute(self, game: GameInfo, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker pool, about ``game`` (:meth:`Workers.compute`)."""
        return await self.workers.compute(game, fn, *args)

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loaded (and its game replayed) from the database if needed."""
        return await self.held.get(table_id)

    async def must_get(self, table_id: str) -> LiveTable:
        """The live table, or the ``unknown_table`` error."""
        return await self.held.must_get(table_id)

    # ---------------------------------------------------------------- connections
    async def hello(self, conn: Connection, table_id: str, token: str) -> tuple[LiveTable, int]:
        """Give ``conn`` the seat its token holds (taken back from the computer if it played it meanwhile)."""
        table = await self.held.must_get(table_id)
        h = token_hash(token)
        seat = table.seat_of(h)
        if seat is None and self.owners.shared:
            async with table.lock:  # the seat may have been taken through another process just now
                await self.copies.refresh_seats(table)
            seat = table.seat_of(h)
        if seat is None:
            raise ProtocolError("bad_token", f"that token holds no seat at table {table.id}")
        if table.status == "closed":
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        if seat.away:  # the player takes the seat back from the computer
            async with table.lock:
                if seat.away and seat.token_hash is not None:
                    await set_away(self.storage, table, seat, False)
        seat.conns.add(conn)
        self.held.touch(table)
        conn.send({"type": "welcome", "table": table.id, "seat": seat.seat, "name": seat.name})
        table.send_all({"type": "table", "table": table.summary()})
        if table.status in ("playing", "over"):
            conn.send(table.state_for(seat.seat))
        table.send_chat(conn)
        return table, seat.seat

    async def watch(self, conn: Connection, table_id: str) -> LiveTable:
        """Make ``conn`` a spectator of the table: public messages only (no token: the id is the invitation).

        Watching is not playing: it does not keep a table from closing for idleness.
        """
        table = await self.held.must_get(table_id)
        if table.status == "closed":
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness")
        check_unsealed(table, "watching it")
        table.watchers.add(conn)
        conn.send({"type": "welcome", "table": table.id, "seat": None, "name": None})
        table.send_all({"type": "table", "table": table.summary()})
        if table.status in ("playing", "over"):
            conn.send(table.state_for(None))
        table.send_chat(conn)
        return table

    def detach(self, conn: Connection, table: LiveTable, seat: int | None) -> None:
        """``conn`` is gone (its seat's player is away from when no connection of theirs is left)."""
        held = table.watchers if seat is None else table.seats[seat].conns
        if conn in held:
            held.discard(conn)
            if seat is not None and not held:
                table.seats[seat].gone = time.monotonic()
            if self.held.holds(table):
                table.send_all({"type": "table", "table": table.summary()})

    def sync(self, conn: Connection, table: LiveTable, seat: int | None) -> None:
        """The table and its game as they are now, to ``conn`` (asked for, or after a stale move)."""
        if seat is not None:
            self.held.touch(table)
        conn.send({"type": "table", "table": table.summary()})
        if table.status in ("playing", "over"):
            conn.send(table.state_for(seat))

    async def chat(self, table: LiveTable, seat: int, text: str) -> None:
        """A seated player's chat line: checked, stored (it outlives a restart), told to the table."""
        line = clean_chat(text)
        self.held.check_open(table)
        self.held.touch(table)
        name = table.seats[seat].name or f"seat {seat + 1}"
        try:
            stored = await self.storage.db(self.store.add_chat, table.id, seat, name, line)
        except Exception as exc:
            if is_outage(exc):
                self.outage.refuse("other", exc, f"cannot store a chat line of {table.id}")
                raise ProtocolError("server_error", "the database is out of reach: the chat line was not stored",
                                    500) from None
            log.exception("cannot store a chat line of %s", table.id)
            raise ProtocolError("server_error", f"could not store the chat line ({exc.__class__.__name__})",
                                500) from None
        table.hear(stored)

    # ---------------------------------------------------------------- the parts' requests
    async def create(self, req: Any, client: str | None = None, player: PlayerData | None = None) -> dict[str, Any]:
        """A new table (:meth:`Seating.create`)."""
        return await self.seating.create(req, client, player)

    async def join(self, table_id: str, req: Any, player: PlayerData | None = None) -> dict[str, Any]:
        """Claim a free seat (:meth:`Seating.join`)."""
        return await self.seating.join(table_id, req, player)

    async def lobby_page(self, status: str = "waiting", page: int = 1, per_page: int = LOBBY_PAGE) -> dict[str, Any]:
        """One page of the lobby (:meth:`Seating.lobby_page`)."""
        return await self.seating.lobby_page(status, page, per_page)

    async def play_text(self, table: LiveTable, seat: int, text: str, ply: int | None) -> None:
        """A human's move, as notation (:meth:`Moves.play_text`); then the computer seats to move play on."""
        await self.moves.play_text(table, seat, text, ply)
        self.computers.kick(table)

    async def hint(self, table: LiveTable, seat: int) -> dict[str, Any]:
        """The ranking of the seat's legal moves (:meth:`Moves.hint`)."""
        return await self.moves.hint(table, seat)

    async def choices(self, table: LiveTable, seat: int, card_text: str, chosen: list[str]) -> dict[str, Any]:
        """What a hand card can do (:meth:`Moves.choices`)."""
        return await self.moves.choices(table, seat, card_text, chosen)

    async def back(self, table: LiveTable, seat: int) -> None:
        """A player takes their seat back from the computer (:meth:`AwayPlay.back`)."""
        await self.away.back(table, seat)

    async def hand_over(self, table: LiveTable, seat: int, other: int) -> None:
        """Hand an absent player's seat to the computer (:meth:`AwayPlay.hand_over`)."""
        await self.away.hand_over(table, seat, other)

    async def leave(self, table: LiveTable, seat: int) -> None:
        """A player gives up the seat (:meth:`Endings.leave`)."""
        await self.endings.leave(table, seat)

    async def resign(self, table: LiveTable, seat: int) -> None:
        """A player resigns (:meth:`Endings.resign`)."""
        await self.endings.resign(table, seat)

    async def claim(self, table: LiveTable, seat: int) -> None:
        """Claim the game from an absent opponent (:meth:`Endings.claim`)."""
        await self.endings.claim(table, seat)

    async def rematch(self, table: LiveTable, seat: int) -> str:
        """Offer or accept a rematch (:meth:`Rematches.rematch`)."""
        return await self.rematches.rematch(table, seat)
