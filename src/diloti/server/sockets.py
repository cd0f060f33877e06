"""The websocket ``/ws``: one connection's messages read, limited and handed to the table manager, and its
replies sent from a queue of their own (docs/PROTOCOL.md, the websocket).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketState

from diloti.server.limits import Limiter
from diloti.server.messages import (
    ClientArena,
    ClientBack,
    ClientChat,
    ClientChoices,
    ClientClaim,
    ClientHandOver,
    ClientHello,
    ClientHint,
    ClientLeave,
    ClientMessage,
    ClientMove,
    ClientPing,
    ClientRematch,
    ClientResign,
    ClientSync,
    ClientWatch,
)
from diloti.server.protocol import ProtocolError, clean_chat, error, read_message
from diloti.server.tables import LiveTable, TableManager

log = logging.getLogger("diloti.server")

RATE = 20.0  # messages a second, per connection
BURST = 40.0
QUEUE_MAX = 512  # messages waiting for a slow client before it is dropped


class TokenBucket:
    """``rate`` events a second with bursts of ``burst``.

    >>> b = TokenBucket(1.0, 2.0)
    >>> [b.take(now=0.0) for _ in range(3)], b.take(now=1.0)
    ([True, True, False], True)
    """

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp: float | None = None

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class WsConnection:
    """One websocket: an outbound queue drained by its own task, so a slow client never stalls a table."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | Callable[[], None] | None] = asyncio.Queue(QUEUE_MAX)
        self.closed = False
        self.closer: asyncio.Task[None] | None = None
        self.writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        except asyncio.QueueFull:
            log.warning("dropping a connection that does not read its messages")
            self.close()

    def after_sent(self, done: Callable[[], None]) -> None:
        """Call ``done`` once the messages queued so far are written to the socket (the metrics)."""
        if not self.closed:
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(done)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.writer.cancel()
            self.closer = asyncio.create_task(self._close())

    async def _close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(1008)

    async def _write(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                if callable(text):
                    text()
                else:
                    await self.ws.send_text(text)
            await self.ws.close(1000)
        except Exception:  # the client went away; the reader notices and cleans up
            self.closed = True

    async def finish(self) -> None:
        if self.closed and not self.writer.done():
            # Closed by the server (a left seat, a closed table): its last messages go out first.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.writer), 2.0)
        self.closed = True
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer


async def refuse(ws: WebSocket, exc: ProtocolError) -> None:
    """Accept only to say why, then close with 1008 (policy violation): the client can tell the reason."""
    with contextlib.suppress(Exception):
        await ws.accept()
        await ws.send_text(json.dumps(exc.to_message(), ensure_ascii=False, separators=(",", ":")))
        await ws.close(1008, reason=exc.code)


async def serve_socket(manager: TableManager, ws: WebSocket, bucket: TokenBucket, limiter: Limiter) -> None:
    """Read one websocket's messages until it closes; bad input gets an error, never a crash."""
    conn = WsConnection(ws)
    joined: tuple[LiveTable, int | None] | None = None  # the table, and the seat (None: watching)
    try:
        while not conn.closed:
            raw = await ws.receive()
            received = time.perf_counter()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            data: str | bytes = text if text is not None else (raw.get("bytes") or b"")
            if not bucket.take():
                conn.send(error("rate_limited", f"more than {bucket.rate:g} messages a second; message dropped"))
                continue
            try:
                msg = read_message(data)
                if isinstance(msg, ClientHint):
                    limiter.check("hint", ws)
                joined = await handle(manager, conn, joined, msg, limiter)
                if isinstance(msg, ClientMove):  # played: its round trip ends once the mover's messages are out
                    conn.after_sent(partial(manager.metrics.moved, received))
            except ProtocolError as exc:
                conn.send(exc.to_message())
                if exc.code == "stale" and joined is not None:
                    manager.sync(conn, *joined)
            except Exception:
                log.exception("unexpected fault handling a message")
                conn.send(error("server_error", "unexpected fault; the game is unchanged"))
    except Exception:  # a broken socket ends this connection only
        log.debug("websocket ended", exc_info=True)
    finally:
        if joined is not None:
            manager.detach(conn, *joined)
        if manager.arenas is not None:
            manager.arenas.forget(conn)
        await conn.finish()
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def handle(manager: TableManager, conn: WsConnection, joined: tuple[LiveTable, int | None] | None,
                 msg: ClientMessage, limiter: Limiter | None = None) -> tuple[LiveTable, int | None] | None:
    """Carry out one checked message of a connection; what it then holds (a table and its seat, None for a
    spectator), or None when it holds nothing. A message the connection may not send raises ProtocolError."""
    if isinstance(msg, ClientPing):
        conn.send({"type": "pong", "id": msg.id})
        return joined
    if isinstance(msg, ClientHello | ClientWatch):
        return await _join(manager, conn, joined, msg)
    if isinstance(msg, ClientArena):  # an arena's standings, besides (or instead of) a table
        if manager.arenas is None:
            raise ProtocolError("unknown_arena", "this server runs no arenas")
        await manager.arenas.follow(conn, msg.arena, msg.secret)
        return joined
    if joined is None:
        raise ProtocolError("not_joined", f"send 'hello' (or 'watch') with a table before {msg.type!r}")
    table, seat = joined
    if isinstance(msg, ClientSync):
        manager.sync(conn, table, seat)
        return joined
    if seat is None:
        raise ProtocolError("spectator", f"spectators may not send {msg.type!r}: only the seated players play "
                            "and chat")
    if conn not in table.seats[seat].conns:  # the seat was left (through this tab or another)
        raise ProtocolError("not_joined", f"this connection no longer holds seat {seat}")
    if isinstance(msg, ClientLeave):
        await manager.leave(table, seat)
        return None
    if isinstance(msg, ClientRematch):
        await manager.rematch(table, seat)
    elif isinstance(msg, ClientResign):
        await manager.resign(table, seat)
    elif isinstance(msg, ClientHandOver):
        await manager.hand_over(table, seat, msg.seat)
    elif isinstance(msg, ClientBack):
        await manager.back(table, seat)
    elif isinstance(msg, ClientClaim):
        await manager.claim(table, seat)
    elif isinstance(msg, ClientMove):
        await manager.play_text(table, seat, msg.move, msg.ply)
    elif isinstance(msg, ClientHint):
        conn.send(await manager.hint(table, seat))
    elif isinstance(msg, ClientChoices):
        conn.send(await manager.choices(table, seat, msg.card, msg.chosen))
    elif isinstance(msg, ClientChat):
        await _chat(manager, table, seat, msg.text, limiter)
    return joined


async def _join(manager: TableManager, conn: WsConnection, joined: tuple[LiveTable, int | None] | None,
                msg: ClientHello | ClientWatch) -> tuple[LiveTable, int | None]:
    """A seat (hello) or a place among the spectators (watch), once a connection."""
    if joined is not None:
        held = f"watches table {joined[0].id}" if joined[1] is None else \
            f"holds seat {joined[1]} of table {joined[0].id}"
        raise ProtocolError("already_joined", f"this connection already {held}; open another connection "
                            "for another seat or table")
    if isinstance(msg, ClientWatch):
        return await manager.watch(conn, msg.table), None
    return await manager.hello(conn, msg.table, msg.token)


async def _chat(manager: TableManager, table: LiveTable, seat: int, text: str, limiter: Limiter | None) -> None:
    """A seated player's chat line, checked and counted against the seat's (and the player's) allowance."""
    clean_chat(text)  # a bad line is refused before it counts against the chat allowance
    # Counted per seat (and per player across tables): more connections of a seat do not say more.
    player = table.seats[seat].player
    keys = (f"{table.id}/{seat}",) if player is None else (f"{table.id}/{seat}", f"player:{player}")
    if limiter is not None and not limiter.chat(*keys):
        raise ProtocolError("rate_limited", f"more than {limiter.chat_lines} chat lines in "
                            f"{limiter.chat_seconds:g} seconds from this seat or player; line dropped")
    await manager.chat(table, seat, text)
